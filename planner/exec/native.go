package exec

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"
	"unsafe"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
)

// NativeDB is a database whose plans can run on pgx's native connection (PostgreSQL): each
// statement's rows are decoded from the wire straight into the entries' values, without
// database/sql's conversions, and the statements of one populate level share one round
// trip. WithNativeConn reports false when the database has no such connection (SQLite,
// MySQL), and the plan then runs through Queryer.
type NativeDB interface {
	WithNativeConn(ctx context.Context, fn func(*pgx.Conn) error) (bool, error)
}

// runNative runs the plan on one native connection: the root and its count in one batch,
// then, level by level, every child step of every entry of the level in one batch. The
// statements and their results are those of the sequential run; only the round trips differ.
func (r *Runner) runNative(ctx context.Context, c *pgx.Conn, p *plan.Plan) (*Result, error) {
	res := &Result{}
	stmt, err := r.render(p.Root, sqlgen.Parents{})
	if err != nil {
		return nil, fmt.Errorf("render root: %w", err)
	}
	var b pgx.Batch
	b.Queue(stmt.SQL, stmt.Args...)
	var cs sqlgen.Stmt
	if p.Count != nil {
		if cs, err = r.render(p.Count, sqlgen.Parents{}); err != nil {
			return nil, fmt.Errorf("render count: %w", err)
		}
		b.Queue(cs.SQL, cs.Args...)
	}
	start := time.Now()
	roundTrip(ctx, b.Len())
	br := c.SendBatch(ctx, &b)
	rows, err := r.readNative(ctx, br, p.Root, stmt, res, start)
	if err == nil && p.Count != nil {
		if err = br.QueryRow().Scan(&res.Total); err != nil {
			err = fmt.Errorf("count: %w", err)
		} else {
			res.Statements++
			if tr := traceOf(ctx); tr != nil {
				tr(cs, 1, time.Since(start))
			}
		}
	}
	if cerr := br.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("query %s: %w", p.Root.Model.Table, cerr)
	}
	if err != nil {
		return nil, err
	}
	res.Entries = make([]*Entry, len(rows))
	for i, f := range rows {
		res.Entries[i] = f.entry
	}
	if err := r.nativeLevel(ctx, c, []levelNode{{step: p.Root, parents: res.Entries}}, res); err != nil {
		return nil, err
	}
	return res, nil
}

// levelNode is one step's entries within a populate level: the parents of its children.
type levelNode struct {
	step    *plan.Select
	parents []*Entry
	// first and next index parents by id, as in children.
	first  map[int64]int32
	next   []int32
	counts []int32
	// at is the index in the level's batch of the node's first child statement.
	at int
}

// nativeLevel fetches the children of every node of a level in one batch, hands them to
// their parents, and goes on with the level they form.
func (r *Runner) nativeLevel(ctx context.Context, c *pgx.Conn, nodes []levelNode, res *Result) error {
	var b pgx.Batch
	var stmts []sqlgen.Stmt
	var steps []*plan.Select
	for ni := range nodes {
		n := &nodes[ni]
		s := n.step
		n.at = len(stmts)
		if len(s.Children) == 0 || len(n.parents) == 0 {
			continue
		}
		ids := make([]int64, 0, len(n.parents))
		n.first = make(map[int64]int32, len(n.parents))
		n.next = make([]int32, len(n.parents))
		n.counts = make([]int32, len(n.parents))
		kids := make([]Kid, len(n.parents)*len(s.Children))
		for i, p := range n.parents {
			p.Kids = kids[i*len(s.Children) : (i+1)*len(s.Children) : (i+1)*len(s.Children)]
			head, ok := n.first[p.ID]
			if !ok {
				ids = append(ids, p.ID)
			}
			n.next[i] = head
			n.first[p.ID] = int32(i + 1)
		}
		parents := sqlgen.NewParents(r.Dialect, ids)
		for _, ch := range s.Children {
			for _, step := range ch.Steps {
				stmt, err := r.render(step, parents)
				if err != nil {
					return fmt.Errorf("render %s: %w", ch.Attr.Name, err)
				}
				b.Queue(stmt.SQL, stmt.Args...)
				stmts = append(stmts, stmt)
				steps = append(steps, step)
			}
		}
	}
	if len(stmts) == 0 {
		return nil
	}
	start := time.Now()
	roundTrip(ctx, b.Len())
	br := c.SendBatch(ctx, &b)
	all := make([][]fetched, len(stmts))
	for i, stmt := range stmts {
		rows, err := r.readNative(ctx, br, steps[i], stmt, res, start)
		if err != nil {
			br.Close()
			return err
		}
		all[i] = rows
	}
	if err := br.Close(); err != nil {
		return fmt.Errorf("query %s: %w", steps[0].Model.Table, err)
	}
	var next []levelNode
	for ni := range nodes {
		n := &nodes[ni]
		if n.first == nil {
			continue
		}
		at := n.at
		for ci, ch := range n.step.Children {
			multi := len(ch.Steps) > 1
			stepRows := all[at : at+len(ch.Steps)]
			for si, step := range ch.Steps {
				level := make([]*Entry, 0, len(stepRows[si]))
				for _, f := range stepRows[si] {
					if f.entry != nil {
						if multi {
							f.entry.Component = step.Model.UID
						}
						level = append(level, f.entry)
					}
				}
				if len(step.Children) > 0 && len(level) > 0 {
					next = append(next, levelNode{step: step, parents: level})
				}
			}
			distribute(n.parents, n.first, n.next, n.counts, ci, ch, stepRows)
			if multi {
				for _, p := range n.parents {
					sortByOrder(&p.Kids[ci])
				}
			}
			at += len(ch.Steps)
		}
	}
	if len(next) == 0 {
		return nil
	}
	return r.nativeLevel(ctx, c, next, res)
}

// readNative reads the next result of a batch as the rows of step s.
func (r *Runner) readNative(ctx context.Context, br pgx.BatchResults, s *plan.Select, stmt sqlgen.Stmt, res *Result, start time.Time) ([]fetched, error) {
	rows, err := br.Query()
	if err != nil {
		return nil, fmt.Errorf("query %s: %w", s.Model.Table, err)
	}
	defer rows.Close()
	res.Statements++
	fds := rows.FieldDescriptions()
	m := rows.Conn().TypeMap()
	// One decoder per column, holding its scan plan and its scratch value.
	decs := make([]wireDecoder, len(fds))
	scratch := &wireScratch{}
	pidAt, ordAt, countAt := -1, -1, -1
	for i := range fds {
		decs[i].wireScratch = scratch
		decs[i].init(m, &fds[i])
		switch fds[i].Name {
		case sqlgen.ParentCol:
			pidAt = i
		case sqlgen.OrderCol:
			ordAt = i
		case sqlgen.CountCol:
			countAt = i
		}
	}
	if countAt < 0 && len(fds) < len(s.Columns)+1 {
		return nil, fmt.Errorf("read %s: %d columns for %d attributes", s.Model.Table, len(fds), len(s.Columns))
	}
	var out []fetched
	var entrySlab []Entry
	var valueSlab []any
	// Slabs start small and double: most child statements return a few rows, and a full
	// slab for each would allocate (and clear) far more than they use.
	chunk := 2
	for rows.Next() {
		raw := rows.RawValues()
		var f fetched
		if pidAt >= 0 {
			if f.parent, err = decs[pidAt].int(raw[pidAt]); err != nil {
				return nil, fmt.Errorf("scan %s: %w", s.Model.Table, err)
			}
		}
		if countAt >= 0 {
			if f.count, err = decs[countAt].int(raw[countAt]); err != nil {
				return nil, fmt.Errorf("scan %s: %w", s.Model.Table, err)
			}
			out = append(out, f)
			continue
		}
		if len(entrySlab) == 0 {
			chunk = min(chunk*2, slabRows)
			entrySlab = make([]Entry, chunk)
			valueSlab = make([]any, chunk*len(s.Columns))
		}
		e := &entrySlab[0]
		entrySlab = entrySlab[1:]
		e.Values, valueSlab = valueSlab[:len(s.Columns):len(s.Columns)], valueSlab[len(s.Columns):]
		if e.ID, err = decs[0].int(raw[0]); err != nil {
			return nil, fmt.Errorf("scan %s: %w", s.Model.Table, err)
		}
		for i, a := range s.Columns {
			v, err := decs[i+1].value(a.Type, raw[i+1])
			if err != nil {
				return nil, fmt.Errorf("read %s.%s: %w", s.Model.Table, a.Column, err)
			}
			e.Values[i] = v
		}
		if ordAt >= 0 && raw[ordAt] != nil {
			v, err := decs[ordAt].driver(raw[ordAt])
			if err != nil {
				return nil, fmt.Errorf("scan %s: %w", s.Model.Table, err)
			}
			e.order, _ = toFloat(v)
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

// wireKind is how a column's wire value is decoded: the same Go value database/sql's pgx
// adapter would give for its type, so that Normalize (shared with the other engines) turns
// it into the same entry value and responses stay byte-identical across paths.
type wireKind uint8

const (
	wireText wireKind = iota
	wireBool
	wireBytes
	wireUint32
	wireDate
	wireFloat4
	wireFloat8
	wireInt2
	wireInt4
	wireInt8
	wireJSON
	wireTimestamp
	wireTimestamptz
	// wireString is text, varchar or char: the same bytes in the text and binary formats.
	wireString
	// wireNumeric is numeric, decoded to a float directly when that is exact (see value).
	wireNumeric
)

// wireDecoder decodes one column.
type wireDecoder struct {
	kind wireKind
	// binary is whether a numeric comes in PostgreSQL's binary format.
	binary bool
	plan   pgtype.ScanPlan
	*wireScratch
}

// wireScratch holds the scan targets of one statement's columns, shared by its decoders
// (one cell is decoded at a time): scanning into them allocates nothing per cell.
type wireScratch struct {
	b    bool
	i16  int16
	i32  int32
	i64  int64
	f32  float32
	f64  float64
	s    string
	bs   []byte
	u32  pgtype.Uint32
	date pgtype.Date
	ts   pgtype.Timestamp
	tstz pgtype.Timestamptz
	// strs holds the bytes of short strings, several cells to an allocation.
	strs stringArena
}

// stringArena copies short strings into shared chunks: one allocation for many cells
// instead of one per cell. A chunk lives as long as any of its strings (one response).
type stringArena struct{ buf []byte }

const (
	arenaFirst = 512     // the first chunk; each next one is twice the last, up to arenaChunk
	arenaChunk = 8 << 10 // the largest chunk
	arenaMax   = 256     // longer strings get their own allocation
)

func (a *stringArena) str(src []byte) string {
	n := len(src)
	if n == 0 {
		return ""
	}
	if a == nil || n > arenaMax {
		return string(src)
	}
	if cap(a.buf)-len(a.buf) < n {
		a.buf = make([]byte, 0, min(max(2*cap(a.buf), arenaFirst), arenaChunk))
	}
	off := len(a.buf)
	a.buf = append(a.buf, src...)
	return unsafe.String(&a.buf[off], n)
}

// pow10 are the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// exactFloat is i×10^exp as the nearest float64 when one multiplication or division of
// exact operands gives it (an integer of at most 53 bits, a power of ten up to 1e22): then
// it is the value strconv.ParseFloat gives for the number's decimal text, the sequential
// path's.
func exactFloat(i int64, exp int) (float64, bool) {
	if i > 1<<53 || i < -(1<<53) || exp > 22 || exp < -22 {
		return 0, false
	}
	if exp < 0 {
		return float64(i) / pow10[-exp], true
	}
	return float64(i) * pow10[exp], true
}

// numericFloat reads a numeric in PostgreSQL's binary format (digit count, weight, sign,
// display scale, then base-10000 digits) as a float64 where exactFloat can; false leaves it
// to the general path (big, NaN, infinite or malformed values).
func numericFloat(src []byte) (float64, bool) {
	if len(src) < 8 {
		return 0, false
	}
	ndigits := int(int16(binary.BigEndian.Uint16(src)))
	weight := int(int16(binary.BigEndian.Uint16(src[2:])))
	sign := binary.BigEndian.Uint16(src[4:])
	if ndigits < 0 || len(src) != 8+2*ndigits || (sign != 0 && sign != 0x4000) {
		return 0, false
	}
	var m int64
	for k := 0; k < ndigits; k++ {
		if m > (1<<53)/10000 {
			return 0, false
		}
		m = m*10000 + int64(binary.BigEndian.Uint16(src[8+2*k:]))
	}
	if sign == 0x4000 {
		m = -m
	}
	if ndigits == 0 {
		return 0, true
	}
	return exactFloat(m, 4*(weight-ndigits+1))
}

func (d *wireDecoder) init(m *pgtype.Map, fd *pgconn.FieldDescription) {
	var target any
	switch fd.DataTypeOID {
	case pgtype.BoolOID:
		d.kind, target = wireBool, &d.b
	case pgtype.ByteaOID, pgtype.XMLOID:
		d.kind, target = wireBytes, &d.bs
	case pgtype.CIDOID, pgtype.OIDOID, pgtype.XIDOID:
		d.kind, target = wireUint32, &d.u32
	case pgtype.DateOID:
		d.kind, target = wireDate, &d.date
	case pgtype.Float4OID:
		d.kind, target = wireFloat4, &d.f32
	case pgtype.Float8OID:
		d.kind, target = wireFloat8, &d.f64
	case pgtype.Int2OID:
		d.kind, target = wireInt2, &d.i16
	case pgtype.Int4OID:
		d.kind, target = wireInt4, &d.i32
	case pgtype.Int8OID:
		d.kind, target = wireInt8, &d.i64
	case pgtype.JSONOID, pgtype.JSONBOID:
		d.kind, target = wireJSON, &d.bs
	case pgtype.TimestampOID:
		d.kind, target = wireTimestamp, &d.ts
	case pgtype.TimestamptzOID:
		d.kind, target = wireTimestamptz, &d.tstz
	case pgtype.TextOID, pgtype.VarcharOID, pgtype.BPCharOID:
		d.kind = wireString
		return
	case pgtype.NumericOID:
		d.kind, target = wireNumeric, &d.s
		d.binary = fd.Format == pgtype.BinaryFormatCode
	default:
		d.kind, target = wireText, &d.s
	}
	d.plan = m.PlanScan(fd.DataTypeOID, fd.Format, target)
}

// int decodes an integer column (ids, parent ids, counts).
func (d *wireDecoder) int(src []byte) (int64, error) {
	if src == nil {
		return 0, nil
	}
	switch d.kind {
	case wireInt8:
		err := d.plan.Scan(src, &d.i64)
		return d.i64, err
	case wireInt4:
		err := d.plan.Scan(src, &d.i32)
		return int64(d.i32), err
	}
	v, err := d.driver(src)
	if err != nil {
		return 0, err
	}
	return toInt(v)
}

// value decodes a non-key column into the canonical value of attribute type t.
func (d *wireDecoder) value(t schemas.AttrType, src []byte) (any, error) {
	if src == nil {
		return nil, nil
	}
	switch d.kind {
	case wireString:
		// Normalize keeps a string as it is for every type a text column serves but
		// booleans, numbers and dates, which it parses from the string.
		return Normalize(t, d.strs.str(src))
	case wireNumeric:
		if t == schemas.Float || t == schemas.Decimal {
			if f, ok := numericFloat(src); ok && d.binary {
				return f, nil
			}
		}
	case wireTimestamp:
		if t == schemas.DateTime || t == schemas.Timestamp {
			if err := d.plan.Scan(src, &d.ts); err != nil {
				return nil, err
			}
			if d.ts.Valid && d.ts.InfinityModifier == pgtype.Finite {
				return d.ts.Time.UTC(), nil
			}
		}
	case wireJSON:
		if t == schemas.JSON || t == schemas.Blocks {
			// The scan copied the bytes out of the connection's buffer already.
			if err := d.plan.Scan(src, &d.bs); err != nil {
				return nil, err
			}
			return json.RawMessage(d.bs), nil
		}
	case wireTimestamptz:
		if t == schemas.DateTime || t == schemas.Timestamp {
			if err := d.plan.Scan(src, &d.tstz); err != nil {
				return nil, err
			}
			if d.tstz.Valid && d.tstz.InfinityModifier == pgtype.Finite {
				return d.tstz.Time.UTC(), nil
			}
		}
	}
	v, err := d.driver(src)
	if err != nil {
		return nil, err
	}
	return Normalize(t, v)
}

// driver decodes src into the value database/sql's pgx adapter gives for the column's type.
func (d *wireDecoder) driver(src []byte) (any, error) {
	var err error
	switch d.kind {
	case wireBool:
		err = d.plan.Scan(src, &d.b)
		return d.b, err
	case wireBytes, wireJSON:
		err = d.plan.Scan(src, &d.bs)
		return d.bs, err
	case wireUint32:
		if err = d.plan.Scan(src, &d.u32); err != nil {
			return nil, err
		}
		return d.u32.Value()
	case wireDate:
		if err = d.plan.Scan(src, &d.date); err != nil {
			return nil, err
		}
		return d.date.Value()
	case wireFloat4:
		err = d.plan.Scan(src, &d.f32)
		return float64(d.f32), err
	case wireFloat8:
		err = d.plan.Scan(src, &d.f64)
		return d.f64, err
	case wireInt2:
		err = d.plan.Scan(src, &d.i16)
		return int64(d.i16), err
	case wireInt4:
		err = d.plan.Scan(src, &d.i32)
		return int64(d.i32), err
	case wireInt8:
		err = d.plan.Scan(src, &d.i64)
		return d.i64, err
	case wireTimestamp:
		if err = d.plan.Scan(src, &d.ts); err != nil {
			return nil, err
		}
		return d.ts.Value()
	case wireTimestamptz:
		if err = d.plan.Scan(src, &d.tstz); err != nil {
			return nil, err
		}
		return d.tstz.Value()
	}
	if d.kind == wireString {
		return string(src), nil
	}
	err = d.plan.Scan(src, &d.s)
	return d.s, err
}
