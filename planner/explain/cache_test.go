package explain

import (
	"reflect"
	"testing"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/parser/rest"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
)

// TestCacheMatchesFreshRendering renders every golden request's steps through the shape
// cache twice (with different values the second time) and compares with fresh rendering.
func TestCacheMatchesFreshRendering(t *testing.T) {
	s, err := schemas.Load("../../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	p := &planner.Planner{Schema: s, Config: planner.DefaultConfig()}
	for _, d := range []sqlgen.Dialect{sqlgen.SQLite, sqlgen.Postgres} {
		c := sqlgen.NewCache()
		for round, ids := range [][]int64{{1, 2}, {7}} {
			for _, r := range requests {
				q := &ir.Query{Model: r.model, Op: ir.FindMany}
				query := r.query
				if round == 1 {
					query += "&filters[id][$gt]=4&filters[id][$lt]=9"
				}
				if err := rest.Parse(query, q); err != nil {
					t.Fatal(err)
				}
				pl, err := p.Read(q, nil)
				if err != nil {
					t.Fatal(err)
				}
				var walk func(st *plan.Select, ids []int64)
				walk = func(st *plan.Select, ids []int64) {
					fresh, err := sqlgen.Select(d, st, ids)
					if err != nil {
						t.Fatal(err)
					}
					got, err := c.Select(d, st, ids)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(fresh, got) {
						t.Errorf("%s %s: cached %#v\nfresh %#v", d.Name(), r.name, got, fresh)
					}
					for _, ch := range st.Children {
						for _, cs := range ch.Steps {
							walk(cs, ids)
						}
					}
				}
				walk(pl.Root, nil)
				if pl.Count != nil {
					walk(pl.Count, nil)
				}
				_ = ids
			}
		}
		if c.Len() == 0 {
			t.Fatal("nothing cached")
		}
	}
}
