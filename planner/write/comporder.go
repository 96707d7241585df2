package write

import (
	"slices"

	"github.com/quarrycms/quarry/schemas"
)

// componentOrder lists the components an entry write holds, at any depth, in the order
// Strapi 4 writes their rows, which is the order their ids come out in.
//
// Strapi's entity service creates a component's own components before the component's row:
// one attribute after another, a single component awaited, the items of a repeatable
// component or a dynamic zone concurrently (mapAsync). On the one connection of the write's
// transaction the statements queue in the order they are issued, so a component holding no
// components gets its row (and id) before a sibling that first has to create its own: a
// feature grid's items [with a link, plain, plain] come out [3, 1, 2]. The simulation below
// replays that schedule: each component is a small program of statements (its children, its
// INSERT, one link statement per component attribute it fills, the SELECT that reads it back),
// statements run first-in first-out, and those issued in the same burst of JavaScript run in
// the order of the promise hops that precede them (one per awaited createComponents and one
// per mapAsync level).
func componentOrder(op *entryOp) []*compItem {
	s := &compSim{}
	root := s.node(nil, nil, op)
	s.start(root, 0)
	s.flush()
	for len(s.queue) > 0 {
		q := s.queue[0]
		s.queue = s.queue[1:]
		s.exec(q)
		s.flush()
	}
	if n := countItems(op); len(s.order) != n {
		// Not expected; a write must still write every component, depth first.
		s.order = s.order[:0]
		var walk func(*entryOp)
		walk = func(op *entryOp) {
			for _, cf := range op.comps {
				for _, it := range cf.items {
					walk(it.op)
					s.order = append(s.order, it)
				}
			}
		}
		walk(op)
	}
	return s.order
}

func countItems(op *entryOp) int {
	n := 0
	for _, cf := range op.comps {
		for _, it := range cf.items {
			n += 1 + countItems(it.op)
		}
	}
	return n
}

type compSim struct {
	queue []simStmt
	burst []simStmt
	seq   int
	order []*compItem
}

type simNode struct {
	item    *compItem // nil for the entry itself
	parent  *simNode
	groups  []simGroup
	next    int // the next group to create
	pending int // children of the current group not done yet
	after   int // statements left after the INSERT (links, read-back)
	links   int
}

type simGroup struct {
	concurrent bool
	kids       []*simNode
}

// simStmt is one statement issued at ticks promise hops into its burst.
type simStmt struct {
	n      *simNode
	ticks  int
	seq    int
	insert bool
}

func (s *compSim) node(parent *simNode, it *compItem, op *entryOp) *simNode {
	n := &simNode{item: it, parent: parent}
	for _, cf := range op.comps {
		g := simGroup{concurrent: cf.attr.Type == schemas.DynamicZone || cf.attr.Repeatable}
		if !g.concurrent && len(cf.items) == 0 {
			continue // null: Strapi skips the attribute
		}
		for _, k := range cf.items {
			g.kids = append(g.kids, s.node(n, k, k.op))
		}
		if len(g.kids) > 0 {
			n.links++
		}
		n.groups = append(n.groups, g)
	}
	for _, rf := range op.rels {
		if !rf.attr.Unlinked {
			n.links++
		}
	}
	return n
}

func (s *compSim) emit(n *simNode, ticks int, insert bool) {
	s.burst = append(s.burst, simStmt{n: n, ticks: ticks, seq: s.seq, insert: insert})
	s.seq++
}

// flush queues the statements of the burst that just ran, in the order of their hops.
func (s *compSim) flush() {
	slices.SortStableFunc(s.burst, func(a, b simStmt) int { return a.ticks - b.ticks })
	s.queue = append(s.queue, s.burst...)
	s.burst = s.burst[:0]
}

func (s *compSim) start(n *simNode, t int) {
	n.next = 0
	s.advance(n, t)
}

// advance runs n's createComponents on from its next attribute, at t hops.
func (s *compSim) advance(n *simNode, t int) {
	for n.next < len(n.groups) {
		g := n.groups[n.next]
		n.next++
		switch {
		case len(g.kids) == 0:
			t++ // an awaited mapAsync of nothing
		case !g.concurrent:
			n.pending = 1
			s.start(g.kids[0], t)
			return
		default:
			n.pending = len(g.kids)
			for _, k := range g.kids {
				s.start(k, t+1) // mapAsync calls its mapper after one hop
			}
			return
		}
	}
	if n.item == nil {
		return // the entry's own row: the components are all written by then
	}
	s.emit(n, t+1, true)
}

func (s *compSim) exec(q simStmt) {
	n := q.n
	if q.insert {
		s.order = append(s.order, n.item)
		n.after = n.links + 1 // the links, then the read-back
	} else {
		n.after--
	}
	if n.after > 0 {
		s.emit(n, 1, false)
		return
	}
	p := n.parent
	p.pending--
	if p.pending == 0 {
		s.advance(p, 1)
	}
}
