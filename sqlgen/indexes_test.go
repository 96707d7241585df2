package sqlgen

import (
	"strings"
	"testing"

	"github.com/quarrycms/quarry/schemas"
)

func TestQuarryIndexes(t *testing.T) {
	s, err := schemas.Load("../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	list := QuarryIndexes(s)
	find := func(name string) ExtraIndex {
		for _, x := range list {
			if x.Index.Name == name {
				return x
			}
		}
		t.Fatalf("no index %s in %v", name, list)
		return ExtraIndex{}
	}
	cases := []struct {
		index string
		want  map[string]string // dialect → DDL
	}{
		{"quarry_articles_published_at", map[string]string{
			"sqlite":   `CREATE INDEX IF NOT EXISTS "quarry_articles_published_at" ON "articles" ("published_at")`,
			"postgres": `CREATE INDEX IF NOT EXISTS "quarry_articles_published_at" ON "articles" ("published_at")`,
			"mysql":    "CREATE INDEX `quarry_articles_published_at` ON `articles` (`published_at`)",
		}},
		{"quarry_articles_created_at", map[string]string{
			"sqlite":   `CREATE INDEX IF NOT EXISTS "quarry_articles_created_at" ON "articles" ("created_at")`,
			"postgres": `CREATE INDEX IF NOT EXISTS "quarry_articles_created_at" ON "articles" ("created_at")`,
			"mysql":    "CREATE INDEX `quarry_articles_created_at` ON `articles` (`created_at`)",
		}},
		{"quarry_tags_updated_at", map[string]string{
			"sqlite":   `CREATE INDEX IF NOT EXISTS "quarry_tags_updated_at" ON "tags" ("updated_at")`,
			"postgres": `CREATE INDEX IF NOT EXISTS "quarry_tags_updated_at" ON "tags" ("updated_at")`,
			"mysql":    "CREATE INDEX `quarry_tags_updated_at` ON `tags` (`updated_at`)",
		}},
		{"quarry_pages_locale_published_at", map[string]string{
			"sqlite":   `CREATE INDEX IF NOT EXISTS "quarry_pages_locale_published_at" ON "pages" ("locale", "published_at")`,
			"postgres": `CREATE INDEX IF NOT EXISTS "quarry_pages_locale_published_at" ON "pages" ("locale", "published_at")`,
			"mysql":    "CREATE INDEX `quarry_pages_locale_published_at` ON `pages` (`locale`, `published_at`)",
		}},
		{"quarry_footers_locale", map[string]string{
			"sqlite":   `CREATE INDEX IF NOT EXISTS "quarry_footers_locale" ON "footers" ("locale")`,
			"postgres": `CREATE INDEX IF NOT EXISTS "quarry_footers_locale" ON "footers" ("locale")`,
			"mysql":    "CREATE INDEX `quarry_footers_locale` ON `footers` (`locale`)",
		}},
		{"quarry_articles_tags_links_inv", map[string]string{
			"sqlite":   `CREATE INDEX IF NOT EXISTS "quarry_articles_tags_links_inv" ON "articles_tags_links" ("tag_id", "article_id")`,
			"postgres": `CREATE INDEX IF NOT EXISTS "quarry_articles_tags_links_inv" ON "articles_tags_links" ("tag_id", "article_id")`,
			"mysql":    "CREATE INDEX `quarry_articles_tags_links_inv` ON `articles_tags_links` (`tag_id`, `article_id`)",
		}},
	}
	for _, c := range cases {
		x := find(c.index)
		for _, d := range []Dialect{SQLite, Postgres, MySQL} {
			if got := CreateExtraIndex(d, x); got != c.want[d.Name()] {
				t.Errorf("%s on %s:\n got %s\nwant %s", c.index, d.Name(), got, c.want[d.Name()])
			}
		}
	}
	names := map[string]bool{}
	for _, x := range list {
		n := x.Index.Name
		if !strings.HasPrefix(n, "quarry_") || len(n) > maxIndexName || names[n] || x.Why == "" {
			t.Errorf("index %q: name not quarry_*, too long, repeated, or no reason", n)
		}
		names[n] = true
	}
	// Each content type gets the index of its list filter: published_at (draft & publish),
	// locale (i18n) or both, locale first; the project's collection types (and only they) get
	// the two sort-key indexes.
	for _, m := range s.ContentTypes {
		pub, loc, both := names["quarry_"+m.Table+"_published_at"], names["quarry_"+m.Table+"_locale"],
			names["quarry_"+m.Table+"_locale_published_at"]
		if pub != (m.DraftAndPublish && !m.Localized) || loc != (m.Localized && !m.DraftAndPublish) ||
			both != (m.DraftAndPublish && m.Localized) {
			t.Errorf("%s (draft & publish %v, localized %v): published_at %v, locale %v, (locale, published_at) %v",
				m.Table, m.DraftAndPublish, m.Localized, pub, loc, both)
		}
		for _, c := range []string{"created_at", "updated_at"} {
			if got, want := names["quarry_"+m.Table+"_"+c], m.Kind == schemas.CollectionType; got != want {
				t.Errorf("%s (kind %v): sort-key index on %s offered %v, want %v", m.Table, m.Kind, c, got, want)
			}
		}
	}
	for _, m := range append(append([]*schemas.Model{s.Files}, s.Plugins...), s.Components...) {
		if names["quarry_"+m.Table+"_created_at"] {
			t.Errorf("%s is not a collection type of the project but has a sort-key index", m.Table)
		}
	}
	// The measured effects are in the reasons (the issue asks for them in the listing).
	for _, x := range list {
		if !strings.Contains(x.Why, "measured") || !strings.Contains(x.Why, " -> ") {
			t.Errorf("%s: reason without its measured effect: %s", x.Index.Name, x.Why)
		}
	}
}

func TestQuarryIndexNameShortened(t *testing.T) {
	long := strings.Repeat("t", 80)
	a, b := quarryIndexName(long+"a", "inv"), quarryIndexName(long+"b", "inv")
	if len(a) != maxIndexName || a == b || a != quarryIndexName(long+"a", "inv") {
		t.Errorf("shortened names %q, %q: want %d bytes, distinct, stable", a, b, maxIndexName)
	}
}

func TestTrigramIndexes(t *testing.T) {
	s, err := schemas.Load("../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	list := TrigramIndexes(s)
	var title *ExtraIndex
	for i, x := range list {
		if !x.Trigram || len(x.Index.Columns) != 1 || !strings.HasSuffix(x.Index.Name, "_trgm") {
			t.Errorf("%+v: not a one-column trigram index", x)
		}
		if !strings.Contains(x.Why, "measured") || !strings.Contains(x.Why, " -> ") {
			t.Errorf("%s: reason without its measured effect", x.Index.Name)
		}
		if x.Index.Name == "quarry_articles_title_trgm" {
			title = &list[i]
		}
		if x.Index.Columns[0] == "body" {
			t.Errorf("%s: long text offered", x.Index.Name)
		}
	}
	if title == nil {
		t.Fatalf("no trigram index on articles.title in %v", list)
	}
	want := `CREATE INDEX IF NOT EXISTS "quarry_articles_title_trgm" ON "articles" USING gin (LOWER("title") gin_trgm_ops)`
	if got := CreateExtraIndex(Postgres, *title); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

func TestPublishedIDIndexes(t *testing.T) {
	s, err := schemas.Load("../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	var articles *ExtraIndex
	list := PublishedIDIndexes(s)
	for i, x := range list {
		if !x.Kept || x.Where == "" || len(x.Index.Columns) != 1 || x.Index.Columns[0] != "id" {
			t.Errorf("%+v: not a kept partial index on id", x)
		}
		if x.Table == "pages" {
			t.Errorf("%s: offered on a localized type, whose lists also filter locale", x.Index.Name)
		}
		if x.Table == "articles" {
			articles = &list[i]
		}
	}
	if articles == nil {
		t.Fatalf("no partial count index on articles in %v", list)
	}
	want := `CREATE INDEX IF NOT EXISTS "quarry_articles_published_ids" ON "articles" ("id") WHERE "published_at" IS NOT NULL`
	if got := CreateExtraIndex(Postgres, *articles); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	for _, x := range TrigramIndexes(s) {
		if !x.Kept {
			t.Errorf("%s: an expression index Strapi's sync does not see, not marked kept", x.Index.Name)
		}
	}
	for _, x := range QuarryIndexes(s) {
		if x.Kept {
			t.Errorf("%s: a plain-column index Strapi's sync drops, marked kept", x.Index.Name)
		}
	}
}

// The sort indexes key on an expression (Strapi's sync does not see them), one per date and
// datetime attribute of a collection type, partial on the published rows where the type has
// draft & publish; the ORDER BY of an indexed term names the same expression.
func TestSortIndexes(t *testing.T) {
	s, err := schemas.Load("../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, x := range SortIndexes(s) {
		if !x.Kept || x.Sort == nil {
			t.Errorf("%s: not a kept sort index", x.Index.Name)
		}
		got[x.Index.Name] = CreateExtraIndex(Postgres, x)
	}
	for name, want := range map[string]string{
		"quarry_articles_publish_date_sort": `CREATE INDEX IF NOT EXISTS "quarry_articles_publish_date_sort" ON "articles" (("publish_date" + 0)) WHERE "published_at" IS NOT NULL`,
		"quarry_articles_event_at_sort":     `CREATE INDEX IF NOT EXISTS "quarry_articles_event_at_sort" ON "articles" (("event_at" + interval '0')) WHERE "published_at" IS NOT NULL`,
		"quarry_articles_created_at_sort":   `CREATE INDEX IF NOT EXISTS "quarry_articles_created_at_sort" ON "articles" (("created_at" + interval '0')) WHERE "published_at" IS NOT NULL`,
		"quarry_tags_created_at_sort":       `CREATE INDEX IF NOT EXISTS "quarry_tags_created_at_sort" ON "tags" (("created_at" + interval '0'))`,
	} {
		if got[name] != want {
			t.Errorf("%s: got %q\nwant %q", name, got[name], want)
		}
	}
	for name := range got {
		if strings.Contains(name, "views") || strings.Contains(name, "title") {
			t.Errorf("%s: only dates and datetimes are offered", name)
		}
	}
}
