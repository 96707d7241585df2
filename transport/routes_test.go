package transport

import (
	"testing"

	"github.com/quarrycms/quarry/schemas"
)

func TestResolveRoutes(t *testing.T) {
	s, err := schemas.Load("../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	all := map[string]bool{"find": true, "findOne": true, "create": true, "update": true, "delete": true}
	table := &RouteTable{
		Files: true,
		Core: map[string]*CoreRoutes{
			"api::article.article":   {Order: 1, Action: map[string]bool{"find": true, "findOne": true, "create": true}, Public: map[string]bool{"find": true}},
			"api::writer.writer":     {Order: 3, Prefix: "/v2", Action: all},
			"api::homepage.homepage": {Order: 4, Action: map[string]bool{"find": true}},
		},
		Custom: []CustomRoute{
			{Order: 0, Method: "GET", Path: "/articles/featured"},
			{Order: 0, Method: "POST", Path: "/articles/:id/like"},
			{Order: 2, Method: "GET", Path: "/articles/special"},
			{Order: 2, Method: "GET", Path: "/stats/(.*)"},
		},
	}
	for _, c := range []struct {
		method, path string
		kind         RouteKind
		action, id   string
		public       bool
	}{
		{"GET", "/articles", RouteCore, "find", "", true},
		{"GET", "/articles/1", RouteCore, "findOne", "1", false},
		{"GET", "/articles/featured", RouteCustom, "", "", false},
		{"POST", "/articles/7/like", RouteCustom, "", "", false},
		{"GET", "/articles/special", RouteCore, "findOne", "special", false}, // the core router was registered first
		{"GET", "/stats/a/b", RouteCustom, "", "", false},
		{"PUT", "/articles/1", RouteMethod, "", "", false},
		{"DELETE", "/articles", RouteMethod, "", "", false},
		{"GET", "/v2/writers", RouteCore, "find", "", false},
		{"DELETE", "/v2/writers/2", RouteCore, "delete", "2", false},
		{"GET", "/writers", RouteNone, "", "", false},
		{"GET", "/tags", RouteNone, "", "", false}, // no router for tags
		{"GET", "/homepage", RouteCore, "find", "", false},
		{"PUT", "/homepage", RouteMethod, "", "", false},
		{"GET", "/articles/1/2", RouteNone, "", "", false},
	} {
		got := table.Resolve(s, c.method, c.path)
		if got.Kind != c.kind || got.Action != c.action || got.ID != c.id || got.Public != c.public {
			t.Errorf("%s %s: got %+v, want kind %d %s %q public %v", c.method, c.path, got, c.kind, c.action, c.id, c.public)
		}
	}
	// Without route files every core route is served.
	if got := (&RouteTable{}).Resolve(s, "DELETE", "/tags/3"); got.Kind != RouteCore || got.Action != "delete" {
		t.Errorf("no route files: %+v", got)
	}
}
