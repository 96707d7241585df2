package projectcode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/dop251/goja"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
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
	Middlewares  []string `json:"middlewares"`
}

// GraphQLExtensions runs src/index's register() in a sandbox and returns what it gives the
// GraphQL extension service's use() as schema extensions: the SDL as written, resolvers and
// resolversConfig policies and middlewares that run in the sandboxes. An extension Quarry
// cannot run (nexus types, policies or middlewares that are not the project's files) is an
// error naming it.
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
			for _, id := range c.Middlewares {
				rc.Middlewares = append(rc.Middlewares, func(next gqlschema.Resolver) gqlschema.Resolver {
					return func(ctx context.Context, p gqlschema.ResolveParams) (any, error) {
						return rt.middlewareGraphQL(ctx, id, next, p)
					}
				})
			}
			x.ResolversConfig[field] = rc
		}
		out = append(out, x)
	}
	return out, nil
}

// graphqlRequest is what a resolver, policy or middleware of the project's is given of a
// GraphQL field's resolution: its parameters and the request (for ctx), as JSON.
func graphqlRequest(p gqlschema.ResolveParams) (params, req []byte, err error) {
	params, err = json.Marshal(map[string]any{"parent": p.Parent, "args": p.Args, "typeName": p.TypeName, "fieldName": p.FieldName})
	if err != nil {
		return nil, nil, err
	}
	r := request{Method: http.MethodPost, URL: "/graphql", Path: "/graphql", Headers: map[string]string{},
		Params: map[string]string{}, Query: json.RawMessage("{}"), Body: json.RawMessage("null"), Auth: authState(p.Caller)}
	if p.Caller != nil && p.Caller.Kind == ir.UserCaller {
		r.UserID = p.Caller.UserID
	}
	req, err = json.Marshal(r)
	return params, req, err
}

// middlewareGraphQL runs a resolversConfig middleware (id) in a sandbox around next, the rest
// of the field's chain (the policies, then the resolver), as Strapi's GraphQL plugin composes
// them: the middleware's resolve(parent, args, ...) runs next with those args. What next
// answers goes back as it is unless the middleware answers something else; an error of
// next's that the middleware lets through is next's own.
func (rt *Runtime) middlewareGraphQL(ctx context.Context, id string, next gqlschema.Resolver, p gqlschema.ResolveParams) (any, error) {
	params, reqJSON, err := graphqlRequest(p)
	if err != nil {
		return nil, err
	}
	name := "GraphQL " + p.TypeName + "." + p.FieldName
	var nextVal any
	var nextErr error
	c := &call{who: p.Caller, route: name}
	c.graphqlNext = func(args string) string {
		q := p
		var a map[string]any
		if json.Unmarshal([]byte(args), &a) == nil && a != nil {
			q.Args = a
		}
		nextVal, nextErr = next(c.ctx, q)
		if nextErr != nil {
			return `{"failed":true}`
		}
		if plainValue(nextVal) {
			if b, err := json.Marshal(nextVal); err == nil {
				return `{"value":` + string(b) + `}`
			}
		}
		return `{"opaque":true}`
	}
	var res boxResult
	var value string
	var opaque, nextFailed bool
	err = rt.run(ctx, c, func(v *vm, js *goja.Runtime) (goja.Value, error) {
		return v.gqlMw(goja.Undefined(), js.ToValue(id), js.ToValue(string(params)), js.ToValue(string(reqJSON)))
	}, func(box *goja.Object) {
		res, value = readBox(box), boxString(box, "value")
		set := func(k string) bool { x := box.Get(k); return x != nil && x.ToBoolean() }
		opaque, nextFailed = set("opaque"), set("nextFailed")
	})
	switch {
	case err != nil:
		return nil, rt.failed(&Route{Key: name}, err)
	case nextFailed && nextErr != nil:
		return nil, nextErr
	case opaque:
		return nextVal, nil
	}
	return rt.graphqlResult(name, res, value)
}

// plainValue says whether a resolver's value is plain JSON data (an extension resolver's),
// which a middleware may read; anything else (a generated query's result) stays opaque to it.
func plainValue(v any) bool {
	switch v.(type) {
	case nil, map[string]any, []any, string, bool, float64, int, int64, json.Number:
		return true
	}
	return false
}

// resolveGraphQL runs an extension resolver (key) or a resolversConfig policy (policy) in a
// sandbox for the request's caller, and returns its JSON result as Go values.
func (rt *Runtime) resolveGraphQL(ctx context.Context, key, policy string, p gqlschema.ResolveParams) (any, error) {
	params, reqJSON, err := graphqlRequest(p)
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
	return rt.graphqlResult(name, res, value)
}

// graphqlResult reads a settled box of a GraphQL call: its value as Go values, or the error.
func (rt *Runtime) graphqlResult(name string, res boxResult, value string) (any, error) {
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

// GraphQLRead runs the entity-service call of a generated GraphQL query or mutation of a model
// with read lifecycle hooks (action find, findOne, count; create, update, delete) for the caller, with the args the GraphQL
// plugin's transformArgs gives it: the hooks run around the query engine's reads as they do
// for REST, and the answer is the format service's {nodes, info} or {value, info}, or
// {count}, as Go values.
func (rt *Runtime) GraphQLRead(ctx context.Context, who *ir.Caller, uid, action string, args map[string]any) (any, error) {
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	name := "GraphQL " + uid + " " + action
	_, reqJSON, err := graphqlRequest(gqlschema.ResolveParams{Caller: who, TypeName: "Query", FieldName: action})
	if err != nil {
		return nil, err
	}
	var res boxResult
	var value string
	err = rt.run(ctx, &call{who: who, route: name}, func(v *vm, js *goja.Runtime) (goja.Value, error) {
		return v.genGQL(goja.Undefined(), js.ToValue(uid), js.ToValue(action), js.ToValue(string(raw)), js.ToValue(string(reqJSON)))
	}, func(box *goja.Object) { res, value = readBox(box), boxString(box, "value") })
	if err != nil {
		return nil, rt.failed(&Route{Key: name}, err)
	}
	out, err := rt.graphqlResult(name, res, value)
	var ae *apierror.Error
	if errors.As(err, &ae) {
		ae.Details = validationDetails(ae.Details)
	}
	return out, err
}

// validationDetails gives the entity service's validation errors (Quarry's write path's,
// through the sandbox) back their Go form, which writes {path, message, name} in Strapi's
// order; other details stay as they are.
func validationDetails(d any) any {
	m, ok := d.(map[string]any)
	if !ok || len(m) != 1 {
		return d
	}
	list, ok := m["errors"].([]any)
	if !ok {
		return d
	}
	out := apierror.ValidationDetails{Errors: make([]apierror.FieldError, 0, len(list))}
	for _, e := range list {
		fe, ok := e.(map[string]any)
		if !ok || len(fe) != 3 {
			return d
		}
		msg, ok1 := fe["message"].(string)
		nm, ok2 := fe["name"].(string)
		path, ok3 := fe["path"].([]any)
		if !ok1 || !ok2 || !ok3 {
			return d
		}
		f := apierror.FieldError{Message: msg, Name: nm, Path: []string{}}
		for _, p := range path {
			ps, ok := p.(string)
			if !ok {
				return d
			}
			f.Path = append(f.Path, ps)
		}
		out.Errors = append(out.Errors, f)
	}
	return out
}
