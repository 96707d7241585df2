package execute

import (
	"encoding/json"
	"testing"

	"github.com/quarrycms/quarry/schemas"
)

// The GraphQL plugin's filters reach the entity service with Strapi's operators: a scalar
// attribute's operators at every depth, and/or/not at a level, relations by their target's
// attributes, and what is none of these dropped.
func TestStrapiFilters(t *testing.T) {
	s, err := schemas.Load("../../../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	m := s.Models["api::article.article"]
	var in map[string]any
	if err := json.Unmarshal([]byte(`{"title":{"eq":"x","not":{"containsi":"y"}},"or":[{"views":{"gt":3}},{"author":{"name":{"startsWith":"A"}}}],"id":{"in":["1","2"]},"nope":{"eq":1}}`), &in); err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(strapiFilters(s, m, in))
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"$or":[{"views":{"$gt":3}},{"author":{"name":{"$startsWith":"A"}}}],"id":{"$in":["1","2"]},"title":{"$eq":"x","$not":{"$containsi":"y"}}}`
	if string(got) != want {
		t.Errorf("strapiFilters:\n got %s\nwant %s", got, want)
	}
}
