package sqlgen

import (
	"fmt"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"

	"github.com/quarrycms/quarry/schemas"
)

// sqlite is SQLite as Strapi's better-sqlite3 client lays it out: datetimes as epoch
// milliseconds, JSON as text, foreign keys declared inline (SQLite cannot add them later).
type sqlite struct{}

// SQLite is the embedded default.
var SQLite Dialect = sqlite{}

// returningID: SQLite has RETURNING since 3.35.
func (sqlite) returningID() string { return ` RETURNING "id"` }

func (sqlite) floatParam() string { return "?" }

func (sqlite) idSequenceReset(string) Stmt { return Stmt{} }
func (sqlite) analyze(string) string       { return "" }

func (sqlite) tableExists() string {
	return "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?"
}

func (sqlite) Name() string                      { return "sqlite" }
func (sqlite) Placeholder() sq.PlaceholderFormat { return sq.Question }
func (sqlite) identQuote() string                { return `"` }
func (sqlite) Quote(ident string) string         { return quoteDouble(ident) }

// InList reads the ids from one JSON array parameter.
func (sqlite) InList(expr string) string { return expr + " IN (SELECT value FROM json_each(?))" }
func (sqlite) ListArg(ids []int64) any   { return jsonIDList(ids) }

// Bind keeps datetimes as epoch milliseconds, as Strapi's SQLite databases do.
func (sqlite) Bind(v any) any {
	if t, ok := v.(time.Time); ok {
		return t.UnixMilli()
	}
	return bindCommon(v)
}

func (sqlite) ColumnType(t schemas.AttrType) string {
	switch t {
	case schemas.JSON, schemas.Blocks:
		return "text"
	case schemas.Float:
		return "float"
	case schemas.DateTime, schemas.Timestamp:
		return "datetime"
	}
	return commonColumnType(t)
}

// UniqueLock is empty: SQLite transactions begin IMMEDIATE, which already serializes
// writers from the first statement.
func (sqlite) UniqueLock() string { return "" }

// explain asks for the query plan, whose text is in the detail column (the others are
// node ids); SQLite cannot analyze.
func (sqlite) explain(bool) (string, string) { return "EXPLAIN QUERY PLAN ", "detail" }

// CreateTable declares the foreign keys inline, named as Strapi names them: SQLite cannot
// add constraints to an existing table.
func (d sqlite) CreateTable(t Table) string {
	var b strings.Builder
	createTableColumns(d, &b, t)
	for _, fk := range t.ForeignKeys {
		fmt.Fprintf(&b, ", CONSTRAINT %s FOREIGN KEY (%s) REFERENCES %s (\"id\") ON DELETE %s",
			d.Quote(fk.Name), d.Quote(fk.Column), d.Quote(fk.RefTable), fk.OnDelete)
	}
	b.WriteString(")")
	return b.String()
}

func (d sqlite) AddColumn(table string, c Column) string { return addColumn(d, table, c) }

// CreateIndex renders unique indexes as indexes, as knex does on SQLite.
func (d sqlite) CreateIndex(table string, ix Index) string { return createIndex(d, table, ix) }

func (d sqlite) DropIndex(_, name string) string { return "DROP INDEX IF EXISTS " + d.Quote(name) }

// AddForeignKey is never needed: CreateTable declared them.
func (sqlite) AddForeignKey(string, ForeignKey) string { return "" }

func (sqlite) idColumn() string  { return `"id" integer PRIMARY KEY AUTOINCREMENT` }
func (sqlite) orderType() string { return "float" }
func (sqlite) systemTypes() (json, timestamp string) {
	return "text", "datetime"
}

// filterCol renders a column compared only to filter rows another index already found. A
// unary + keeps its index out of the planner's choice: without statistics (Strapi's layout,
// no ANALYZE) SQLite rates every equality index alike and picked the link table's
// low-selectivity component_type or field index over the owning entity's, reading every row
// of a component type per entry.
func (d sqlite) filterCol(alias, col string) string { return "+" + Col(d, alias, col) }

// correlatedSemiJoin: SQLite runs an uncorrelated IN subquery once into a temporary index,
// reading the whole link table to do so; EXISTS probes the link table's owner index per outer
// row, and a paginated, ordered page stops after its rows.
func (sqlite) correlatedSemiJoin() bool { return true }

func (sqlite) deferredPage() bool { return false }

// sortTerm asks for PostgreSQL's default null placement, which Strapi's answers show.
func (sqlite) sortTerm(expr string, desc bool) (string, int) {
	if desc {
		return expr + " DESC NULLS FIRST", 1
	}
	return expr + " ASC NULLS LAST", 1
}

// exact needs nothing: comparisons and LIKE are case-sensitive here (the connection sets case_sensitive_like).
func (sqlite) exact(expr string) string { return expr }

// likeValue needs nothing: LIKE has no escape character unless one is given.
func (sqlite) likeValue(pattern string) string { return pattern }

// search lowers both sides: Quarry's connections make LIKE case-sensitive (for $contains),
// and Strapi's search relies on SQLite's default, which ignores ASCII case as LOWER does.
func (sqlite) search(col string) string { return "LOWER(" + col + ") LIKE LOWER(?) ESCAPE '\\'" }

func (sqlite) defaultValues() string { return "DEFAULT VALUES" }
func (sqlite) refType() string       { return "integer" }

func (sqlite) offsetOnly() string { return "LIMIT -1 OFFSET ?" }

// asText needs no cast: SQLite compares any value as text under LIKE.
func (sqlite) asText(col string) string { return col }

// SQLiteVacuumInto writes a consistent copy of the database to the file its one parameter
// names (one read transaction: writers go on meanwhile under WAL).
func SQLiteVacuumInto(path string) Stmt { return Stmt{SQL: "VACUUM INTO ?", Args: []any{path}} }

// SQLitePageBytes is the database's size in bytes: page_count * page_size.
const SQLitePageBytes = "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()"

// SQLiteQuickCheck checks a database file's structure ("ok" when sound).
const SQLiteQuickCheck = "PRAGMA quick_check"
