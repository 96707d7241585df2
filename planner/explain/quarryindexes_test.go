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
	cases := []struct {
		query string
		label string // the step checked
		index string
	}{
		{"", "count", "quarry_articles_published_at"},
		{"sort=publishedAt:desc", "root", "quarry_articles_published_at"},
		{"sort=createdAt:desc", "root", "quarry_articles_created_at"},
		{"sort=updatedAt:asc", "root", "quarry_articles_updated_at"},
		// Not checked: the link tables' (target, source) indexes. For filters[tags][id][$eq]
		// SQLite (without statistics) starts from articles and probes the link table by
		// article_id, with or without them.
	}
	plans := func() map[string]string {
		out := map[string]string{}
		for _, c := range cases {
			q := &ir.Query{Model: "api::article.article", Op: ir.FindMany}
			if err := rest.Parse(c.query, q); err != nil {
				t.Fatal(err)
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
					out[c.query] = st.SQL + "\n" + strings.Join(st.Explain, "\n")
				}
			}
			if out[c.query] == "" {
				t.Fatalf("%q: no %s step", c.query, c.label)
			}
		}
		return out
	}
	before := plans()
	for _, c := range cases {
		if strings.Contains(before[c.query], "USING") && strings.Contains(before[c.query], c.index) {
			t.Fatalf("%q uses %s before it was created:\n%s", c.query, c.index, before[c.query])
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
		if !strings.Contains(after[c.query], c.index) {
			t.Errorf("%q: the %s step does not use %s:\n%s", c.query, c.label, c.index, after[c.query])
		}
	}
}
