package sqlgen

import (
	sq "github.com/Masterminds/squirrel"

	"github.com/quarrycms/quarry/schemas"
)

// The statements of data transfer (transport/transfer): emptying the content tables before an
// import, reading tables in id order for an export, and the rows an import writes (through
// Insert and Update).

// DeleteAll empties a table.
func DeleteAll(d Dialect, table string) Stmt {
	return build(d, sq.Delete(d.Quote(table)))
}

// CountRows counts a table's rows.
func CountRows(d Dialect, table string) Stmt {
	return build(d, sq.Select("COUNT(*)").From(d.Quote(table)))
}

// RowsAfter reads up to limit rows of table with an id above after, in id order: the columns
// cols (id first when asked). An export pages through a table with it, so that no statement
// holds more than a page.
func RowsAfter(d Dialect, table string, cols []string, after int64, limit uint64) Stmt {
	return build(d, sq.Select(quoteAll(d, cols...)...).From(d.Quote(table)).
		Where(sq.Expr(d.Quote("id")+" > ?", after)).OrderBy(d.Quote("id")).Limit(limit))
}

// RowsIn reads the rows of table whose id is one of ids: the columns cols.
func RowsIn(d Dialect, table string, cols []string, ids []int64) Stmt {
	return build(d, sq.Select(quoteAll(d, cols...)...).From(d.Quote(table)).Where(inList(d, "id", ids)))
}

// ComponentLinksOf lists the components the entries owners hold in ct, in order: entity_id,
// component_id, component_type, field.
func ComponentLinksOf(d Dialect, ct string, owners []int64) Stmt {
	return build(d, sq.Select(quoteAll(d, "entity_id", "component_id", "component_type", "field")...).From(d.Quote(ct)).
		Where(inList(d, "entity_id", owners)).OrderBy(quoteAll(d, "entity_id", "order", "id")...))
}

// LinkRowsAfter pages through a relation's link table in id order: id, source, target and
// the order columns the join keeps (NULL where it keeps none).
func LinkRowsAfter(d Dialect, j *schemas.Join, after int64, limit uint64) Stmt {
	cols := []string{d.Quote("id"), d.Quote(j.SourceCol), d.Quote(j.TargetCol), "NULL", "NULL"}
	if j.OrderCol != "" {
		cols[3] = d.Quote(j.OrderCol)
	}
	if j.InvOrderCol != "" {
		cols[4] = d.Quote(j.InvOrderCol)
	}
	return build(d, sq.Select(cols...).From(d.Quote(j.Table)).Where(sq.Expr(d.Quote("id")+" > ?", after)).
		OrderBy(d.Quote("id")).Limit(limit))
}

// MorphRowsAfter pages through files_related_morphs in id order: id, file_id, related_id,
// related_type, field, order.
func MorphRowsAfter(d Dialect, after int64, limit uint64) Stmt {
	return build(d, sq.Select(quoteAll(d, "id", "file_id", "related_id", "related_type", "field", "order")...).
		From(d.Quote(MorphsTable)).Where(sq.Expr(d.Quote("id")+" > ?", after)).OrderBy(d.Quote("id")).Limit(limit))
}

// WebhookColumns are strapi_webhooks' columns in Strapi's order.
var WebhookColumns = []string{"id", "name", "url", "headers", "events", "enabled"}

// CoreStoreColumns are strapi_core_store_settings' columns in Strapi's order.
var CoreStoreColumns = []string{"id", "key", "value", "type", "environment", "tag"}

// ContentTables are the tables an import empties and an export reads: the rows of every
// content type, plugin type and component (rows), and every table that joins them (joins:
// relation link tables, the components tables, files_related_morphs), as Layout names them.
// Strapi's own tables (admin users, tokens, the core store, webhooks, ...) are not among them.
func ContentTables(s *schemas.Schema) (rows, joins []string) {
	models := append([]*schemas.Model{s.Files}, s.ContentTypes...)
	models = append(models, s.Plugins...)
	models = append(models, s.Components...)
	seen := map[string]bool{}
	for _, m := range models {
		rows = append(rows, m.Table)
	}
	for _, m := range models {
		for _, a := range m.Attributes {
			j := a.OwnJoin() // shadowed ones too: a side they name may fill them
			if j == nil || seen[j.Table] {
				continue
			}
			seen[j.Table] = true
			joins = append(joins, j.Table)
		}
		if m.ComponentsTable != "" {
			joins = append(joins, m.ComponentsTable)
		}
	}
	return rows, append(joins, MorphsTable)
}

// RowsWhereHash finds a file by its hash: id, formats.
func RowsWhereHash(d Dialect, table, hash string) Stmt {
	return build(d, sq.Select(quoteAll(d, "id", "formats")...).From(d.Quote(table)).Where(eq(d, "hash", hash)).Limit(1))
}

// DeleteAllBut empties a table but the rows whose column col holds keep.
func DeleteAllBut(d Dialect, table, col, keep string) Stmt {
	return build(d, sq.Delete(d.Quote(table)).Where(sq.Expr(d.Quote(col)+" <> ?", keep)))
}
