package e2e

import "testing"

// routeSteps exercise a project's route files: createCoreRouter's only/except/prefix and
// config.auth: false, and custom routes declared before and after the core router (see
// testdata/projects/routes). Custom routes run the project's own controllers, which Quarry
// runs as Strapi does (with QUARRY_PROJECT_CODE=off they answer 501 NotImplementedError,
// never a core action).
var routeSteps = []frontendStep{
	{Name: "create category under the v2 prefix", Method: "POST", Path: "/api/v2/categories", Body: `{"data":{"name":"News","slug":"news"}}`},
	{Name: "create article", Method: "POST", Path: "/api/articles", Body: `{"data":{"title":"A","description":"d","category":1,"publishedAt":"2024-01-01T00:00:00.000Z"}}`},
	{Name: "create author", Method: "POST", Path: "/api/authors", Body: `{"data":{"name":"Ann"}}`},
	{Name: "custom route before the core router", Path: "/api/articles/featured"},
	{Name: "custom route, other case and trailing slash", Path: "/api/Articles/FEATURED/"},
	{Name: "custom route with a parameter, public", Method: "POST", Path: "/api/articles/1/like", Public: true},
	{Name: "custom route of its own path", Path: "/api/stats/articles"},
	{Name: "custom route after the core router is findOne's", Path: "/api/articles/special"},
	{Name: "findOne", Path: "/api/articles/1"},
	{Name: "update left out by only", Method: "PUT", Path: "/api/articles/1", Body: `{"data":{"title":"B"}}`},
	{Name: "delete left out by only", Method: "DELETE", Path: "/api/articles/1"},
	{Name: "no route below a route", Path: "/api/articles/featured/x"},
	{Name: "find under the prefix", Path: "/api/v2/categories"},
	{Name: "findOne under the prefix", Path: "/api/v2/categories/1"},
	{Name: "delete left out by except", Method: "DELETE", Path: "/api/v2/categories/1"},
	{Name: "no route without the prefix", Path: "/api/categories"},
	{Name: "auth false, public", Path: "/api/articles?populate=category", Public: true},
	{Name: "auth false ignores the token's rights", Path: "/api/articles?populate[category][fields][0]=name&populate[seo]=true&populate[cover]=true"},
	{Name: "auth false: no relation to filter through", Path: "/api/articles?filters[category][name]=News"},
	{Name: "auth false, plain list without a token", Path: "/api/articles", Public: true},
	{Name: "findOne needs the permission, public has it", Path: "/api/articles/1?populate=category", Public: true},
	{Name: "core router of all actions", Path: "/api/authors?fields[0]=name"},
	{Name: "core router of all actions, findOne", Path: "/api/authors/1"},
}

// TestRouteFiles replays routeSteps and compares them with answers recorded from Strapi.
func TestRouteFiles(t *testing.T) {
	replaySteps(t, "routes_rest.json", "testdata/projects/routes", routeSteps, nil)
}
