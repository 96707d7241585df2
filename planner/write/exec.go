package write

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"

	"github.com/jmoiron/sqlx"
	"golang.org/x/crypto/bcrypt"

	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/sqlgen/database"
)

// dbx runs statements rendered by sqlgen in the caller's transaction, converting bind
// values to the dialect's conventions.
type dbx struct {
	ctx context.Context
	tx  *sqlx.Tx
	d   sqlgen.Dialect
	c   *sqlgen.WriteCache // nil: every statement rendered afresh
}

// bind converts a statement's values for the driver, in place: each rendered statement
// owns its values.
func (db dbx) bind(s sqlgen.Stmt) []any {
	for i, a := range s.Args {
		s.Args[i] = db.d.Bind(a)
	}
	return s.Args
}

// The statements are reported to the context's tracer (exec.WithTrace), as reads are: the
// write case files (planner/testdata/cases) show them.

func (db dbx) exec(s sqlgen.Stmt) error {
	defer exec.Traced(db.ctx, s, 0, 0)
	if _, err := db.tx.ExecContext(db.ctx, s.SQL, db.bind(s)...); err != nil {
		return fmt.Errorf("%s: %w", firstWords(s.SQL), err)
	}
	return nil
}

func (db dbx) query(s sqlgen.Stmt) (*sqlx.Rows, error) {
	defer exec.Traced(db.ctx, s, 0, 0)
	rows, err := db.tx.QueryxContext(db.ctx, s.SQL, db.bind(s)...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", firstWords(s.SQL), err)
	}
	return rows, nil
}

func (db dbx) get(dest any, s sqlgen.Stmt) error {
	defer exec.Traced(db.ctx, s, 0, 0)
	return db.tx.QueryRowxContext(db.ctx, s.SQL, db.bind(s)...).Scan(dest)
}

// insertID inserts a row and returns its id, however the engine reports it.
func (db dbx) insertID(ins sqlgen.Insert) (int64, error) {
	s := db.c.Insert(db.d, ins)
	db.bind(s.Stmt)
	defer exec.Traced(db.ctx, s.Stmt, 0, 0)
	return database.InsertID(db.ctx, db.tx, s)
}

// insertIDs inserts rows in one statement and answers their new ids in order.
func (db dbx) insertIDs(s sqlgen.InsertStmt, n int) ([]int64, error) {
	db.bind(s.Stmt)
	defer exec.Traced(db.ctx, s.Stmt, 0, 0)
	return database.InsertIDs(db.ctx, db.tx, s, n)
}

func firstWords(q string) string {
	if len(q) > 60 {
		return q[:60] + "…"
	}
	return q
}

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

// execer runs the write operations of a validated payload.
type execer struct {
	w  *Writer
	db dbx
}

// run writes one row and what hangs off it, in Strapi's order: components first (their
// rows do not need the owner's id; all of them, at any depth, in the order Strapi writes
// them, so they get Strapi's ids), then the row, then component links, then relations.
func (x *execer) run(op *entryOp) (int64, error) {
	for _, it := range componentOrder(op) {
		id, err := x.row(it.op)
		if err != nil {
			return 0, err
		}
		it.id = id
	}
	if err := x.linkNested(op); err != nil {
		return 0, err
	}
	id, err := x.row(op)
	if err != nil {
		return 0, err
	}
	return id, x.links(op, id)
}

// row inserts op's row (or updates it) and returns its id.
func (x *execer) row(op *entryOp) (int64, error) {
	id := op.id
	if id == 0 {
		var err error
		if id, err = x.insert(op.model.Table, op.cols); err != nil {
			return 0, err
		}
	} else if len(op.cols) > 0 {
		if err := x.update(op.model.Table, id, op.cols); err != nil {
			return 0, err
		}
	}
	return id, nil
}

// linkNested writes the links of op's components, innermost first, once their rows exist.
func (x *execer) linkNested(op *entryOp) error {
	for _, cf := range op.comps {
		for _, it := range cf.items {
			if err := x.linkNested(it.op); err != nil {
				return err
			}
			if err := x.links(it.op, it.id); err != nil {
				return err
			}
		}
	}
	return nil
}

// links writes the component links and relations of the row id that op wrote.
func (x *execer) links(op *entryOp, id int64) error {
	for _, cf := range op.comps {
		if err := x.linkComponents(op, id, cf); err != nil {
			return err
		}
	}
	for _, rf := range op.rels {
		if rf.attr.Unlinked {
			continue // validated as Strapi does, then dropped: Strapi keeps no table for it
		}
		if err := x.relation(id, rf, op.id == 0); err != nil {
			return err
		}
	}
	return nil
}

func (x *execer) value(v any) (any, error) {
	if pw, ok := v.(plainPassword); ok {
		h, err := bcrypt.GenerateFromPassword([]byte(pw), 10)
		if err != nil {
			return nil, err
		}
		return string(h), nil
	}
	return v, nil
}

func (x *execer) insert(table string, cols []colVal) (int64, error) {
	ins := sqlgen.Insert{Table: table, Columns: make([]string, 0, len(cols)), Values: make([]any, 0, len(cols))}
	for _, c := range cols {
		v, err := x.value(c.val)
		if err != nil {
			return 0, err
		}
		ins.Set(c.col, v)
	}
	id, err := x.db.insertID(ins)
	if err != nil {
		return 0, fmt.Errorf("insert into %s: %w", table, err)
	}
	return id, nil
}

func (x *execer) update(table string, id int64, cols []colVal) error {
	// Values has room for the key, which the cached statement's args end with.
	u := sqlgen.Update{Table: table, Columns: make([]string, 0, len(cols)), Values: make([]any, 0, len(cols)+1), Key: "id", KeyValue: id}
	for _, c := range cols {
		v, err := x.value(c.val)
		if err != nil {
			return err
		}
		u.Set(c.col, v)
	}
	return x.db.exec(x.db.c.Update(x.db.d, u))
}

// insertRows inserts many rows with as few statements as the bind limits allow.
func (x *execer) insertRows(table string, cols []string, rows [][]any) error {
	const chunk = 200
	for start := 0; start < len(rows); start += chunk {
		end := min(start+chunk, len(rows))
		if err := x.db.exec(sqlgen.InsertRows(x.db.d, table, cols, rows[start:end])); err != nil {
			return err
		}
	}
	return nil
}

// existingIDs returns which of ids exist in table (one SELECT).
func (x *execer) existingIDs(table string, ids []int64) ([]int64, error) {
	rows, err := x.db.query(sqlgen.IDsIn(x.db.d, table, ids))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// linkComponents rewrites the owner's links of one component field and deletes the
// components it no longer references.
func (x *execer) linkComponents(op *entryOp, ownerID int64, cf *compField) error {
	ct := op.model.ComponentsTable
	field := cf.attr.Name
	var old []compLink
	if op.id != 0 {
		old = op.links[field]
	}
	cur := make([]compLink, len(cf.items))
	for i, it := range cf.items {
		cur[i] = compLink{it.id, it.uid}
	}
	if equalLinks(old, cur) {
		return nil
	}
	if len(old) > 0 {
		if err := x.db.exec(sqlgen.ComponentLinksClear(x.db.d, ct, ownerID, field)); err != nil {
			return err
		}
	}
	if len(cur) > 0 {
		rows := make([][]any, len(cur))
		for i, l := range cur {
			// Strapi orders repeatable components and dynamic-zone items; a single
			// component's link has no order (NULL).
			var order any
			if cf.attr.Repeatable || cf.attr.Type == schemas.DynamicZone {
				order = float64(i + 1)
			}
			rows[i] = []any{ownerID, l.id, l.typ, field, order}
		}
		if err := x.insertRows(ct, []string{"entity_id", "component_id", "component_type", "field", "order"}, rows); err != nil {
			return err
		}
	}
	keep := map[compLink]bool{}
	for _, l := range cur {
		keep[l] = true
	}
	gone := map[string][]int64{}
	for _, l := range old {
		if !keep[l] {
			gone[l.typ] = append(gone[l.typ], l.id)
		}
	}
	return x.deleteComponents(gone)
}

func equalLinks(a, b []compLink) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// deleteComponents deletes component rows by type, with their nested components, link
// rows and media morph rows (batched per type and level).
func (x *execer) deleteComponents(byType map[string][]int64) error {
	uids := make([]string, 0, len(byType))
	for uid, ids := range byType {
		if len(ids) > 0 {
			uids = append(uids, uid)
		}
	}
	sort.Strings(uids)
	d := x.db.d
	for _, uid := range uids {
		c := x.w.Schema.Models[uid]
		if c == nil || c.Kind != schemas.Component {
			continue
		}
		ids := dedupe(byType[uid])
		if c.ComponentsTable != "" {
			nested, err := x.componentsOf(c.ComponentsTable, ids)
			if err != nil {
				return err
			}
			if err := x.deleteComponents(nested); err != nil {
				return err
			}
			if err := x.db.exec(sqlgen.DeleteIn(d, c.ComponentsTable, "entity_id", ids)); err != nil {
				return err
			}
		}
		if err := x.deleteLinksOf(c, ids); err != nil {
			return err
		}
		if err := x.db.exec(sqlgen.DeleteIn(d, c.Table, "id", ids)); err != nil {
			return err
		}
	}
	return nil
}

// componentsOf lists the components the given owners hold, by type.
func (x *execer) componentsOf(ct string, owners []int64) (map[string][]int64, error) {
	rows, err := x.db.query(sqlgen.ComponentsOf(x.db.d, ct, owners))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]int64{}
	for rows.Next() {
		var id int64
		var typ string
		if err := rows.Scan(&id, &typ); err != nil {
			return nil, err
		}
		out[typ] = append(out[typ], id)
	}
	return out, rows.Err()
}

// deleteLinksOf removes the relation links and media morph rows held by rows of m.
func (x *execer) deleteLinksOf(m *schemas.Model, ids []int64) error {
	d := x.db.d
	seen := map[string]bool{}
	media := false
	for _, a := range m.Attributes {
		switch a.Type {
		case schemas.Media:
			media = true
		case schemas.Relation:
			if a.Unlinked {
				continue
			}
			k := a.Link.Table + "\x00" + a.Link.SourceCol
			if seen[k] {
				continue
			}
			seen[k] = true
			if err := x.db.exec(sqlgen.DeleteIn(d, a.Link.Table, a.Link.SourceCol, ids)); err != nil {
				return err
			}
		}
	}
	if media {
		return x.db.exec(sqlgen.MorphsClear(d, m.UID, ids))
	}
	return nil
}

// deleteEntry deletes an entry with its components, its links in both directions and its
// media links.
func (x *execer) deleteEntry(m *schemas.Model, id int64) error {
	return x.deleteEntries(m, []int64{id})
}

// deleteEntries deletes entries ids of m as deleteEntry deletes one, with statements
// independent of their number (the caller keeps ids within the bind-parameter limits).
func (x *execer) deleteEntries(m *schemas.Model, ids []int64) error {
	if m.ComponentsTable != "" {
		comps, err := x.componentsOf(m.ComponentsTable, ids)
		if err != nil {
			return err
		}
		if err := x.deleteComponents(comps); err != nil {
			return err
		}
		if err := x.db.exec(deleteIn(x.db.d, m.ComponentsTable, "entity_id", ids)); err != nil {
			return err
		}
	}
	if err := x.deleteLinksOf(m, ids); err != nil {
		return err
	}
	// Links the tables of owners hold towards this entry (unidirectional relations, and the
	// owning side of bidirectional ones) or from it (an owner's table another attribute reads
	// in its place), as their foreign keys cascade under Strapi.
	seen := map[string]bool{}
	for _, a := range m.Attributes {
		if a.Type == schemas.Relation && !a.Unlinked {
			seen[a.Link.Table+"\x00"+a.Link.SourceCol] = true
		}
	}
	models := append(append(append([]*schemas.Model(nil), x.w.Schema.ContentTypes...), x.w.Schema.Components...), x.w.Schema.Plugins...)
	for _, o := range models {
		for _, a := range o.Attributes {
			j := a.OwnJoin()
			if j == nil {
				continue
			}
			for _, col := range linkColumnsTo(m, o, a, j) {
				k := j.Table + "\x00" + col
				if seen[k] {
					continue
				}
				seen[k] = true
				if err := x.db.exec(deleteIn(x.db.d, j.Table, col, ids)); err != nil {
					return err
				}
			}
		}
	}
	return x.db.exec(deleteIn(x.db.d, m.Table, "id", ids))
}

// linkColumnsTo are the columns of the link table j that attribute a of model o owns which
// refer to rows of m: its source column when o is m, its target column when a targets m.
func linkColumnsTo(m, o *schemas.Model, a *schemas.Attribute, j *schemas.Join) []string {
	var cols []string
	if o == m {
		cols = append(cols, j.SourceCol)
	}
	if a.Target == m {
		cols = append(cols, j.TargetCol)
	}
	return cols
}

// deleteIn deletes the rows whose col is one of ids: "= ?" for one (the single delete's
// statement), a list otherwise.
func deleteIn(d sqlgen.Dialect, table, col string, ids []int64) sqlgen.Stmt {
	if len(ids) == 1 {
		return sqlgen.Delete(d, table, col, ids[0])
	}
	return sqlgen.DeleteIn(d, table, col, ids)
}

type curLink struct {
	rowID  int64
	target int64
	order  sql.NullFloat64
}

// relation writes one relation attribute of row src.
func (x *execer) relation(src int64, rf *relField, isNew bool) error {
	a := rf.attr
	if a.Type == schemas.Media {
		return x.media(src, rf, isNew)
	}
	j := a.Link
	d := x.db.d
	var cur []curLink
	if !isNew {
		rows, err := x.db.query(sqlgen.RelationLinks(d, j, src))
		if err != nil {
			return err
		}
		for rows.Next() {
			var l curLink
			dest := []any{&l.rowID, &l.target}
			if j.OrderCol != "" {
				dest = append(dest, &l.order)
			}
			if err := rows.Scan(dest...); err != nil {
				rows.Close()
				return err
			}
			cur = append(cur, l)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	curIDs := make([]int64, len(cur))
	for i, l := range cur {
		curIDs[i] = l.target
	}
	final, err := finalTargets(curIDs, rf, a.IsToMany())
	if err != nil {
		return err
	}
	want := map[int64]int{}
	for i, t := range final {
		want[t] = i
	}
	have := map[int64]bool{}
	var drop []int64
	for _, l := range cur {
		if _, ok := want[l.target]; ok && !have[l.target] {
			have[l.target] = true
			continue
		}
		drop = append(drop, l.rowID)
	}
	if len(drop) > 0 {
		if err := x.db.exec(sqlgen.DeleteIn(d, j.Table, "id", drop)); err != nil {
			return err
		}
	}
	var add []int64
	for _, t := range final {
		if !have[t] {
			add = append(add, t)
		}
	}
	// Each target of a bidirectional oneToOne/oneToMany has one source: take it over.
	if len(add) > 0 && (a.Relation == schemas.OneToOne || a.Relation == schemas.OneToMany) && (a.MappedBy != "" || a.InversedBy != "") {
		if err := x.db.exec(sqlgen.RelationTakeOver(d, j, add, src)); err != nil {
			return err
		}
	}
	// Kept links whose position changed get consecutive order values.
	if j.OrderCol != "" {
		var moved []int64
		var orders []float64
		for _, l := range cur {
			i, ok := want[l.target]
			if !ok || !have[l.target] {
				continue
			}
			if !l.order.Valid || l.order.Float64 != float64(i+1) {
				moved = append(moved, l.rowID)
				orders = append(orders, float64(i+1))
			}
		}
		if len(moved) > 0 {
			if err := x.db.exec(sqlgen.RelationReorder(d, j, moved, orders)); err != nil {
				return err
			}
		}
	}
	if len(add) == 0 {
		return nil
	}
	inv := map[int64]float64{}
	if j.InvOrderCol != "" {
		rows, err := x.db.query(sqlgen.RelationInverseOrders(d, j, add))
		if err != nil {
			return err
		}
		for rows.Next() {
			var t int64
			var mx sql.NullFloat64
			if err := rows.Scan(&t, &mx); err != nil {
				rows.Close()
				return err
			}
			inv[t] = mx.Float64
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	cols := []string{j.SourceCol, j.TargetCol}
	if j.OrderCol != "" {
		cols = append(cols, j.OrderCol)
	}
	if j.InvOrderCol != "" {
		cols = append(cols, j.InvOrderCol)
	}
	rows := make([][]any, 0, len(add))
	for _, t := range add {
		r := []any{src, t}
		if j.OrderCol != "" {
			r = append(r, float64(want[t]+1))
		}
		if j.InvOrderCol != "" {
			r = append(r, inv[t]+1)
		}
		rows = append(rows, r)
	}
	return x.insertRows(j.Table, cols, rows)
}

// media writes one media attribute of row src: files_related_morphs rows with order 1..n.
func (x *execer) media(src int64, rf *relField, isNew bool) error {
	a := rf.attr
	j := a.Link
	var cur []int64
	if !isNew {
		rows, err := x.db.query(sqlgen.MediaLinks(x.db.d, j, src))
		if err != nil {
			return err
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			cur = append(cur, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	final, err := finalTargets(cur, rf, a.Multiple)
	if err != nil {
		return err
	}
	if len(final) == len(cur) {
		same := true
		for i := range cur {
			if cur[i] != final[i] {
				same = false
				break
			}
		}
		if same {
			return nil
		}
	}
	if len(cur) > 0 {
		if err := x.db.exec(sqlgen.MediaLinksClear(x.db.d, j, src)); err != nil {
			return err
		}
	}
	rows := make([][]any, len(final))
	for i, f := range final {
		rows[i] = []any{f, src, j.MorphType, j.MorphField, float64(i + 1)}
	}
	return x.insertRows(j.Table, []string{"file_id", "related_id", "related_type", "field", "order"}, rows)
}
