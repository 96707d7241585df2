package sqlgen

import (
	sq "github.com/Masterminds/squirrel"

	"github.com/quarrycms/quarry/schemas"
)

// Statements on one model's entries that the REST and GraphQL handlers run besides their
// plans: an existence check before an update, a single type's entry, the component a
// multipart file key names.

// EntryCount counts the entries of m with an id (0 or 1).
func EntryCount(d Dialect, m *schemas.Model, id int64) Stmt {
	return build(d, sq.Select("COUNT(*)").From(d.Quote(m.Table)).Where(eq(d, "id", id)))
}

// SingleEntryID finds a single type's entry id: of one locale when locale is not "" (and
// the type is localized), the first row otherwise; liveOnly skips drafts.
func SingleEntryID(d Dialect, m *schemas.Model, liveOnly bool, locale string) Stmt {
	b := sq.Select(d.Quote("id")).From(d.Quote(m.Table))
	if liveOnly && m.DraftAndPublish {
		b = b.Where(d.Quote("published_at") + " IS NOT NULL")
	}
	if m.Localized && locale != "" {
		b = b.Where(eq(d, "locale", locale))
	}
	return build(d, b.OrderBy(d.Quote("id")).Limit(1))
}

// ComponentAt finds the component an entry of m holds in a component or dynamic-zone
// field, at index (0 for a single component): its component_id and component_type.
func ComponentAt(d Dialect, m *schemas.Model, entityID int64, field string, index int) Stmt {
	return build(d, sq.Select(quoteAll(d, "component_id", "component_type")...).From(d.Quote(m.ComponentsTable)).
		Where(eq(d, "entity_id", entityID)).Where(eq(d, "field", field)).
		OrderBy(quoteAll(d, "order", "id")...).Suffix("LIMIT 1 OFFSET ?", index))
}
