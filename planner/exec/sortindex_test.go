package exec_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarrycms/quarry/bench/datagen"
	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/parser/rest"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/planner/explain"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
)

// TestSortIndex checks lists sorted on an attribute whose sort index exists (PostgreSQL,
// sqlgen.SortIndexes): with the indexes created and the planner told of them
// (database.SortIndexed), pages, totals and statement counts are those of the same requests
// planned without them, on data with ties and NULLs in the sort keys, both directions, later
// pages, a filter, drafts (publicationState=preview, which the partial index does not cover,
// so its statements keep the column) and an indexed second key; and the statements name the
// index's expression. (The first page
// of a key-sorted list no longer carries its total there: the walk reads the page alone, and
// the count runs, so statement counts differ by design.)
func TestSortIndex(t *testing.T) {
	open, ok := engines(t)["postgres"]
	if !ok {
		t.Skip("QUARRY_TEST_POSTGRES_URL is not set")
	}
	ctx := context.Background()
	db, s := openBlogOn(t, open(t))
	seedVaried(t, db)
	for i := 1; i <= 30; i++ {
		var date, at any
		if i%7 != 0 {
			date = fmt.Sprintf("2024-01-%02d", i%5+1) // ties
		}
		if i%4 != 0 {
			at = fmt.Sprintf("2024-02-01 10:%02d:00", i%3)
		}
		if _, err := db.ExecContext(ctx, db.Rebind("UPDATE articles SET publish_date = ?, event_at = ? WHERE id = ?"), date, at, i); err != nil {
			t.Fatal(err)
		}
	}
	queries := []string{
		"sort[0]=publishDate:desc",
		"sort[0]=publishDate:asc",
		"sort[0]=eventAt:desc&sort[1]=views:asc",
		"sort[0]=publishDate:desc&fields[0]=title",
		"sort[0]=createdAt:asc&filters[views][$gt]=4",
		"sort[0]=publishDate:asc&filters[title][$containsi]=go",
		"sort[0]=publishDate:desc&publicationState=preview",
		"sort[0]=views:asc&sort[1]=publishDate:desc",
	}
	pages := []string{"pagination[page]=1&pagination[pageSize]=4", "pagination[page]=3&pagination[pageSize]=4",
		"pagination[page]=9&pagination[pageSize]=4", "pagination[start]=5&pagination[limit]=7"}
	type page struct {
		ids          []int64
		total        int64
		indexedTerms bool
	}
	runAll := func(cfg planner.Config) map[string]page {
		out := map[string]page{}
		p := &planner.Planner{Schema: s, Config: cfg}
		r := &exec.Runner{Dialect: db.Dialect}
		for _, q := range queries {
			for _, pg := range pages {
				iq := &ir.Query{Model: "api::article.article", Op: ir.FindMany}
				if err := rest.Parse(q+"&"+pg, iq); err != nil {
					t.Fatal(err)
				}
				pl, err := p.Read(iq, nil)
				if err != nil {
					t.Fatal(err)
				}
				var got page
				tctx := exec.WithTrace(ctx, func(st sqlgen.Stmt, _ int, _ time.Duration) {
					if strings.Contains(st.SQL, `"publish_date" + 0)`) || strings.Contains(st.SQL, `+ interval '0')`) {
						got.indexedTerms = true
					}
				})
				res, err := r.Run(tctx, db, pl)
				if err != nil {
					t.Fatalf("%s&%s: %v", q, pg, err)
				}
				for _, e := range res.Entries {
					got.ids = append(got.ids, e.ID)
				}
				got.total = res.Total
				out[q+"&"+pg] = got
			}
		}
		return out
	}
	cfg := planner.Config{DefaultLimit: 25, MaxLimit: 1000, WithCount: true, MaxPopulateDepth: 10}
	want := runAll(cfg)

	if _, err := db.ApplyExtraIndexes(ctx, s); err != nil {
		t.Fatal(err)
	}
	indexed, err := db.SortIndexed(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"publishDate", "eventAt", "createdAt", "updatedAt", "publishedAt"} {
		a, _ := s.Models["api::article.article"].Attr(name)
		if !indexed[a] {
			t.Errorf("SortIndexed lacks articles.%s after ApplyExtraIndexes", name)
		}
	}
	cfg.SortIndexed = indexed
	got := runAll(cfg)
	for k, w := range want {
		g := got[k]
		if !slices.Equal(g.ids, w.ids) || g.total != w.total {
			t.Errorf("%s: ids %v total %d with the sort indexes, %v total %d without", k, g.ids, g.total, w.ids, w.total)
		}
		if w.indexedTerms {
			t.Errorf("%s: an index expression without the indexes", k)
		}
		// A preview list reads drafts too, which the partial index does not hold: it keeps
		// the column.
		if preview := strings.Contains(k, "publicationState=preview"); g.indexedTerms == preview {
			t.Errorf("%s: the ORDER BY names the sort index's expression: %v", k, g.indexedTerms)
		}
	}
}

// TestSortIndexPlan checks PostgreSQL's own plan on generated rows: the page of a list sorted
// by publishDate reads quarry_articles_publish_date_sort once the planner knows of it, and the
// same list planned without it (Strapi's ORDER BY on the column) cannot.
func TestSortIndexPlan(t *testing.T) {
	open, ok := engines(t)["postgres"]
	if !ok {
		t.Skip("QUARRY_TEST_POSTGRES_URL is not set")
	}
	ctx := context.Background()
	db, s := openBlogOn(t, open(t))
	if _, err := datagen.Generate(ctx, db, s, datagen.Options{Articles: 2000, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ApplyExtraIndexes(ctx, s); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "ANALYZE"); err != nil {
		t.Fatal(err)
	}
	indexed, err := db.SortIndexed(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	rootPlan := func(sortIndexed map[*schemas.Attribute]bool) string {
		q := &ir.Query{Model: "api::article.article", Op: ir.FindMany}
		if err := rest.Parse("sort[0]=publishDate:desc&pagination[pageSize]=10", q); err != nil {
			t.Fatal(err)
		}
		cfg := planner.DefaultConfig()
		cfg.SortIndexed = sortIndexed
		pl, err := (&planner.Planner{Schema: s, Config: cfg}).Read(q, nil)
		if err != nil {
			t.Fatal(err)
		}
		steps, err := explain.Steps(pl, db.Dialect)
		if err != nil {
			t.Fatal(err)
		}
		if err := explain.Run(ctx, db, steps, false); err != nil {
			t.Fatal(err)
		}
		return strings.Join(steps[0].Explain, "\n")
	}
	const name = "quarry_articles_publish_date_sort"
	if p := rootPlan(indexed); !strings.Contains(p, "Index Scan Backward using "+name) {
		t.Errorf("the page sorted on the index's expression does not walk %s:\n%s", name, p)
	}
	if p := rootPlan(nil); strings.Contains(p, name) {
		t.Errorf("the page sorted on the column uses %s:\n%s", name, p)
	}
}
