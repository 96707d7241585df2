package execute

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/parser/gqlschema"
	pg "github.com/quarrycms/quarry/parser/graphql"
	"github.com/quarrycms/quarry/parser/jsquery"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
)

// An extension's resolver that returns a content type's EntityResponse answers what the
// GraphQL plugin's format service makes: toEntityResponse(value, info) is {value, info} and
// toEntityResponseCollection(nodes, info) is {nodes, info}. Strapi resolves the rest with
// the generated types' resolvers: data is the value (or the nodes), id and the scalar
// attributes are the value's own, and the relations, media, components and dynamic zones
// are loaded from the database by the entry's id (the association resolvers'
// entityService.load), with their own arguments. Quarry reads those for all the entries at
// once, with the field's selection lowered as a generated read's (pg.Field.Entities), and
// writes the scalars from the value.

// customEntities writes the result v of an extension resolver whose type is an
// EntityResponse or EntityResponseCollection.
func (x *execution) customEntities(typeName string, f *pg.Field, v any, p *path) done {
	out, _ := v.(map[string]any)
	if out == nil || f.Object == nil {
		return x.complete(fieldType(f), typeName, f, nilIfMap(v), p)
	}
	ti := x.h.gs.Type(f.Object.Type.Name)
	collection := ti != nil && ti.Role == gqlschema.RoleEntityResponseCollection
	var nodes []any
	if collection {
		nodes, _ = out["nodes"].([]any)
	} else if out["value"] != nil {
		nodes = []any{out["value"]}
	}
	var ids []int64
	for _, n := range nodes {
		if e, ok := n.(map[string]any); ok {
			if id, ok := entityID(e["id"]); ok {
				ids = append(ids, id)
			}
		}
	}
	step, byID, err := x.readEntities(f.Entities, ids)
	if err != nil {
		x.fieldError(err, f, p)
		return failed
	}
	if x.values == nil {
		x.values = map[*exec.Entry]map[string]any{}
	}
	entry := func(n any) *exec.Entry {
		m, ok := n.(map[string]any)
		if !ok {
			return nil
		}
		id, _ := entityID(m["id"])
		e := byID[id]
		if e == nil {
			// Not in the database: the value's own attributes, and nothing to load.
			e = &exec.Entry{ID: id}
		} else {
			c := *e // the same entry may come twice, with values of its own
			e = &c
		}
		x.values[e] = m
		return e
	}
	o := f.Object
	x.w.WriteByte('{')
	var fp path // outside the loop, to stay on the stack (see path)
	for i, df := range o.Fields {
		fp = p.field(df.Key)
		start, mark := x.now(), x.member(i, df.Key)
		var d done
		switch {
		case df.Name == "__typename":
			d = x.str(o.Type.Name)
		case df.Name == "data" && collection:
			entries := make([]*exec.Entry, 0, len(nodes))
			bad := false
			for _, n := range nodes {
				e := entry(n)
				if e == nil {
					bad = true
				}
				entries = append(entries, e)
			}
			if bad {
				// A node that is no entry: data is [Entity!]!, as graphql-js completes it.
				x.fieldError(apierror.Validation("the resolver's nodes hold a value that is not an entry"), df, &fp)
				d = failed
				break
			}
			d = x.entities(df, entries, step, nil, &fp)
		case df.Name == "data":
			var e *exec.Entry
			if len(nodes) > 0 {
				e = entry(nodes[0])
			}
			if e == nil || df.Object == nil {
				d = x.null()
				break
			}
			d = x.entity(df.Object, step, e, &fp)
		case df.Name == "meta" && collection:
			d = x.customMeta(df, out["info"], &fp)
		default:
			d = x.null()
		}
		if x.settled(o.Type.Name, df, &fp, start, mark, d) == failed {
			return failed
		}
	}
	x.w.WriteByte('}')
	return wrote
}

// nilIfMap keeps a value the resolver gave that is not an object (completed as graphql-js
// would); an object without value or nodes answers as Strapi's does: data null.
func nilIfMap(v any) any {
	if _, ok := v.(map[string]any); ok {
		return nil
	}
	return v
}

// readEntities reads the entries ids of q's model with q's selection (what the
// resolver's value does not hold: relations, media, components, dynamic zones), drafts
// included, as the caller reads a generated query's relations.
func (x *execution) readEntities(q *ir.Query, ids []int64) (*plan.Select, map[int64]*exec.Entry, error) {
	rq := *q
	rq.PublicationState = "preview"
	vals := make([]ir.Value, 0, len(ids))
	for _, id := range ids {
		vals = append(vals, ir.Value{Kind: ir.VNumber, S: strconv.FormatInt(id, 10)})
	}
	if len(vals) == 0 {
		vals = append(vals, ir.Value{Kind: ir.VNumber, S: "0"}) // no entry: the plan still shapes the entries
	}
	rq.Filters = &ir.Filter{Kind: ir.Cond, Field: "id", Operator: "$in", Values: vals, Param: "id"}
	pl, err := x.h.planner.Read(&rq, x.caller)
	if err != nil {
		return nil, nil, err
	}
	pl.Root.Limit = -1
	pl.Count, pl.Root.WithTotal = nil, false
	byID := map[int64]*exec.Entry{}
	if len(ids) == 0 {
		return pl.Root, byID, nil
	}
	res, err := x.h.runner.Run(x.ctx, x.h.db, pl)
	if err != nil {
		return nil, nil, err
	}
	x.stmts += res.Statements
	x.lent = true // the entries stay in x.values until the response is written
	if err := x.loadRelated(x.ctx, x.h.db, pl.Root, res.Entries); err != nil {
		return nil, nil, err
	}
	for _, e := range res.Entries {
		byID[e.ID] = e
	}
	return pl.Root, byID, nil
}

// customMeta writes meta of a collection a resolver answers: Strapi's pagination resolver
// reads info.args (start, limit, filters) and counts info.resourceUID's entries with them.
func (x *execution) customMeta(f *pg.Field, info any, p *path) done {
	in, _ := info.(map[string]any)
	uid, _ := in["resourceUID"].(string)
	args, _ := in["args"].(map[string]any)
	m := x.h.planner.Schema.Models[uid]
	if m == nil || !m.IsContentType() {
		// Strapi's pagination resolver (a non-null field) fails without the model to count:
		// validateQuery throws, an internal error of the pagination field.
		if f.Object != nil {
			for _, pf := range f.Object.Fields {
				if pf.Name == "pagination" {
					pp := p.field(pf.Key)
					x.errs = append(x.errs, &gqlError{Message: "Missing schema in validateQuery", Locations: pf.Locations(), Path: pp.list(), Code: codeInternal})
					return failed
				}
			}
		}
		return x.meta(f.Object, &pg.RootField{}, 0)
	}
	start, limit := 0, 10
	if v, ok := args["start"].(float64); ok {
		start = int(v)
	}
	if v, ok := args["limit"].(float64); ok {
		limit = int(v)
	}
	if x.h.hooks != nil && x.h.hooks.Hooked(uid, "Count") {
		// Strapi counts in the pagination resolver: without it selected, no count (and
		// no count hooks) runs.
		var total int64
		if selects(f.Object, "pagination") {
			n, _, err := x.hookedCount(uid, args)
			if err != nil {
				x.fieldError(err, f, p)
				return failed
			}
			total = n
		}
		return x.meta(f.Object, &pg.RootField{Start: start, Limit: limit}, total)
	}
	params := map[string]any{}
	for _, k := range []string{"filters", "publicationState", "locale"} {
		if v, ok := args[k]; ok {
			params[k] = v
		}
	}
	raw, err := json.Marshal(params)
	if err != nil {
		x.fieldError(err, f, p)
		return failed
	}
	q := &ir.Query{Model: uid, Op: ir.FindMany}
	if _, err := jsquery.Lower(raw, jsquery.EntityService, q); err != nil {
		x.fieldError(err, f, p)
		return failed
	}
	// entityService.count of a localized type without a locale counts the default
	// locale's entries (i18n's decorator), as the list did.
	if err := x.h.localize.ReadLocale(x.ctx, m, q); err != nil {
		x.fieldError(err, f, p)
		return failed
	}
	t := true
	q.Pagination.WithCount = &t
	pl, err := x.h.planner.Read(q, x.caller)
	if err != nil {
		x.fieldError(err, f, p)
		return failed
	}
	pl.Root.Limit = 0
	res, err := x.h.runner.Run(x.ctx, x.h.db, pl)
	if err != nil {
		x.fieldError(err, f, p)
		return failed
	}
	x.stmts += res.Statements
	total := res.Total
	res.Release()
	return x.meta(f.Object, &pg.RootField{Start: start, Limit: limit}, total)
}

// entityID reads an entry's id as a resolver's value holds it (a number, or its digits).
func entityID(v any) (int64, bool) {
	switch x := v.(type) {
	case float64:
		if x == math.Trunc(x) {
			return int64(x), true
		}
	case json.Number:
		n, err := x.Int64()
		return n, err == nil
	case int64:
		return x, true
	case string:
		n, err := strconv.ParseInt(x, 10, 64)
		return n, err == nil
	}
	return 0, false
}

// valueScalar turns an attribute's value as a resolver's JSON holds it into what scalar
// writes for the attribute's type (see exec.Normalize).
func valueScalar(a *schemas.Attribute, v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case float64:
		switch a.Type {
		case schemas.BigInteger, schemas.Integer:
			if x == math.Trunc(x) && math.Abs(x) < 1<<63 {
				return int64(x)
			}
		}
		return x
	case string:
		if a.Type == schemas.BigInteger {
			if n, err := strconv.ParseInt(x, 10, 64); err == nil {
				return n
			}
		}
		return x
	case map[string]any, []any:
		if a.Type == schemas.JSON || a.Type == schemas.Blocks {
			if b, err := json.Marshal(x); err == nil {
				return json.RawMessage(b)
			}
		}
	}
	return v
}

// selects says whether an object's selection has a field of that name.
func selects(o *pg.Object, name string) bool {
	if o == nil {
		return false
	}
	for _, f := range o.Fields {
		if f.Name == name {
			return true
		}
	}
	return false
}
