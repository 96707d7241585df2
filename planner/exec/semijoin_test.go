package exec_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/parser/rest"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/sqlgen/database"
)

// TestSemiJoinFilters checks that filters through relations, components and media, which
// render as semi-joins, keep exactly the rows Strapi's shape keeps (every path LEFT JOINed
// once, sqlgen.JoinedIDs), on data with empty relations, missing mentors, drafts and shared
// tags, on every engine configured.
func TestSemiJoinFilters(t *testing.T) {
	filters := []string{
		"filters[tags][name][$in][0]=tag1&filters[tags][name][$in][1]=tag3",
		"filters[$and][0][tags][name]=tag1&filters[$and][1][tags][name]=tag2",
		"filters[tags][name][$ne]=tag1",
		"filters[tags][name][$notIn][0]=tag1",
		"filters[tags][name][$null]=true",
		"filters[tags][$null]=true",
		"filters[$not][tags][name]=tag1",
		"filters[author][mentor][name][$containsi]=WRITER",
		"filters[author][mentor][name][$null]=true",
		"filters[author][$null]=true",
		"filters[author][name][$eq]=writer2&filters[tags][name][$eq]=tag3",
		"filters[author][name][$startsWith]=writer&filters[author][mentor][name][$endsWith]=3",
		"filters[$or][0][title][$containsi]=GO&filters[$or][1][author][name][$eq]=writer3",
		"filters[$or][0][tags][name]=tag1&filters[$or][1][author][mentor][name]=writer1&filters[views][$gt]=5",
		"filters[$or][0][tags][name]=tag2&filters[$or][1][title][$contains]=Go&filters[tags][name][$ne]=tag2",
		"filters[author][id][$in][0]=2&filters[author][id][$in][1]=4",
		"filters[seo][metaTitle][$startsWith]=Hi",
		"filters[seo][metaTitle][$null]=true",
		"filters[title][$containsi]=go&filters[views][$lt]=20",
	}
	for name, open := range engines(t) {
		t.Run(name, func(t *testing.T) {
			db, s := openBlogOn(t, open(t))
			seedVaried(t, db)
			for _, f := range filters {
				q := &ir.Query{Model: "api::article.article", Op: ir.FindMany}
				if err := rest.Parse(f, q); err != nil {
					t.Fatal(err)
				}
				p := &planner.Planner{Schema: s, Config: planner.Config{DefaultLimit: 25, MaxLimit: 1000, WithCount: true, MaxPopulateDepth: 10}}
				pl, err := p.Read(q, nil)
				if err != nil {
					t.Fatal(err)
				}
				res := run(t, db, s, f+"&pagination[pageSize]=1000")
				var got []int64
				for _, e := range res.Entries {
					got = append(got, e.ID)
				}
				ref, err := sqlgen.JoinedIDs(db.Dialect, pl.Root)
				if err != nil {
					t.Fatal(err)
				}
				var want []int64
				if err := db.Select(&want, ref.SQL, ref.Args...); err != nil {
					t.Fatalf("%s: %v", ref.SQL, err)
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s: ids %v, Strapi's shape keeps %v", f, got, want)
				}
				if res.Total != int64(len(want)) {
					t.Errorf("%s: total %d, want %d", f, res.Total, len(want))
				}
				if len(want) == 0 && f != filters[1] && f != filters[5] {
					t.Logf("%s keeps nothing", f)
				}
			}
		})
	}
}

// seedVaried writes 30 articles: every third without an author, authors with and without
// mentors, 0-3 tags each, every sixth a draft, every fourth with an SEO component.
func seedVaried(t *testing.T, db *database.DB) {
	t.Helper()
	now := db.Dialect.Bind(time.Now())
	ex := func(q string, args ...any) {
		if _, err := db.ExecContext(context.Background(), db.Rebind(q), args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for i := 1; i <= 3; i++ {
		ex(`INSERT INTO tags (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)`, i, fmt.Sprintf("tag%d", i), now, now)
	}
	for w := 1; w <= 7; w++ {
		ex(`INSERT INTO writers (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)`, w, fmt.Sprintf("writer%d", w), now, now)
	}
	for w := 2; w <= 7; w += 2 {
		ex(`INSERT INTO writers_mentor_links (writer_id, inv_writer_id) VALUES (?, ?)`, w, w-1)
	}
	for i := 1; i <= 30; i++ {
		title := fmt.Sprintf("article %d", i)
		if i%5 == 0 {
			title = fmt.Sprintf("Go %d", i)
		}
		var pub any = now
		if i%6 == 0 {
			pub = nil
		}
		ex(`INSERT INTO articles (id, title, views, created_at, updated_at, published_at) VALUES (?, ?, ?, ?, ?, ?)`, i, title, i, now, now, pub)
		if i%3 != 0 {
			ex(`INSERT INTO articles_author_links (article_id, writer_id, article_order) VALUES (?, ?, 1)`, i, i%7+1)
		}
		for k := 0; k < i%4; k++ {
			ex(`INSERT INTO articles_tags_links (article_id, tag_id, tag_order) VALUES (?, ?, ?)`, i, (i+k)%3+1, k+1)
		}
		if i%4 == 0 {
			var mt any = fmt.Sprintf("Hi %d", i)
			if i%8 == 0 {
				mt = nil
			}
			ex(`INSERT INTO components_shared_seos (id, meta_title) VALUES (?, ?)`, i, mt)
			ex(`INSERT INTO articles_components (entity_id, component_id, component_type, field, `+db.Dialect.Quote("order")+`) VALUES (?, ?, ?, ?, 1)`, i, i, "shared.seo", "seo")
		}
	}
}

// TestTotalFromThePage checks meta.pagination.total where the root counts its own rows
// (COUNT(*) OVER ()) and where the separate count runs instead: a short first page, an
// empty first page, a page past the end, a later page, and withCount=false, against the
// rows Strapi's shape keeps, with the statements each needs.
func TestTotalFromThePage(t *testing.T) {
	for name, open := range engines(t) {
		t.Run(name, func(t *testing.T) {
			db, s := openBlogOn(t, open(t))
			seedVaried(t, db)
			for _, tc := range []struct {
				query      string
				rows       int
				total      int64 // -1: no count
				statements int
			}{
				{"filters[tags][name][$in][0]=tag1&pagination[pageSize]=2", 2, 12, 1},
				{"filters[title][$containsi]=GO&pagination[pageSize]=2", 2, 5, 1},
				{"filters[title][$containsi]=GO&fields[0]=title&sort[0]=views:desc&pagination[pageSize]=2", 2, 5, 1}, // sorted by a column it does not read
				{"filters[author][name][$eq]=writer2&fields[0]=title&sort[0]=author.name&pagination[pageSize]=2", 2, 4, 1},
				{"filters[$and][0][tags][name]=tag1&filters[$and][1][tags][name]=tag2", 0, 0, 1},
				{"filters[tags][name][$in][0]=tag1&pagination[page]=9&pagination[pageSize]=2", 0, 12, 2},
				{"filters[tags][name][$in][0]=tag1&pagination[page]=2&pagination[pageSize]=2", 2, 12, 2},
				{"filters[tags][name][$in][0]=tag1&pagination[withCount]=false", 12, -1, 1},
				{"filters[views][$lt]=4&pagination[pageSize]=2", 2, 3, 2}, // an index-served filter keeps its count
			} {
				res := run(t, db, s, tc.query)
				if strings.Contains(tc.query, "sort[0]=views:desc") && res.Entries[0].ID != 25 {
					t.Errorf("%s: first entry %d, want 25 (the most views)", tc.query, res.Entries[0].ID)
				}
				if len(res.Entries) != tc.rows || (tc.total >= 0 && res.Total != tc.total) || res.Statements != tc.statements {
					t.Errorf("%s: %d rows, total %d, %d statements; want %d, %d, %d",
						tc.query, len(res.Entries), res.Total, res.Statements, tc.rows, tc.total, tc.statements)
				}
			}
		})
	}
}
