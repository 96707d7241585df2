package execute

import (
	"context"
	"fmt"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/parser/gqlschema"
	pg "github.com/quarrycms/quarry/parser/graphql"
	"github.com/quarrycms/quarry/planner/exec"
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
	// service's {nodes, info} or {value, info}, or {count}; for action load ({id, field,
	// params}), {value} is the field as the load of the entry answers it.
	Read(ctx context.Context, caller *ir.Caller, uid, action string, args map[string]any) (any, error)
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
		case "pagination", "filters", "publicationState":
		default:
			out[k] = v
		}
	}
	if rf.Model.DraftAndPublish && rf.Kind != pg.KindFindOne {
		// The argument's value as the lowering read it (LIVE by default), never left out:
		// the entity service would then read drafts too.
		ps := "live"
		if rf.Query != nil && rf.Query.PublicationState != "" {
			ps = rf.Query.PublicationState
		}
		out["publicationState"] = ps
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

// loadHooked is the model of an attributes object whose findOne hooks Strapi's
// entityService.load fires when a relation, media, component or dynamic zone of it is
// resolved ("" for none).
func (x *execution) loadHooked(o *pg.Object) string {
	if x.h.hooks == nil {
		return ""
	}
	ti := x.h.gs.Type(o.Type.Name)
	if ti == nil || ti.Role != gqlschema.RoleAttributes || ti.Model == nil || !x.h.hooks.Hooked(ti.Model.UID, "FindOne") {
		return ""
	}
	return ti.Model.UID
}

// hookedLoad writes a relation, media, component or dynamic zone of entry e of model uid as
// Strapi's resolver loads it: a findOne of the entry (its id, the field populated) through
// uid's findOne hooks, in the sandbox. The field was read with the rest of the query; what
// the hooks leave decides which of those entries the field holds, in its order, and their
// scalar attributes (a hook may have changed them). The sandbox's read is not paged: of its
// entries, those of the page read are kept.
func (x *execution) hookedLoad(uid string, f *pg.Field, e *exec.Entry, kids []int, p *path) done {
	respcache.NoStore(x.ctx)
	ci := -1
	if f.Pop >= 0 && f.Pop < len(kids) {
		ci = kids[f.Pop]
	}
	if ci < 0 {
		x.fieldError(forbidden(), f, p)
		return failed
	}
	var k exec.Kid
	if ci < len(e.Kids) {
		k = e.Kids[ci]
	}
	params := map[string]any{}
	if f.Attr.Type != schemas.DynamicZone {
		// The plugin's association and component resolvers page every load (transformArgs
		// with usePagination), a to-one relation's and a single component's too; its dynamic
		// zone resolver passes no params.
		var pag any
		if f.Args != nil {
			pag = f.Args.Map["pagination"]
		}
		start, limit, err := pg.Paginate(pg.OptionsFrom(x.h.gs.Config), pag)
		if err != nil {
			x.fieldError(err, f, p)
			return failed
		}
		params["start"], params["limit"] = start, limit
	}
	if f.Args != nil {
		in := argMap(f.Args)
		if v, ok := in["sort"]; ok && v != nil {
			params["sort"] = v
		}
		if v, ok := in["filters"]; ok && v != nil {
			target := f.Attr.Target
			if f.Attr.Type == schemas.ComponentT && len(f.Attr.Components) > 0 {
				target = f.Attr.Components[0]
			}
			if target != nil {
				params["filters"] = strapiFilters(x.h.gs.Content, target, v)
			}
		}
	}
	v, err := x.h.hooks.Read(x.ctx, x.caller, uid, "load", map[string]any{"id": e.ID, "field": f.Attr.Name, "params": params})
	if err != nil {
		x.fieldError(err, f, p)
		return failed
	}
	var items []any
	if m, ok := v.(map[string]any); ok {
		switch val := m["value"].(type) {
		case []any:
			items = val
		case map[string]any:
			items = []any{val}
		}
	}
	if x.values == nil {
		x.values = map[*exec.Entry]map[string]any{}
	}
	x.lent = true
	var kept exec.Kid
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			continue
		}
		id, ok := entityID(m["id"])
		if !ok {
			continue
		}
		comp, _ := m["__component"].(string)
		for i, ne := range k.Entries {
			if ne.ID != id || (comp != "" && i < len(k.Steps) && k.Steps[i] != nil && k.Steps[i].Model != nil && k.Steps[i].Model.UID != comp) {
				continue
			}
			c := *ne // the same entry may come under several parents, with values of its own
			x.values[&c] = m
			kept.Entries = append(kept.Entries, &c)
			if i < len(k.Steps) {
				kept.Steps = append(kept.Steps, k.Steps[i])
			}
			break
		}
	}
	return x.populated(f, kept, p)
}
