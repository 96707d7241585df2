package database

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"

	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
)

// Schema changes beyond additions, as Strapi 4.26's schema sync makes them: a column whose
// attribute changed type is altered, a column whose attribute is gone is dropped, a table
// whose type, component or relation is gone (a renamed collectionName among them) is
// dropped. What may be dropped is what Quarry's previous layout had (recorded in the core
// store under sqlgen.LayoutKey): a table or column Quarry never made is never touched.
//
// A change that loses data (dropping a column or table that holds values, a type change
// that existing values may not survive) is never made silently: Migrate makes the others
// and stops naming these; `quarry migrate --apply` (or QUARRY_SCHEMA_CHANGES=apply) makes
// them too.

// Change is one schema change.
type Change struct {
	Kind   string // "alter column", "drop column", "drop table"
	Table  string
	Column string
	// From and To are the column's SQL types (alter column).
	From, To string
	// Rows is how many rows hold a value the change touches.
	Rows int64
	// Lossy marks a change that may lose the values of Rows rows.
	Lossy bool
}

func (c Change) String() string {
	var s string
	switch c.Kind {
	case "alter column":
		s = fmt.Sprintf("alter %s.%s from %s to %s", c.Table, c.Column, c.From, c.To)
	case "drop column":
		s = fmt.Sprintf("drop column %s.%s", c.Table, c.Column)
	default:
		s = "drop table " + c.Table
	}
	if c.Lossy {
		s += fmt.Sprintf(" (loses data: %d rows hold values)", c.Rows)
	}
	return s
}

// Plan is the schema changes the database needs, with their DDL.
type Plan struct {
	Changes []Change
	d       sqlgen.Dialect
	layout  map[string]sqlgen.Table
	// have is the database's columns per table (lower case), for SQLite's rebuilds.
	have map[string]map[string]string
}

// Lossy lists the changes that lose data.
func (p *Plan) Lossy() []Change {
	var out []Change
	for _, c := range p.Changes {
		if c.Lossy {
			out = append(out, c)
		}
	}
	return out
}

// Applied lists the changes Statements(lossy) makes.
func (p *Plan) Applied(lossy bool) []Change {
	held := map[string]bool{} // SQLite: tables whose rebuild waits for a lossy change
	if p.d == sqlgen.SQLite && !lossy {
		for _, c := range p.Changes {
			if c.Lossy && c.Kind != "drop table" {
				held[c.Table] = true
			}
		}
	}
	var out []Change
	for _, c := range p.Changes {
		if (c.Lossy && !lossy) || (held[c.Table] && c.Kind != "drop table") {
			continue
		}
		out = append(out, c)
	}
	return out
}

// Statements renders the DDL of the changes (all, or only those that lose nothing). On
// SQLite a table's changes are one rebuild, made only when all of them are.
func (p *Plan) Statements(lossy bool) []string {
	var out []string
	if p.d != sqlgen.SQLite {
		// Tables first, so that a dropped type's link tables go with it.
		for _, c := range p.Changes {
			if c.Lossy && !lossy {
				continue
			}
			switch c.Kind {
			case "alter column":
				col := sqlgen.Column{Name: c.Column, Type: c.To}
				out = append(out, sqlgen.AlterColumnType(p.d, c.Table, col)...)
			case "drop column":
				out = append(out, sqlgen.DropColumn(p.d, c.Table, c.Column))
			case "drop table":
				out = append(out, sqlgen.DropTable(p.d, c.Table))
			}
		}
		return out
	}
	byTable := map[string][]Change{}
	var order []string
	for _, c := range p.Changes {
		if c.Kind == "drop table" {
			if !c.Lossy || lossy {
				out = append(out, sqlgen.DropTable(p.d, c.Table))
			}
			continue
		}
		if _, ok := byTable[c.Table]; !ok {
			order = append(order, c.Table)
		}
		byTable[c.Table] = append(byTable[c.Table], c)
	}
	for _, tn := range order {
		skip := false
		cast := map[string]string{}
		for _, c := range byTable[tn] {
			skip = skip || (c.Lossy && !lossy)
			if c.Kind == "alter column" {
				cast[c.Column] = c.To
			}
		}
		if skip {
			continue
		}
		t := p.layout[tn]
		var keep []string
		for _, col := range t.Columns {
			if _, ok := p.have[tn][strings.ToLower(col.Name)]; ok {
				keep = append(keep, col.Name)
			}
		}
		out = append(out, sqlgen.RebuildTable(p.d, t, keep, cast)...)
	}
	return out
}

// sameFamily compares column types as Strapi's sync does (by SQL type), except that JSON and
// text are one family: MariaDB and SQLite store JSON as text.
func sameFamily(a, b schemas.AttrType) bool {
	norm := func(t schemas.AttrType) schemas.AttrType {
		if t == schemas.JSON || t == schemas.RichText {
			return schemas.Text
		}
		return t
	}
	return norm(a) == norm(b)
}

// PlanChanges compares the database with the schema's layout and lists the alterations and
// drops it needs (additions are Migrate's).
func (db *DB) PlanChanges(ctx context.Context, s *schemas.Schema) (*Plan, error) {
	layout := sqlgen.Layout(db.Dialect, s)
	p := &Plan{d: db.Dialect, layout: map[string]sqlgen.Table{}, have: map[string]map[string]string{}}
	for _, t := range layout {
		p.layout[t.Name] = t
	}
	var rows []struct {
		A string `db:"a"`
		B string `db:"b"`
		C string `db:"c"`
	}
	if err := db.SelectContext(ctx, &rows, sqlgen.ColumnTypes(db.Dialect)); err != nil {
		return nil, fmt.Errorf("inspect columns: %w", err)
	}
	for _, r := range rows {
		if p.have[r.A] == nil {
			p.have[r.A] = map[string]string{}
		}
		p.have[r.A][strings.ToLower(r.B)] = r.C
	}
	known, err := db.recordedLayout(ctx)
	if err != nil {
		return nil, err
	}
	// Strapi's last sync stored its schema: the columns it made in the tables Quarry's
	// layout has are Strapi's to drop, and so Quarry's (a table Strapi made that the layout
	// lacks may be another plugin's: only Quarry's own record names tables to drop).
	if _, ok := p.have["strapi_database_schema"]; ok {
		for tn, cols := range db.strapiStoredColumns(ctx) {
			if _, ok := p.layout[tn]; ok {
				known[tn] = append(known[tn], cols...)
			}
		}
	}
	count := func(st sqlgen.Stmt) (int64, error) {
		var n int64
		err := db.QueryRowContext(ctx, st.SQL, st.Args...).Scan(&n)
		return n, err
	}
	for _, t := range layout {
		have, ok := p.have[t.Name]
		if !ok {
			continue
		}
		want := map[string]bool{}
		for _, c := range t.Columns {
			want[strings.ToLower(c.Name)] = true
			if c.Type == "id" {
				continue
			}
			dbType, ok := have[strings.ToLower(c.Name)]
			if !ok {
				continue
			}
			to, ok1 := sqlgen.AttrTypeOf(c.Type)
			from, ok2 := sqlgen.AttrTypeOf(dbType)
			if !ok1 || !ok2 || sameFamily(from, to) {
				continue
			}
			n, err := count(sqlgen.CountNonNull(db.Dialect, t.Name, c.Name))
			if err != nil {
				return nil, fmt.Errorf("count %s.%s: %w", t.Name, c.Name, err)
			}
			lossy := n > 0 && !sqlgen.LosslessChange(from, to)
			if lossy && to == schemas.String && (from == schemas.Text || from == schemas.JSON) {
				// Text into varchar(255) loses only what is longer.
				if n, err = count(sqlgen.CountLongerThan(db.Dialect, t.Name, c.Name, 255)); err != nil {
					return nil, fmt.Errorf("count %s.%s: %w", t.Name, c.Name, err)
				}
				lossy = n > 0
			}
			p.Changes = append(p.Changes, Change{Kind: "alter column", Table: t.Name, Column: c.Name, From: dbType, To: c.Type,
				Rows: n, Lossy: lossy})
		}
		seen := map[string]bool{}
		for _, col := range known[t.Name] {
			lc := strings.ToLower(col)
			if want[lc] || seen[lc] {
				continue
			}
			seen[lc] = true
			if _, ok := have[lc]; !ok {
				continue
			}
			n, err := count(sqlgen.CountNonNull(db.Dialect, t.Name, col))
			if err != nil {
				return nil, fmt.Errorf("count %s.%s: %w", t.Name, col, err)
			}
			p.Changes = append(p.Changes, Change{Kind: "drop column", Table: t.Name, Column: col, Rows: n, Lossy: n > 0})
		}
	}
	var gone []string
	for tn := range known {
		if _, ok := p.layout[tn]; ok {
			continue
		}
		if _, ok := p.have[tn]; !ok || tn == "strapi_migrations" || tn == "strapi_database_schema" {
			continue
		}
		gone = append(gone, tn)
	}
	// Link and component tables before the tables they join (MySQL checks foreign keys).
	sort.Slice(gone, func(i, j int) bool {
		li, lj := isJoinTable(gone[i]), isJoinTable(gone[j])
		if li != lj {
			return li
		}
		return gone[i] < gone[j]
	})
	for _, tn := range gone {
		n, err := count(sqlgen.CountRows(db.Dialect, tn))
		if err != nil {
			return nil, fmt.Errorf("count %s: %w", tn, err)
		}
		p.Changes = append(p.Changes, Change{Kind: "drop table", Table: tn, Rows: n, Lossy: n > 0})
	}
	return p, nil
}

func isJoinTable(name string) bool {
	return strings.HasSuffix(name, "_links") || strings.HasSuffix(name, "_components") || strings.HasSuffix(name, "_morphs")
}

// recordedLayout reads the tables and columns Quarry last brought the database to.
func (db *DB) recordedLayout(ctx context.Context) (map[string][]string, error) {
	st := sqlgen.StoreGet(db.Dialect, sqlgen.LayoutKey)
	var raw sql.NullString
	err := db.QueryRowContext(ctx, st.SQL, st.Args...).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !raw.Valid) {
		return map[string][]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", sqlgen.LayoutKey, err)
	}
	out := map[string][]string{}
	if err := json.Unmarshal([]byte(raw.String), &out); err != nil {
		return map[string][]string{}, nil // unreadable: as if none, nothing is dropped
	}
	return out, nil
}

// recordLayout stores the layout's tables and columns as what Quarry brought the database to.
func (db *DB) recordLayout(ctx context.Context, s *schemas.Schema) error {
	rec := map[string][]string{}
	for _, t := range sqlgen.Layout(db.Dialect, s) {
		for _, c := range t.Columns {
			rec[t.Name] = append(rec[t.Name], c.Name)
		}
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	up := sqlgen.StoreUpdate(db.Dialect, sqlgen.LayoutKey, string(b), "object")
	res, err := db.ExecContext(ctx, up.SQL, up.Args...)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n > 0 {
		return nil
	}
	ins := sqlgen.StoreInsert(db.Dialect, sqlgen.LayoutKey, string(b), "object")
	_, err = db.ExecContext(ctx, ins.SQL, ins.Args...)
	return err
}

// ApplyChanges makes the plan's changes (lossy ones only when lossy is set), in one
// transaction where the engine's DDL is transactional (PostgreSQL, SQLite); MySQL commits
// each statement. progress, when set, is called after each statement.
func (db *DB) ApplyChanges(ctx context.Context, p *Plan, lossy bool, progress func(done, total int)) error {
	stmts := p.Statements(lossy)
	if len(stmts) == 0 {
		return nil
	}
	run := func(ex interface {
		ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	}) error {
		for i, s := range stmts {
			if _, err := ex.ExecContext(ctx, s); err != nil {
				return fmt.Errorf("%s: %w", s, err)
			}
			if progress != nil {
				progress(i+1, len(stmts))
			}
		}
		return nil
	}
	switch db.Dialect {
	case sqlgen.MySQL:
		return run(db.DB)
	case sqlgen.SQLite:
		// A rebuild drops and renames tables that others reference: foreign keys are off
		// on this connection meanwhile (SQLite ignores the pragma inside a transaction),
		// and checked before the commit.
		conn, err := db.DB.Connx(ctx)
		if err != nil {
			return err
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = OFF"); err != nil {
			return err
		}
		defer conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA foreign_keys = ON")
		tx, err := conn.BeginTxx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if err := run(tx); err != nil {
			return err
		}
		var bad int
		if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM pragma_foreign_key_check").Scan(&bad); err != nil {
			return err
		}
		if bad > 0 {
			return fmt.Errorf("the change leaves %d rows whose foreign keys point nowhere", bad)
		}
		return tx.Commit()
	}
	tx, err := db.DB.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := run(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// LossyError stops a start whose schema changes would lose data.
type LossyError struct{ Changes []Change }

func (e *LossyError) Error() string {
	var b strings.Builder
	b.WriteString("the schema changed in ways that lose data; nothing was changed:")
	for _, c := range e.Changes {
		b.WriteString("\n  - " + c.String())
	}
	b.WriteString("\n'quarry migrate --plan' prints the SQL, 'quarry migrate --apply' (or QUARRY_SCHEMA_CHANGES=apply) applies it")
	return b.String()
}

// MigrateOptions say how far Migrate goes.
type MigrateOptions struct {
	// Lossy makes the changes that lose data too.
	Lossy bool
	// CheckOnly changes nothing and logs what differs (Strapi beside Quarry owns the schema).
	CheckOnly bool
	// PlanOnly makes the additions and the changes that lose nothing, and leaves the others
	// to the caller (quarry migrate) without an error.
	PlanOnly bool
}

// migrateChanges makes the alterations and drops after Migrate's additions.
func (db *DB) migrateChanges(ctx context.Context, s *schemas.Schema, o MigrateOptions, log *slog.Logger) error {
	p, err := db.PlanChanges(ctx, s)
	if err != nil {
		return err
	}
	lossy := p.Lossy()
	if len(lossy) > 0 && !o.Lossy && !o.PlanOnly {
		return &LossyError{Changes: lossy}
	}
	if err := db.ApplyChanges(ctx, p, o.Lossy, nil); err != nil {
		return fmt.Errorf("schema change: %w", err)
	}
	for _, c := range p.Applied(o.Lossy) {
		log.Info("schema change", "change", c.String())
	}
	if len(lossy) > 0 && !o.Lossy {
		return nil // quarry migrate reports them; the layout stays recorded as it was
	}
	return db.recordLayout(ctx, s)
}

// checkSchema logs how the database differs from the layout, changing nothing: beside
// Strapi, Strapi's sync owns the schema.
func (db *DB) checkSchema(ctx context.Context, s *schemas.Schema, log *slog.Logger) error {
	have, err := db.inspect(ctx)
	if err != nil {
		return fmt.Errorf("inspect database: %w", err)
	}
	var diffs []string
	for _, t := range sqlgen.Layout(db.Dialect, s) {
		cols := have.columns[t.Name]
		if len(cols) == 0 {
			diffs = append(diffs, "missing table "+t.Name)
			continue
		}
		for _, c := range t.Columns {
			if !cols[strings.ToLower(c.Name)] {
				diffs = append(diffs, "missing column "+t.Name+"."+c.Name)
			}
		}
	}
	p, err := db.PlanChanges(ctx, s)
	if err != nil {
		return err
	}
	for _, c := range p.Changes {
		if c.Kind == "alter column" {
			diffs = append(diffs, c.String())
		}
	}
	for _, d := range diffs {
		log.Warn("schema differs from the project's (Strapi beside Quarry owns the schema; its next start syncs it)", "difference", d)
	}
	return nil
}

// strapiStoredColumns reads the tables and columns of the schema Strapi's last sync stored
// (strapi_database_schema); none when there is none or it cannot be read.
func (db *DB) strapiStoredColumns(ctx context.Context) map[string][]string {
	st := sqlgen.StrapiStoredSchema(db.Dialect)
	var raw []byte
	if err := db.QueryRowContext(ctx, st.SQL, st.Args...).Scan(&raw); err != nil {
		return nil
	}
	var stored struct {
		Tables []struct {
			Name    string `json:"name"`
			Columns []struct {
				Name string `json:"name"`
			} `json:"columns"`
		} `json:"tables"`
	}
	if json.Unmarshal(raw, &stored) != nil {
		return nil
	}
	out := map[string][]string{}
	for _, t := range stored.Tables {
		for _, c := range t.Columns {
			out[t.Name] = append(out[t.Name], c.Name)
		}
	}
	return out
}
