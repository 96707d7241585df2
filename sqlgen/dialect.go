// Package sqlgen renders every statement Quarry runs: plan steps, writes and the DDL of the
// Strapi v4 layout, through one Dialect per engine. It is the only package that knows how
// SQLite and PostgreSQL spell things; identifiers always come from the schema and values are
// always bind parameters.
package sqlgen

import (
	"fmt"
	"strconv"
	"strings"

	sq "github.com/Masterminds/squirrel"

	"github.com/quarrycms/quarry/schemas"
)

// Dialect is how one SQL engine spells what Quarry runs. There is one implementation per
// engine, each in its own file (sqlite.go, postgres.go, mysql.go); everything else in sqlgen (plan
// steps, writes, DDL) is written once against this interface, so a new engine is a new file
// set here plus its driver in sqlgen/database. The unexported methods keep the interface
// sealed: only sqlgen implements it.
type Dialect interface {
	// Name is the engine: sqlite, postgres, mysql.
	Name() string
	// Placeholder is how bind parameters are spelled in the rendered text.
	Placeholder() sq.PlaceholderFormat
	// Quote quotes an identifier. Identifiers come from the schema, which restricts them to
	// letters, digits, - and _, so quoting is a formality that also protects reserved words
	// such as "order".
	Quote(ident string) string
	// InList renders "expr is one of the values in one bind parameter": the SQL text stays
	// the same whatever the number of parent ids, so batched statements are built once per
	// shape. ListArg encodes the ids for it.
	InList(expr string) string
	ListArg(ids []int64) any
	// Bind converts a planner value to what the driver stores for this engine.
	Bind(v any) any
	// ColumnType is the column type of a scalar attribute, as Strapi v4 (knex) creates it.
	ColumnType(t schemas.AttrType) string
	// UniqueLock is the statement that takes a transaction-scoped lock on one key of
	// UniqueLockKeys, or "" where transactions already serialize writers (see lock.go).
	UniqueLock() string
	// explain is the prefix that asks for a statement's plan and the column of its rows
	// holding the plan text (see Explain).
	explain(analyze bool) (prefix, column string)

	// The layout's DDL (ddl.go builds the tables; these spell them).
	CreateTable(t Table) string
	AddColumn(table string, c Column) string
	CreateIndex(table string, ix Index) string
	DropIndex(table, name string) string
	AddForeignKey(table string, fk ForeignKey) string

	// Spellings the shared renderers ask for.
	identQuote() string // the identifier quote Quote uses
	idColumn() string
	// refType is the type of a column holding another row's id (join and link columns), which
	// a foreign key requires to match idColumn's.
	refType() string
	orderType() string
	systemTypes() (json, timestamp string)
	filterCol(alias, col string) string
	// correlatedSemiJoin renders relation filters as EXISTS correlated on the outer id
	// rather than as IN over the matching link rows (see renderer.semi).
	correlatedSemiJoin() bool
	// deferredPage sorts a wide page on its sort keys alone and reads the page's rows by id
	// afterwards (see deferredPage in selectsql.go).
	deferredPage() bool
	// sortTerm renders one ORDER BY term with PostgreSQL's null placement (last ascending,
	// first descending), which Strapi's answers show; n is how many times expr occurs in it
	// (its bind values repeat as often).
	sortTerm(expr string, desc bool) (term string, n int)
	offsetOnly() string
	asText(col string) string
	// exact makes a text operand compare and sort by its bytes (code points), as PostgreSQL
	// under the C collation and SQLite do, whatever the column's collation: $eq and $contains
	// are case-sensitive, and sort orders match Strapi's answers.
	exact(expr string) string
	// likeValue is a LIKE pattern's bound value made one the database accepts whatever its
	// text: the patterns are Strapi's, with % and _ as wildcards.
	likeValue(pattern string) string
	// search is a column's test of Strapi's _q search against one bound LIKE pattern, as
	// Strapi's query engine writes it for the engine.
	search(col string) string
	// defaultValues ends an INSERT that takes every column's default.
	defaultValues() string
	// returningID is the clause an INSERT ends with to return the new row's id, or "" where
	// the engine has none and the driver reports the id instead (see Insert.Render).
	returningID() string
	// floatParam is a bind parameter typed as a float where the engine cannot infer the
	// type of a parameter from its place (a CASE arm).
	floatParam() string
	// idSequenceReset moves table's id sequence past its rows (? placeholders), SQL ""
	// where the engine needs nothing; analyze refreshes table's statistics, "" where
	// Quarry leaves them alone (see datagen.go).
	idSequenceReset(table string) Stmt
	analyze(table string) string
	// tableExists counts the tables of the current schema named by its one parameter.
	tableExists() string
}

// ByName returns the dialect for a DATABASE_CLIENT value.
func ByName(name string) (Dialect, error) {
	switch strings.ToLower(name) {
	case "", "sqlite", "sqlite3", "better-sqlite3":
		return SQLite, nil
	case "postgres", "postgresql", "pg":
		return Postgres, nil
	case "mysql", "mysql2", "mariadb":
		return MySQL, nil
	}
	return nil, fmt.Errorf("unsupported database client %q (use sqlite, postgres or mysql)", name)
}

// Dialects lists every engine, for what runs on each of them (the case files' SQL sections).
func Dialects() []Dialect { return []Dialect{SQLite, Postgres, MySQL} }

// Col quotes alias.column.
func Col(d Dialect, alias, col string) string {
	// Built in one allocation: it runs for every column of every statement rendered, and a
	// call to Quote through the interface cannot be merged into this concatenation.
	q := d.identQuote()
	if strings.Contains(col, q) {
		return alias + "." + d.Quote(col)
	}
	return alias + "." + q + col + q
}

// quoteDouble is the SQL standard's identifier quoting, which SQLite and PostgreSQL share.
func quoteDouble(ident string) string {
	return `"` + strings.ReplaceAll(ident, `"`, `""`) + `"`
}

// jsonIDList encodes ids as a JSON array in one allocation (its exact length is computed
// first): SQLite's InList reads it with json_each, and it is built for every batched level
// of every request.
func jsonIDList(ids []int64) string {
	n := 2 + max(len(ids)-1, 0)
	for _, id := range ids {
		n += decimalLen(id)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteByte('[')
	var digits [20]byte
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(strconv.AppendInt(digits[:0], id, 10))
	}
	b.WriteByte(']')
	return b.String()
}

// decimalLen is the length of strconv.FormatInt(v, 10).
func decimalLen(v int64) int {
	n := 1
	u := uint64(v)
	if v < 0 {
		n++
		u = -u
	}
	for ; u >= 10; u /= 10 {
		n++
	}
	return n
}

// Parents are the ids a level's child steps batch on, with their InList bind value
// (ListArg) encoded once: every child step of a level binds the same list, so encoding it
// per level rather than per step saves that step's allocations. The zero Parents is the
// empty list, which root steps (that bind none) take.
type Parents struct {
	ids []int64
	d   Dialect // the dialect arg is encoded for; nil: not encoded yet
	arg any
}

// NewParents encodes ids for the child steps of one level. The ids must not change while the
// Parents or the statements rendered with it are in use (PostgreSQL binds the slice itself).
func NewParents(d Dialect, ids []int64) Parents {
	return Parents{ids: ids, d: d, arg: d.ListArg(ids)}
}

// IDs returns the parent ids.
func (p Parents) IDs() []int64 { return p.ids }

// argFor returns the list's bind value for d, encoding it when it was not encoded for d.
func (p Parents) argFor(d Dialect) any {
	if p.d != d {
		return d.ListArg(p.ids)
	}
	return p.arg
}

// Rebind converts the ? placeholders of a hand-written statement to the dialect's.
func Rebind(d Dialect, q string) string {
	out, err := d.Placeholder().ReplacePlaceholders(q)
	if err != nil {
		return q
	}
	return out
}

// AttrTypeOf is the attribute type a stored column of SQL type sqlType serves (the inverse of
// ColumnType for every engine, also for the types Strapi's knex declares), for custom fields nobody maps.
func AttrTypeOf(sqlType string) (schemas.AttrType, bool) {
	t := strings.ToLower(strings.TrimSpace(sqlType))
	if i := strings.IndexByte(t, '('); i >= 0 {
		t = strings.TrimSpace(t[:i])
	}
	switch t {
	case "varchar", "character varying", "character", "char", "nvarchar":
		return schemas.String, true
	case "text", "longtext", "mediumtext", "clob":
		return schemas.Text, true
	case "json", "jsonb":
		return schemas.JSON, true
	case "boolean", "bool", "tinyint":
		return schemas.Boolean, true
	case "integer", "int", "int4", "smallint":
		return schemas.Integer, true
	case "bigint", "int8", "bigint unsigned":
		return schemas.BigInteger, true
	case "float", "double", "double precision", "real", "float8", "float4":
		return schemas.Float, true
	case "decimal", "numeric":
		return schemas.Decimal, true
	case "date":
		return schemas.Date, true
	case "time", "time without time zone":
		return schemas.Time, true
	case "datetime", "timestamp", "timestamp without time zone", "timestamptz", "timestamp with time zone":
		return schemas.DateTime, true
	}
	return "", false
}
