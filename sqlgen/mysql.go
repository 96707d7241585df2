package sqlgen

import (
	"fmt"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"

	"github.com/quarrycms/quarry/schemas"
)

// mysql is MySQL 8 and MariaDB 10.6+ as Strapi's mysql/mysql2 client lays them out: unsigned
// int ids and join columns, longtext, json, datetime(6), time(3), tinyint(1) booleans, InnoDB
// tables in utf8mb4_unicode_ci, unique keys as indexes and foreign keys added once every
// table exists. The statements are the subset both servers share.
type mysql struct{}

// MySQL is MySQL 8 and MariaDB 10.6+.
var MySQL Dialect = mysql{}

// returningID is empty: neither server has INSERT … RETURNING in the subset both share;
// database.InsertID reads the driver's last-insert id.
func (mysql) returningID() string { return "" }

// defaultValues is MySQL's spelling of an insert that takes every default.
func (mysql) defaultValues() string { return "() VALUES ()" }

func (mysql) Name() string                      { return "mysql" }
func (mysql) Placeholder() sq.PlaceholderFormat { return sq.Question }
func (mysql) identQuote() string                { return "`" }

// Quote uses backticks: without ANSI_QUOTES (which Strapi does not set) a double-quoted
// word is a string.
func (mysql) Quote(ident string) string {
	return "`" + strings.ReplaceAll(ident, "`", "``") + "`"
}

// InList reads the ids from one JSON array parameter through JSON_TABLE, which MySQL 8.0.4+
// and MariaDB 10.6+ both have: the text stays the same whatever the number of ids.
func (mysql) InList(expr string) string {
	return expr + " IN (SELECT jt.id FROM JSON_TABLE(?, '$[*]' COLUMNS (id BIGINT PATH '$')) jt)"
}
func (mysql) ListArg(ids []int64) any { return jsonIDList(ids) }

// Bind sends datetimes in UTC with millisecond precision, as Strapi stores them in its
// datetime(6) columns (the connection's time zone is UTC).
func (mysql) Bind(v any) any {
	if t, ok := v.(time.Time); ok {
		return t.UTC().Truncate(time.Millisecond)
	}
	return bindCommon(v)
}

func (mysql) ColumnType(t schemas.AttrType) string {
	switch t {
	case schemas.JSON, schemas.Blocks:
		return "json"
	case schemas.Text, schemas.RichText:
		return "longtext"
	case schemas.Integer:
		return "int"
	case schemas.Float:
		return "double"
	case schemas.DateTime:
		return "datetime(6)"
	case schemas.Timestamp:
		// knex's timestamp: MySQL's TIMESTAMP (1970 to 2038, stored in UTC), nullable
		// without the automatic default an old server would give the first one.
		return "timestamp(6) NULL"
	case schemas.Time:
		return "time(3)"
	}
	return commonColumnType(t)
}

// UniqueLock takes a named lock. Named locks belong to the session, not the transaction:
// the connection releases them right after its transaction ends (database's MySQL
// connector does, see sqlgen/database/mysql.go), so they are held exactly as long as
// PostgreSQL's transaction-scoped advisory locks. GET_LOCK answers 0 when it waited the
// timeout in vain; callers check the answer (UniqueLockGranted).
func (mysql) UniqueLock() string { return MySQLLockPrefix + "CONCAT('quarry-unique-', ?), 30)" }

// MySQLLockPrefix starts every statement that takes a MySQL named lock, which is how the
// connection knows it has locks to release.
const MySQLLockPrefix = "SELECT GET_LOCK("

// MySQLReleaseLocks releases the session's named locks.
const MySQLReleaseLocks = "DO RELEASE_ALL_LOCKS()"

// tableOptions are the ones Strapi's tables have on MySQL and MariaDB.
const tableOptions = " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci"

func (d mysql) CreateTable(t Table) string {
	var b strings.Builder
	createTableColumns(d, &b, t)
	b.WriteString(")" + tableOptions)
	return b.String()
}

func (d mysql) AddColumn(table string, c Column) string { return addColumn(d, table, c) }

// CreateIndex has no IF NOT EXISTS (MySQL lacks it; Migrate creates only missing indexes).
// A unique index is a unique key, as knex's table.unique creates it.
func (d mysql) CreateIndex(table string, ix Index) string {
	u := ""
	if ix.Unique {
		u = "UNIQUE "
	}
	return fmt.Sprintf("CREATE %sINDEX %s ON %s (%s)", u, d.Quote(ix.Name), d.Quote(table), quoteList(d, ix.Columns))
}

// DropIndex names the table: MySQL's indexes belong to their table.
func (d mysql) DropIndex(table, name string) string {
	return fmt.Sprintf("DROP INDEX %s ON %s", d.Quote(name), d.Quote(table))
}

func (d mysql) AddForeignKey(table string, fk ForeignKey) string {
	return fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s FOREIGN KEY (%s) REFERENCES %s (%s) ON DELETE %s",
		d.Quote(table), d.Quote(fk.Name), d.Quote(fk.Column), d.Quote(fk.RefTable), d.Quote("id"), fk.OnDelete)
}

func (mysql) idColumn() string  { return "`id` int unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY" }
func (mysql) refType() string   { return "int unsigned" }
func (mysql) orderType() string { return "double unsigned" }
func (mysql) systemTypes() (json, timestamp string) {
	return "json", "datetime"
}

func (d mysql) filterCol(alias, col string) string { return Col(d, alias, col) }

// correlatedSemiJoin: MySQL 8 and MariaDB turn IN (SELECT …) into a semi-join they can start
// from either side; EXISTS stays a dependent subquery on MariaDB unless exists_to_in applies.
func (mysql) correlatedSemiJoin() bool { return false }

func (mysql) deferredPage() bool { return false }

// sortTerm puts NULLs where PostgreSQL puts them (last ascending, first descending), which
// Strapi's answers show; MySQL sorts them first ascending and has no NULLS LAST. The
// expression is written twice.
func (mysql) sortTerm(expr string, desc bool) (string, int) {
	if desc {
		return expr + " IS NULL DESC, " + expr + " DESC", 2
	}
	return expr + " IS NULL ASC, " + expr + " ASC", 2
}

// offsetOnly: MySQL has no OFFSET without LIMIT; its manual's idiom is the largest limit.
func (mysql) offsetOnly() string { return "LIMIT 18446744073709551615 OFFSET ?" }

// asText casts to the connection's character set (LIKE on a number or JSON).
func (mysql) asText(col string) string { return "CAST(" + col + " AS CHAR)" }

// exact compares bytes: the tables' collation ignores case and accents and pads spaces. A
// column compared with a binary operand still uses its index (the collation's match
// narrows, the bytes decide).
func (mysql) exact(expr string) string { return "CAST(" + expr + " AS BINARY)" }

// search compares under the column's collation, as Strapi's plain LIKE does.
func (mysql) search(col string) string { return col + " LIKE ?" }

// likeValue needs nothing: a trailing escape character (backslash) is a literal here.
func (mysql) likeValue(pattern string) string { return pattern }

func (mysql) tableExists() string {
	return `SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?`
}

// floatParam needs no cast: MySQL infers a CASE arm's type from its value.
func (mysql) floatParam() string { return "?" }

// idSequenceReset needs nothing: InnoDB moves AUTO_INCREMENT past an id inserted explicitly.
func (mysql) idSequenceReset(string) Stmt { return Stmt{} }

func (d mysql) analyze(table string) string { return "ANALYZE TABLE " + d.Quote(table) }

// explain asks for the plan as a table, one row per table access. MySQL 8 (EXPLAIN ANALYZE)
// and MariaDB (ANALYZE stmt) spell a measured run differently, so analyze shows the plan only.
func (mysql) explain(bool) (prefix, column string) { return "EXPLAIN ", "" }
