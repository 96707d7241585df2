package explain

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/bench/datagen"
	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/parser/rest"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen/database"
)

// TestSQLiteUsesQuarryIndexes checks SQLite's own plan for the statements the optional
// quarry_* indexes are offered for (quarry indexes): without them the count behind
// meta.pagination.total and a page sorted by a timestamp scan the articles table; once
// ApplyExtraIndexes created them, SQLite's planner uses them with no change to the SQL (no
// ANALYZE either: Strapi's databases have no statistics). The sorts keep a temporary b-tree
// for the id tie-break of a descending sort only (the index gives the timestamp order).
func TestSQLiteUsesQuarryIndexes(t *testing.T) {
	s, err := schemas.Load("../../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "q.db")
	db, err := database.Open(ctx, database.Config{Client: "sqlite", Filename: file})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(ctx, s, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := datagen.Generate(ctx, db, s, datagen.Options{Articles: 300, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	p := &planner.Planner{Schema: s, Config: planner.DefaultConfig()}
	const article, page = "api::article.article", "api::page.page"
	cases := []struct {
		model  string
		query  string
		locale string // the locale the transport adds (the default when none is asked for)
		label  string // the step checked
		index  string
	}{
		{article, "", "", "count", "quarry_articles_published_at"},
		{article, "sort=publishedAt:desc", "", "root", "quarry_articles_published_at"},
		{article, "sort=createdAt:desc", "", "root", "quarry_articles_created_at"},
		{article, "sort=updatedAt:asc", "", "root", "quarry_articles_updated_at"},
		// A localized draft & publish type (no rows: SQLite plans from the schema alone).
		{page, "", "en", "count", "quarry_pages_locale_published_at"},
		{page, "sort=publishedAt:desc", "en", "root", "quarry_pages_locale_published_at"},
		// Not checked: the link tables' (target, source) indexes. For filters[tags][id][$eq]
		// SQLite (without statistics) starts from articles and probes the link table by
		// article_id, with or without them.
	}
	plans := func() map[string]string {
		out := map[string]string{}
		for _, c := range cases {
			q := &ir.Query{Model: c.model, Op: ir.FindMany}
			if err := rest.Parse(c.query, q); err != nil {
				t.Fatal(err)
			}
			if c.locale != "" {
				q.Locale = []string{c.locale}
			}
			pl, err := p.Read(q, nil)
			if err != nil {
				t.Fatal(err)
			}
			steps, err := Steps(pl, db.Dialect)
			if err != nil {
				t.Fatal(err)
			}
			if err := Run(ctx, db, steps, false); err != nil {
				t.Fatal(err)
			}
			for _, st := range steps {
				if st.Label == c.label {
					out[c.model+"?"+c.query] = st.SQL + "\n" + strings.Join(st.Explain, "\n")
				}
			}
			if out[c.model+"?"+c.query] == "" {
				t.Fatalf("%s?%s: no %s step", c.model, c.query, c.label)
			}
		}
		return out
	}
	before := plans()
	for _, c := range cases {
		k := c.model + "?" + c.query
		if strings.Contains(before[k], "USING") && strings.Contains(before[k], c.index) {
			t.Fatalf("%s uses %s before it was created:\n%s", k, c.index, before[k])
		}
	}
	if _, err := db.ApplyExtraIndexes(ctx, s); err != nil {
		t.Fatal(err)
	}
	// EXPLAIN runs nothing, so a pooled connection that has not run a statement since the
	// indexes were made still plans with the schema it read before (a real statement notices
	// the change when it runs and is prepared again); a fresh handle plans with the new one.
	db.Close()
	if db, err = database.Open(ctx, database.Config{Client: "sqlite", Filename: file}); err != nil {
		t.Fatal(err)
	}
	after := plans()
	for _, c := range cases {
		k := c.model + "?" + c.query
		if !strings.Contains(after[k], c.index) {
			t.Errorf("%s: the %s step does not use %s:\n%s", k, c.label, c.index, after[k])
		}
	}
}
