package sqlgen

import (
	"time"

	sq "github.com/Masterminds/squirrel"

	"github.com/quarrycms/quarry/schemas"
)

// LocalesTable holds the i18n plugin's locales (i18n_locale).
const LocalesTable = "i18n_locale"

// Locales lists the locales by id: id, name, code, created_at, updated_at.
func Locales(d Dialect) Stmt {
	return build(d, sq.Select(quoteAll(d, "id", "name", "code", "created_at", "updated_at")...).
		From(d.Quote(LocalesTable)).OrderBy(d.Quote("id")))
}

// LocaleInsert adds a locale created at now.
func LocaleInsert(d Dialect, name, code string, now time.Time) Stmt {
	ts := d.Bind(now)
	ins := Insert{Table: LocalesTable}
	ins.Set("name", name).Set("code", code).Set("created_at", ts).Set("updated_at", ts)
	return ins.Plain(d)
}

// LocaleDelete removes the locale with a code.
func LocaleDelete(d Dialect, code string) Stmt {
	return Delete(d, LocalesTable, "code", code)
}

// LocalizationsClear removes an entry's localization links (its localizations attribute's
// join j, owner the entry's id).
func LocalizationsClear(d Dialect, j *schemas.Join, owner int64) Stmt {
	return Delete(d, j.Table, j.SourceCol, owner)
}

// LocalizationLink links owner to one of its localizations, at position order (from 1).
func LocalizationLink(d Dialect, j *schemas.Join, owner, target int64, order float64) Stmt {
	ins := Insert{Table: j.Table}
	ins.Set(j.SourceCol, owner).Set(j.TargetCol, target)
	if j.OrderCol != "" {
		ins.Set(j.OrderCol, order)
	}
	return ins.Plain(d)
}
