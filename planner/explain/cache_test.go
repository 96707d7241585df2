package explain

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/casefile"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/parser/rest"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
)

// TestCacheMatchesFreshRendering renders the steps of every REST request of the planner's
// case files (planner/testdata/cases) through the shape cache twice (with different values
// the second time) and compares with fresh rendering.
func TestCacheMatchesFreshRendering(t *testing.T) {
	s, err := schemas.Load("../../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	p := &planner.Planner{Schema: s, Config: planner.DefaultConfig()}
	type request struct{ name, model, query string }
	var requests []request
	paths, err := filepath.Glob("../testdata/cases/*.txt")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no case files (%v)", err)
	}
	for _, path := range paths {
		f, err := casefile.Read(path)
		if err != nil {
			t.Fatal(err)
		}
		// The REST lists that plan.
		in := f.Input()
		if len(in.Args) != 2 || in.Args[0] != "rest" {
			continue
		}
		if _, failed := f.Find("error"); failed {
			continue
		}
		requests = append(requests, request{filepath.Base(path), in.Args[1], in.Body})
	}
	for _, d := range sqlgen.Dialects() {
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
