package e2e

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateServerUse = flag.Bool("update-serveruse", false, "record testdata/serveruse_rest.json from the Strapi at QUARRY_ORACLE_URL (started with --fresh on testdata/projects/serveruse and ORACLE_GRANTS=testdata/projects/serveruse/config/permissions.json)")

// marks are the headers the serveruse project's middlewares set: register()'s on every answer
// (X-Served-By before its next(), the others after it), with the trail of the middlewares the
// request went through.
var marks = []string{"X-Served-By", "X-Trail", "X-Status-Seen"}

// stackMarks add a header of Strapi's own stack (strapi::poweredBy, set after its next()): on
// the route's answers and on those the middlewares inside the stack give, not on those
// register()'s give outside it.
var stackMarks = append([]string{"X-Powered-By", "X-Frame-Options"}, marks...)

// serverUseSteps go through the middlewares the serveruse project gives strapi.server.use:
// register()'s around everything (before Strapi's error handler and body parser), then
// config/middlewares' global::trail, then bootstrap()'s (a webhook answered there, article
// writes refused there), then the route.
var serverUseSteps = []ownCodeStep{
	{Name: "a core find through every middleware", Path: "/api/articles", As: "public", Headers: stackMarks},
	{Name: "the webhook answered by bootstrap()'s middleware", Method: "POST", Path: "/api/webhook/stripe", Body: `{"type":"checkout.session.completed","id":"evt_1"}`, As: "public", Headers: stackMarks},
	{Name: "the webhook refusing an event", Method: "POST", Path: "/api/webhook/stripe", Body: `{"type":"invoice.paid","id":"evt_2"}`, As: "public", Headers: stackMarks},
	{Name: "the webhook's path on GET reaches the router", Path: "/api/webhook/stripe", As: "public", Headers: marks},
	{Name: "a create goes through", Method: "POST", Path: "/api/articles", Body: `{"data":{"title":"Second"}}`, As: "public", Headers: marks},
	{Name: "a locked create is refused by ctx.badRequest", Method: "POST", Path: "/api/articles", Body: `{"data":{"title":"Third","locked":true}}`, As: "public", Headers: marks},
	{Name: "a delete is refused by a thrown ForbiddenError", Method: "DELETE", Path: "/api/articles/1", As: "public", Headers: marks},
	{Name: "the articles after", Path: "/api/articles?sort=id&fields[0]=title", As: "public", Headers: marks},
	{Name: "register()'s middleware throwing: koa's own answer", Path: "/api/articles?teapot=1", As: "public", Headers: stackMarks},
	{Name: "register()'s middleware sees no parsed body", Method: "POST", Path: "/api/raw-body", Body: `{"a":1}`, As: "public", Headers: stackMarks},
	{Name: "a malformed body: Strapi's stack answers inside register()'s middleware", Method: "POST", Path: "/api/articles", Body: `{bad json`, As: "public", Headers: marks},
	{Name: "an unknown path: a 404 register()'s middleware sees", Path: "/api/nothing", As: "public", Headers: marks},
	{Name: "GraphQL through every middleware", Method: "POST", Path: "/graphql", Body: `{"query":"{ articles(sort: \"id\") { data { id attributes { title } } } }"}`, As: "public", Headers: marks},
	{Name: "outside the API too", Path: "/nothing-here", As: "public", Headers: marks},
	{Name: "a public route register() gives strapi.server.routes", Path: "/api/ping", As: "public", Headers: marks},
	{Name: "its path in other letters and with a slash", Path: "/API/Ping/", As: "public", Headers: marks},
	{Name: "another method on it", Method: "POST", Path: "/api/ping", Body: `{}`, As: "public", Headers: append([]string{"Allow"}, marks...)},
	{Name: "a route without auth: false: nothing authenticates it", Path: "/api/internal/stats", As: "public", Headers: marks},
	{Name: "nor a token", Path: "/api/internal/stats", Headers: marks},
	{Name: "a signed hook: bootstrap()'s route, its policy and its two handlers", Method: "POST", Path: "/hooks/GitHub?sig=ok", Body: `{"event":"push"}`, As: "public", Headers: marks},
	{Name: "an unsigned hook: its policy refuses", Method: "POST", Path: "/hooks/GitHub", Body: `{"event":"push"}`, As: "public", Headers: marks},
	{Name: "the hook's path on GET", Path: "/hooks/GitHub", As: "public", Headers: marks},
}

// TestServerUse serves a project whose src/index gives strapi.server.use middlewares in
// register() and bootstrap() on Quarry alone, on every database, and compares each answer,
// with the headers the middlewares set, with real Strapi 4.26.2's (recorded with
// -update-serveruse): no route of the project is refused.
func TestServerUse(t *testing.T) {
	replayProjectChecking(t, "serveruse", serverUseSteps, *updateServerUse, "-update-serveruse", func(t *testing.T, routes string) {
		if strings.Contains(routes, " refused ") || strings.Contains(routes, "NotImplemented") {
			t.Fatalf("routes refused:\n%s", routes)
		}
		if !strings.Contains(routes, "src/index: strapi.server.use #1 in register(), strapi.server.use #1 in bootstrap(), strapi.server.use #2 in bootstrap()), run by Quarry") {
			t.Errorf("quarry routes does not list the strapi.server.use middlewares:\n%s", routes)
		}
		for _, want := range []string{
			"GET     /api/ping                           project code run by Quarry  strapi.server.routes #1 in register()",
			"POST    /hooks/:source                      project code run by Quarry  strapi.server.routes #1 in bootstrap()",
			"GET     /api/internal/stats                 native                      strapi.server.routes #2 in register(), not public",
		} {
			if !strings.Contains(routes, want) {
				t.Errorf("quarry routes does not list %q:\n%s", want, routes)
			}
		}
	})
}

// lateServerUse gives strapi.server.use a middleware after bootstrap()'s first use of data:
// the sandboxes serving requests do not reach it, so every request through the app-level
// chain is refused, never served without it.
const lateServerUse = `'use strict';
module.exports = {
  async bootstrap({ strapi }) {
    strapi.server.use(async (ctx, next) => { ctx.set('X-Early', 'yes'); await next(); });
    const n = await strapi.entityService.count('api::article.article');
    strapi.server.use(async (ctx, next) => { ctx.set('X-Articles', String(n)); await next(); });
  },
};
`

func TestServerUseAfterData(t *testing.T) {
	app := copyProject(t, filepath.Join("testdata", "projects", "serveruse"))
	if err := os.WriteFile(filepath.Join(app, "src", "index.js"), []byte(lateServerUse), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := start(t, backends()[0], app)
	status, body, _ := srv.send(t, "", "GET", "/api/articles", "", nil)
	if status != 501 || !strings.Contains(string(body), "strapi.server.use #2 in bootstrap() is called in bootstrap() after its first use of data") {
		t.Fatalf("got %d %s, want 501 naming the middleware", status, body)
	}
}

// TestServerUseRefused: what Quarry does not run of strapi.server is refused, named: every
// route for a use the recording could not follow, the koa app, the content API's router; a
// strapi.server.routes route Quarry does not run, that route.
func TestServerUseRefused(t *testing.T) {
	cases := []struct{ name, index, want string }{
		{"the koa app", `module.exports = { register({ strapi }) { strapi.server.app.use(async (ctx, next) => next()); } };`, "strapi.server.app"},
		{"behind a condition", `module.exports = { register({ strapi }) { if (process.env.QUARRY_TEST_NEVER_SET) strapi.server.use(async (ctx, next) => next()); } };`, "strapi.server.use or strapi.server.routes is called where Quarry could not follow it"},
		{"not a function", `module.exports = { register({ strapi }) { strapi.server.use('global::trail'); } };`, "strapi.server.use(a string)"},
		{"the content API's router", `module.exports = { register({ strapi }) { strapi.server.routes({ type: 'content-api', routes: [] }); } };`, `strapi.server.routes({ type: "content-api" })`},
		{"a handler by name", `module.exports = { register({ strapi }) { strapi.server.routes([{ method: 'GET', path: '/api/top', handler: 'api::article.article.find', config: { auth: false } }]); } };`,
			"GET     /api/top                            refused  src/index.js: strapi.server.routes #1 in register() (GET /api/top) has the handler api::article.article.find, which Quarry runs only as functions"},
		{"a plugin's middleware", `module.exports = { register({ strapi }) { strapi.server.routes([{ method: 'GET', path: '/api/top', handler: (ctx) => {}, config: { auth: false, middlewares: ['plugin::users-permissions.rateLimit'] } }]); } };`,
			"has policies or middlewares that are not the project's own files"},
		{"a regular expression in the path", `module.exports = { register({ strapi }) { strapi.server.routes([{ method: 'GET', path: '/api/top/:id(\\d+)', handler: (ctx) => {}, config: { auth: false } }]); } };`,
			"whose pattern Quarry does not match"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			app := copyProject(t, filepath.Join("testdata", "projects", "serveruse"))
			if err := os.WriteFile(filepath.Join(app, "src", "index.js"), []byte(c.index), 0o644); err != nil {
				t.Fatal(err)
			}
			out := quarry(t, []string{"QUARRY_CREATE_DATABASE=1"}, "routes", "--app", app)
			if !strings.Contains(out, c.want) {
				t.Errorf("quarry routes does not name %q:\n%s", c.want, out)
			}
		})
	}
}

// stateIndex leaves in ctx.state, from register()'s middleware, a value that is plain data and
// one that is not (a Date): the routes' code sees the first as it is, and a read of the
// second is refused, naming it, rather than answered with something else than Strapi's.
const stateIndex = `'use strict';
module.exports = {
  register({ strapi }) {
    strapi.server.use(async (ctx, next) => {
      ctx.state.tenant = { id: 7, name: 'acme' };
      ctx.state.clock = new Date(0);
      await next();
    });
    strapi.server.routes([
      { method: 'GET', path: '/api/tenant', handler: (ctx) => { ctx.body = ctx.state.tenant; }, config: { auth: false } },
      { method: 'GET', path: '/api/clock', handler: (ctx) => { ctx.body = { at: ctx.state.clock.toISOString() }; }, config: { auth: false } },
      { method: 'GET', path: '/api/top', handler: 'api::article.article.find', config: { auth: false } },
    ]);
  },
};
`

func TestServerUseState(t *testing.T) {
	app := copyProject(t, filepath.Join("testdata", "projects", "serveruse"))
	if err := os.WriteFile(filepath.Join(app, "src", "index.js"), []byte(stateIndex), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := start(t, backends()[0], app)
	for _, c := range []struct {
		path   string
		status int
		want   string
	}{
		{"/api/tenant", 200, `{"id":7,"name":"acme"}`},
		{"/api/clock", 501, "ctx.state.clock, which the app-level middlewares set, holds a value Quarry does not hand to the route"},
		{"/api/top", 501, "strapi.server.routes #3 in register() (GET /api/top) has the handler api::article.article.find, which Quarry runs only as functions"},
	} {
		status, body, _ := srv.send(t, "", "GET", c.path, "", nil)
		if status != c.status || !strings.Contains(string(body), c.want) {
			t.Errorf("GET %s: got %d %s, want %d with %s", c.path, status, body, c.status, c.want)
		}
	}
}

// TestServerUseLocalPlugin: a local plugin's register() giving strapi.server.use a middleware
// is not run by Quarry: every route is refused, naming it, never served without it.
func TestServerUseLocalPlugin(t *testing.T) {
	app := copyProject(t, filepath.Join("testdata", "projects", "localplugin"))
	index := filepath.Join(app, "src", "plugins", "todo", "server", "index.js")
	src, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	const at = "  register() {},"
	if !strings.Contains(string(src), at) {
		t.Fatal("the todo plugin has no empty register()")
	}
	with := strings.Replace(string(src), at, "  register({ strapi }) { strapi.server.use(async (ctx, next) => { ctx.set('X-Todo', '1'); await next(); }); },", 1)
	if err := os.WriteFile(index, []byte(with), 0o644); err != nil {
		t.Fatal(err)
	}
	out := quarry(t, []string{"QUARRY_CREATE_DATABASE=1"}, "routes", "--app", app)
	if want := "register() of the local plugin todo gives strapi.server.use middlewares, which Quarry runs only from src/index"; !strings.Contains(out, want) {
		t.Errorf("quarry routes does not name the plugin's middleware:\n%s", out)
	}
}
