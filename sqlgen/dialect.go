// Package sqlgen renders plan steps and the DDL of the Strapi v4 layout to SQL text, once per
// dialect. It is the only package that knows how SQLite, PostgreSQL (and later MySQL) spell
// things; identifiers always come from the schema and values are always bind parameters.
package sqlgen

import (
	"fmt"
	"strconv"
	"strings"

	sq "github.com/Masterminds/squirrel"

	"quarry/schemas"
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

// InList renders "expr is one of the values in one bind parameter": the SQL text stays the
// same whatever the number of parent ids, so batched statements are built once per shape.
func (d *Dialect) InList(expr string) string {
	if d == Postgres {
		return expr + " = ANY(?::bigint[])"
	}
	return expr + " IN (SELECT value FROM json_each(?))"
}

// ListArg encodes ids for InList.
func (d *Dialect) ListArg(ids []int64) any {
	if d == Postgres {
		return ids
	}
	b := make([]byte, 0, len(ids)*6+2)
	b = append(b, '[')
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, id, 10)
	}
	b = append(b, ']')
	return string(b)
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
		if d == Postgres {
			return "time(3)"
		}
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
