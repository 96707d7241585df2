package execute

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/parser/gqlschema"
	pg "github.com/quarrycms/quarry/parser/graphql"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/transport/respcache"
)

// ReadHooks runs the project's read lifecycle hooks (beforeFindMany, afterFindOne, …, and
// function subscribers) where Strapi's GraphQL plugin reaches them. Its generated queries
// call the entity service (findMany, findOne; count for meta.pagination), whose query-engine
// reads fire the model's hooks; its association, component and dynamic-zone resolvers call
// entityService.load, a findOne of the *parent* entry (select id, populate the field), which
// fires the parent model's findOne hooks and never the target's.
type ReadHooks interface {
	// Hooked says whether a read of the model fires hooks on one of events (FindMany,
	// FindOne, Count).
	Hooked(uid string, events ...string) bool
	// Read runs, in the project's sandbox, the entity-service call of a generated resolver
	// (action find, findOne or count) with Strapi's transformed args, and answers the format
	// service's {nodes, info} or {value, info}, or {count}.
	Read(ctx context.Context, caller *ir.Caller, uid, action string, args map[string]any) (any, error)
	// Unrun is the error answering a load (a relation, media, component or dynamic zone)
	// below an entry of uid, whose findOne hooks Quarry does not run there.
	Unrun(uid string) error
}

// hookedRoot says whether a generated query's resolver reaches read hooks, which then run in
// the sandbox (hookedQuery).
func (x *execution) hookedRoot(rf *pg.RootField) bool {
	h := x.h.hooks
	if h == nil || rf.Model == nil {
		return false
	}
	switch rf.Kind {
	case pg.KindFind:
		return h.Hooked(rf.Model.UID, "FindMany", "Count")
	case pg.KindFindOne, pg.KindSingle:
		return h.Hooked(rf.Model.UID, "FindOne")
	case pg.KindCreate, pg.KindUpdate, pg.KindDelete:
		// The query engine reads the entry it writes back through findOne (and a single
		// type's mutations find it first); the write hooks run in the sandbox's write too.
		return h.Hooked(rf.Model.UID, "FindOne")
	}
	return false
}

// hookedQuery runs a generated query of a model with read hooks as Strapi's resolver does:
// the query is checked for the caller as the native one is (Strapi's validate and sanitize
// steps), then the entity service reads in the sandbox, where the hooks run, and what it
// answers is resolved as the format service's response (customEntities): id and scalar
// attributes as the hooks left them, the rest loaded by id.
func (x *execution) hookedQuery(ctx context.Context, rf *pg.RootField, p *path) (any, error) {
	respcache.NoStore(ctx) // the hooks may answer differently each time, and have effects
	var action string
	var args map[string]any
	switch rf.Kind {
	case pg.KindCreate, pg.KindUpdate, pg.KindDelete:
		action = rf.Action
		args = map[string]any{}
		if rf.Kind != pg.KindDelete {
			data := rf.Data
			if data == nil {
				data = map[string]any{}
			}
			args["data"] = data
		}
		if rf.ID != "" {
			args["id"] = rf.ID
		}
	default:
		if _, err := x.h.planner.Read(rf.Query, x.caller); err != nil {
			return nil, err
		}
		action = "find"
		if rf.Kind == pg.KindFindOne {
			action = "findOne"
		}
		args = strapiArgs(x.h.gs, rf)
	}
	v, err := x.h.hooks.Read(ctx, x.caller, rf.Model.UID, action, args)
	if err != nil {
		return nil, err
	}
	f := *rf.Field
	f.Entities = &ir.Query{Model: rf.Model.UID, Op: ir.FindMany, Fields: rf.Query.Fields, Populate: rf.Query.Populate, GraphQL: true}
	typeName := "Query"
	if x.op.Kind == ast.Mutation {
		typeName = "Mutation"
	}
	return result(x.customEntities(typeName, &f, v, p)), nil
}

// strapiArgs are a generated query's args as the GraphQL plugin's transformArgs gives them to
// the entity service: pagination as start and limit (a collection's, with the plugin's
// defaults and bounds, as the lowering computed them), filters with Strapi's operators,
// publicationState's value.
func strapiArgs(gs *gqlschema.Schema, rf *pg.RootField) map[string]any {
	in := argMap(rf.Field.Args)
	out := map[string]any{}
	for k, v := range in {
		switch k {
		case "pagination", "filters":
		case "publicationState":
			if s, ok := v.(string); ok {
				v = strings.ToLower(s)
			}
			out[k] = v
		default:
			out[k] = v
		}
	}
	if rf.Kind == pg.KindFind {
		out["start"], out["limit"] = rf.Start, rf.Limit
	}
	if f, ok := in["filters"]; ok && f != nil {
		out["filters"] = strapiFilters(gs.Content, rf.Model, f)
	}
	if rf.Kind == pg.KindFindOne {
		out["id"] = rf.ID
	}
	return out
}

// strapiFilters is the plugin's graphQLFiltersToStrapiQuery: the operators of a scalar
// attribute's filter become Strapi's ($eq, …), and/or/not at a level become $and/$or/$not,
// relations, media and components are filtered by their target's attributes, and what is
// none of these is dropped.
func strapiFilters(s *schemas.Schema, m *schemas.Model, v any) any {
	if list, ok := v.([]any); ok {
		out := make([]any, len(list))
		for i, e := range list {
			out[i] = strapiFilters(s, m, e)
		}
		return out
	}
	in, ok := v.(map[string]any)
	if !ok {
		return map[string]any{}
	}
	out := map[string]any{}
	for k, val := range in {
		if k == "id" || k == "createdAt" || k == "updatedAt" || k == "publishedAt" {
			out[k] = strapiOperators(val)
			continue
		}
		if a, ok := m.Attr(k); ok {
			switch {
			case a.Type == schemas.Relation || a.Type == schemas.Media:
				if a.Target != nil {
					out[k] = strapiFilters(s, a.Target, val)
				}
			case a.Type == schemas.ComponentT:
				if len(a.Components) > 0 {
					out[k] = strapiFilters(s, a.Components[0], val)
				}
			case a.Type == schemas.DynamicZone:
			default:
				out[k] = strapiOperators(val)
			}
			continue
		}
		switch k {
		case "and", "or", "not":
			out["$"+k] = strapiFilters(s, m, val)
		}
	}
	return out
}

// strapiOperators renames a scalar filter's operators (every key at every depth), as the
// plugin's recursivelyReplaceScalarOperators does.
func strapiOperators(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = strapiOperators(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if graphqlOperators[k] {
				k = "$" + k
			}
			out[k] = strapiOperators(e)
		}
		return out
	}
	return v
}

// graphqlOperators are the plugin's filter operators, each Strapi's with a $.
var graphqlOperators = map[string]bool{"and": true, "or": true, "not": true, "eq": true, "eqi": true, "ne": true, "nei": true,
	"startsWith": true, "endsWith": true, "contains": true, "notContains": true, "containsi": true, "notContainsi": true,
	"gt": true, "gte": true, "lt": true, "lte": true, "null": true, "notNull": true, "in": true, "notIn": true, "between": true}

// hookedCount counts for meta.pagination through the sandbox when the model has count
// hooks (the plugin's pagination resolver calls entityService.count with its args).
func (x *execution) hookedCount(uid string, args map[string]any) (int64, bool, error) {
	if x.h.hooks == nil || !x.h.hooks.Hooked(uid, "Count") {
		return 0, false, nil
	}
	respcache.NoStore(x.ctx)
	v, err := x.h.hooks.Read(x.ctx, x.caller, uid, "count", args)
	if err != nil {
		return 0, true, err
	}
	m, _ := v.(map[string]any)
	switch n := m["count"].(type) {
	case float64:
		return int64(n), true, nil
	case string:
		c, err := strconv.ParseInt(n, 10, 64)
		return c, true, err
	}
	return 0, true, fmt.Errorf("the count hooks of %s answered %v", uid, m["count"])
}

// unrunLoad finds, in a root field's selection, a load Quarry does not run with its hooks:
// a relation, media, component or dynamic zone selected below an entry of a model whose
// findOne hooks Strapi's entityService.load fires. It answers the error to refuse the
// field with (nil: none).
func (x *execution) unrunLoad(f *pg.Field) error {
	if x.h.hooks == nil {
		return nil
	}
	var walk func(o *pg.Object) error
	walk = func(o *pg.Object) error {
		if o == nil {
			return nil
		}
		if ti := x.h.gs.Type(o.Type.Name); ti != nil && ti.Role == gqlschema.RoleAttributes && ti.Model != nil {
			for _, af := range o.Fields {
				if af.Attr == nil {
					continue
				}
				switch af.Attr.Type {
				case schemas.Relation, schemas.Media, schemas.ComponentT, schemas.DynamicZone:
					if x.h.hooks.Hooked(ti.Model.UID, "FindOne") {
						return x.h.hooks.Unrun(ti.Model.UID)
					}
				}
			}
		}
		for _, sf := range o.Fields {
			if err := walk(sf.Object); err != nil {
				return err
			}
			for _, u := range sf.Union {
				if err := walk(u); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(f.Object); err != nil {
		return err
	}
	for _, u := range f.Union {
		if err := walk(u); err != nil {
			return err
		}
	}
	return nil
}
