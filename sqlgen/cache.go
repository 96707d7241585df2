package sqlgen

import (
	"strconv"
	"sync"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/schemas"
)

// slot stands for the i-th value of a step in rendered args; rendered SQL is cached per
// shape with slots, and each request fills in its own values.
type slot int

// shape walks a step once to compute its shape key (everything that changes the SQL text)
// and its values in a fixed order; the renderer refers to values by their slot. Shapes are
// pooled: building the key is on every request's path.
type shape struct {
	d    Dialect
	key  []byte
	vals []any
	cmps []cmpSlot
	// Fixed slots of the step.
	parent, limit, offset, upper int
}

type cmpSlot struct {
	c    *plan.Cmp
	slot int
}

// slotOf finds the first slot of a condition's values; conditions per step are few, so a
// scan beats a map.
func (sh *shape) slotOf(c *plan.Cmp) int {
	for _, x := range sh.cmps {
		if x.c == c {
			return x.slot
		}
	}
	return -1
}

var shapes = sync.Pool{New: func() any { return &shape{key: make([]byte, 0, 256), vals: make([]any, 0, 16)} }}

func newShape(d Dialect, s *plan.Select, parents Parents) *shape {
	sh := shapes.Get().(*shape)
	sh.d, sh.key, sh.vals, sh.cmps = d, sh.key[:0], sh.vals[:0], sh.cmps[:0]
	sh.parent, sh.limit, sh.offset, sh.upper = -1, -1, -1, -1
	sh.str(d.Name())
	sh.byte('|')
	sh.str(s.Model.UID)
	sh.byte('|')
	for _, a := range s.Columns {
		sh.str(a.Name)
		sh.byte(',')
	}
	if s.CountOnly {
		sh.str("|count")
	}
	if s.WithTotal {
		sh.str("|total")
	}
	if v := s.Via; v != nil {
		sh.str("|via:")
		sh.key = strconv.AppendInt(sh.key, int64(v.Kind), 10)
		if j := v.Join; j != nil {
			for _, part := range [...]string{j.Table, j.SourceCol, j.TargetCol, j.OrderCol, j.MorphType, j.MorphField} {
				sh.str(part)
				sh.byte('.')
			}
		}
		for _, part := range [...]string{v.ComponentsTable, v.Field, v.ComponentType} {
			sh.str(part)
			sh.byte('.')
		}
		if v.Count {
			sh.str("n")
		}
		sh.parent = sh.add(parents.argFor(d))
	}
	if s.Where != nil {
		sh.str("|w:")
		sh.expr(s.Where)
	}
	sh.str("|o:")
	for _, o := range s.Order {
		sh.path(o.Path)
		if o.Attr != nil {
			sh.str(o.Attr.Name)
		}
		if o.Desc {
			sh.byte('-')
		}
		if o.Indexed {
			sh.byte('#')
		}
		sh.byte(',')
	}
	sh.str("|l:")
	switch {
	case s.Limit >= 0:
		sh.byte('1')
		sh.limit = sh.add(s.Limit)
		sh.offset = sh.add(s.Offset)
		sh.upper = sh.add(s.Offset + s.Limit)
	case s.Offset > 0:
		sh.byte('o')
		sh.offset = sh.add(s.Offset)
	}
	return sh
}

// release returns the shape to the pool; nothing may keep its slices.
func (sh *shape) release() {
	clear(sh.vals)
	clear(sh.cmps)
	sh.d = nil
	shapes.Put(sh)
}

func (sh *shape) str(s string) { sh.key = append(sh.key, s...) }
func (sh *shape) byte(c byte)  { sh.key = append(sh.key, c) }

func (sh *shape) add(v any) int {
	sh.vals = append(sh.vals, v)
	return len(sh.vals) - 1
}

func (sh *shape) path(path []*schemas.Attribute) {
	for _, a := range path {
		sh.str(a.Owner.UID)
		sh.byte('.')
		sh.str(a.Name)
		sh.byte('/')
	}
}

func (sh *shape) expr(e plan.Expr) {
	switch x := e.(type) {
	case plan.And:
		sh.str("and(")
		for _, c := range x {
			sh.expr(c)
			sh.byte(',')
		}
		sh.byte(')')
	case plan.Or:
		sh.str("or(")
		for _, c := range x {
			sh.expr(c)
			sh.byte(',')
		}
		sh.byte(')')
	case plan.Not:
		sh.str("not(")
		sh.expr(x.E)
		sh.byte(')')
	case plan.Published:
		sh.str("pub")
	case *plan.Cmp:
		sh.path(x.Path)
		if x.Attr != nil {
			sh.str(x.Attr.Name)
		} else {
			sh.str("id")
		}
		sh.byte(' ')
		sh.str(string(x.Op))
		sh.byte(' ')
		sh.key = strconv.AppendInt(sh.key, int64(len(x.Args)), 10)
		if x.Text {
			sh.byte('t')
		}
		sh.cmps = append(sh.cmps, cmpSlot{x, len(sh.vals)})
		switch x.Op {
		case ir.CmpLike, ir.CmpNotLike, ir.CmpILike, ir.CmpNotILike, ir.CmpSearch:
			for _, a := range x.Args {
				if p, ok := a.(string); ok {
					if q := sh.d.likeValue(p); q != p {
						a = q // boxed anew only when it changed: the pattern's own box stays
					}
				}
				sh.vals = append(sh.vals, a)
			}
		default:
			sh.vals = append(sh.vals, x.Args...)
		}
	}
}

// Cache keeps rendered SQL per step shape, so a repeated query shape is rendered once and
// each request only binds its values.
type Cache struct {
	mu sync.RWMutex
	m  map[string]cached
	// Max bounds the number of shapes kept; a full cache is cleared (shapes are few in
	// practice; a client generating endless shapes cannot grow memory without bound).
	Max int
}

type cached struct {
	sql  string
	args []any // slot or constant
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{m: map[string]cached{}, Max: 4096} }

// Select renders a step through the cache. Child steps take the ids of their parents, which
// are encoded for this step alone; SelectParents shares one encoding between steps.
func (c *Cache) Select(d Dialect, s *plan.Select, parentIDs []int64) (Stmt, error) {
	return c.SelectParents(d, s, Parents{ids: parentIDs})
}

// SelectParents renders a step through the cache with its parents' ids already encoded, as
// the runner does for all the child steps of a level (the zero Parents for a root step).
func (c *Cache) SelectParents(d Dialect, s *plan.Select, parents Parents) (Stmt, error) {
	sh := newShape(d, s, parents)
	defer sh.release()
	c.mu.RLock()
	hit, ok := c.m[string(sh.key)] // the conversion does not allocate in a map index
	c.mu.RUnlock()
	if !ok {
		sql, tmpl, err := render(d, s, sh)
		if err != nil {
			return Stmt{}, err
		}
		hit = cached{sql: sql, args: tmpl}
		c.mu.Lock()
		if len(c.m) >= c.Max {
			c.m = map[string]cached{}
		}
		c.m[string(sh.key)] = hit
		c.mu.Unlock()
	}
	return Stmt{SQL: hit.sql, Args: resolve(d, hit.args, sh.vals)}, nil
}

// Len reports the number of cached shapes.
func (c *Cache) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}

// resolve replaces slots by this request's values, converted for the driver.
func resolve(d Dialect, tmpl []any, vals []any) []any {
	out := newArgs(len(tmpl))
	for i, a := range tmpl {
		if s, ok := a.(slot); ok {
			a = vals[s]
		}
		out[i] = d.Bind(a)
	}
	return out
}

// Stmt.Args outlives rendering (the driver and tracers read it), so it cannot be recycled,
// but the bind values of many statements can share one backing array: argChunks holds
// partly used arrays whose unused tail is handed out next. Every statement would otherwise
// cost an allocation of its own. A handed-out slice has its capacity capped at its length,
// so an append by its holder copies instead of overwriting the next statement's values.
var argChunks = sync.Pool{New: func() any { return new(argChunk) }}

type argChunk struct{ free []any }

const (
	argChunkLen = 128
	// Statements with more values than this get an array of their own, so that one
	// large statement does not waste most of a chunk.
	argChunkMax = argChunkLen / 4
)

// newArgs returns a zeroed slice of n bind values, len and cap n.
func newArgs(n int) []any {
	if n == 0 {
		return []any{}
	}
	if n > argChunkMax {
		return make([]any, n)
	}
	ch := argChunks.Get().(*argChunk)
	if len(ch.free) < n {
		ch.free = make([]any, argChunkLen)
	}
	out := ch.free[:n:n]
	ch.free = ch.free[n:]
	argChunks.Put(ch)
	return out
}
