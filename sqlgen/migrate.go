package sqlgen

import (
	"fmt"
	"strings"

	sq "github.com/Masterminds/squirrel"

	"github.com/quarrycms/quarry/schemas"
)

// The DDL of schema changes as Strapi 4.26's schema sync makes them (sqlgen/database decides
// which to make): a column's type changed, a column or a table that the layout no longer has
// dropped. PostgreSQL and MySQL alter in place (knex's alter(): ALTER COLUMN ... TYPE ...
// USING, MODIFY); SQLite, which cannot change a column's type, rebuilds the table as knex
// does: a new table of the layout, the rows copied, the old table dropped, the new renamed.

// AlterColumnType changes a column's type to the layout's (c.Type).
func AlterColumnType(d Dialect, table string, c Column) []string {
	switch d {
	case Postgres:
		return []string{fmt.Sprintf("ALTER TABLE %s ALTER COLUMN %s TYPE %s USING %s::%s", d.Quote(table), d.Quote(c.Name), c.Type, d.Quote(c.Name), c.Type)}
	case MySQL:
		return []string{fmt.Sprintf("ALTER TABLE %s MODIFY %s %s", d.Quote(table), d.Quote(c.Name), c.Type)}
	}
	panic("sqlgen: SQLite changes a column's type by rebuilding its table (RebuildTable)")
}

// DropColumn drops a column the layout no longer has.
func DropColumn(d Dialect, table, col string) string {
	return fmt.Sprintf("ALTER TABLE %s DROP COLUMN %s", d.Quote(table), d.Quote(col))
}

// DropTable drops a table the layout no longer has (on PostgreSQL with what depends on it:
// the foreign keys of link tables, which go too).
func DropTable(d Dialect, table string) string {
	if d == Postgres {
		return "DROP TABLE IF EXISTS " + d.Quote(table) + " CASCADE"
	}
	return "DROP TABLE IF EXISTS " + d.Quote(table)
}

// RebuildTable is SQLite's way to change or drop columns of t: create the layout's table
// under a temporary name, copy the columns both have (keep, each cast to its new type where
// cast names one), drop the old table and rename the new one. Foreign keys must be off
// around it (PRAGMA foreign_keys, outside the transaction); indexes are created afterwards
// as for any table.
func RebuildTable(d Dialect, t Table, keep []string, cast map[string]string) []string {
	tmp := t
	tmp.Name = t.Name + "__quarry_rebuild"
	sel := make([]string, len(keep))
	for i, c := range keep {
		sel[i] = d.Quote(c)
		if typ, ok := cast[c]; ok {
			sel[i] = fmt.Sprintf("CAST(%s AS %s)", d.Quote(c), sqliteAffinity(typ))
		}
	}
	return []string{
		"DROP TABLE IF EXISTS " + d.Quote(tmp.Name),
		d.CreateTable(tmp),
		fmt.Sprintf("INSERT INTO %s (%s) SELECT %s FROM %s", d.Quote(tmp.Name), quoteList(d, keep), strings.Join(sel, ", "), d.Quote(t.Name)),
		"DROP TABLE " + d.Quote(t.Name),
		fmt.Sprintf("ALTER TABLE %s RENAME TO %s", d.Quote(tmp.Name), d.Quote(t.Name)),
	}
}

// sqliteAffinity is the CAST target that gives a declared type's affinity.
func sqliteAffinity(typ string) string {
	t := strings.ToLower(typ)
	switch {
	case strings.Contains(t, "int"):
		return "INTEGER"
	case strings.Contains(t, "char"), strings.Contains(t, "text"), strings.Contains(t, "clob"):
		return "TEXT"
	case strings.Contains(t, "real"), strings.Contains(t, "floa"), strings.Contains(t, "doub"):
		return "REAL"
	}
	return "NUMERIC"
}

// CountNonNull counts the rows of table holding a value in col.
func CountNonNull(d Dialect, table, col string) Stmt {
	return build(d, sq.Select("COUNT(*)").From(d.Quote(table)).Where(d.Quote(col)+" IS NOT NULL"))
}

// ColumnTypes lists every column of the current schema with its SQL type as the engine
// reports it: table, column, type.
func ColumnTypes(d Dialect) string {
	switch d {
	case Postgres:
		return `SELECT table_name AS a, column_name AS b, CASE WHEN data_type = 'character varying' THEN 'varchar' ELSE data_type END AS c FROM information_schema.columns WHERE table_schema = current_schema()`
	case MySQL:
		return `SELECT table_name AS a, column_name AS b, column_type AS c FROM information_schema.columns WHERE table_schema = DATABASE()`
	}
	return `SELECT m.name AS a, p.name AS b, p.type AS c FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table'`
}

// StrapiStoredSchema reads the schema Strapi's last sync stored (its tables and columns).
func StrapiStoredSchema(d Dialect) Stmt {
	return build(d, sq.Select(d.Quote("schema")).From(d.Quote("strapi_database_schema")).OrderBy(d.Quote("id")+" DESC").Limit(1))
}

// LayoutKey is the core store key under which Quarry records the tables and columns of the
// layout it last brought the database to: what a later schema change may drop is what Quarry
// (or Strapi, in strapi_database_schema) made, never a table someone else keeps there.
const LayoutKey = "quarry_layout"

// LosslessChange says whether every value of a column of type from reads the same after the
// column becomes of type to (a widening: integer to bigint or text, varchar to text, ...).
// Other changes may fail or lose data on rows that hold values.
func LosslessChange(from, to schemas.AttrType) bool {
	text := to == schemas.Text
	str := to == schemas.String
	switch from {
	case schemas.Integer:
		return to == schemas.BigInteger || to == schemas.Float || str || text
	case schemas.BigInteger, schemas.Float, schemas.Decimal, schemas.Boolean, schemas.Date, schemas.Time, schemas.DateTime:
		return str || text || (from == schemas.Date && to == schemas.DateTime)
	case schemas.String:
		return text
	case schemas.JSON:
		return text
	}
	return false
}

// CountLongerThan counts the rows of table whose text in col is longer than n characters
// (what a varchar(n) would cut).
func CountLongerThan(d Dialect, table, col string, n int) Stmt {
	length := "LENGTH"
	if d == MySQL {
		length = "CHAR_LENGTH"
	}
	return build(d, sq.Select("COUNT(*)").From(d.Quote(table)).Where(sq.Expr(length+"("+d.Quote(col)+") > ?", n)))
}
