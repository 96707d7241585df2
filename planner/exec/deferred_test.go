package exec_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
)

// TestDeferredPage checks pages whose rows PostgreSQL reads after sorting their keys alone
// (sqlgen's deferredPage) against the plain pages SQLite renders for the same data: sort keys
// with ties and NULLs, both directions, later pages and a page past the end, with and without
// a filter; on PostgreSQL a first page's total comes from its key scan (sqlgen.KeysCarryTotal).
func TestDeferredPage(t *testing.T) {
	queries := []string{
		"sort[0]=publishDate:desc",
		"sort[0]=publishDate:asc",
		"sort[0]=publishDate:desc&sort[1]=views:asc",
		"sort[0]=views:desc&fields[0]=title&fields[1]=body",
		"sort[0]=title:asc&filters[views][$gt]=4",
		"sort[0]=publishDate:asc&filters[author][name][$eq]=writer3",
	}
	pages := []string{"pagination[page]=1&pagination[pageSize]=4", "pagination[page]=3&pagination[pageSize]=4",
		"pagination[page]=9&pagination[pageSize]=4", "pagination[start]=5&pagination[limit]=7"}
	type page struct {
		ids   []int64
		total int64
	}
	var want map[string]page
	names := []string{"sqlite"}
	all := engines(t)
	for name := range all {
		if name != "sqlite" {
			names = append(names, name)
		}
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			db, s := openBlogOn(t, all[name](t))
			seedVaried(t, db)
			for i := 1; i <= 30; i++ {
				var date, body any
				if i%7 != 0 {
					date = fmt.Sprintf("2024-01-%02d", i%5+1) // ties
				}
				if i%2 == 0 {
					body = fmt.Sprintf("body %d", i)
				}
				if _, err := db.ExecContext(context.Background(), db.Rebind("UPDATE articles SET publish_date = ?, body = ? WHERE id = ?"), date, body, i); err != nil {
					t.Fatal(err)
				}
			}
			got := map[string]page{}
			for _, q := range queries {
				for _, p := range pages {
					res := run(t, db, s, q+"&"+p)
					var pg page
					for _, e := range res.Entries {
						pg.ids = append(pg.ids, e.ID)
					}
					pg.total = res.Total
					// PostgreSQL's first page carries its total in the key scan: one statement.
					if name == "postgres" && p == pages[0] && res.Statements != 1 {
						t.Errorf("%s&%s: %d statements, want the page carrying its total", q, p, res.Statements)
					}
					got[q+"&"+p] = pg
				}
			}
			if want == nil {
				want = got
				return
			}
			for k, w := range want {
				if g := got[k]; !slices.Equal(g.ids, w.ids) || g.total != w.total {
					t.Errorf("%s: ids %v total %d, SQLite's plain page %v total %d", k, g.ids, g.total, w.ids, w.total)
				}
			}
		})
	}
}
