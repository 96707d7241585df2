package planner

import (
	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/schemas"
)

// slab hands out consecutive pieces of one allocation. Read sizes its slabs from the query's
// shape before planning, so a plan costs a few allocations rather than several per populated
// attribute and filter. A count that falls short only costs another allocation. Pieces are
// never handed out twice and a plan keeps its slabs alive, so plans stay valid after Read.
type slab[T any] []T

func (s *slab[T]) reserve(n int) {
	if n > 0 {
		*s = make([]T, 0, n)
	}
}

// take returns n zero elements. Their capacity ends with them, so that appending to one piece
// of a plan cannot overwrite the next.
func (s *slab[T]) take(n int) []T {
	if n == 0 {
		return nil
	}
	if n > cap(*s)-len(*s) {
		*s = make([]T, 0, max(n, 4))
	}
	l := len(*s)
	*s = (*s)[:l+n]
	return (*s)[l : l+n : l+n]
}

// node is a populated attribute's Child with its first statement, carved together.
type node struct {
	child plan.Child
	sel   plan.Select
	via   plan.Via
}

// cmpSlot is a Cmp with room for the single operand most comparisons take.
type cmpSlot struct {
	cmp plan.Cmp
	arg [1]any
}

// sizes counts what planning a query takes from each slab. It walks the query as planning
// does but checks nothing, and counts generously where telling would need a lookup: a query
// that turns out invalid only leaves its slabs partly used.
type sizes struct {
	nodes, kids, steps, attrs, exprs, cmps, args, orders, bare, text int
	maxDepth                                                         int
}

// noOptions stands for a populated attribute that populate=* reaches without options; it is
// only read.
var noOptions ir.PopulateField

func (z *sizes) query(m *schemas.Model, q *ir.Query) {
	z.attrs += len(q.Fields)
	z.sort(q.Sort)
	if q.Filters != nil {
		z.attrs += len(q.Sort) + len(q.Fields) // sortColumnsFirst
		z.filter(q.Filters, 0)
	}
	if m.Localized {
		z.cmps++
		z.args += len(q.Locale)
	}
	if q.ID != "" {
		z.cmps++
	}
	if q.Populate != nil {
		z.populate(m, q.Populate, 0)
	}
}

func (z *sizes) sort(keys []ir.Sort) {
	z.orders += len(keys)
	for _, k := range keys {
		if len(k.Path) > 1 {
			z.attrs += len(k.Path) - 1
		}
	}
}

// filter counts a filter tree depth relations below its model.
func (z *sizes) filter(f *ir.Filter, depth int) {
	switch f.Kind {
	case ir.And, ir.Or, ir.Not:
	case ir.Relation:
		depth++
		z.attrs += depth
	default:
		z.cond(f, depth)
		return
	}
	z.exprs += len(f.Children)
	for _, c := range f.Children {
		z.filter(c, depth)
	}
}

func (z *sizes) cond(f *ir.Filter, depth int) {
	if f.Field != "id" {
		z.attrs += depth + 1 // the path, should the field be a relation compared by id
	}
	op := ir.LookupOperator(f.Operator)
	if op == nil {
		return // refused by the planner
	}
	switch op.Operand {
	case ir.Flag:
		z.cmps++
		return
	case ir.ValueList:
		z.cmps++
		z.args += len(f.Values)
		return
	case ir.ValuePair:
		z.cmps++
		z.args += 2
		return
	}
	z.cmps += len(f.Values)
	if len(f.Values) > 1 {
		z.exprs += len(f.Values)
	}
	if op.Prefix != "" || op.Suffix != "" { // a LIKE pattern built in the text buffer
		for _, v := range f.Values {
			n := len(v.S)
			if v.Kind == ir.VNull {
				n = len("null")
			}
			if n+2 <= maxLikePattern {
				z.text += n + 2
			}
		}
	}
}

func (z *sizes) populate(m *schemas.Model, pop *ir.Populate, depth int) {
	if depth >= z.maxDepth {
		return
	}
	if !pop.All {
		z.kids += len(pop.Children)
		for _, f := range pop.Children {
			if a, ok := m.Attr(f.Field); ok && !a.IsScalar() {
				z.child(a, f, depth)
			}
		}
		return
	}
	for _, a := range m.Attributes {
		if a.IsScalar() {
			continue
		}
		z.kids++
		f := pop.Find(a.Name)
		if f == nil {
			z.bare++
			f = &noOptions
		}
		z.child(a, f, depth)
	}
}

func (z *sizes) child(a *schemas.Attribute, f *ir.PopulateField, depth int) {
	if a.Type != schemas.DynamicZone {
		z.nodes++
		z.step(target(a), f, depth)
		return
	}
	k := 0
	for _, comp := range a.Components {
		if cf := componentOptions(f, comp); cf != nil {
			k++
			z.step(comp, cf, depth)
		}
	}
	z.nodes += max(k, 1)
	if k > 1 {
		z.steps += k
	}
}

func (z *sizes) step(m *schemas.Model, f *ir.PopulateField, depth int) {
	z.attrs += len(f.Fields)
	z.sort(f.Sort)
	if f.Filters != nil {
		z.exprs += 2 // the filters and Published
		z.filter(f.Filters, 0)
	}
	if f.Populate != nil {
		z.populate(m, f.Populate, depth+1)
	}
}

// reserve sizes b's slabs for what z counted.
func (b *builder) reserve(z *sizes) {
	b.nodes.reserve(z.nodes)
	b.kids.reserve(z.kids)
	b.steps.reserve(z.steps)
	b.attrs.reserve(z.attrs)
	b.exprs.reserve(z.exprs)
	b.cmps.reserve(z.cmps)
	b.args.reserve(z.args)
	b.orders.reserve(z.orders)
	b.bare.reserve(z.bare)
	if z.text > 0 {
		b.text.Grow(z.text)
	}
}
