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
// whose Values follow the step's Columns and whose Kids follow its Children) and appends
// the response to x.w as it goes, as the REST envelope writes from the stitched rows: no
// tree of the response is built. Nulls in non-null positions propagate as GraphQL
// requires: every value starts at a mark (its offset in the buffer), a writer returning
// failed asks its caller to become null in turn, and the nearest nullable position cuts
// the buffer back to its own mark and writes null there (settle). The errors are collected
// on the side in the order they are met and written before the data (Execute).

// done is how writing a value ended.
type done uint8

const (
	wrote     done = iota // a value
	wroteNull             // null
	failed                // a non-null position inside got null or an error: the value is null in turn
)

// null writes null.
func (x *execution) null() done {
	x.w.WriteString("null")
	return wroteNull
}

// nullAt replaces whatever was written from mark with null.
func (x *execution) nullAt(mark int) done {
	x.w.Truncate(mark)
	return x.null()
}

// str writes a string value.
func (x *execution) str(s string) done {
	x.w.Str(s)
	return wrote
}

// id writes an entry id as the ID scalar prints it (a string of digits, which need no
// escaping).
func (x *execution) id(n int64) done {
	x.w.WriteByte('"')
	x.w.Int(n)
	x.w.WriteByte('"')
	return wrote
}

// settle settles a value written from mark against its type t: a failed inner value or a
// null in a non-null position propagates (failed); a nullable position absorbs the failure
// and holds null.
func (x *execution) settle(t *ast.Type, parentType string, f *pg.Field, p *path, mark int, d done) done {
	nonNull := t != nil && t.NonNull
	switch d {
	case failed:
		if nonNull {
			return failed
		}
		return x.nullAt(mark)
	case wroteNull:
		if nonNull {
			x.nonNullError(parentType, f.Name, f, p)
			return failed
		}
	}
	return d
}

func fieldType(f *pg.Field) *ast.Type {
	if f.Def == nil {
		return nil
	}
	return f.Def.Type
}

// now is a field's start time for Apollo tracing; the clock is not read without it.
func (x *execution) now() time.Time {
	if x.trace == nil {
		return time.Time{}
	}
	return time.Now()
}

// member writes the key of an object's i-th member and returns the mark where its value
// starts.
func (x *execution) member(i int, key string) int {
	if i > 0 {
		x.w.WriteByte(',')
	}
	x.w.Key(key)
	return x.w.Len()
}

// settled ends field f of an object of type parentType: it settles the value written from
// mark against the field's type and traces the field. failed: the object is null in turn.
func (x *execution) settled(parentType string, f *pg.Field, p *path, start time.Time, mark int, d done) done {
	d = x.settle(fieldType(f), parentType, f, p, mark, d)
	x.traceField(p, parentType, f, start)
	return d
}

// collection writes <Type>EntityResponseCollection.
func (x *execution) collection(rf *pg.RootField, pl *plan.Plan, res *exec.Result, p *path) done {
	o := rf.Object
	x.w.WriteByte('{')
	var fp path // outside the loop, to stay on the stack (see path)
	for i, f := range o.Fields {
		fp = p.field(f.Key)
		start, mark := x.now(), x.member(i, f.Key)
		var d done
		switch f.Name {
		case "__typename":
			d = x.str(o.Type.Name)
		case "data":
			d = x.entities(f, res.Entries, pl.Root, nil, &fp)
		case "meta":
			d = x.meta(f.Object, rf, res.Total)
		default:
			d = x.null()
		}
		if x.settled(o.Type.Name, f, &fp, start, mark, d) == failed {
			return failed
		}
	}
	x.w.WriteByte('}')
	return wrote
}

// entities writes data: [<Type>Entity!]! of a collection or a to-many relation: the
// entries of root (steps nil) or each of steps[i].
func (x *execution) entities(f *pg.Field, entries []*exec.Entry, root *plan.Select, steps []*plan.Select, p *path) done {
	elem := fieldType(f)
	if elem != nil && elem.Elem != nil {
		elem = elem.Elem
	}
	x.w.WriteByte('[')
	var ip path // outside the loop, to stay on the stack (see path)
	for i, e := range entries {
		if i > 0 {
			x.w.WriteByte(',')
		}
		ip = p.at(i)
		mark, step := x.w.Len(), root
		if steps != nil {
			step = steps[i]
		}
		d := x.entity(f.Object, step, e, &ip)
		if x.settle(elem, f.Object.Type.Name, f, &ip, mark, d) == failed {
			return failed
		}
	}
	x.w.WriteByte(']')
	return wrote
}

// entityResponse writes <Type>EntityResponse {data}; e is nil when there is no entry.
func (x *execution) entityResponse(o *pg.Object, step *plan.Select, e *exec.Entry, p *path) done {
	if o == nil {
		x.w.WriteString("{}")
		return wrote
	}
	x.w.WriteByte('{')
	var fp path // outside the loop, to stay on the stack (see path)
	for i, f := range o.Fields {
		fp = p.field(f.Key)
		start, mark := x.now(), x.member(i, f.Key)
		var d done
		switch {
		case f.Name == "__typename":
			d = x.str(o.Type.Name)
		case f.Name == "data" && e != nil && step != nil && f.Object != nil:
			d = x.entity(f.Object, step, e, &fp)
		default:
			d = x.null()
		}
		if x.settled(o.Type.Name, f, &fp, start, mark, d) == failed {
			return failed
		}
	}
	x.w.WriteByte('}')
	return wrote
}

// entity writes <Type>Entity {id, attributes}.
func (x *execution) entity(o *pg.Object, step *plan.Select, e *exec.Entry, p *path) done {
	if o == nil {
		x.w.WriteString("{}")
		return wrote
	}
	x.w.WriteByte('{')
	var fp path // outside the loop, to stay on the stack (see path)
	for i, f := range o.Fields {
		fp = p.field(f.Key)
		start, mark := x.now(), x.member(i, f.Key)
		var d done
		switch {
		case f.Name == "__typename":
			d = x.str(o.Type.Name)
		case f.Name == "id":
			if ov, ok := x.values[e]; ok {
				d = x.complete(fieldType(f), o.Type.Name, f, ov["id"], &fp) // Strapi's prop('id')
				break
			}
			d = x.id(e.ID)
		case f.Name == "attributes" && f.Object != nil:
			d = x.attributes(f.Object, step, e, &fp)
		default:
			d = x.null()
		}
		if x.settled(o.Type.Name, f, &fp, start, mark, d) == failed {
			return failed
		}
	}
	x.w.WriteByte('}')
	return wrote
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

// levelStep is a populate level read from the entries of one plan step.
type levelStep struct {
	lv   *pg.Level
	step *plan.Select
}

// children maps a level's populate indexes to the step's Children, once per level and
// step. The planner keeps the populate order and only leaves out relations the caller may
// not read, so a greedy match by attribute finds each kept entry; -1 marks the left-out
// ones.
func (x *execution) children(lv *pg.Level, step *plan.Select) []int {
	if lv == nil {
		return nil
	}
	if out, ok := x.kids[levelStep{lv, step}]; ok {
		return out
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
	if x.kids == nil {
		x.kids = map[levelStep][]int{}
	}
	x.kids[levelStep{lv, step}] = out
	return out
}

// attributes writes the attributes of a content type or component entry.
func (x *execution) attributes(o *pg.Object, step *plan.Select, e *exec.Entry, p *path) done {
	cols := x.columns(step)
	kids := x.children(o.Level, step)
	x.w.WriteByte('{')
	var fp path // outside the loop, to stay on the stack (see path)
	for i, f := range o.Fields {
		fp = p.field(f.Key)
		start, mark := x.now(), x.member(i, f.Key)
		var d done
		switch {
		case f.Name == "__typename":
			d = x.str(o.Type.Name)
		case f.Name == "id" && f.Attr == nil:
			d = x.id(e.ID)
		case f.Err != nil:
			x.fieldError(f.Err, f, &fp)
			d = failed
		case f.Morph:
			d = x.morphs(f, e.ID, &fp)
		case f.Attr == nil:
			x.lent = true
			parent := parentValues(step, e)
			if ov, ok := x.values[e]; ok {
				parent = ov
			}
			d = x.customField(o.Type.Name, f, parent, &fp)
		case f.Attr.IsScalar():
			if ov, ok := x.values[e]; ok {
				// An entry an extension's resolver answers: its own values (customEntities).
				d = x.scalar(f.Attr, valueScalar(f.Attr, ov[f.Attr.Name]))
			} else if c, found := cols[f.Attr.Name]; found && c < len(e.Values) {
				d = x.scalar(f.Attr, e.Values[c])
			} else {
				d = x.null()
			}
		case x.emptyPopulate, f.Attr.Unlinked:
			// An unlinked mappedBy relation holds nothing (Strapi fails to resolve it).
			d = x.populated(f, exec.Kid{}, &fp)
		default:
			if uid := x.loadHooked(o); uid != "" {
				d = x.hookedLoad(uid, f, e, kids, &fp)
				break
			}
			d = x.relation(f, e, kids, &fp)
		}
		if x.settled(o.Type.Name, f, &fp, start, mark, d) == failed {
			return failed
		}
	}
	x.w.WriteByte('}')
	return wrote
}

// relation writes a populated field of an entry from the entry's kid the planner made for
// it.
func (x *execution) relation(f *pg.Field, e *exec.Entry, kids []int, p *path) done {
	ci := -1
	if f.Pop >= 0 && f.Pop < len(kids) {
		ci = kids[f.Pop]
	}
	if ci < 0 {
		// The planner left the relation out: the caller may not read its target.
		x.fieldError(forbidden(), f, p)
		return failed
	}
	if ci >= len(e.Kids) {
		return x.null()
	}
	return x.populated(f, e.Kids[ci], p)
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

// populated writes a relation, media, component or dynamic-zone field.
func (x *execution) populated(f *pg.Field, k exec.Kid, p *path) done {
	a := f.Attr
	switch a.Type {
	case schemas.Relation, schemas.Media:
		if f.Object == nil {
			x.w.WriteString("{}")
			return wrote
		}
		if !a.IsToMany() {
			var step *plan.Select
			var e *exec.Entry
			if len(k.Entries) > 0 {
				step, e = k.Steps[0], k.Entries[0]
			}
			mark := x.w.Len()
			if x.entityResponse(f.Object, step, e, p) == failed {
				return x.nullAt(mark)
			}
			return wrote
		}
		o := f.Object
		x.w.WriteByte('{')
		var fp path // outside the loop, to stay on the stack (see path)
		for i, df := range o.Fields {
			fp = p.field(df.Key)
			start, mark := x.now(), x.member(i, df.Key)
			var d done
			switch df.Name {
			case "__typename":
				d = x.str(o.Type.Name)
			case "data":
				d = x.entities(df, k.Entries, nil, k.Steps, &fp)
			default:
				d = x.null()
			}
			if x.settled(o.Type.Name, df, &fp, start, mark, d) == failed {
				return failed
			}
		}
		x.w.WriteByte('}')
		return wrote
	case schemas.ComponentT:
		if f.Object == nil {
			return x.null()
		}
		if !a.Repeatable {
			if len(k.Entries) == 0 {
				return x.null()
			}
			return x.attributes(f.Object, k.Steps[0], k.Entries[0], p)
		}
		x.w.WriteByte('[')
		var ip path // outside the loop, to stay on the stack (see path)
		for i, e := range k.Entries {
			if i > 0 {
				x.w.WriteByte(',')
			}
			ip = p.at(i)
			mark := x.w.Len()
			if x.attributes(f.Object, k.Steps[i], e, &ip) == failed {
				x.nullAt(mark) // [Component] items are nullable
			}
		}
		x.w.WriteByte(']')
		return wrote
	case schemas.DynamicZone:
		x.w.WriteByte('[')
		var ip path // outside the loop, to stay on the stack (see path)
		for i, e := range k.Entries {
			if i > 0 {
				x.w.WriteByte(',')
			}
			step := k.Steps[i]
			o := f.Union[x.h.gs.TypeName(step.Model)]
			if o == nil {
				x.w.WriteString("{}")
				continue
			}
			ip = p.at(i)
			mark := x.w.Len()
			if x.attributes(o, step, e, &ip) == failed {
				x.nullAt(mark)
			}
		}
		x.w.WriteByte(']')
		return wrote
	}
	return x.null()
}

// meta writes ResponseCollectionMeta {pagination}, from the effective start and limit as
// Strapi computes it (limit -1: one page holding everything after start).
func (x *execution) meta(o *pg.Object, rf *pg.RootField, total int64) done {
	if o == nil {
		x.w.WriteString("{}")
		return wrote
	}
	x.w.WriteByte('{')
	n := 0
	for _, f := range o.Fields {
		switch f.Name {
		case "__typename":
			x.member(n, f.Key)
			x.w.Str(o.Type.Name)
			n++
		case "pagination":
			x.member(n, f.Key)
			n++
			if f.Object == nil {
				x.w.WriteString("{}")
				continue
			}
			x.w.WriteByte('{')
			safe := int64(max(rf.Limit, 1))
			start, limit := int64(rf.Start), int64(rf.Limit)
			for i, pf := range f.Object.Fields {
				x.member(i, pf.Key)
				switch pf.Name {
				case "__typename":
					x.w.Str(f.Object.Type.Name)
				case "total":
					x.w.Int(total)
				case "page":
					if limit == -1 {
						x.w.Int(1)
					} else {
						x.w.Int(start/safe + 1)
					}
				case "pageSize":
					if limit == -1 {
						x.w.Int(max(total-start, 0))
					} else {
						x.w.Int(safe)
					}
				case "pageCount":
					if limit == -1 {
						x.w.Int(1)
					} else {
						x.w.Int((total + safe - 1) / safe)
					}
				default:
					x.null()
				}
			}
			x.w.WriteByte('}')
		}
	}
	x.w.WriteByte('}')
	return wrote
}

// scalar writes one attribute value (see exec.Normalize for the Go types) as Strapi's
// GraphQL scalars serialize it.
func (x *execution) scalar(a *schemas.Attribute, v any) done {
	if v == nil {
		return x.null()
	}
	switch a.Type {
	case schemas.BigInteger:
		if n, ok := v.(int64); ok {
			x.long(n)
			return wrote
		}
	case schemas.Decimal:
		if f, ok := v.(float64); ok {
			// decimal(10,2): PostgreSQL rounds on write; round here so SQLite answers alike.
			x.w.Num(math.Round(f*100) / 100)
			return wrote
		}
	case schemas.Time:
		if s, ok := v.(string); ok {
			x.timeOfDay(s)
			return wrote
		}
	case schemas.JSON, schemas.Blocks:
		if raw, ok := v.(json.RawMessage); ok {
			x.w.JSONB(raw)
			return wrote
		}
	case schemas.Enumeration:
		if s, ok := v.(string); ok {
			return x.str(x.h.gs.EnumOut(a, s))
		}
	}
	x.w.value(v)
	return wrote
}

// timeOfDay writes a stored time as the Time scalar does: HH:mm:ss.SSS. A stored time is
// digits, colons and a dot, which Str would copy unchanged, so it is written as it is.
func (x *execution) timeOfDay(s string) {
	if !plainASCII(s) {
		x.w.Str(timeOfDay(s)) // not a stored time: escaped as any string
		return
	}
	hms, frac, _ := strings.Cut(s, ".")
	x.w.WriteByte('"')
	x.w.WriteString(hms)
	if len(hms) == 5 {
		x.w.WriteString(":00")
	}
	x.w.WriteByte('.')
	if len(frac) > 3 {
		frac = frac[:3]
	}
	x.w.WriteString(frac)
	x.w.WriteString("000"[len(frac):])
	x.w.WriteByte('"')
}

// plainASCII reports whether s is printable ASCII without a quote or backslash: text a
// JSON string holds unescaped.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
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

// longValue is a Long as graphql-scalars serializes it: a number while JavaScript can hold
// it exactly, a string beyond.
func longValue(n int64) any {
	if n >= -maxSafe && n <= maxSafe {
		return n
	}
	return strconv.FormatInt(n, 10)
}

// long writes a Long as longValue serializes it.
func (x *execution) long(n int64) {
	if n >= -maxSafe && n <= maxSafe {
		x.w.Int(n)
		return
	}
	x.w.Str(strconv.FormatInt(n, 10))
}
