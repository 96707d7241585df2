package graphql_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/parser/gqlschema"
	gql "github.com/quarrycms/quarry/parser/graphql"
)

// fragmentBomb is a chain of fragments where each level spreads the next two: spread in
// full it has 2^levels selections, in text a few hundred bytes per level.
func fragmentBomb(levels int) string {
	var b strings.Builder
	b.WriteString("query Bomb { articles(pagination: {limit: 100}) { data { ...F0 ...G0 } } }\n")
	for i := 0; i < levels; i++ {
		next := ""
		if i+1 < levels {
			next = fmt.Sprintf(" ...F%d ...G%d", i+1, i+1)
		}
		fmt.Fprintf(&b, "fragment F%d on ArticleEntity { id%s }\nfragment G%d on ArticleEntity { id%s }\n", i, next, i, next)
	}
	return b.String()
}

func aliases(n int, conflicting bool) string {
	var b strings.Builder
	b.WriteString("{ articles { data {")
	for i := 0; i < n; i++ {
		if conflicting {
			b.WriteString(" x: id")
		} else {
			fmt.Fprintf(&b, " a%d: id", i)
		}
	}
	b.WriteString(" } } }")
	return b.String()
}

func requestError(t testing.TB, err error) *gql.RequestError {
	t.Helper()
	var rerrs gql.RequestErrors
	if !errors.As(err, &rerrs) || len(rerrs) == 0 {
		t.Fatalf("got %v, want request errors", err)
	}
	return rerrs[0]
}

// TestCostLimits: each attack is refused with the limit it broke, and ordinary documents,
// the introspection query with its fragments among them, still pass.
func TestCostLimits(t *testing.T) {
	s := blog(t, gqlschema.DefaultConfig())
	refused := []struct{ name, query, limit string }{
		{"fragment bomb", fragmentBomb(40), "maxFields"},
		{"fragment bomb without repeats", strings.ReplaceAll(fragmentBomb(40), "{ id", "{ __typename"), "maxFields"},
		{"conflicting aliases", aliases(3000, true), "maxAliases"},
		{"distinct aliases", aliases(300, false), "maxAliases"},
		{"repeated field", "{ articles { data { attributes {" + strings.Repeat(" title", 3000) + " } } } }", "maxRepeatedFields"},
		{"repeated through fragments", "{ articles { data { ...A ...A ...A ...A } } } fragment A on ArticleEntity { id" + strings.Repeat(" id", 20) + " }", "maxRepeatedFields"},
		{"rows", `{ articles(pagination: {limit: 100}) { data { attributes { author { data { attributes { articles(pagination: {limit: 100}) { data { attributes { tags(pagination: {limit: 100}) { data { id } } } } } } } } } } } }`, "maxEstimatedRows"},
		{"rows through a variable", `query($p: PaginationArg) { articles(pagination: $p) { data { attributes { author { data { attributes { articles(pagination: $p) { data { attributes { tags(pagination: $p) { data { id } } } } } } } } } } } }`, "maxEstimatedRows"},
	}
	for _, c := range refused {
		_, err := gql.Parse(s, gql.Request{Query: c.query}, gql.OptionsFrom(s.Config))
		e := requestError(t, err)
		if e.Code != gql.CodeValidationFailed || !strings.Contains(e.Message, "graphql.config."+c.limit) {
			t.Errorf("%s: got %s %q, want %s naming %s", c.name, e.Code, e.Message, gql.CodeValidationFailed, c.limit)
		}
	}
	passed := []string{
		fragmentBomb(4),
		aliases(150, false),
		`{ articles(pagination: {limit: 100}) { data { attributes { tags(pagination: {limit: 100}) { data { id } } } } } }`,
		`{ a: articles { data { id } } b: articles { data { id ...A ...A } } } fragment A on ArticleEntity { id attributes { title } }`,
		introspection,
	}
	for _, q := range passed {
		if _, err := gql.Parse(s, gql.Request{Query: q}, gql.OptionsFrom(s.Config)); err != nil {
			t.Errorf("%.60q: %v", q, err)
		}
	}
	// graphql-js stops at 100 errors.
	_, err := gql.Parse(s, gql.Request{Query: "{ articles { data {" + strings.Repeat(" title", 40) + strings.Repeat(" body", 40) + strings.Repeat(" slug", 40) + " } } }"}, gql.OptionsFrom(s.Config))
	var rerrs gql.RequestErrors
	if !errors.As(err, &rerrs) || len(rerrs) != 101 || rerrs[100].Message != "Too many validation errors, error limit reached. Validation aborted." {
		t.Errorf("error limit: got %d errors: %v", len(rerrs), err)
	}
	// The depth limit counts through fragments too and keeps graphql-depth-limit's words.
	cfg := gqlschema.DefaultConfig()
	cfg.DepthLimit = 3
	d := blog(t, cfg)
	_, err = gql.Parse(d, gql.Request{Query: `query Deep { articles { ...A } } fragment A on ArticleEntityResponseCollection { data { attributes { tags { data { id } } } } }`}, gql.OptionsFrom(d.Config))
	if e := requestError(t, err); e.Message != "'Deep' exceeds maximum operation depth of 3" {
		t.Errorf("depth: got %q", e.Message)
	}
	// Each limit can be turned off.
	cfg = gqlschema.DefaultConfig()
	cfg.MaxAliases, cfg.MaxEstimatedRows = 0, 0
	o := blog(t, cfg)
	if _, err := gql.Parse(o, gql.Request{Query: aliases(300, false)}, gql.OptionsFrom(o.Config)); err != nil {
		t.Errorf("maxAliases off: %v", err)
	}
}

// introspection is the shape of the introspection query clients send: nested fragments
// over a deep ofType chain.
const introspection = `query IntrospectionQuery {
  __schema {
    queryType { name } mutationType { name } subscriptionType { name }
    types { ...FullType }
    directives { name description locations args { ...InputValue } }
  }
}
fragment FullType on __Type {
  kind name description
  fields(includeDeprecated: true) { name description args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
  inputFields { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
fragment TypeRef on __Type {
  kind name
  ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }
}`

// BenchmarkCostRefusal measures the refusal of the two worst documents of the abuse suite:
// each must take milliseconds, not the minutes validation would.
func BenchmarkCostRefusal(b *testing.B) {
	s := blog(b, gqlschema.DefaultConfig())
	for _, c := range []struct{ name, query string }{
		{"fragment-bomb-40", fragmentBomb(40)},
		{"aliases-3000", aliases(3000, true)},
		{"repeated-10000", "{ articles { data { attributes {" + strings.Repeat(" title", 10000) + " } } } }"},
	} {
		b.Run(c.name, func(b *testing.B) {
			opt := gql.OptionsFrom(s.Config)
			for i := 0; i < b.N; i++ {
				if _, err := gql.Parse(s, gql.Request{Query: c.query}, opt); err == nil {
					b.Fatal("accepted")
				}
			}
		})
	}
}
