package sqlgen

import (
	"fmt"
	"strconv"
	"sync"

	sq "github.com/Masterminds/squirrel"

	"github.com/quarrycms/quarry/schemas"
)

// The statements of the REST writer (planner/write): an entry's row, its component links,
// its relation and media links, and the checks it runs before writing (related ids exist,
// unique values are free). Rows are inserted and updated with Insert and Update; the
// writer binds the values (Dialect.Bind) when it runs them.

// MorphsTable links files to the entries and components that hold them (Strapi's
// files_related_morphs).
const MorphsTable = "files_related_morphs"

// inList is the condition "col is one of ids", in one bind parameter (Dialect.InList).
func inList(d Dialect, col string, ids []int64) sq.Sqlizer {
	return sq.Expr(d.InList(d.Quote(col)), d.ListArg(ids))
}

// InsertRows inserts rows (each one value per column of cols) in one statement. The
// caller keeps the number of rows within the engines' bind-parameter limits.
func InsertRows(d Dialect, table string, cols []string, rows [][]any) Stmt {
	if len(rows) == 0 {
		panic(fmt.Sprintf("sqlgen: insert into %s: no rows", table))
	}
	b := sq.Insert(d.Quote(table)).Columns(quoteAll(d, cols...)...)
	for _, r := range rows {
		if len(r) != len(cols) {
			panic(fmt.Sprintf("sqlgen: insert into %s: %d columns, a row of %d values", table, len(cols), len(r)))
		}
		b = b.Values(r...)
	}
	return build(d, b)
}

// InsertRowsReturning is InsertRows for rows whose new ids the caller needs: it ends with
// the dialect's RETURNING where there is one (database.InsertIDs reads the ids either way).
func InsertRowsReturning(d Dialect, table string, cols []string, rows [][]any) InsertStmt {
	s := InsertRows(d, table, cols, rows)
	r := d.returningID()
	s.SQL += r
	return InsertStmt{Stmt: s, ReturnsID: r != ""}
}

// DeleteIn deletes the rows of table whose column col is one of ids.
func DeleteIn(d Dialect, table, col string, ids []int64) Stmt {
	return build(d, sq.Delete(d.Quote(table)).Where(inList(d, col, ids)))
}

// IDsIn lists which of ids are rows of table: id.
func IDsIn(d Dialect, table string, ids []int64) Stmt {
	return build(d, sq.Select(d.Quote("id")).From(d.Quote(table)).Where(inList(d, "id", ids)))
}

// EntryColumns reads columns of the entry of m with an id (no row when there is none).
func EntryColumns(d Dialect, m *schemas.Model, id int64, cols ...string) Stmt {
	return build(d, sq.Select(quoteAll(d, cols...)...).From(d.Quote(m.Table)).Where(eq(d, "id", id)))
}

// EntryDraft turns the entry of m with an id into a draft (published_at NULL).
func EntryDraft(d Dialect, m *schemas.Model, id int64) Stmt {
	u := Update{Table: m.Table, Key: "id", KeyValue: id}
	u.Set("published_at", nil)
	return u.Render(d)
}

// ComponentLinks lists the components an entry holds in its components table ct, in the
// order of each field: component_id, component_type, field.
func ComponentLinks(d Dialect, ct string, owner int64) Stmt {
	return build(d, sq.Select(quoteAll(d, "component_id", "component_type", "field")...).From(d.Quote(ct)).
		Where(eq(d, "entity_id", owner)).OrderBy(quoteAll(d, "order", "id")...))
}

// ComponentsOf lists the components the entries owners hold in ct: component_id,
// component_type.
func ComponentsOf(d Dialect, ct string, owners []int64) Stmt {
	return build(d, sq.Select(quoteAll(d, "component_id", "component_type")...).From(d.Quote(ct)).
		Where(inList(d, "entity_id", owners)))
}

// ComponentLinksClear removes an entry's links of one component field.
func ComponentLinksClear(d Dialect, ct string, owner int64, field string) Stmt {
	return build(d, sq.Delete(d.Quote(ct)).Where(eq(d, "entity_id", owner)).Where(eq(d, "field", field)))
}

// MorphsClear removes the media links held by the rows ids of the model uid (all fields).
func MorphsClear(d Dialect, uid string, ids []int64) Stmt {
	return build(d, sq.Delete(d.Quote(MorphsTable)).Where(eq(d, "related_type", uid)).Where(inList(d, "related_id", ids)))
}

// RelationLinks lists the links row src holds in join j, in their order: id, the target
// and, when j orders them, the order.
func RelationLinks(d Dialect, j *schemas.Join, src int64) Stmt {
	cols := []string{"id", j.TargetCol}
	order := []string{"id"}
	if j.OrderCol != "" {
		cols = append(cols, j.OrderCol)
		order = []string{j.OrderCol, "id"}
	}
	return build(d, sq.Select(quoteAll(d, cols...)...).From(d.Quote(j.Table)).Where(eq(d, j.SourceCol, src)).
		OrderBy(quoteAll(d, order...)...))
}

// RelationTakeOver removes the links other sources than src hold to targets: the target
// of a bidirectional oneToOne or oneToMany has one source.
func RelationTakeOver(d Dialect, j *schemas.Join, targets []int64, src int64) Stmt {
	return build(d, sq.Delete(d.Quote(j.Table)).Where(inList(d, j.TargetCol, targets)).
		Where(sq.Expr(d.Quote(j.SourceCol)+" <> ?", src)))
}

// RelationReorder sets the order column of the link rows ids to orders (pairwise), in one
// statement.
func RelationReorder(d Dialect, j *schemas.Join, ids []int64, orders []float64) Stmt {
	if len(ids) == 0 || len(ids) != len(orders) || j.OrderCol == "" {
		panic(fmt.Sprintf("sqlgen: reorder %s: %d rows, %d orders, order column %q", j.Table, len(ids), len(orders), j.OrderCol))
	}
	c := sq.Case(d.Quote("id"))
	for i, id := range ids {
		c = c.When(sq.Expr("?", id), sq.Expr(d.floatParam(), orders[i]))
	}
	return build(d, sq.Update(d.Quote(j.Table)).Set(d.Quote(j.OrderCol), c).Where(inList(d, "id", ids)))
}

// RelationInverseOrders finds, per target, the highest inverse order of its links in j:
// the target column, MAX of the inverse order column.
func RelationInverseOrders(d Dialect, j *schemas.Join, targets []int64) Stmt {
	return build(d, sq.Select(d.Quote(j.TargetCol), "MAX("+d.Quote(j.InvOrderCol)+")").From(d.Quote(j.Table)).
		Where(inList(d, j.TargetCol, targets)).GroupBy(d.Quote(j.TargetCol)))
}

// morphsOf is the condition "the media links of one field of one row" (of the model
// relatedType).
func morphsOf(d Dialect, relatedType, field string, src int64) sq.And {
	return sq.And{eq(d, "related_id", src), eq(d, "related_type", relatedType), eq(d, "field", field)}
}

// MediaLinks lists the files linked to row src through the media join j (a morph on
// files_related_morphs), in order: file_id.
func MediaLinks(d Dialect, j *schemas.Join, src int64) Stmt {
	return build(d, sq.Select(d.Quote("file_id")).From(d.Quote(j.Table)).Where(morphsOf(d, j.MorphType, j.MorphField, src)).
		OrderBy(quoteAll(d, "order", "id")...))
}

// MediaLinksClear removes the files linked to row src through the media join j.
func MediaLinksClear(d Dialect, j *schemas.Join, src int64) Stmt {
	return build(d, sq.Delete(d.Quote(j.Table)).Where(morphsOf(d, j.MorphType, j.MorphField, src)))
}

// UniqueTaken finds whether a row of table other than exclude holds value in col: one row
// (1) or none.
func UniqueTaken(d Dialect, table, col string, value any, exclude int64) Stmt {
	return build(d, sq.Select("1").From(d.Quote(table)).Where(eq(d, col, value)).
		Where(sq.Expr(d.Quote("id")+" <> ?", exclude)).Limit(1))
}

// UniqueHolders lists the rows of table holding one of values in col: id, col.
func UniqueHolders(d Dialect, table, col string, values []any) Stmt {
	return build(d, sq.Select(quoteAll(d, "id", col)...).From(d.Quote(table)).Where(sq.Eq{d.Quote(col): values}))
}

// WriteCache keeps the text of the writer's row statements per shape (dialect, table,
// columns, number of values), so that a repeated write binds its values without building
// the statement again: the builder costs more allocations than the rest of a write. A nil
// *WriteCache renders every statement afresh. Args of a statement rendered through the
// cache are the caller's own values (Insert.Values, Update.Values + key), in order.
type WriteCache struct {
	mu sync.RWMutex
	m  map[string]string
	// Max bounds the number of shapes kept; a full cache is cleared.
	Max int
}

// NewWriteCache returns an empty cache.
func NewWriteCache() *WriteCache { return &WriteCache{m: map[string]string{}, Max: 1024} }

var writeKeys = sync.Pool{New: func() any { return &writeKey{b: make([]byte, 0, 256)} }}

// writeKey is a statement's shape: what its text depends on.
type writeKey struct{ b []byte }

func newWriteKey(d Dialect, kind, table, col string, cols []string, n int) *writeKey {
	k := writeKeys.Get().(*writeKey)
	b := append(k.b[:0], d.Name()...)
	b = append(b, '|')
	b = append(b, kind...)
	b = append(b, '|')
	b = append(b, table...)
	b = append(b, '|')
	b = append(b, col...)
	for _, c := range cols {
		b = append(b, '|')
		b = append(b, c...)
	}
	b = append(b, '#')
	k.b = strconv.AppendInt(b, int64(n), 10)
	return k
}

func (k *writeKey) release() { writeKeys.Put(k) }

func (c *WriteCache) get(k *writeKey) (string, bool) {
	c.mu.RLock()
	s, ok := c.m[string(k.b)] // the conversion does not allocate in a map index
	c.mu.RUnlock()
	return s, ok
}

func (c *WriteCache) put(k *writeKey, sql string) {
	c.mu.Lock()
	if len(c.m) >= c.Max {
		c.m = map[string]string{}
	}
	c.m[string(k.b)] = sql
	c.mu.Unlock()
}

// Insert renders ins through the cache (see Insert.Render); its args are ins.Values.
func (c *WriteCache) Insert(d Dialect, ins Insert) InsertStmt {
	if c == nil {
		return ins.Render(d)
	}
	k := newWriteKey(d, "insert", ins.Table, "", ins.Columns, len(ins.Values))
	defer k.release()
	sql, ok := c.get(k)
	if !ok {
		sql = ins.Render(d).SQL
		c.put(k, sql)
	}
	return InsertStmt{Stmt: Stmt{SQL: sql, Args: ins.Values}, ReturnsID: d.returningID() != ""}
}

// Update renders u through the cache (see Update.Render); its args are u.Values then
// u.KeyValue (appended to u.Values: give it the capacity).
func (c *WriteCache) Update(d Dialect, u Update) Stmt {
	if c == nil {
		return u.Render(d)
	}
	k := newWriteKey(d, "update", u.Table, u.Key, u.Columns, len(u.Values))
	defer k.release()
	sql, ok := c.get(k)
	if !ok {
		sql = u.Render(d).SQL
		c.put(k, sql)
	}
	return Stmt{SQL: sql, Args: append(u.Values, u.KeyValue)}
}

// UniqueHolders renders UniqueHolders through the cache; its args are values.
func (c *WriteCache) UniqueHolders(d Dialect, table, col string, values []any) Stmt {
	if c == nil {
		return UniqueHolders(d, table, col, values)
	}
	k := newWriteKey(d, "holders", table, col, nil, len(values))
	defer k.release()
	sql, ok := c.get(k)
	if !ok {
		sql = UniqueHolders(d, table, col, values).SQL
		c.put(k, sql)
	}
	return Stmt{SQL: sql, Args: values}
}

// UniqueTaken renders UniqueTaken through the cache; its args are value and exclude.
func (c *WriteCache) UniqueTaken(d Dialect, table, col string, value any, exclude int64) Stmt {
	if c == nil {
		return UniqueTaken(d, table, col, value, exclude)
	}
	k := newWriteKey(d, "taken", table, col, nil, 1)
	defer k.release()
	sql, ok := c.get(k)
	if !ok {
		sql = UniqueTaken(d, table, col, value, exclude).SQL
		c.put(k, sql)
	}
	return Stmt{SQL: sql, Args: []any{value, exclude}}
}

// UpdateIn sets columns of the rows of table whose id is one of ids (the query engine's
// updateMany).
func UpdateIn(d Dialect, table string, cols []string, vals []any, ids []int64) Stmt {
	if len(cols) != len(vals) || len(cols) == 0 {
		panic(fmt.Sprintf("sqlgen: update %s: %d columns, %d values", table, len(cols), len(vals)))
	}
	b := sq.Update(d.Quote(table))
	for i, c := range cols {
		b = b.Set(d.Quote(c), vals[i])
	}
	return build(d, b.Where(inList(d, "id", ids)))
}
