// Package exec runs a read plan (on pgx's native interface for PostgreSQL, through sqlx
// otherwise) and stitches the rows of every level into one result tree of entries. It is shared by the REST and GraphQL front-ends; turning the tree
// into a response belongs to the transport.
package exec

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
)

// Entry is one row of a level with its populated children.
type Entry struct {
	ID     int64
	Values []any // aligned with the step's Columns; see normalize for the Go types
	// Kids is aligned with the step's Children.
	Kids []Kid
	// Component is the component UID of a dynamic-zone item.
	Component string
	order     float64
}

// Kid is the populated value of one attribute of an entry.
type Kid struct {
	Entries []*Entry
	Count   int64
	// Steps maps each entry to the step that produced it (dynamic zones mix several).
	Steps []*plan.Select
}

// Result is the answer to a read plan.
type Result struct {
	Entries []*Entry
	Total   int64
	// Statements counts the SQL statements run, which depends only on the plan's shape.
	Statements int
	// mem holds the entries and values of a native run, for Release.
	mem *runMem
}

// Release hands the memory of the result's entries and their values to later runs (on
// PostgreSQL's native path; elsewhere it does nothing). Call it only once nothing refers
// to the result, its entries or their values any more, as the REST list handler does
// once the response is written: afterwards they hold another request's data.
func (r *Result) Release() {
	if r == nil || r.mem == nil {
		return
	}
	m := r.mem
	r.mem, r.Entries = nil, nil
	m.release()
}

// First is the result's first entry, nil when it has none.
func (r *Result) First() *Entry {
	if len(r.Entries) == 0 {
		return nil
	}
	return r.Entries[0]
}

// ReadOne plans a read for who (nil: everyone) and runs it: the read of one entry, which
// Result.First gives (nil when there is none).
func ReadOne(ctx context.Context, p *planner.Planner, r *Runner, db Queryer, q *ir.Query, who planner.Principal) (*plan.Plan, *Result, error) {
	pl, err := p.Read(q, who)
	if err != nil {
		return nil, nil, err
	}
	res, err := r.Run(ctx, db, pl)
	if err != nil {
		return nil, nil, err
	}
	return pl, res, nil
}

// Queryer is what exec needs from a database or transaction.
type Queryer interface {
	QueryxContext(ctx context.Context, query string, args ...any) (*sqlx.Rows, error)
	QueryRowxContext(ctx context.Context, query string, args ...any) *sqlx.Row
}

// Runner runs plans for one dialect.
type Runner struct {
	Dialect sqlgen.Dialect
	// Cache, when set, keeps rendered SQL per step shape.
	Cache *sqlgen.Cache
	// Finish, when set, sees every result before Run returns it (the upload plugin signs
	// the urls of a private bucket's files there, as Strapi's entity service does).
	Finish func(ctx context.Context, p *plan.Plan, res *Result) error
}

// TraceFunc receives each statement of a run after it ran.
type TraceFunc func(stmt sqlgen.Stmt, rows int, took time.Duration)

type traceKey struct{}

// WithTrace returns a context under which Run reports every statement to fn, so one request
// can be traced without affecting others sharing the Runner.
func WithTrace(ctx context.Context, fn TraceFunc) context.Context {
	if prev := traceOf(ctx); prev != nil {
		// Tracers stack (a statement counter and plan logging may both be on).
		next := fn
		fn = func(st sqlgen.Stmt, rows int, took time.Duration) {
			prev(st, rows, took)
			next(st, rows, took)
		}
	}
	return context.WithValue(ctx, traceKey{}, fn)
}

type roundTripKey struct{}

// WithRoundTrips returns a context under which Run reports each round trip to the database
// with the number of statements it carried, in the order the statements are traced: the
// load driver's pipelined baseline replays a plan's statements grouped the same way.
func WithRoundTrips(ctx context.Context, fn func(statements int)) context.Context {
	return context.WithValue(ctx, roundTripKey{}, fn)
}

func roundTrip(ctx context.Context, statements int) {
	if fn, _ := ctx.Value(roundTripKey{}).(func(int)); fn != nil {
		fn(statements)
	}
}

func traceOf(ctx context.Context) TraceFunc {
	fn, _ := ctx.Value(traceKey{}).(TraceFunc)
	return fn
}

// Traced reports a statement that ran outside Run (the write path's) to ctx's tracer, if
// any.
func Traced(ctx context.Context, st sqlgen.Stmt, rows int, took time.Duration) {
	if fn := traceOf(ctx); fn != nil {
		fn(st, rows, took)
	}
}

// Run executes the plan: the root, the count, then each populate level batched over all
// parents of that level. On a database that lends a native PostgreSQL connection
// (NativeDB) the statements run there, one round trip per level; elsewhere (SQLite, MySQL,
// a transaction) they run one by one through q.
//
// A response cache collecting the request's reads (sqlgen.ReadSet) learns the plan's tables.
func (r *Runner) Run(ctx context.Context, q Queryer, p *plan.Plan) (*Result, error) {
	outer := ctx // Finish's reads are not the plan's
	ctx = sqlgen.NotePlan(ctx, p)
	var res *Result
	var err error
	native := false
	if n, ok := q.(NativeDB); ok { // it declines on engines other than PostgreSQL
		native, err = n.WithNativeConn(ctx, func(c *pgx.Conn) error {
			var err error
			res, err = r.runNative(ctx, c, p)
			return err
		})
	}
	if !native {
		res, err = r.runSequential(ctx, q, p)
	}
	if err != nil {
		return nil, err
	}
	if r.Finish != nil {
		if err := r.Finish(outer, p, res); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// runSequential runs the plan's statements one after the other through q.
func (r *Runner) runSequential(ctx context.Context, q Queryer, p *plan.Plan) (*Result, error) {
	res := &Result{}
	stmt, err := r.render(p.Root, sqlgen.Parents{})
	if err != nil {
		return nil, fmt.Errorf("render root: %w", err)
	}
	entries, err := r.fetch(ctx, q, p.Root, stmt, res)
	if err != nil {
		return nil, err
	}
	res.Entries = entries
	if needCount(p, len(entries)) {
		cs, err := r.render(p.Count, sqlgen.Parents{})
		if err != nil {
			return nil, fmt.Errorf("render count: %w", err)
		}
		start := time.Now()
		roundTrip(ctx, 1)
		if err := q.QueryRowxContext(ctx, cs.SQL, cs.Args...).Scan(&res.Total); err != nil {
			return nil, fmt.Errorf("count: %w", err)
		}
		res.Statements++
		if tr := traceOf(ctx); tr != nil {
			tr(cs, 1, time.Since(start))
		}
	}
	if err := r.children(ctx, q, p.Root, entries, res); err != nil {
		return nil, err
	}
	return res, nil
}

// needCount reports whether the plan's count statement must run after a root page of n rows:
// not when the root counted its rows itself (Select.WithTotal), its first row carrying the
// total, or its first page being empty (no row at all matches).
func needCount(p *plan.Plan, n int) bool { return needCountOf(p, p.Root, n) }

// needCountOf is needCount for the root as run (the native runner may run a copy of the plan's
// root carrying its total, sqlgen.KeysCarryTotal).
func needCountOf(p *plan.Plan, root *plan.Select, n int) bool {
	if p.Count == nil {
		return false
	}
	if !root.WithTotal {
		return true
	}
	return n == 0 && (root.Offset != 0 || root.Limit == 0)
}

// render renders a step; child steps take their level's parents (the zero Parents for the
// root and the count).
func (r *Runner) render(s *plan.Select, parents sqlgen.Parents) (sqlgen.Stmt, error) {
	if r.Cache != nil {
		return r.Cache.SelectParents(r.Dialect, s, parents)
	}
	return sqlgen.Select(r.Dialect, s, parents.IDs())
}

// slabRows is how many rows' entries are allocated at once.
const slabRows = 32

type fetched struct {
	parent int64
	entry  *Entry
	count  int64
}

func (r *Runner) fetch(ctx context.Context, q Queryer, s *plan.Select, stmt sqlgen.Stmt, res *Result) ([]*Entry, error) {
	rows, err := r.query(ctx, q, s, stmt, res)
	if err != nil {
		return nil, err
	}
	out := make([]*Entry, len(rows))
	for i, f := range rows {
		out[i] = f.entry
	}
	return out, nil
}

func (r *Runner) query(ctx context.Context, q Queryer, s *plan.Select, stmt sqlgen.Stmt, res *Result) ([]fetched, error) {
	start := time.Now()
	roundTrip(ctx, 1)
	rows, err := q.QueryxContext(ctx, stmt.SQL, stmt.Args...)
	if err != nil {
		return nil, fmt.Errorf("query %s: %w", s.Model.Table, err)
	}
	defer rows.Close()
	res.Statements++
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	pidAt, ordAt, countAt, totalAt := -1, -1, -1, -1
	for i, c := range cols {
		switch c {
		case sqlgen.ParentCol:
			pidAt = i
		case sqlgen.OrderCol:
			ordAt = i
		case sqlgen.CountCol:
			countAt = i
		case sqlgen.TotalCol:
			totalAt = i
		}
	}
	raw := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range raw {
		ptrs[i] = &raw[i]
	}
	var out []fetched
	var entrySlab []Entry
	var valueSlab []any
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, fmt.Errorf("scan %s: %w", s.Model.Table, err)
		}
		var f fetched
		if pidAt >= 0 {
			f.parent, _ = toInt(raw[pidAt])
		}
		if countAt >= 0 {
			f.count, _ = toInt(raw[countAt])
			out = append(out, f)
			continue
		}
		// Entries and their values come from slabs: one allocation per chunk of rows
		// rather than two per row.
		if len(entrySlab) == 0 {
			entrySlab = make([]Entry, slabRows)
		}
		e := &entrySlab[0]
		entrySlab = entrySlab[1:]
		if len(valueSlab) < len(s.Columns) {
			valueSlab = make([]any, slabRows*max(len(s.Columns), 1))
		}
		e.Values, valueSlab = valueSlab[:len(s.Columns):len(s.Columns)], valueSlab[len(s.Columns):]
		e.ID, _ = toInt(raw[0])
		if totalAt >= 0 && len(out) == 0 {
			res.Total, _ = toInt(raw[totalAt])
		}
		for i, a := range s.Columns {
			if x, ok := raw[i+1].([]byte); ok && (a.Type == schemas.JSON || a.Type == schemas.Blocks) {
				// Scanning into *any already copied the driver's bytes; Normalize would
				// copy them again.
				e.Values[i] = json.RawMessage(x)
				continue
			}
			v, err := Normalize(a.Type, raw[i+1])
			if err != nil {
				return nil, fmt.Errorf("read %s.%s: %w", s.Model.Table, a.Column, err)
			}
			e.Values[i] = v
		}
		if ordAt >= 0 {
			e.order, _ = toFloat(raw[ordAt])
		}
		f.entry = e
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", s.Model.Table, err)
	}
	if tr := traceOf(ctx); tr != nil {
		tr(stmt, len(out), time.Since(start))
	}
	return out, nil
}

// children fetches every populated attribute of a level for all its entries at once.
func (r *Runner) children(ctx context.Context, q Queryer, s *plan.Select, parents []*Entry, res *Result) error {
	if len(s.Children) == 0 || len(parents) == 0 {
		return nil
	}
	// Parents sharing an id (one entry reached along several paths) all get its children:
	// first[id] is the last such parent plus one, next chains the others. One map and one
	// slice, where a map of slices cost an allocation per parent.
	ids := make([]int64, 0, len(parents))
	first := make(map[int64]int32, len(parents))
	next := make([]int32, len(parents))
	kids := make([]Kid, len(parents)*len(s.Children))
	for i, p := range parents {
		p.Kids = kids[i*len(s.Children) : (i+1)*len(s.Children) : (i+1)*len(s.Children)]
		head, ok := first[p.ID]
		if !ok {
			ids = append(ids, p.ID)
		}
		next[i] = head
		first[p.ID] = int32(i + 1)
	}
	// Every child step of the level batches on the same ids: encode their bind value once.
	batch := sqlgen.NewParents(r.Dialect, ids)
	counts := make([]int32, len(parents))
	var stepRows [][]fetched
	for ci, c := range s.Children {
		multi := len(c.Steps) > 1
		stepRows = stepRows[:0]
		for _, step := range c.Steps {
			stmt, err := r.render(step, batch)
			if err != nil {
				return fmt.Errorf("render %s: %w", c.Attr.Name, err)
			}
			rows, err := r.query(ctx, q, step, stmt, res)
			if err != nil {
				return err
			}
			stepRows = append(stepRows, rows)
			level := make([]*Entry, 0, len(rows))
			for _, f := range rows {
				if f.entry != nil {
					if multi {
						f.entry.Component = step.Model.UID
					}
					level = append(level, f.entry)
				}
			}
			if err := r.children(ctx, q, step, level, res); err != nil {
				return err
			}
		}
		distribute(parents, first, next, counts, ci, c, stepRows)
		if multi {
			for _, p := range parents {
				sortByOrder(&p.Kids[ci])
			}
		}
	}
	return nil
}

// distribute hands the rows of child ci (one slice per step) to their parents, in row
// order. Each parent's entries are counted first so that all of them are carved from one
// slice instead of growing a slice per parent.
func distribute(parents []*Entry, first map[int64]int32, next, counts []int32, ci int, c *plan.Child, stepRows [][]fetched) {
	clear(counts)
	total, most := 0, int32(0)
	for _, rows := range stepRows {
		for _, f := range rows {
			for j := first[f.parent]; j != 0; j = next[j-1] {
				if f.entry == nil {
					parents[j-1].Kids[ci].Count = f.count
					continue
				}
				counts[j-1]++
				total++
				most = max(most, counts[j-1])
			}
		}
	}
	if total == 0 {
		return
	}
	multi := len(c.Steps) > 1
	entries := make([]*Entry, total)
	// A single-step child's Steps are all the same step: every parent shares one slice
	// (capped at its length, so an append elsewhere cannot write into another's).
	var steps []*plan.Select
	if multi {
		steps = make([]*plan.Select, total)
	} else {
		steps = make([]*plan.Select, most)
		for i := range steps {
			steps[i] = c.Steps[0]
		}
	}
	off := 0
	for i, p := range parents {
		n := int(counts[i])
		if n == 0 {
			continue
		}
		k := &p.Kids[ci]
		k.Entries = entries[off : off : off+n]
		if multi {
			k.Steps = steps[off : off : off+n]
		} else {
			k.Steps = steps[:n:n]
		}
		off += n
	}
	for si, rows := range stepRows {
		step := c.Steps[si]
		for _, f := range rows {
			if f.entry == nil {
				continue
			}
			for j := first[f.parent]; j != 0; j = next[j-1] {
				k := &parents[j-1].Kids[ci]
				k.Entries = append(k.Entries, f.entry)
				if multi {
					k.Steps = append(k.Steps, step)
				}
			}
		}
	}
}

// sortByOrder merges dynamic-zone items fetched per component type back into stored order.
func sortByOrder(k *Kid) {
	n := len(k.Entries)
	for i := 1; i < n; i++ {
		for j := i; j > 0 && k.Entries[j].order < k.Entries[j-1].order; j-- {
			k.Entries[j], k.Entries[j-1] = k.Entries[j-1], k.Entries[j]
			k.Steps[j], k.Steps[j-1] = k.Steps[j-1], k.Steps[j]
		}
	}
}

// Normalize converts a driver value to the canonical Go value of an attribute type:
// int64 (integer, biginteger), float64 (float, decimal), bool, string (text types, date,
// time), time.Time (datetime, timestamp), json.RawMessage (json) or nil.
func Normalize(t schemas.AttrType, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	// Values the driver already gives in their canonical type are returned as they are:
	// re-boxing them would allocate once per cell.
	switch v.(type) {
	case int64:
		if t == schemas.Integer || t == schemas.BigInteger {
			return v, nil
		}
	case float64:
		if t == schemas.Float || t == schemas.Decimal {
			return v, nil
		}
	case bool:
		if t == schemas.Boolean {
			return v, nil
		}
	case string:
		switch t {
		case schemas.String, schemas.Text, schemas.RichText, schemas.Enumeration, schemas.Email,
			schemas.UID, schemas.Password, schemas.Time:
			return v, nil
		}
	}
	switch t {
	case schemas.Integer, schemas.BigInteger:
		return toInt(v)
	case schemas.Float, schemas.Decimal:
		return toFloat(v)
	case schemas.Boolean:
		switch x := v.(type) {
		case bool:
			return x, nil
		case int64:
			return x != 0, nil
		case string:
			return x == "1" || x == "true" || x == "t", nil
		case []byte:
			s := string(x)
			return s == "1" || s == "true" || s == "t", nil
		}
	case schemas.Date:
		switch x := v.(type) {
		case time.Time:
			return x.Format("2006-01-02"), nil
		case string:
			if len(x) >= 10 {
				return x[:10], nil
			}
			return x, nil
		case []byte:
			return Normalize(t, string(x))
		}
	case schemas.Time:
		switch x := v.(type) {
		case time.Time:
			return x.Format("15:04:05.000"), nil
		case string:
			return x, nil
		case []byte:
			return string(x), nil
		}
	case schemas.DateTime, schemas.Timestamp:
		switch x := v.(type) {
		case time.Time:
			if x.Location() == time.UTC {
				return v, nil // PostgreSQL's timestamps: re-boxing would allocate per cell
			}
			return x.UTC(), nil
		case int64:
			return time.UnixMilli(x).UTC(), nil
		case float64:
			return time.UnixMilli(int64(x)).UTC(), nil
		case string:
			if t, ok := planner.ParseDateTime(x); ok {
				return t, nil
			}
			return nil, fmt.Errorf("unreadable datetime %q", x)
		case []byte:
			return Normalize(t, string(x))
		}
	case schemas.JSON, schemas.Blocks:
		switch x := v.(type) {
		case []byte:
			return json.RawMessage(append([]byte(nil), x...)), nil
		case string:
			return json.RawMessage(x), nil
		}
		b, err := json.Marshal(v)
		return json.RawMessage(b), err
	default:
		switch x := v.(type) {
		case string:
			return x, nil
		case []byte:
			return string(x), nil
		}
		return fmt.Sprint(v), nil
	}
	return nil, fmt.Errorf("unexpected %T for %s", v, t)
}

func toInt(v any) (int64, error) {
	switch x := v.(type) {
	case int64:
		return x, nil
	case int32:
		return int64(x), nil
	case int:
		return int64(x), nil
	case float64:
		return int64(x), nil
	case []byte:
		return strconv.ParseInt(strings.TrimSpace(string(x)), 10, 64)
	case string:
		return strconv.ParseInt(strings.TrimSpace(x), 10, 64)
	}
	return 0, fmt.Errorf("unexpected %T for an integer", v)
}

func toFloat(v any) (float64, error) {
	switch x := v.(type) {
	case float64:
		return x, nil
	case float32:
		return float64(x), nil
	case int64:
		return float64(x), nil
	case []byte:
		return strconv.ParseFloat(string(x), 64)
	case string:
		f, err := strconv.ParseFloat(x, 64)
		if err != nil || math.IsNaN(f) {
			return 0, fmt.Errorf("unreadable number %q", x)
		}
		return f, nil
	}
	return 0, fmt.Errorf("unexpected %T for a number", v)
}
