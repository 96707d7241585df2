package sqlgen

import (
	"fmt"

	sq "github.com/Masterminds/squirrel"
)

// The statements of the plugins and the core store (users-permissions, API tokens, i18n,
// webhooks, the store settings) are built here with squirrel from the Strapi layout's
// table and column names, each identifier quoted by the dialect and each value a bind
// parameter. Their shapes are fixed by the code that builds them, so a builder that fails
// to render is a bug in this package, not bad input: build panics rather than hand every
// caller an error it could never see.

// build renders b with the dialect's placeholders.
func build(d Dialect, b sq.Sqlizer) Stmt {
	sql, args, err := b.ToSql()
	if err == nil {
		sql, err = d.Placeholder().ReplacePlaceholders(sql)
	}
	if err != nil {
		panic(fmt.Sprintf("sqlgen: render %T: %v", b, err))
	}
	return Stmt{SQL: sql, Args: args}
}

// quoteAll quotes identifiers.
func quoteAll(d Dialect, idents ...string) []string {
	out := make([]string, len(idents))
	for i, id := range idents {
		out[i] = d.Quote(id)
	}
	return out
}

// eq is the condition "column = value" with the column quoted.
func eq(d Dialect, col string, v any) sq.Sqlizer {
	return eqExpr(d, d.Quote(col), v)
}

// eqExpr is the condition "expr = value"; a string value is compared by its bytes (see
// Dialect.exact), so that a lookup by name, e-mail or key finds what it finds on PostgreSQL
// whatever a MySQL column's collation.
func eqExpr(d Dialect, expr string, v any) sq.Sqlizer {
	if _, ok := v.(string); ok {
		return sq.Expr(expr+" = "+d.exact("?"), v)
	}
	return sq.Expr(expr+" = ?", v)
}

// Insert is an INSERT of one row into Table. Columns and Values pair up; with no columns
// the row takes every column's default.
type Insert struct {
	Table   string
	Columns []string
	Values  []any
}

// Set adds a column and its value.
func (ins *Insert) Set(col string, v any) *Insert {
	ins.Columns = append(ins.Columns, col)
	ins.Values = append(ins.Values, v)
	return ins
}

// InsertStmt is an Insert rendered for a dialect, which also says how the new row's id
// comes back: as the one row the statement returns (ReturnsID), or from the driver's
// last-insert id (engines without RETURNING). database.InsertID runs it either way.
type InsertStmt struct {
	Stmt
	ReturnsID bool
}

// Render renders the insert, returning the new id where the dialect can.
func (ins Insert) Render(d Dialect) InsertStmt {
	s := ins.stmt(d)
	r := d.returningID()
	s.SQL += r
	return InsertStmt{Stmt: s, ReturnsID: r != ""}
}

// Plain renders the insert without asking for the new id (link rows, settings).
func (ins Insert) Plain(d Dialect) Stmt {
	return ins.stmt(d)
}

func (ins Insert) stmt(d Dialect) Stmt {
	if len(ins.Columns) != len(ins.Values) {
		panic(fmt.Sprintf("sqlgen: insert into %s: %d columns, %d values", ins.Table, len(ins.Columns), len(ins.Values)))
	}
	if len(ins.Columns) == 0 {
		return Stmt{SQL: "INSERT INTO " + d.Quote(ins.Table) + " " + d.defaultValues()}
	}
	return build(d, sq.Insert(d.Quote(ins.Table)).Columns(quoteAll(d, ins.Columns...)...).Values(ins.Values...))
}

// Update is an UPDATE of the rows of Table whose column Key equals KeyValue, setting
// Columns to Values in order.
type Update struct {
	Table    string
	Columns  []string
	Values   []any
	Key      string
	KeyValue any
}

// Set adds a column to set and its value.
func (u *Update) Set(col string, v any) *Update {
	u.Columns = append(u.Columns, col)
	u.Values = append(u.Values, v)
	return u
}

// Render renders the update.
func (u Update) Render(d Dialect) Stmt {
	if len(u.Columns) != len(u.Values) || len(u.Columns) == 0 || u.Key == "" {
		panic(fmt.Sprintf("sqlgen: update %s: %d columns, %d values, key %q", u.Table, len(u.Columns), len(u.Values), u.Key))
	}
	b := sq.Update(d.Quote(u.Table))
	for i, c := range u.Columns {
		b = b.Set(d.Quote(c), u.Values[i])
	}
	return build(d, b.Where(eq(d, u.Key, u.KeyValue)))
}

// Delete renders DELETE FROM table WHERE column = value.
func Delete(d Dialect, table, col string, v any) Stmt {
	return build(d, sq.Delete(d.Quote(table)).Where(eq(d, col, v)))
}
