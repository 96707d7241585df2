package sqlgen

import (
	"fmt"
	"hash/fnv"

	"github.com/quarrycms/quarry/schemas"
)

// Quarry's plans read some tables through column sets Strapi's layout does not index. These
// indexes are optional and outside the layout: Migrate never creates them, because Strapi's
// schema sync drops every index its layout does not define whenever it compares the layout
// with the database (StrapiSync), so on a database shared with Strapi they last until then.
// `quarry indexes` prints them and creates them on request. Their names start with quarry_ so
// that they are recognisably Quarry's. Each is offered because it was measured to change the
// plan of a statement Quarry runs; the figures in Why are from one run on PostgreSQL 15 over
// bench/datagen's 10 000 articles (8 992 published), VACUUM ANALYZEd, EXPLAIN (ANALYZE,
// BUFFERS) of the statement as Quarry renders it, median of 11 in each of 2 cycles (the
// range), on the shared 2-core machine (bench/README.md has the table and the i18n case's
// table). Buffers read are exact; the times move with the machine's load.

// StrapiSync says when Strapi's own schema sync drops the quarry_* indexes: Strapi 4.26.2
// (@strapi/database, schema.sync) inspects the database and drops the indexes its layout does
// not define on its first start, when it has migrations to run, and when the content types
// changed (a schema edit or an upgrade) unless config/database sets
// settings.strictSyncSchema to false; a start with unchanged content types compares nothing.
// None of Quarry's indexes is in Strapi's layout, so every one of them goes then.
//
// Strapi only sees what its PostgreSQL inspector lists: it joins pg_index to pg_attribute on
// indkey and skips the rows of the column id, so an index whose keys are expressions (attnum
// 0: the trigram indexes on LOWER(column)) or whose only column is id (the partial count
// index) is not listed and never dropped. Measured: Strapi 4.26.2 restarted twice on a
// changed content type dropped the plain-column indexes (articles (publish_date), (publish_date
// DESC, id) WHERE published_at IS NOT NULL, (views, LOWER(slug))) and kept (id) WHERE
// published_at IS NOT NULL, (LOWER(title)) and the GIN trigram index (bench/README.md). Again
// with all 49 indexes QuarryIndexes, PublishedIDIndexes, SortIndexes and TrigramIndexes give the
// blog example: the 28 plain ones went, the 21 marked kept stayed. ExtraIndex.Kept marks those.
const StrapiSync = "Strapi 4.x drops the quarry_* indexes it can see when its schema sync compares the database " +
	"with its layout: on its first start, with pending migrations, and after a content-type change or " +
	"upgrade (unless config/database sets settings.strictSyncSchema to false); a restart with unchanged " +
	"content types keeps them. On PostgreSQL it does not see an index on expressions or on id alone, so those " +
	"(marked kept) stay"

// ExtraIndex is one optional index and why Quarry's plans use it.
type ExtraIndex struct {
	Table string
	Index Index
	Why   string
	// Trigram makes it a PostgreSQL GIN index of the trigrams of LOWER(column) (pg_trgm, one
	// column), the expression $containsi, $startsWithi and $endsWithi compare.
	Trigram bool
	// Where makes it a partial index of the rows the condition holds for (PostgreSQL).
	Where string
	// Kept says Strapi's schema sync does not see the index, so it does not drop it (StrapiSync).
	Kept bool
	// Sort makes it the sort index of this attribute (SortIndexes): keyed on SortExpr of its
	// column rather than on the column.
	Sort *schemas.Attribute
}

// maxIndexName is the shortest engine limit on identifiers (PostgreSQL's 63 bytes; MySQL's
// is 64): a longer name would be truncated by PostgreSQL and refused by MySQL.
const maxIndexName = 63

// Measured effects, quoted in the Why of each kind of index.
const (
	whyPublished = "draft & publish: the published_at IS NOT NULL filter of every list and the count behind " +
		"meta.pagination.total become an index-only scan, and sort=publishedAt reads the index in order " +
		"(measured on articles, 10 000 rows, PostgreSQL: count 908 buffers 6.0-6.2 ms -> 27 buffers 0.80-0.83 ms; " +
		"a page of 25 sorted publishedAt:desc 914 buffers 9.3-9.5 ms -> 16 buffers 0.14-0.16 ms; bench/README.md)"
	whyLocalePublished = "i18n with draft & publish: every list filters locale = ? AND published_at IS NOT NULL " +
		"(the default locale when none is asked for); the list's count becomes an index-only scan and " +
		"sort=publishedAt reads the index in order, where an index on published_at alone is not used (measured " +
		"on a pages table of 10 000 rows in 3 locales, PostgreSQL: count of one locale 1 037 buffers 5.7 ms -> " +
		"15 buffers 0.36 ms; a page of 25 sorted publishedAt:desc 1 043 buffers 6.4 ms -> 20 buffers 0.13 ms; " +
		"with (published_at) alone the count still reads 1 037 buffers; bench/README.md)"
	whyLocale = "i18n: every list filters locale = ? (the default locale when none is asked for); the list's " +
		"count becomes an index-only scan (measured on a pages table of 10 000 rows in 3 locales, PostgreSQL: " +
		"1 037 buffers 4.5 ms -> 5 buffers 0.29 ms; bench/README.md)"
	whySortKey = "sort=%s on a list (with the published filter or without): the page is read from the index " +
		"in order instead of sorting the whole table (measured on articles, 10 000 rows, PostgreSQL: a page " +
		"of 25 sorted %s:desc 914 buffers %s -> 16 buffers %s%s; bench/README.md)"
	whyInverse = "relation %s.%s filtered on (the link table read from its target): Strapi indexes (%s) " +
		"alone, this finds the owners in the index without reading the link table (measured on " +
		"articles_tags_links, 303 links of one tag, PostgreSQL: a filters[tags][id][$eq] page 256 buffers " +
		"1.14-1.18 ms -> 166 buffers 0.80-0.87 ms, its count 1 555 -> 1 466 buffers 6.7-7.4 -> 6.4-7.0 ms; the inverse " +
		"populate's plan does not change; SQLite without statistics plans that filter from the owners' " +
		"table and leaves it unused; bench/README.md)"
)

// sortKeys are the system timestamps lists are commonly sorted by (createdAt, updatedAt);
// publishedAt is served by the published_at index. The measured times per column, and what
// else was measured.
var sortKeys = []struct{ attr, column, before, after, note string }{
	{"createdAt", "created_at", "9.2-9.4 ms", "0.14 ms",
		"; a composite (published_at, created_at) index does not change that plan (914 buffers) and is not offered"},
	{"updatedAt", "updated_at", "9.1-9.6 ms", "0.14-0.15 ms", ""},
}

// QuarryIndexes lists the optional indexes for the schema, in the layout's table order: per
// model the index of the list filter every read carries (published_at for draft & publish,
// locale for i18n, both for both) and the sort-key indexes (collection types of the project;
// a single type has one row per locale), then the relation link tables' (target, source)
// indexes.
func QuarryIndexes(s *schemas.Schema) []ExtraIndex {
	var out []ExtraIndex
	models := append([]*schemas.Model{s.Files}, s.ContentTypes...)
	models = append(models, s.Plugins...)
	models = append(models, s.Components...)
	project := map[*schemas.Model]bool{}
	for _, m := range s.ContentTypes {
		project[m] = true
	}
	for _, m := range models {
		if m.Kind != schemas.Component {
			// The list filter's columns: locale first (an equality) on localized types.
			switch {
			case m.Localized && m.DraftAndPublish:
				out = append(out, ExtraIndex{Table: m.Table,
					Index: Index{Name: quarryIndexName(m.Table, "locale_published_at"), Columns: []string{"locale", "published_at"}},
					Why:   whyLocalePublished})
			case m.Localized:
				out = append(out, ExtraIndex{Table: m.Table,
					Index: Index{Name: quarryIndexName(m.Table, "locale"), Columns: []string{"locale"}},
					Why:   whyLocale})
			case m.DraftAndPublish:
				out = append(out, ExtraIndex{Table: m.Table,
					Index: Index{Name: quarryIndexName(m.Table, "published_at"), Columns: []string{"published_at"}},
					Why:   whyPublished})
			}
		}
		if !project[m] || m.Kind != schemas.CollectionType {
			continue
		}
		for _, k := range sortKeys {
			if a, ok := m.Attr(k.attr); !ok || !a.System || a.Column != k.column {
				continue
			}
			out = append(out, ExtraIndex{Table: m.Table,
				Index: Index{Name: quarryIndexName(m.Table, k.column), Columns: []string{k.column}},
				Why:   fmt.Sprintf(whySortKey, k.attr, k.attr, k.before, k.after, k.note)})
		}
	}
	seen := map[string]bool{}
	for _, m := range models {
		for _, a := range m.Attributes {
			if !a.OwnsLink() || seen[a.Link.Table] {
				continue
			}
			seen[a.Link.Table] = true
			j := a.Link
			out = append(out, ExtraIndex{Table: j.Table,
				Index: Index{Name: quarryIndexName(j.Table, "inv"), Columns: []string{j.TargetCol, j.SourceCol}},
				Why:   fmt.Sprintf(whyInverse, m.UID, a.Name, j.TargetCol)})
		}
	}
	return out
}

// quarryIndexName is quarry_<table>_<suffix>, shortened with a hash of the full name when it
// exceeds maxIndexName so that it stays unique and the same on every run.
func quarryIndexName(table, suffix string) string {
	n := "quarry_" + table + "_" + suffix
	if len(n) <= maxIndexName {
		return n
	}
	h := fnv.New32a()
	h.Write([]byte(n))
	return fmt.Sprintf("%s_%08x", n[:maxIndexName-9], h.Sum32())
}

// CreateExtraIndex renders the CREATE INDEX of an optional index: IF NOT EXISTS on SQLite
// and PostgreSQL; MySQL lacks it, so the caller creates only the names it does not find.
func CreateExtraIndex(d Dialect, x ExtraIndex) string {
	if x.Trigram {
		return fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s USING gin (LOWER(%s) gin_trgm_ops)",
			d.Quote(x.Index.Name), d.Quote(x.Table), d.Quote(x.Index.Columns[0]))
	}
	if x.Sort != nil {
		expr, _ := SortExpr(x.Sort.Type, d.Quote(x.Index.Columns[0]))
		sql := fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s ((%s))", d.Quote(x.Index.Name), d.Quote(x.Table), expr)
		if x.Where != "" {
			sql += " WHERE " + x.Where
		}
		return sql
	}
	if x.Where != "" {
		return d.CreateIndex(x.Table, x.Index) + " WHERE " + x.Where
	}
	return d.CreateIndex(x.Table, x.Index)
}

// TrigramExtension is what the trigram indexes need: pg_trgm, a trusted extension since
// PostgreSQL 13 (a database owner may create it).
const TrigramExtension = "CREATE EXTENSION IF NOT EXISTS pg_trgm"

// whyTrigram is the measured effect of a trigram index (bench/README.md has the table).
const whyTrigram = "$containsi / $startsWithi / $endsWithi on %s.%s (LOWER(column) LIKE LOWER(?), Strapi's " +
	"wildcards unchanged): a GIN trigram index finds the rows whose value holds every 3-character piece " +
	"of the term instead of lowering and matching every row; it cannot help a term under 3 characters, " +
	"where PostgreSQL keeps the scan (measured on articles, 10 000 rows, PostgreSQL 15: %s; bench/README.md)"

// trigramMeasured is the effect measured on bench/datagen's articles.title, quoted for every
// column offered.
const trigramMeasured = "a page of 10 with its total, title $containsi 'graphql caching' (9 rows) " +
	"911 buffers 12.6 ms -> 120 buffers 1.1 ms, 'sqlite' (1 206 rows) 12.3 -> 4.1 ms, 'go' unchanged (8.0 ms)"

// TrigramIndexes lists the trigram indexes offered on PostgreSQL where pg_trgm is available:
// one per short-text attribute (string, email: varchar(255)) of the project's collection
// types, the attributes $containsi filters and search boxes compare. Long texts (text,
// richtext) are left out: their GIN indexes are large and slow every write. SQLite and
// MySQL/MariaDB have no index a LIKE with a leading wildcard can use, so nothing is offered
// there (docs/indexes.md).
func TrigramIndexes(s *schemas.Schema) []ExtraIndex {
	var out []ExtraIndex
	for _, m := range s.ContentTypes {
		if m.Kind != schemas.CollectionType {
			continue
		}
		for _, a := range m.Attributes {
			if a.System || a.Column == "" || a.Private {
				continue
			}
			switch a.Type {
			case schemas.String, schemas.Email: // a uid is matched whole ($eq), not searched
			default:
				continue
			}
			out = append(out, ExtraIndex{Table: m.Table, Trigram: true, Kept: true,
				Index: Index{Name: quarryIndexName(m.Table, a.Column+"_trgm"), Columns: []string{a.Column}},
				Why:   fmt.Sprintf(whyTrigram, m.UID, a.Name, trigramMeasured)})
		}
	}
	return out
}

// whyPublishedIDs is the measured effect of the partial count index (bench/README.md).
const whyPublishedIDs = "draft & publish: the count behind meta.pagination.total (published_at IS NOT NULL) " +
	"becomes an index-only scan of the published rows' ids; Strapi's schema sync does not see an index on id " +
	"alone and keeps it, where it drops (published_at) (measured on articles, 100 000 rows, 90 147 published, " +
	"PostgreSQL 15: count 9 089 buffers 90-97 ms -> 249 buffers 11-13 ms, Strapi's own count alike; bench/README.md)"

// PublishedIDIndexes lists, for PostgreSQL, a partial index of the published rows' ids per
// draft & publish type without i18n: CREATE INDEX … (id) WHERE published_at IS NOT NULL. The
// count of every list and of meta.pagination.total reads it alone. It overlaps the
// (published_at) index of QuarryIndexes, which also serves sort=publishedAt, but it is the one
// Strapi's schema sync keeps (StrapiSync). A localized type's list also filters locale = ?,
// which a partial index on id cannot hold for every locale; it keeps (locale, published_at).
func PublishedIDIndexes(s *schemas.Schema) []ExtraIndex {
	var out []ExtraIndex
	for _, m := range s.ContentTypes {
		if !m.DraftAndPublish || m.Localized {
			continue
		}
		out = append(out, ExtraIndex{Table: m.Table, Kept: true,
			Index: Index{Name: quarryIndexName(m.Table, "published_ids"), Columns: []string{"id"}},
			Where: Postgres.Quote("published_at") + " IS NOT NULL",
			Why:   whyPublishedIDs})
	}
	return out
}

// SortExpr is the expression a sort index keys on, for a column of type t spelled col
// (PostgreSQL): the column plus a zero of its type. It has the column's type, value and NULLs,
// so it orders every row as the column does (ascending NULLs last, descending first, the
// defaults Quarry's and Strapi's ORDER BY keep), and it is immutable, as an index expression
// must be (timestamp(6), Strapi's datetime, is without time zone: timestamp + interval is
// immutable, timestamptz + interval is not). An expression key has no column number, so
// Strapi's inspector does not list the index and its schema sync keeps it (StrapiSync); and
// an ORDER BY of the column itself, as Strapi writes it, cannot use it: only Quarry's
// rendering of an Indexed order term does. ok is false for a type without such a form here
// (text sorts under a collation; booleans and the rest are rarely a list's sort).
func SortExpr(t schemas.AttrType, col string) (expr string, ok bool) {
	switch t {
	case schemas.Date, schemas.Integer, schemas.BigInteger, schemas.Decimal, schemas.Float:
		return col + " + 0", true // date + integer is a date; a number plus 0 keeps its type
	case schemas.DateTime, schemas.Timestamp, schemas.Time:
		return col + " + interval '0'", true
	}
	return "", false
}

// whySort is the measured effect of a sort index (bench/README.md).
const whySort = "sort=%s on a list: the page is read from this index in order (a walk of the page's rows) " +
	"instead of sorting every candidate row; Quarry writes its ORDER BY on the index's expression when the " +
	"index exists at its start (restart after creating it), Strapi's ORDER BY on the column cannot use it, " +
	"and Strapi's schema sync does not see it (an expression key) and keeps it (measured on articles, " +
	"100 000 rows, PostgreSQL 15: %s; bench/README.md)"

// sortMeasured is the effect measured on bench/datagen's articles.publish_date.
const sortMeasured = "a page of 10 sorted publishDate:desc with its total, 90 147 published: the key scan " +
	"carrying COUNT(*) OVER () 9 119 buffers 95-169 ms -> the page walking the index 127 buffers 0.6-1.1 ms " +
	"and the count an index-only scan of this partial index 80 buffers 4-9 ms; the corpus's list 26-28 -> " +
	"236-396 requests a second"

// SortIndexes lists, for PostgreSQL, a sort index per date and datetime attribute (the system
// timestamps included) of the project's collection types: CREATE INDEX … ((column + zero)),
// partial on the published rows for a draft & publish type, whose lists (the live ones, the
// default publicationState) all filter published_at IS NOT NULL. Unlike a plain index on the
// column, which Strapi's sync drops, Strapi keeps it; and it serves Quarry's sort alone
// (SortExpr). Number attributes have the same form (SortExpr) but are not offered: a list
// sorted by one (the corpus's filters) also filters on text and relations, and carries its
// total in a scan of every candidate row, which a sorted walk does not replace (bench/README.md).
func SortIndexes(s *schemas.Schema) []ExtraIndex {
	var out []ExtraIndex
	for _, m := range s.ContentTypes {
		if m.Kind != schemas.CollectionType {
			continue
		}
		for _, a := range m.Attributes {
			if a.Column == "" || a.Private || !a.IsScalar() {
				continue
			}
			switch a.Type {
			case schemas.Date, schemas.DateTime, schemas.Timestamp:
			default:
				continue
			}
			x := ExtraIndex{Table: m.Table, Kept: true, Sort: a,
				Index: Index{Name: quarryIndexName(m.Table, a.Column+"_sort"), Columns: []string{a.Column}},
				Why:   fmt.Sprintf(whySort, a.Name, sortMeasured)}
			if m.DraftAndPublish {
				x.Where = Postgres.Quote("published_at") + " IS NOT NULL"
			}
			out = append(out, x)
		}
	}
	return out
}
