package graphql

import (
	"encoding/json"
	"testing"

	"github.com/quarrycms/quarry/parser/gqlschema"
	"github.com/quarrycms/quarry/schemas"
)

// TestValidationErrorsAsGraphQLJS pins the validation errors graphql-js (Strapi's Apollo
// Server) gives where gqlparser words or locates them differently.
func TestValidationErrorsAsGraphQLJS(t *testing.T) {
	cs, err := schemas.Load("../../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	s, err := gqlschema.Build(cs, gqlschema.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		`{ articles(nope: 1) { data { id } } }`:                                             `[{"Message":"Unknown argument \"nope\" on field \"Query.articles\".","Locations":[{"Line":1,"Column":12}],"Code":"GRAPHQL_VALIDATION_FAILED"}]`,
		`{ article(id: 1) { data { id { x } } } writers { nope } }`:                         `[{"Message":"Field \"id\" must not have a selection since type \"ID\" has no subfields.","Locations":[{"Line":1,"Column":30}],"Code":"GRAPHQL_VALIDATION_FAILED"},{"Message":"Cannot query field \"nope\" on type \"WriterEntityResponseCollection\".","Locations":[{"Line":1,"Column":50}],"Code":"GRAPHQL_VALIDATION_FAILED"}]`,
		`{ articles(filters: {views: {gt: "many"}}) { data { id attributes { title } } } }`: `[{"Message":"Int cannot represent non-integer value: \"many\"","Locations":[{"Line":1,"Column":34}],"Code":"GRAPHQL_VALIDATION_FAILED"}]`,
		`{ tags { data { id } } } { writers { data { id } } }`:                              `[{"Message":"This anonymous operation must be the only defined operation.","Locations":[{"Line":1,"Column":1}],"Code":"GRAPHQL_VALIDATION_FAILED"},{"Message":"This anonymous operation must be the only defined operation.","Locations":[{"Line":1,"Column":26}],"Code":"GRAPHQL_VALIDATION_FAILED"}]`,
	}
	for q, want := range cases {
		_, err := Parse(s, Request{Query: q}, OptionsFrom(gqlschema.DefaultConfig()))
		got, _ := json.Marshal(err)
		if string(got) != want {
			t.Errorf("%s:\n got %s\nwant %s", q, got, want)
		}
	}
}
