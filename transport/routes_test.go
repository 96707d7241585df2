package transport

import (
	"reflect"
	"testing"

	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/schemas/routes"
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

// TestServerRoute: a strapi.server.routes route matches as koa-router's does (ALL any method,
// GET answering HEAD, letters in any case, :params), the first that matches wins, and none is
// served while every route is refused.
func TestServerRoute(t *testing.T) {
	t0 := &RouteTable{Server: []ServerRoute{
		{Method: "GET", Path: "/api/ping"},
		{Method: "ALL", Path: "/hooks/:source"},
		{Method: "POST", Path: "/hooks/:source"},
	}}
	for _, c := range []struct {
		method, path string
		want         int // index in t0.Server, -1 for none
		params       map[string]string
	}{
		{"GET", "/api/ping", 0, nil},
		{"HEAD", "/API/Ping", 0, nil},
		{"POST", "/api/ping", -1, nil},
		{"DELETE", "/hooks/GitHub", 1, map[string]string{"source": "GitHub"}},
		{"POST", "/hooks/x", 1, map[string]string{"source": "x"}},
		{"POST", "/hooks/x/y", -1, nil},
	} {
		r, params := t0.ServerRoute(c.method, c.path)
		got := -1
		for i := range t0.Server {
			if r == &t0.Server[i] {
				got = i
			}
		}
		if got != c.want || (c.params != nil && !reflect.DeepEqual(params, c.params)) {
			t.Errorf("%s %s: route %d %v, want %d %v", c.method, c.path, got, params, c.want, c.params)
		}
	}
	t0.Global = []routes.Code{{File: "src/index.js", What: "something"}}
	if r, _ := t0.ServerRoute("GET", "/api/ping"); r != nil {
		t.Error("a server route is served while every route is refused")
	}
}
