// Package sqlgen renders plan steps and the DDL of the Strapi v4 layout to SQL text, once per
// dialect. It is the only package that knows how SQLite, PostgreSQL (and later MySQL) spell
// things; identifiers always come from the schema and values are always bind parameters.
package sqlgen

import (
	"fmt"
	"strconv"
	"strings"

	sq "github.com/Masterminds/squirrel"

	"github.com/quarrycms/quarry/schemas"
)

// Dialect is one SQL flavour.
type Dialect struct {
	Name        string // sqlite, postgres
	Placeholder sq.PlaceholderFormat
}

var (
	SQLite   = &Dialect{Name: "sqlite", Placeholder: sq.Question}
	Postgres = &Dialect{Name: "postgres", Placeholder: sq.Dollar}
)

// ByName returns the dialect for a DATABASE_CLIENT value.
func ByName(name string) (*Dialect, error) {
	switch strings.ToLower(name) {
	case "", "sqlite", "sqlite3", "better-sqlite3":
		return SQLite, nil
	case "postgres", "postgresql", "pg":
		return Postgres, nil
	}
	return nil, fmt.Errorf("unsupported database client %q (use sqlite or postgres)", name)
}

// Quote quotes an identifier. Identifiers come from the schema, which restricts them to
// letters, digits, - and _, so quoting is a formality that also protects reserved words
// such as "order".
func (d *Dialect) Quote(ident string) string {
	return `"` + strings.ReplaceAll(ident, `"`, `""`) + `"`
}

// Col quotes alias.column.
func (d *Dialect) Col(alias, col string) string {
	return alias + "." + d.Quote(col)
}

// filterCol renders a column compared only to filter rows another index already found. On
// SQLite a unary + keeps its index out of the planner's choice: without statistics (Strapi's
// layout, no ANALYZE) SQLite rates every equality index alike and picked the link table's
// low-selectivity component_type or field index over the owning entity's, reading every row
// of a component type per entry. PostgreSQL's planner has statistics and no such operator.
func (d *Dialect) filterCol(alias, col string) string {
	if d == SQLite {
		return "+" + d.Col(alias, col)
	}
	return d.Col(alias, col)
}

// InList renders "expr is one of the values in one bind parameter": the SQL text stays the
// same whatever the number of parent ids, so batched statements are built once per shape.
func (d *Dialect) InList(expr string) string {
	if d == Postgres {
		return expr + " = ANY(?::bigint[])"
	}
	return expr + " IN (SELECT value FROM json_each(?))"
}

// ListArg encodes ids for InList. On SQLite the list is JSON text, built in one allocation
// (its exact length is computed first), because it is built for every batched level of
// every request.
func (d *Dialect) ListArg(ids []int64) any {
	if d == Postgres {
		return ids
	}
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
	d   *Dialect // the dialect arg is encoded for; nil: not encoded yet
	arg any
}

// Parents encodes ids for the child steps of one level. The ids must not change while the
// Parents or the statements rendered with it are in use (PostgreSQL binds the slice itself).
func (d *Dialect) Parents(ids []int64) Parents {
	return Parents{ids: ids, d: d, arg: d.ListArg(ids)}
}

// IDs returns the parent ids.
func (p Parents) IDs() []int64 { return p.ids }

// argFor returns the list's bind value for d, encoding it when it was not encoded for d.
func (p Parents) argFor(d *Dialect) any {
	if p.d != d {
		return d.ListArg(p.ids)
	}
	return p.arg
}

// ColumnType is the column type of a scalar attribute, as Strapi v4 (knex) creates it.
func (d *Dialect) ColumnType(t schemas.AttrType) string {
	switch t {
	case schemas.Text, schemas.RichText:
		return "text"
	case schemas.JSON, schemas.Blocks:
		if d == Postgres {
			return "jsonb"
		}
		return "text"
	case schemas.Integer:
		return "integer"
	case schemas.BigInteger:
		return "bigint"
	case schemas.Float:
		if d == Postgres {
			return "double precision"
		}
		return "float"
	case schemas.Decimal:
		return "decimal(10,2)"
	case schemas.Date:
		return "date"
	case schemas.Time:
		// Strapi asks knex for time(3); knex's PostgreSQL column is a plain time.
		return "time"
	case schemas.DateTime, schemas.Timestamp:
		if d == Postgres {
			return "timestamp(6)"
		}
		return "datetime"
	case schemas.Boolean:
		return "boolean"
	}
	return "varchar(255)"
}

func (d *Dialect) idColumn() string {
	if d == Postgres {
		return `"id" serial PRIMARY KEY`
	}
	return `"id" integer PRIMARY KEY AUTOINCREMENT`
}

// Rebind converts the ? placeholders of a hand-written statement to the dialect's.
func (d *Dialect) Rebind(q string) string {
	out, err := d.Placeholder.ReplacePlaceholders(q)
	if err != nil {
		return q
	}
	return out
}

// AttrTypeOf is the attribute type a stored column of SQL type sqlType serves (the inverse of
// ColumnType, also for the types Strapi's knex declares), for custom fields nobody maps.
func (d *Dialect) AttrTypeOf(sqlType string) (schemas.AttrType, bool) {
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
