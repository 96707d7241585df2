package sqlgen

import (
	"context"
	"slices"
	"sync"

	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/schemas"
)

// Tables is a set of tables read or written, or all of them.
type Tables struct {
	// All: any table (what was read or written is not known exactly).
	All bool
	// Names are sorted and distinct when All is false.
	Names []string
}

// AllTables is the set that meets every other.
var AllTables = Tables{All: true}

// Meets reports whether two sets share a table. A set with All meets any non-empty set.
func (t Tables) Meets(o Tables) bool {
	switch {
	case t.All:
		return o.All || len(o.Names) > 0
	case o.All:
		return len(t.Names) > 0
	}
	i, j := 0, 0
	for i < len(t.Names) && j < len(o.Names) {
		switch {
		case t.Names[i] == o.Names[j]:
			return true
		case t.Names[i] < o.Names[j]:
			i++
		default:
			j++
		}
	}
	return false
}

// TablesOf builds a set from names in any order, with repeats.
func TablesOf(names ...string) Tables {
	n := slices.Clone(names)
	slices.Sort(n)
	return Tables{Names: slices.Compact(n)}
}

// PlanTables lists every table the plan's statements read — each step's own table, the link,
// morph and components tables its Via joins through, and the tables of every path its
// conditions and sort terms reach — exactly as render and hop join them. ok is false when an
// attribute kind on a path is not one hop knows (the caller then assumes all tables).
func PlanTables(p *plan.Plan) (t Tables, ok bool) {
	var names []string
	ok = true
	var step func(s *plan.Select)
	step = func(s *plan.Select) {
		if s == nil {
			return
		}
		names = append(names, s.Model.Table)
		if v := s.Via; v != nil {
			switch v.Kind {
			case plan.ViaLink:
				names = append(names, v.Join.Table)
			case plan.ViaMorph:
				names = append(names, MorphsTable)
			case plan.ViaComponents:
				names = append(names, v.ComponentsTable)
			default:
				ok = false
			}
		}
		exprTables(s.Where, &names, &ok)
		for _, o := range s.Order {
			for _, a := range o.Path {
				hopTables(a, &names, &ok)
			}
		}
		for _, c := range s.Children {
			for _, cs := range c.Steps {
				step(cs)
			}
		}
	}
	step(p.Root)
	step(p.Count)
	if !ok {
		return AllTables, false
	}
	return TablesOf(names...), true
}

func exprTables(e plan.Expr, names *[]string, ok *bool) {
	switch x := e.(type) {
	case plan.And:
		for _, c := range x {
			exprTables(c, names, ok)
		}
	case plan.Or:
		for _, c := range x {
			exprTables(c, names, ok)
		}
	case plan.Not:
		exprTables(x.E, names, ok)
	case *plan.Cmp:
		for _, a := range x.Path {
			hopTables(a, names, ok)
		}
	}
}

// hopTables names the two tables hop joins for one attribute of a path.
func hopTables(a *schemas.Attribute, names *[]string, ok *bool) {
	switch a.Type {
	case schemas.Relation:
		*names = append(*names, a.Link.Table, a.Target.Table)
	case schemas.Media:
		*names = append(*names, MorphsTable, FilesTable)
	case schemas.ComponentT:
		*names = append(*names, a.Owner.ComponentsTable, a.Components[0].Table)
	default:
		*ok = false
	}
}

// ReadSet collects the tables one request's reads touch, for the response cache: plans add
// theirs (exec.Runner.Run), and any other read through the database while the set is in
// the context (database.DB notes it) makes it All, since what that read touched is not
// known. Safe for concurrent use (GraphQL root fields may run side by side).
type ReadSet struct {
	mu    sync.Mutex
	all   bool
	names []string
}

type readSetKey struct{}

// plannedKey marks a context whose reads belong to a plan whose tables are in the set.
type plannedKey struct{}

// WithReadSet returns ctx collecting its reads in a new set.
func WithReadSet(ctx context.Context) (context.Context, *ReadSet) {
	rs := &ReadSet{}
	return context.WithValue(ctx, readSetKey{}, rs), rs
}

// ReadSetOf is ctx's set, nil when nothing collects.
func ReadSetOf(ctx context.Context) *ReadSet {
	rs, _ := ctx.Value(readSetKey{}).(*ReadSet)
	return rs
}

// NotePlan adds the plan's tables to ctx's set (if any) and returns the context its
// statements run in, in which reads count as the plan's.
func NotePlan(ctx context.Context, p *plan.Plan) context.Context {
	rs := ReadSetOf(ctx)
	if rs == nil {
		return ctx
	}
	t, _ := PlanTables(p)
	rs.Add(t)
	return context.WithValue(ctx, plannedKey{}, rs)
}

// NoteRead records a read through the database in ctx: outside a plan (NotePlan) what it
// touched is not known, and the set becomes All.
func NoteRead(ctx context.Context) {
	rs := ReadSetOf(ctx)
	if rs == nil {
		return
	}
	if p, _ := ctx.Value(plannedKey{}).(*ReadSet); p == rs {
		return
	}
	rs.Add(AllTables)
}

// Add adds tables to the set.
func (rs *ReadSet) Add(t Tables) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if t.All {
		rs.all, rs.names = true, nil
		return
	}
	if !rs.all {
		rs.names = append(rs.names, t.Names...)
	}
}

// Tables is what was collected.
func (rs *ReadSet) Tables() Tables {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.all {
		return AllTables
	}
	return TablesOf(rs.names...)
}
