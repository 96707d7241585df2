package graphql

import (
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// naiveFields spreads every fragment in full (skipping a fragment already being spread,
// as the memoised count does) and counts the selections; it gives up past budget.
func naiveFields(doc *ast.QueryDocument, set ast.SelectionSet, active map[string]bool, budget *int) float64 {
	n := 0.0
	for _, sel := range set {
		if *budget--; *budget < 0 {
			return n
		}
		n++
		switch x := sel.(type) {
		case *ast.Field:
			n += naiveFields(doc, x.SelectionSet, active, budget)
		case *ast.InlineFragment:
			n += naiveFields(doc, x.SelectionSet, active, budget)
		case *ast.FragmentSpread:
			fd := doc.Fragments.ForName(x.Name)
			if fd == nil || active[x.Name] {
				continue
			}
			active[x.Name] = true
			n += naiveFields(doc, fd.SelectionSet, active, budget)
			delete(active, x.Name)
		}
	}
	return n
}

// FuzzCost checks the cost accounting on arbitrary documents: it never panics, and where
// spreading every fragment is cheap enough to do, its memoised count of selections is the
// count of the full spread.
func FuzzCost(f *testing.F) {
	for _, s := range []string{
		"{ a { b c } }",
		"{ a { ...F ...F } } fragment F on T { x y ...G } fragment G on T { z }",
		"{ ...F } fragment F on Query { ...F }",
		"{ x: a x: a ... on T { x: a } }",
		"query Q($p: PaginationArg) { articles(pagination: $p) { data { id } } }",
		"{ a { ...F } } fragment F on T { ...G ...H } fragment G on T { ...H } fragment H on T { ...G k }",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: src}, 2000)
		if err != nil {
			return
		}
		checkCost(nil, doc, Options{Cost: CostLimits{MaxAliases: 10, MaxRepeatedFields: 5, MaxFields: 100, MaxEstimatedRows: 1000}, DepthLimit: 5})
		if hasCycle(doc) {
			return // a cycle is cut at a different place by the two counts; validation refuses it
		}
		for _, op := range doc.Operations {
			c := &coster{doc: doc, frags: map[string]*measure{}, state: map[string]costState{}}
			got := c.set(op.SelectionSet, nil).fields
			budget := 100000
			want := naiveFields(doc, op.SelectionSet, map[string]bool{}, &budget)
			if budget >= 0 && got != want {
				t.Fatalf("%q: memoised count %v, full spread %v", src, got, want)
			}
		}
	})
}

func hasCycle(doc *ast.QueryDocument) bool {
	state := map[string]int{}
	var visit func(name string) bool
	var inSet func(set ast.SelectionSet) bool
	inSet = func(set ast.SelectionSet) bool {
		for _, sel := range set {
			switch x := sel.(type) {
			case *ast.Field:
				if inSet(x.SelectionSet) {
					return true
				}
			case *ast.InlineFragment:
				if inSet(x.SelectionSet) {
					return true
				}
			case *ast.FragmentSpread:
				if visit(x.Name) {
					return true
				}
			}
		}
		return false
	}
	visit = func(name string) bool {
		switch state[name] {
		case 1:
			return true
		case 2:
			return false
		}
		fd := doc.Fragments.ForName(name)
		if fd == nil {
			return false
		}
		state[name] = 1
		if inSet(fd.SelectionSet) {
			return true
		}
		state[name] = 2
		return false
	}
	for _, fd := range doc.Fragments {
		if visit(fd.Name) {
			return true
		}
	}
	return false
}
