package projectcode

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/dop251/goja"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/parser/gqlschema"
)

// extensionJSON is one use() of the GraphQL extension service as the sandbox describes it.
type extensionJSON struct {
	TypeDefs    string                     `json:"typeDefs"`
	Resolvers   map[string]map[string]bool `json:"resolvers"`
	Config      map[string]resolverConfig  `json:"config"`
	Unsupported []string                   `json:"unsupported"`
}

type resolverConfig struct {
	AuthDisabled bool     `json:"authDisabled"`
	Scope        []string `json:"scope"`
	Policies     []string `json:"policies"`
}

// GraphQLExtensions runs src/index's register() in a sandbox and returns what it gives the
// GraphQL extension service's use() as schema extensions: the SDL as written, resolvers and
// resolversConfig policies that run in the sandboxes. An extension Quarry cannot run (nexus
// types, resolver middlewares, policies that are not the project's files) is an error naming
// it, and the caller keeps the GraphQL endpoint refused.
func (rt *Runtime) GraphQLExtensions(ctx context.Context) ([]gqlschema.SchemaExtension, error) {
	rt.init()
	v, err := rt.get(ctx)
	if err != nil {
		return nil, err
	}
	var raw string
	err = v.js.Run(ctx, rt.Timeout, func() error {
		out, err := v.exts(goja.Undefined())
		if err != nil {
			return err
		}
		raw = out.String()
		return nil
	})
	if err != nil {
		rt.discard()
		return nil, fmt.Errorf("register(): %w", err)
	}
	rt.put(v)
	var descs []extensionJSON
	if err := json.Unmarshal([]byte(raw), &descs); err != nil {
		return nil, err
	}
	var out []gqlschema.SchemaExtension
	for i, d := range descs {
		if len(d.Unsupported) > 0 {
			return nil, fmt.Errorf("use() #%d: %s, which Quarry does not run", i+1, strings.Join(d.Unsupported, ", "))
		}
		x := gqlschema.SchemaExtension{TypeDefs: d.TypeDefs, Resolvers: map[string]map[string]gqlschema.Resolver{},
			ResolversConfig: map[string]gqlschema.ResolverConfig{}}
		for typ, fields := range d.Resolvers {
			x.Resolvers[typ] = map[string]gqlschema.Resolver{}
			for f := range fields {
				key := fmt.Sprintf("%d %s.%s", i, typ, f)
				x.Resolvers[typ][f] = func(ctx context.Context, p gqlschema.ResolveParams) (any, error) {
					return rt.resolveGraphQL(ctx, key, "", p)
				}
			}
		}
		for field, c := range d.Config {
			rc := gqlschema.ResolverConfig{AuthDisabled: c.AuthDisabled, Scope: c.Scope}
			for _, id := range c.Policies {
				rc.Policies = append(rc.Policies, func(ctx context.Context, pc gqlschema.PolicyContext) (bool, error) {
					v, err := rt.resolveGraphQL(ctx, "", id, pc.ResolveParams)
					if err != nil {
						return false, err
					}
					// Strapi's policy step: anything but true (or undefined) refuses.
					return v == nil || v == true, nil
				})
			}
			x.ResolversConfig[field] = rc
		}
		out = append(out, x)
	}
	return out, nil
}

// resolveGraphQL runs an extension resolver (key) or a resolversConfig policy (policy) in a
// sandbox for the request's caller, and returns its JSON result as Go values.
func (rt *Runtime) resolveGraphQL(ctx context.Context, key, policy string, p gqlschema.ResolveParams) (any, error) {
	params, err := json.Marshal(map[string]any{"parent": p.Parent, "args": p.Args, "typeName": p.TypeName, "fieldName": p.FieldName})
	if err != nil {
		return nil, err
	}
	req := request{Method: http.MethodPost, URL: "/graphql", Path: "/graphql", Headers: map[string]string{},
		Params: map[string]string{}, Query: json.RawMessage("{}"), Body: json.RawMessage("null"), Auth: authState(p.Caller)}
	if p.Caller != nil && p.Caller.Kind == ir.UserCaller {
		req.UserID = p.Caller.UserID
	}
	reqJSON, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	name := "GraphQL " + p.TypeName + "." + p.FieldName
	var res boxResult
	var value string
	err = rt.run(ctx, &call{who: p.Caller, route: name}, func(v *vm, js *goja.Runtime) (goja.Value, error) {
		return v.graphql(goja.Undefined(), js.ToValue(key), js.ToValue(policy), js.ToValue(string(params)), js.ToValue(string(reqJSON)))
	}, func(box *goja.Object) { res, value = readBox(box), boxString(box, "value") })
	if err != nil {
		return nil, rt.failed(&Route{Key: name}, err)
	}
	switch {
	case res.state != "done":
		rt.Log.Error("project code did not finish: it waits on something that never comes", "resolver", name)
		return nil, internal()
	case res.internal != "":
		rt.Log.Error("project code failed", "resolver", name, "error", res.internal)
		return nil, internal()
	case res.json != "":
		return nil, boxError(res)
	}
	if value == "" {
		return nil, nil
	}
	var out any
	if err := json.Unmarshal([]byte(value), &out); err != nil {
		return nil, err
	}
	return out, nil
}
