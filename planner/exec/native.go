package exec

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
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
	root := p.Root
	if p.Count != nil && sqlgen.KeysCarryTotal(r.Dialect, root) {
		withTotal := *root // the plan stays as planned: it may be kept and run elsewhere
		withTotal.WithTotal = true
		root = &withTotal
	}
	stmt, err := r.render(root, sqlgen.Parents{})
	if err != nil {
		return nil, fmt.Errorf("render root: %w", err)
	}
	var b pgx.Batch
	valuePlans := root.ValuePlans && plansWithValues(c)
	if valuePlans {
		b.Queue(setValuePlans)
	}
	b.Queue(stmt.SQL, stmt.Args...)
	var cs sqlgen.Stmt
	batched := p.Count != nil && !root.WithTotal // else the root counts, or the count follows
	if p.Count != nil {
		if cs, err = r.render(p.Count, sqlgen.Parents{}); err != nil {
			return nil, fmt.Errorf("render count: %w", err)
		}
		if batched {
			b.Queue(cs.SQL, cs.Args...)
		}
	}
	if valuePlans {
		b.Queue(resetPlans)
	}
	mem := newRunMem()
	start := time.Now()
	roundTrip(ctx, b.Len())
	br := c.SendBatch(ctx, &b)
	if valuePlans {
		if _, err = br.Exec(); err != nil {
			br.Close()
			return nil, fmt.Errorf("%s: %w", setValuePlans, err)
		}
	}
	rows, err := r.readNative(ctx, br, root, stmt, res, mem, start)
	if err == nil && batched {
		if err = br.QueryRow().Scan(&res.Total); err != nil {
			err = fmt.Errorf("count: %w", err)
		} else {
			res.Statements++
			if tr := traceOf(ctx); tr != nil {
				tr(cs, 1, time.Since(start))
			}
		}
	}
	if err == nil && valuePlans {
		if _, err = br.Exec(); err != nil {
			err = fmt.Errorf("%s: %w", resetPlans, err)
		}
	}
	if cerr := br.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("query %s: %w", root.Model.Table, cerr)
	}
	if err == nil && !batched && needCountOf(p, root, len(rows)) {
		start := time.Now()
		roundTrip(ctx, 1)
		if valuePlans {
			err = countWithValuePlans(ctx, c, cs, &res.Total)
		} else {
			err = c.QueryRow(ctx, cs.SQL, cs.Args...).Scan(&res.Total)
		}
		if err != nil {
			err = fmt.Errorf("count: %w", err)
		} else {
			res.Statements++
			if tr := traceOf(ctx); tr != nil {
				tr(cs, 1, time.Since(start))
			}
		}
	}
	if err != nil {
		return nil, err
	}
	res.Entries = make([]*Entry, len(rows))
	for i, f := range rows {
		res.Entries[i] = f.entry
	}
	if err := r.nativeLevel(ctx, c, []levelNode{{step: root, parents: res.Entries}}, res, mem); err != nil {
		return nil, err
	}
	res.mem = mem
	return res, nil
}

// The root of a plan whose condition's cost depends on its values (plan.Select.ValuePlans) is
// planned with them: pgx prepares every statement, and after five executions PostgreSQL's
// default plan_cache_mode (auto) keeps a generic plan when its estimate is lower. A generic plan
// cannot see a LIKE pattern and takes it as 0.5% selective: the bench corpus's filters page at
// 10 000 articles ran as nested loops in 25–30 ms against 8 ms with its own plan, no faster than
// Strapi, whose unprepared statements are always planned with their values. The setting
// brackets the root's statements in their batch (no extra round trip), and RESET returns to the
// connection's own setting; should the batch fail, its implicit transaction undoes the SET.
// Child steps (ids of the parents) keep their generic plans: planning each with its id list
// cost a third of a millisecond more per statement.
const (
	setValuePlans = "SET plan_cache_mode = force_custom_plan"
	resetPlans    = "RESET plan_cache_mode"
)

// plansWithValues reports whether the server has plan_cache_mode (PostgreSQL 12 and later).
func plansWithValues(c *pgx.Conn) bool {
	v := c.PgConn().ParameterStatus("server_version")
	end := strings.IndexFunc(v, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(v)
	}
	n, _ := strconv.Atoi(v[:end])
	return n >= 12
}

// countWithValuePlans runs a count planned with its values, in one round trip.
func countWithValuePlans(ctx context.Context, c *pgx.Conn, cs sqlgen.Stmt, total *int64) error {
	var b pgx.Batch
	b.Queue(setValuePlans)
	b.Queue(cs.SQL, cs.Args...).QueryRow(func(row pgx.Row) error { return row.Scan(total) })
	b.Queue(resetPlans)
	return c.SendBatch(ctx, &b).Close()
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
func (r *Runner) nativeLevel(ctx context.Context, c *pgx.Conn, nodes []levelNode, res *Result, mem *runMem) error {
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
		rows, err := r.readNative(ctx, br, steps[i], stmt, res, mem, start)
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
	return r.nativeLevel(ctx, c, next, res, mem)
}

// readNative reads the next result of a batch as the rows of step s, its entries and
// cells in mem.
func (r *Runner) readNative(ctx context.Context, br pgx.BatchResults, s *plan.Select, stmt sqlgen.Stmt, res *Result, mem *runMem, start time.Time) ([]fetched, error) {
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
	scratch := &wireScratch{mem: mem}
	pidAt, ordAt, countAt, totalAt := -1, -1, -1, -1
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
		case sqlgen.TotalCol:
			totalAt = i
		}
	}
	if countAt < 0 && len(fds) < len(s.Columns)+1 {
		return nil, fmt.Errorf("read %s: %d columns for %d attributes", s.Model.Table, len(fds), len(s.Columns))
	}
	var out []fetched
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
		e := &mem.entries.take(1)[0]
		e.Values = mem.values.take(len(s.Columns))
		if e.ID, err = decs[0].int(raw[0]); err != nil {
			return nil, fmt.Errorf("scan %s: %w", s.Model.Table, err)
		}
		if totalAt >= 0 && len(out) == 0 {
			if res.Total, err = decs[totalAt].int(raw[totalAt]); err != nil {
				return nil, fmt.Errorf("scan %s: %w", s.Model.Table, err)
			}
		}
		for i, a := range s.Columns {
			v, err := decs[i+1].value(a.Type, raw[i+1])
			if err != nil {
				return nil, fmt.Errorf("read %s.%s: %w", s.Model.Table, a.Column, err)
			}
			e.Values[i] = v
		}
		if ordAt >= 0 && raw[ordAt] != nil {
			if e.order, err = decs[ordAt].float(raw[ordAt]); err != nil {
				return nil, fmt.Errorf("scan %s: %w", s.Model.Table, err)
			}
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
	// wireTime is time (of day): text like wireText, formatted directly from the binary
	// form for time attributes (see value).
	wireTime
)

// wireDecoder decodes one column.
type wireDecoder struct {
	kind wireKind
	// binary is whether the column comes in PostgreSQL's binary format.
	binary bool
	// jsonb is whether a wireJSON column is jsonb (whose binary form has a version byte).
	jsonb bool
	plan  pgtype.ScanPlan
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
	// mem holds the run's cells.
	mem *runMem
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
	d.binary = fd.Format == pgtype.BinaryFormatCode
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
		d.jsonb = fd.DataTypeOID == pgtype.JSONBOID
	case pgtype.TimestampOID:
		d.kind, target = wireTimestamp, &d.ts
	case pgtype.TimestamptzOID:
		d.kind, target = wireTimestamptz, &d.tstz
	case pgtype.TextOID, pgtype.VarcharOID, pgtype.BPCharOID:
		d.kind = wireString
		return
	case pgtype.NumericOID:
		d.kind, target = wireNumeric, &d.s
	case pgtype.TimeOID:
		d.kind, target = wireTime, &d.s
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

// float decodes an order column (a link table's double precision) as toFloat reads the
// driver's value; an unreadable one orders as 0.
func (d *wireDecoder) float(src []byte) (float64, error) {
	if d.kind == wireFloat8 {
		err := d.plan.Scan(src, &d.f64)
		return d.f64, err
	}
	v, err := d.driver(src)
	if err != nil {
		return 0, err
	}
	f, _ := toFloat(v)
	return f, nil
}

// value decodes a non-key column into the canonical value of attribute type t (Normalize's,
// as the sequential path gives it). The common cases are decoded here with their bytes in
// the run's arena and boxed in its slabs (see box); the rest go through driver and Normalize.
func (d *wireDecoder) value(t schemas.AttrType, src []byte) (any, error) {
	if src == nil {
		return nil, nil
	}
	mem := d.mem
	switch d.kind {
	case wireString:
		switch t {
		case schemas.String, schemas.Text, schemas.RichText, schemas.Enumeration, schemas.Email,
			schemas.UID, schemas.Password, schemas.Time:
			// The types Normalize keeps a string for as it is.
			return mem.str(mem.bytes.str(src)), nil
		}
		// Booleans, numbers and dates kept in text: Normalize parses them.
		return Normalize(t, mem.bytes.str(src))
	case wireInt2, wireInt4, wireInt8:
		if t == schemas.Integer || t == schemas.BigInteger {
			i, err := d.int(src)
			if err != nil {
				return nil, err
			}
			return mem.int(i), nil
		}
	case wireFloat8:
		if t == schemas.Float || t == schemas.Decimal {
			if err := d.plan.Scan(src, &d.f64); err != nil {
				return nil, err
			}
			return mem.num(d.f64), nil
		}
	case wireNumeric:
		if t == schemas.Float || t == schemas.Decimal {
			if f, ok := numericFloat(src); ok && d.binary {
				return mem.num(f), nil
			}
		}
	case wireTimestamp:
		if t == schemas.DateTime || t == schemas.Timestamp {
			if err := d.plan.Scan(src, &d.ts); err != nil {
				return nil, err
			}
			if d.ts.Valid && d.ts.InfinityModifier == pgtype.Finite {
				return mem.time(d.ts.Time.UTC()), nil
			}
		}
	case wireTimestamptz:
		if t == schemas.DateTime || t == schemas.Timestamp {
			if err := d.plan.Scan(src, &d.tstz); err != nil {
				return nil, err
			}
			if d.tstz.Valid && d.tstz.InfinityModifier == pgtype.Finite {
				return mem.time(d.tstz.Time.UTC()), nil
			}
		}
	case wireDate:
		if t == schemas.Date {
			if err := d.plan.Scan(src, &d.date); err != nil {
				return nil, err
			}
			if d.date.Valid && d.date.InfinityModifier == pgtype.Finite {
				if y, m, day := d.date.Time.Date(); y >= 0 && y <= 9999 {
					// Normalize's time.Format("2006-01-02") of the same date.
					b := mem.bytes.room(10)
					put4(b, y)
					b[4] = '-'
					put2(b[5:], int(m))
					b[7] = '-'
					put2(b[8:], day)
					return mem.str(unsafe.String(&b[0], len(b))), nil
				}
			}
		}
	case wireTime:
		if t == schemas.Time && d.binary && len(src) == 8 {
			// PostgreSQL's text form of the time (HH:MM:SS, then the fraction of a second
			// without its trailing zeros), which the sequential path reads.
			usec := int64(binary.BigEndian.Uint64(src))
			if usec >= 0 && usec <= 24*3600*1e6 {
				var b [15]byte
				sec := usec / 1e6
				put2(b[:], int(sec/3600))
				b[2] = ':'
				put2(b[3:], int(sec/60%60))
				b[5] = ':'
				put2(b[6:], int(sec%60))
				n := 8
				if frac := int(usec % 1e6); frac != 0 {
					b[8] = '.'
					put2(b[9:], frac/1e4)
					put2(b[11:], frac/100%100)
					put2(b[13:], frac%100)
					n = 15
					for b[n-1] == '0' {
						n--
					}
				}
				return mem.str(mem.bytes.str(b[:n])), nil
			}
		}
	case wireJSON:
		if t == schemas.JSON || t == schemas.Blocks {
			body := src
			if d.jsonb && d.binary {
				// jsonb's binary form is a version byte, 1, then the text.
				if len(src) == 0 || src[0] != 1 {
					break
				}
				body = src[1:]
			}
			return mem.raw(json.RawMessage(mem.bytes.bytes(body))), nil
		}
	}
	v, err := d.driver(src)
	if err != nil {
		return nil, err
	}
	return Normalize(t, v)
}

// put2 writes n (0 to 99) as two digits.
func put2(b []byte, n int) {
	b[0], b[1] = byte('0'+n/10), byte('0'+n%10)
}

// put4 writes n (0 to 9999) as four digits.
func put4(b []byte, n int) {
	put2(b, n/100)
	put2(b[2:], n%100)
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
