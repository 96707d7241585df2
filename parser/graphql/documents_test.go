package graphql_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/parser/gqlschema"
	gql "github.com/quarrycms/quarry/parser/graphql"
)

// TestDocumentCache sends every request three times through one document cache and checks
// each answer against a parse without it: documents are shared by text, but operation names
// and variables are still checked per request, and failing documents fail identically.
func TestDocumentCache(t *testing.T) {
	cfg := gqlschema.DefaultConfig()
	cfg.DepthLimit = 4
	s := blog(t, cfg)
	const two = "query A { tags { data { id } } } query B { articles { data { id } } }"
	const withVar = "query($p: PaginationArg) { tags(pagination: $p) { data { id } } }"
	reqs := []gql.Request{
		{Query: two, OperationName: "A"},
		{Query: two, OperationName: "B"},
		{Query: two},
		{Query: two, OperationName: "C"},
		{Query: withVar, Variables: map[string]any{"p": map[string]any{"limit": json.Number("2")}}},
		{Query: withVar, Variables: map[string]any{"p": map[string]any{"limit": "x"}}},
		{Query: withVar, Variables: map[string]any{"p": map[string]any{"limitx": json.Number("1")}}},
		{Query: "query S { tags { data { id } } } subscription T { tags { data { id } } }", OperationName: "S"},
		{Query: "query S { tags { data { id } } } subscription T { tags { data { id } } }", OperationName: "T"},
		{Query: "{ articles { data { idx } } }"},
		{Query: "{ articles { data { id } "},
		{Query: "query Deep { articles { data { attributes { author { data { attributes { name } } } } } } }"},
		{Query: `{ articles(pagination: {limit: 99999999999}) { data { id } } }`},
	}
	docs := gql.NewDocuments(4)
	cached := gql.OptionsFrom(s.Config)
	cached.Docs = docs
	for round := 0; round < 3; round++ {
		for _, r := range reqs {
			want, werr := gql.Parse(s, r, gql.OptionsFrom(s.Config))
			got, gerr := gql.Parse(s, r, cached)
			if !reflect.DeepEqual(werr, gerr) {
				t.Errorf("round %d %q op %q: error\n got %v\nwant %v", round, r.Query, r.OperationName, gerr, werr)
				continue
			}
			if werr != nil {
				continue
			}
			if got.Name != want.Name || len(got.Fields) != len(want.Fields) || compact(got.Vars) != compact(want.Vars) {
				t.Errorf("round %d %q op %q: got %s %s, want %s %s", round, r.Query, r.OperationName, got.Name, compact(got.Vars), want.Name, compact(want.Vars))
				continue
			}
			for i := range got.Fields {
				if compact(got.Fields[i].Query) != compact(want.Fields[i].Query) || (got.Fields[i].Err == nil) != (want.Fields[i].Err == nil) {
					t.Errorf("round %d %q: field %d differs", round, r.Query, i)
				}
			}
		}
	}
	// Documents that fail are not kept.
	failing := gql.NewDocuments(4)
	bad := gql.OptionsFrom(s.Config)
	bad.Docs = failing
	for _, r := range reqs[9:] {
		gql.Parse(s, r, bad)
	}
	if n := failing.Len(); n != 0 {
		t.Errorf("%d failing documents cached", n)
	}
	// A hit shares the tree: no parse.
	a, _ := gql.Parse(s, reqs[0], cached)
	b, _ := gql.Parse(s, reqs[1], cached)
	if a == nil || b == nil || a.Doc != b.Doc {
		t.Error("the same text was parsed twice")
	}
	for i := 0; i < 10; i++ {
		gql.Parse(s, gql.Request{Query: "{ tags { data { id } } }" + strings.Repeat(" ", i)}, cached)
	}
	if n := docs.Len(); n != 4 {
		t.Errorf("cache not bounded: %d documents, want 4", n)
	}
}
