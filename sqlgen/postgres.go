package sqlgen

import (
	"fmt"
	"strings"

	sq "github.com/Masterminds/squirrel"

	"github.com/quarrycms/quarry/schemas"
)

// postgres is PostgreSQL as Strapi's pg client lays it out: jsonb, timestamp(6), unique
// indexes as constraints, foreign keys added once every table exists.
type postgres struct{}

// Postgres is PostgreSQL.
var Postgres Dialect = postgres{}

func (postgres) returningID() string { return ` RETURNING "id"` }

func (postgres) floatParam() string { return "CAST(? AS double precision)" }

// idSequenceReset sets the serial sequence of table to its largest id (1 when empty). The
// sequence is found by the table's name, a text value, bound like any other.
func (d postgres) idSequenceReset(table string) Stmt {
	return Stmt{SQL: "SELECT setval(pg_get_serial_sequence(?, ?), (SELECT COALESCE(MAX(" + d.Quote("id") + "), 1) FROM " + d.Quote(table) + "))",
		Args: []any{d.Quote(table), "id"}}
}

func (d postgres) analyze(table string) string { return "ANALYZE " + d.Quote(table) }

func (postgres) tableExists() string {
	return "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?"
}

func (postgres) Name() string                      { return "postgres" }
func (postgres) Placeholder() sq.PlaceholderFormat { return sq.Dollar }
func (postgres) identQuote() string                { return `"` }
func (postgres) Quote(ident string) string         { return quoteDouble(ident) }

// InList binds the ids as one bigint array.
func (postgres) InList(expr string) string { return expr + " = ANY(?::bigint[])" }
func (postgres) ListArg(ids []int64) any   { return ids }

func (postgres) Bind(v any) any { return bindCommon(v) }

func (postgres) ColumnType(t schemas.AttrType) string {
	switch t {
	case schemas.JSON, schemas.Blocks:
		return "jsonb"
	case schemas.Float:
		return "double precision"
	case schemas.DateTime, schemas.Timestamp:
		return "timestamp(6)"
	}
	return commonColumnType(t)
}

// UniqueLock takes a transaction-scoped advisory lock.
func (postgres) UniqueLock() string { return "SELECT pg_advisory_xact_lock(?)" }

// explain: one line of plan per row; analyze runs the statement and counts its buffers.
func (postgres) explain(analyze bool) (string, string) {
	if analyze {
		return "EXPLAIN (ANALYZE, BUFFERS) ", ""
	}
	return "EXPLAIN ", ""
}

func (d postgres) CreateTable(t Table) string {
	var b strings.Builder
	createTableColumns(d, &b, t)
	b.WriteString(")")
	return b.String()
}

func (d postgres) AddColumn(table string, c Column) string { return addColumn(d, table, c) }

// CreateIndex renders a unique index as a constraint (knex's table.unique).
func (d postgres) CreateIndex(table string, ix Index) string {
	if ix.Unique {
		return fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s UNIQUE (%s)", d.Quote(table), d.Quote(ix.Name), quoteList(d, ix.Columns))
	}
	return createIndex(d, table, ix)
}

func (d postgres) DropIndex(_, name string) string { return "DROP INDEX IF EXISTS " + d.Quote(name) }

func (d postgres) AddForeignKey(table string, fk ForeignKey) string {
	return fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s FOREIGN KEY (%s) REFERENCES %s (\"id\") ON DELETE %s",
		d.Quote(table), d.Quote(fk.Name), d.Quote(fk.Column), d.Quote(fk.RefTable), fk.OnDelete)
}

// PostgresUniqueFromIndex turns an existing unique index into the constraint Strapi has
// under that name (earlier Quarry versions created the index).
func PostgresUniqueFromIndex(table, name string) string {
	d := Postgres
	return fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s UNIQUE USING INDEX %s", d.Quote(table), d.Quote(name), d.Quote(name))
}

// PostgresRenameConstraint renames a foreign key to Strapi's name for it.
func PostgresRenameConstraint(table, from, to string) string {
	d := Postgres
	return fmt.Sprintf("ALTER TABLE %s RENAME CONSTRAINT %s TO %s", d.Quote(table), d.Quote(from), d.Quote(to))
}

func (postgres) idColumn() string  { return `"id" serial PRIMARY KEY` }
func (postgres) orderType() string { return "double precision" }
func (postgres) systemTypes() (json, timestamp string) {
	return "json", "timestamp"
}

// filterCol is the plain column: PostgreSQL's planner has statistics to choose the index.
func (d postgres) filterCol(alias, col string) string { return Col(d, alias, col) }

// correlatedSemiJoin: PostgreSQL plans IN (SELECT …) as a semi-join (hashed, or nested over
// an index), choosing the side to start from by its statistics.
func (postgres) correlatedSemiJoin() bool { return false }

// deferredPage: measured on PostgreSQL 15 (bench/README.md, issue 30); SQLite and MySQL keep
// the plain page until measured there.
func (postgres) deferredPage() bool { return true }

// sortTerm keeps PostgreSQL's default placement, the one Strapi's answers show.
func (postgres) sortTerm(expr string, desc bool) (string, int) {
	if desc {
		return expr + " DESC", 1
	}
	return expr + " ASC", 1
}

// exact needs nothing: comparisons and LIKE are case-sensitive here.
func (postgres) exact(expr string) string { return expr }

// likeValue makes a trailing unpaired backslash (LIKE's escape character here) a literal
// one: PostgreSQL refuses a pattern ending with its escape character, which Strapi answers
// with a 500. Every other pattern is left as Strapi sends it (% and _ are wildcards, and a
// backslash escapes the character after it, as in Strapi's SQL).
func (postgres) likeValue(pattern string) string {
	n := len(pattern) - len(strings.TrimRight(pattern, `\`))
	if n%2 == 1 {
		return pattern + `\`
	}
	return pattern
}

func (postgres) search(col string) string { return "CAST(" + col + " AS text) ILIKE ?" }

func (postgres) defaultValues() string { return "DEFAULT VALUES" }
func (postgres) refType() string       { return "integer" }

func (postgres) offsetOnly() string { return "OFFSET ?" }

// asText casts, since LIKE takes text only.
func (postgres) asText(col string) string { return "CAST(" + col + " AS text)" }

// PostgresCreateDatabase creates a database (benchmarks and tests make throwaway ones).
func PostgresCreateDatabase(name string) string {
	return "CREATE DATABASE " + Postgres.Quote(name)
}

// PostgresDropDatabase drops a database, ending the sessions still connected to it.
func PostgresDropDatabase(name string) string {
	return "DROP DATABASE IF EXISTS " + Postgres.Quote(name) + " WITH (FORCE)"
}
