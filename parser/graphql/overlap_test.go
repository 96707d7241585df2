package graphql

import (
	"encoding/json"
	"testing"

	"github.com/quarrycms/quarry/parser/gqlschema"
	"github.com/quarrycms/quarry/schemas"
)

// TestOverlapLocations pins graphql-js's locations for conflicting fields (both fields, then
// the conflicting subfields of each side), as Strapi 4.26.2 answered them.
func TestOverlapLocations(t *testing.T) {
	cs, err := schemas.Load("../../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	s, err := gqlschema.Build(cs, gqlschema.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		`{ articles { data { attributes { title: slug } attributes { title } } } }`:                                      `[[1,21],[1,34],[1,48],[1,61]]`,
		`{ articles { data { attributes { title } } } articles: writers { data { id } } }`:                               `[[1,3],[1,46]]`,
		`{ a: articles { data { id } } a: articles(sort: "id") { data { id } } }`:                                        `[[1,3],[1,31]]`,
		`{ articles { data { attributes { x: title x: slug y: title y: slug } } } }`:                                     `[[1,34],[1,43]];[[1,51],[1,60]]`,
		`{ articles { data { ...F attributes { title } } } } fragment F on ArticleEntity { attributes { title: slug } }`: `[[1,26],[1,39],[1,83],[1,96]]`,
		`query { articles { data { id } } ... on Query { articles { data { id: attributes { title } } } } }`:             `[[1,9],[1,20],[1,27],[1,49],[1,60],[1,67]]`,
	}
	for q, want := range cases {
		_, err := Parse(s, Request{Query: q}, OptionsFrom(gqlschema.DefaultConfig()))
		errs, ok := err.(RequestErrors)
		if !ok || len(errs) == 0 {
			t.Errorf("%s: no errors (%v)", q, err)
			continue
		}
		got := ""
		for i, e := range errs {
			var l [][2]int
			for _, loc := range e.Locations {
				l = append(l, [2]int{loc.Line, loc.Column})
			}
			b, _ := json.Marshal(l)
			if i > 0 {
				got += ";"
			}
			got += string(b)
		}
		if got != want {
			t.Errorf("%s:\n got %s\nwant %s (%s)", q, got, want, errs[0].Message)
		}
	}
}
