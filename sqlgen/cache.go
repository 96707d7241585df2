package sqlgen

import (
	"strconv"
	"strings"
	"sync"

	"quarry/planner"
	"quarry/schemas"
)

// slot stands for the i-th value of a step in rendered args; rendered SQL is cached per
// shape with slots, and each request fills in its own values.
type slot int

// shape walks a step once to compute its shape key (everything that changes the SQL text)
// and its values in a fixed order; the renderer refers to values by their slot.
type shape struct {
	key    strings.Builder
	vals   []any
	slotOf map[*planner.Cmp]int
	// Fixed slots of the step.
	parent, limit, offset, upper int
}

func newShape(d *Dialect, s *planner.Select, parentIDs []int64) *shape {
	sh := &shape{slotOf: map[*planner.Cmp]int{}, parent: -1, limit: -1, offset: -1, upper: -1}
	k := &sh.key
	k.WriteString(d.Name)
	k.WriteByte('|')
	k.WriteString(s.Model.UID)
	k.WriteByte('|')
	for _, a := range s.Columns {
		k.WriteString(a.Name)
		k.WriteByte(',')
	}
	if s.CountOnly {
		k.WriteString("|count")
	}
	if v := s.Via; v != nil {
		k.WriteString("|via:")
		k.WriteString(strconv.Itoa(int(v.Kind)))
		if v.Join != nil {
			k.WriteString(v.Join.Table + "." + v.Join.SourceCol + "." + v.Join.TargetCol + "." + v.Join.OrderCol + "." + v.Join.MorphType + "." + v.Join.MorphField)
		}
		k.WriteString(v.ComponentsTable + "." + v.Field + "." + v.ComponentType)
		if v.Count {
			k.WriteString(".n")
		}
		sh.parent = sh.add(d.ListArg(parentIDs))
	}
	if s.Where != nil {
		k.WriteString("|w:")
		sh.expr(s.Where)
	}
	k.WriteString("|o:")
	for _, o := range s.Order {
		writePath(k, o.Path)
		if o.Attr != nil {
			k.WriteString(o.Attr.Name)
		}
		if o.Desc {
			k.WriteString("-")
		}
		k.WriteByte(',')
	}
	k.WriteString("|l:")
	switch {
	case s.Limit >= 0:
		k.WriteByte('1')
		sh.limit = sh.add(s.Limit)
		sh.offset = sh.add(s.Offset)
		sh.upper = sh.add(s.Offset + s.Limit)
	case s.Offset > 0:
		k.WriteByte('o')
		sh.offset = sh.add(s.Offset)
	}
	return sh
}

func (sh *shape) add(v any) int {
	sh.vals = append(sh.vals, v)
	return len(sh.vals) - 1
}

func writePath(k *strings.Builder, path []*schemas.Attribute) {
	for _, a := range path {
		k.WriteString(a.Owner.UID)
		k.WriteByte('.')
		k.WriteString(a.Name)
		k.WriteByte('/')
	}
}

func (sh *shape) expr(e planner.Expr) {
	k := &sh.key
	switch x := e.(type) {
	case planner.And:
		k.WriteString("and(")
		for _, c := range x {
			sh.expr(c)
			k.WriteByte(',')
		}
		k.WriteByte(')')
	case planner.Or:
		k.WriteString("or(")
		for _, c := range x {
			sh.expr(c)
			k.WriteByte(',')
		}
		k.WriteByte(')')
	case planner.Not:
		k.WriteString("not(")
		sh.expr(x.E)
		k.WriteByte(')')
	case planner.Published:
		k.WriteString("pub")
	case *planner.Cmp:
		writePath(k, x.Path)
		if x.Attr != nil {
			k.WriteString(x.Attr.Name)
		} else {
			k.WriteString("id")
		}
		k.WriteByte(' ')
		k.WriteString(x.Op)
		k.WriteByte(' ')
		k.WriteString(strconv.Itoa(len(x.Args)))
		if x.Text {
			k.WriteByte('t')
		}
		sh.slotOf[x] = len(sh.vals)
		sh.vals = append(sh.vals, x.Args...)
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

// Select renders a step through the cache.
func (c *Cache) Select(d *Dialect, s *planner.Select, parentIDs []int64) (Stmt, error) {
	sh := newShape(d, s, parentIDs)
	key := sh.key.String()
	c.mu.RLock()
	hit, ok := c.m[key]
	c.mu.RUnlock()
	if !ok {
		sql, tmpl, err := d.render(s, sh)
		if err != nil {
			return Stmt{}, err
		}
		hit = cached{sql: sql, args: tmpl}
		c.mu.Lock()
		if len(c.m) >= c.Max {
			c.m = map[string]cached{}
		}
		c.m[key] = hit
		c.mu.Unlock()
	}
	return Stmt{SQL: hit.sql, Args: d.resolve(hit.args, sh.vals)}, nil
}

// Len reports the number of cached shapes.
func (c *Cache) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}

// resolve replaces slots by this request's values, converted for the driver.
func (d *Dialect) resolve(tmpl []any, vals []any) []any {
	out := make([]any, len(tmpl))
	for i, a := range tmpl {
		if s, ok := a.(slot); ok {
			a = vals[s]
		}
		out[i] = d.Bind(a)
	}
	return out
}
