package execute

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/quarrycms/quarry/ir/plan"
	pg "github.com/quarrycms/quarry/parser/graphql"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
)

// Shaping walks the merged selection tree next to the result tree of the plan (entries
// whose Values follow the step's Columns and whose Kids follow its Children) and builds
// the response. Nulls in non-null positions propagate as GraphQL requires: a function
// returning ok=false asks its caller to become null in turn.

// wrap settles a field's value against its type: a failed (ok=false) inner value or a null
// in a non-null position propagates; a nullable position absorbs the failure.
func (x *execution) wrap(t *ast.Type, parentType string, f *pg.Field, path []any, v any, ok bool) (any, bool) {
	nonNull := t != nil && t.NonNull
	if !ok {
		if nonNull {
			return nil, false
		}
		return nil, true
	}
	if v == nil && nonNull {
		x.nonNullError(parentType, f.Name, f, path)
		return nil, false
	}
	return v, true
}

func fieldType(f *pg.Field) *ast.Type {
	if f.Def == nil {
		return nil
	}
	return f.Def.Type
}

// set completes one field of an object; false means the object must become null.
func (x *execution) set(m *omap, parentType string, f *pg.Field, path []any, start time.Time, v any, ok bool) bool {
	v, ok = x.wrap(fieldType(f), parentType, f, path, v, ok)
	x.traceField(path, parentType, f, start)
	if !ok {
		return false
	}
	m.set(f.Key, v)
	return true
}

func extend(path []any, k any) []any {
	out := make([]any, len(path)+1)
	copy(out, path)
	out[len(path)] = k
	return out
}

// fields shapes the fields of o in order: __typename here, the others by value. ok=false
// means a non-null field got null, so the object is null in turn.
func (x *execution) fields(o *pg.Object, path []any, value func(f *pg.Field, fp []any) (any, bool)) (*omap, bool) {
	m := &omap{}
	for _, f := range o.Fields {
		start := time.Now()
		fp := extend(path, f.Key)
		v, ok := any(o.Type.Name), true
		if f.Name != "__typename" {
			v, ok = value(f, fp)
		}
		if !x.set(m, o.Type.Name, f, fp, start, v, ok) {
			return nil, false
		}
	}
	return m, true
}

// nilIfFailed turns a failed object into the untyped nil the callers return.
func nilIfFailed(m *omap, ok bool) any {
	if !ok {
		return nil
	}
	return m
}

// collection shapes <Type>EntityResponseCollection.
func (x *execution) collection(rf *pg.RootField, pl *plan.Plan, res *exec.Result, path []any) any {
	return nilIfFailed(x.fields(rf.Object, path, func(f *pg.Field, fp []any) (any, bool) {
		switch f.Name {
		case "data":
			return x.entities(f, res.Entries, func(int) *plan.Select { return pl.Root }, fp)
		case "meta":
			return x.meta(f.Object, rf, res.Total), true
		}
		return nil, true
	}))
}

// entities shapes data: [<Type>Entity!]! of a collection or a to-many relation; step gives
// each entry's plan step.
func (x *execution) entities(f *pg.Field, entries []*exec.Entry, step func(i int) *plan.Select, path []any) (any, bool) {
	out := make([]any, len(entries))
	elem := fieldType(f)
	if elem != nil && elem.Elem != nil {
		elem = elem.Elem
	}
	for i, e := range entries {
		ip := extend(path, i)
		v, ok := x.entity(f.Object, step(i), e, ip)
		if v, ok = x.wrap(elem, f.Object.Type.Name, f, ip, v, ok); !ok {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// entityResponse shapes <Type>EntityResponse {data}; e is nil when there is no entry.
func (x *execution) entityResponse(o *pg.Object, step *plan.Select, e *exec.Entry, path []any) any {
	if o == nil {
		return &omap{}
	}
	return nilIfFailed(x.fields(o, path, func(f *pg.Field, fp []any) (any, bool) {
		if f.Name == "data" && e != nil && step != nil && f.Object != nil {
			return x.entity(f.Object, step, e, fp)
		}
		return nil, true
	}))
}

// entity shapes <Type>Entity {id, attributes}.
func (x *execution) entity(o *pg.Object, step *plan.Select, e *exec.Entry, path []any) (any, bool) {
	if o == nil {
		return &omap{}, true
	}
	m, ok := x.fields(o, path, func(f *pg.Field, fp []any) (any, bool) {
		switch f.Name {
		case "id":
			return strconv.FormatInt(e.ID, 10), true
		case "attributes":
			if f.Object != nil {
				return x.attributes(f.Object, step, e, fp)
			}
		}
		return nil, true
	})
	return nilIfFailed(m, ok), ok
}

// columns maps attribute names to their index in a step's Columns.
func (x *execution) columns(step *plan.Select) map[string]int {
	if c, ok := x.cols[step]; ok {
		return c
	}
	c := make(map[string]int, len(step.Columns))
	for i, a := range step.Columns {
		c[a.Name] = i
	}
	if x.cols == nil {
		x.cols = map[*plan.Select]map[string]int{}
	}
	x.cols[step] = c
	return c
}

// children maps a level's populate indexes to the step's Children. The planner keeps the
// populate order and only leaves out relations the caller may not read, so a greedy match
// by attribute finds each kept entry; -1 marks the left-out ones.
func children(lv *pg.Level, step *plan.Select) []int {
	if lv == nil {
		return nil
	}
	out := make([]int, len(lv.Attrs))
	j := 0
	for i, a := range lv.Attrs {
		if j < len(step.Children) && step.Children[j].Attr == a {
			out[i] = j
			j++
		} else {
			out[i] = -1
		}
	}
	return out
}

// attributes shapes the attributes of a content type or component entry.
func (x *execution) attributes(o *pg.Object, step *plan.Select, e *exec.Entry, path []any) (any, bool) {
	cols := x.columns(step)
	kids := children(o.Level, step)
	m, ok := x.fields(o, path, func(f *pg.Field, fp []any) (any, bool) {
		switch {
		case f.Name == "id" && f.Attr == nil:
			return strconv.FormatInt(e.ID, 10), true
		case f.Err != nil:
			x.fieldError(f.Err, f, fp)
			return nil, false
		case f.Morph:
			return x.morphs(f, e.ID, fp), true
		case f.Attr == nil:
			return x.customField(o.Type.Name, f, parentValues(step, e), fp)
		case f.Attr.IsScalar():
			if i, found := cols[f.Attr.Name]; found && i < len(e.Values) {
				return x.scalar(f.Attr, e.Values[i]), true
			}
			return nil, true
		case x.emptyPopulate, f.Attr.Unlinked:
			// An unlinked mappedBy relation holds nothing (Strapi fails to resolve it).
			return x.populated(f, exec.Kid{}, fp)
		}
		ci := -1
		if f.Pop >= 0 && f.Pop < len(kids) {
			ci = kids[f.Pop]
		}
		if ci < 0 {
			// The planner left the relation out: the caller may not read its target.
			x.fieldError(forbidden(), f, fp)
			return nil, false
		}
		if ci >= len(e.Kids) {
			return nil, true
		}
		return x.populated(f, e.Kids[ci], fp)
	})
	return nilIfFailed(m, ok), ok
}

// parentValues is the entry as extension resolvers see it: id and scalar attributes.
func parentValues(step *plan.Select, e *exec.Entry) map[string]any {
	out := make(map[string]any, len(step.Columns)+1)
	out["id"] = e.ID
	for i, a := range step.Columns {
		if i < len(e.Values) {
			out[a.Name] = e.Values[i]
		}
	}
	return out
}

// populated shapes a relation, media, component or dynamic-zone field.
func (x *execution) populated(f *pg.Field, k exec.Kid, path []any) (any, bool) {
	a := f.Attr
	switch a.Type {
	case schemas.Relation, schemas.Media:
		if f.Object == nil {
			return &omap{}, true
		}
		if !a.IsToMany() {
			var step *plan.Select
			var e *exec.Entry
			if len(k.Entries) > 0 {
				step, e = k.Steps[0], k.Entries[0]
			}
			return x.entityResponse(f.Object, step, e, path), true
		}
		m, ok := x.fields(f.Object, path, func(df *pg.Field, fp []any) (any, bool) {
			if df.Name != "data" {
				return nil, true
			}
			return x.entities(df, k.Entries, func(i int) *plan.Select { return k.Steps[i] }, fp)
		})
		return nilIfFailed(m, ok), ok
	case schemas.ComponentT:
		if f.Object == nil {
			return nil, true
		}
		if !a.Repeatable {
			if len(k.Entries) == 0 {
				return nil, true
			}
			return x.attributes(f.Object, k.Steps[0], k.Entries[0], path)
		}
		out := make([]any, len(k.Entries))
		for i, e := range k.Entries {
			ip := extend(path, i)
			v, ok := x.attributes(f.Object, k.Steps[i], e, ip)
			if !ok {
				v = nil // [Component] items are nullable
			}
			out[i] = v
		}
		return out, true
	case schemas.DynamicZone:
		out := make([]any, len(k.Entries))
		for i, e := range k.Entries {
			ip := extend(path, i)
			step := k.Steps[i]
			o := f.Union[x.h.gs.TypeName(step.Model)]
			if o == nil {
				out[i] = &omap{}
				continue
			}
			v, ok := x.attributes(o, step, e, ip)
			if !ok {
				v = nil
			}
			out[i] = v
		}
		return out, true
	}
	return nil, true
}

// meta shapes ResponseCollectionMeta {pagination}, from the effective start and limit as
// Strapi computes it (limit -1: one page holding everything after start).
func (x *execution) meta(o *pg.Object, rf *pg.RootField, total int64) any {
	if o == nil {
		return &omap{}
	}
	m := &omap{}
	for _, f := range o.Fields {
		switch f.Name {
		case "__typename":
			m.set(f.Key, o.Type.Name)
		case "pagination":
			p := &omap{}
			if f.Object != nil {
				safe := int64(max(rf.Limit, 1))
				start, limit := int64(rf.Start), int64(rf.Limit)
				for _, pf := range f.Object.Fields {
					var v any
					switch pf.Name {
					case "__typename":
						v = f.Object.Type.Name
					case "total":
						v = total
					case "page":
						if limit == -1 {
							v = int64(1)
						} else {
							v = start/safe + 1
						}
					case "pageSize":
						if limit == -1 {
							v = max(total-start, 0)
						} else {
							v = safe
						}
					case "pageCount":
						if limit == -1 {
							v = int64(1)
						} else {
							v = (total + safe - 1) / safe
						}
					}
					p.set(pf.Key, v)
				}
			}
			m.set(f.Key, p)
		}
	}
	return m
}

// scalar formats one attribute value (see exec.Normalize for the Go types) as Strapi's
// GraphQL scalars serialize it.
func (x *execution) scalar(a *schemas.Attribute, v any) any {
	if v == nil {
		return nil
	}
	switch a.Type {
	case schemas.BigInteger:
		if n, ok := v.(int64); ok {
			return longValue(n)
		}
	case schemas.Decimal:
		if f, ok := v.(float64); ok {
			// decimal(10,2): PostgreSQL rounds on write; round here so SQLite answers alike.
			return math.Round(f*100) / 100
		}
	case schemas.Time:
		if s, ok := v.(string); ok {
			return timeOfDay(s)
		}
	case schemas.JSON, schemas.Blocks:
		if raw, ok := v.(json.RawMessage); ok {
			return jsonValue(raw)
		}
	case schemas.Enumeration:
		if s, ok := v.(string); ok {
			return x.h.gs.EnumOut(a, s)
		}
	}
	return v
}

// timeOfDay formats a stored time as the Time scalar does: HH:mm:ss.SSS.
func timeOfDay(s string) string {
	hms, frac, _ := strings.Cut(s, ".")
	if len(hms) == 5 {
		hms += ":00"
	}
	frac = (frac + "000")[:3]
	return hms + "." + frac
}

// maxSafe is JavaScript's Number.MAX_SAFE_INTEGER.
const maxSafe = 1<<53 - 1

// longValue serializes a Long as graphql-scalars does: a number while JavaScript can hold it
// exactly, a string beyond.
func longValue(n int64) any {
	if n >= -maxSafe && n <= maxSafe {
		return n
	}
	return strconv.FormatInt(n, 10)
}
