// Package bench measures Quarry's hot path on a named corpus of realistic requests against
// examples/blog: Go benchmarks per stage (bench_test.go), a deterministic data generator
// (bench/datagen), a bounded load driver with a raw-SQL baseline (bench/cmd/load) and the CI
// guard that holds allocations per request and SQL statements per request to a committed
// budget (bench/cmd/benchguard, bench/testdata/budget.json). See bench/README.md.
package bench

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Request is one named request shape of the corpus. REST requests are GETs of Path with
// Query plus the page size; GraphQL requests POST Document with the page size as the
// variable $pageSize.
type Request struct {
	Name string
	// Path is the REST path, e.g. /api/articles.
	Path string
	// Query is the REST query string without pagination (qs bracket syntax, unencoded).
	Query string
	// GraphQL is a GraphQL document taking $pageSize: Int.
	GraphQL string
}

// IsGraphQL reports whether the request goes to /graphql.
func (r Request) IsGraphQL() bool { return r.GraphQL != "" }

// RawQuery is the REST query string for a page size.
func (r Request) RawQuery(pageSize int) string {
	q := r.Query
	if q != "" {
		q += "&"
	}
	return q + "pagination[pageSize]=" + strconv.Itoa(pageSize)
}

// Target is the request's URL path and query for a page size (REST), or "/graphql".
func (r Request) Target(pageSize int) string {
	if r.IsGraphQL() {
		return "/graphql"
	}
	return r.Path + "?" + r.RawQuery(pageSize)
}

// Body is the POST body of a GraphQL request for a page size (nil for REST).
func (r Request) Body(pageSize int) []byte {
	if !r.IsGraphQL() {
		return nil
	}
	b, _ := json.Marshal(map[string]any{"query": r.GraphQL, "variables": map[string]any{"pageSize": pageSize}})
	return b
}

// Plural is the plural API id of a REST request's path.
func (r Request) Plural() string {
	return strings.TrimPrefix(r.Path, "/api/")
}

// Corpus is the named request set every benchmark and the load driver use. Changing a
// request changes what the committed budget and baseline mean: update them together.
var Corpus = []Request{
	{
		// A plain listing page: every scalar attribute, newest first.
		Name:  "list",
		Path:  "/api/articles",
		Query: "sort[0]=publishDate:desc",
	},
	{
		// $or over scalars, a relation filter two hops deep (author.mentor) and a to-many
		// relation filter with $in (tags), sorted by a number.
		Name: "filters",
		Path: "/api/articles",
		Query: "filters[$or][0][title][$containsi]=go&filters[$or][1][views][$gte]=50000" +
			"&filters[author][mentor][name][$containsi]=a" +
			"&filters[tags][name][$in][0]=tag-1&filters[tags][name][$in][1]=tag-2&filters[tags][name][$in][2]=tag-3" +
			"&filters[tags][name][$in][3]=tag-4&filters[tags][name][$in][4]=tag-5&filters[tags][name][$in][5]=tag-6" +
			"&fields[0]=title&fields[1]=slug&fields[2]=views&sort[0]=views:desc",
	},
	{
		// The target request of issue 5: filters plus populate two levels deep (author with
		// avatar and mentor, tags with owner, seo with keywords), with field selection.
		Name: "populate2",
		Path: "/api/articles",
		Query: "filters[$or][0][title][$containsi]=go&filters[$or][1][featured][$eq]=true" +
			"&filters[author][name][$containsi]=a" +
			"&fields[0]=title&fields[1]=slug&fields[2]=publishDate&fields[3]=views" +
			"&populate[author][fields][0]=name&populate[author][populate][avatar][fields][0]=url" +
			"&populate[author][populate][mentor][fields][0]=name" +
			"&populate[tags][fields][0]=name&populate[tags][populate][owner][fields][0]=name" +
			"&populate[seo][populate][keywords]=true" +
			"&sort[0]=publishDate:desc",
	},
	{
		// A dynamic zone (seo, link, quote) with each component's own relations and
		// media, plus a repeatable component with a relation.
		Name: "dynamiczone",
		Path: "/api/articles",
		Query: "fields[0]=title&fields[1]=slug" +
			"&populate[blocks][populate]=*" +
			"&populate[links][populate][tag][fields][0]=name" +
			"&sort[0]=id:asc",
	},
	{
		// GraphQL with fragments: the populate2 page as a client writes it in GraphQL.
		Name: "graphql",
		GraphQL: `query Articles($pageSize: Int) {
  articles(
    filters: { or: [{ title: { containsi: "go" } }, { featured: { eq: true } }], author: { name: { containsi: "a" } } }
    sort: "publishDate:desc"
    pagination: { pageSize: $pageSize }
  ) {
    data { id attributes { ...Card } }
    meta { pagination { total pageCount } }
  }
}
fragment Card on Article {
  title slug publishDate views
  author { data { ...WriterBits } }
  tags { data { id attributes { name owner { data { id attributes { name } } } } } }
  seo { metaTitle keywords { word } }
}
fragment WriterBits on WriterEntity {
  id
  attributes { name avatar { data { id attributes { url } } } mentor { data { id attributes { name } } } }
}`,
	},
}

// Lookup finds a corpus request by name.
func Lookup(name string) (Request, error) {
	for _, r := range Corpus {
		if r.Name == name {
			return r, nil
		}
	}
	return Request{}, fmt.Errorf("no request named %q in the corpus", name)
}
