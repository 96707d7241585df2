package e2e

import (
	"flag"
	"testing"
)

var updateSearch = flag.Bool("update-search", false, "record testdata/search_rest.json from the Strapi at QUARRY_ORACLE_URL")

// searchSteps fill the search project with four items and search them with Strapi's _q, over
// REST and from the project's code (entity service, query engine).
var searchSteps = []ownCodeStep{
	{Name: "item 1", Method: "POST", Path: "/api/items", Body: `{"data":{"name":"Apple pie","body":"sweet and warm","slug":"apple-pie","kind":"plain","contact":"baker@example.com","stock":12,"price":4.5,"ready":true,"secret":"hidden-word"}}`},
	{Name: "item 2", Method: "POST", Path: "/api/items", Body: `{"data":{"name":"Banana_split","body":"100% fruit","slug":"banana-split","kind":"fancy","contact":"split@example.org","stock":120,"price":12,"ready":false,"secret":"other"}}`},
	{Name: "item 3", Method: "POST", Path: "/api/items", Body: `{"data":{"name":"Cherry tart*","body":"with a \\\\ backslash","slug":"cherry-tart","kind":"plain","contact":"tart@example.net","stock":7,"price":3.25}}`},
	{Name: "item 4", Method: "POST", Path: "/api/items", Body: `{"data":{"name":"APPLE crumble","slug":"apple-crumble","stock":0,"price":0.99}}`},
	{Name: "apple", Path: "/api/items?_q=apple&fields[0]=name&sort=id"},
	{Name: "APPLE", Path: "/api/items?_q=APPLE&fields[0]=name&sort=id"},
	{Name: "a number: ids and numeric attributes too", Path: "/api/items?_q=2&fields[0]=name&sort=id"},
	{Name: "a decimal", Path: "/api/items?_q=4.5&fields[0]=name&sort=id"},
	{Name: "underscore stays a wildcard", Path: "/api/items?_q=_split&fields[0]=name&sort=id"},
	{Name: "percent is escaped", Path: "/api/items?_q=100%25&fields[0]=name&sort=id"},
	{Name: "star is escaped", Path: "/api/items?_q=*&fields[0]=name&sort=id"},
	{Name: "backslash is escaped", Path: "/api/items?_q=%5C&fields[0]=name&sort=id"},
	{Name: "an enumeration value", Path: "/api/items?_q=fancy&fields[0]=name&sort=id"},
	{Name: "an email", Path: "/api/items?_q=example.org&fields[0]=name&sort=id"},
	{Name: "booleans are not searched", Path: "/api/items?_q=true&fields[0]=name&sort=id"},
	{Name: "empty term: everything", Path: "/api/items?_q=&fields[0]=name&sort=id"},
	{Name: "with filters, sort and a page", Path: "/api/items?_q=apple&filters[stock][$gte]=0&sort=name:desc&pagination[pageSize]=1&fields[0]=name"},
	{Name: "findOne ignores it", Path: "/api/items/1?_q=zzz&fields[0]=name"},
	{Name: "a private attribute is not searched", Path: "/api/items?_q=hidden&fields[0]=name&sort=id",
		Instead: &instead{Status: 200, Body: `{"data":[],"meta":{"pagination":{"page":1,"pageSize":25,"pageCount":0,"total":0}}}`, Strapi: 200,
			Why: "Strapi searches private attributes: a caller could probe what it may not read"}},
	{Name: "an array term", Path: "/api/items?_q[0]=a", Instead: strapi500(`{"data":null,"error":{"status":400,"name":"ValidationError","message":"Invalid parameter _q","details":{}}}`)},
	{Name: "from the project's code", Path: "/api/items/search?term=apple"},
	{Name: "from the project's code, a number", Path: "/api/items/search?term=12"},
}

// TestSearch replays the search project (testdata/projects/search) on every database against
// the answers Strapi 4.26.2 gave (-update-search with QUARRY_ORACLE_URL).
func TestSearch(t *testing.T) {
	replayProject(t, "search", searchSteps, *updateSearch, "-update-search")
}
