package e2e

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// failClosedApp is examples/blog with testdata/projects/failclosed laid over it: one of each
// kind of code a project declares for its routes (a controller and a service overriding core
// actions, route policies, lifecycle hooks in files and subscribed in bootstrap(), a custom
// route, register() adding a middleware to a plugin route, a plugin extension replacing a
// controller, a local plugin's route).
func failClosedApp(t *testing.T) string {
	t.Helper()
	app := copyProject(t, "../examples/blog")
	if err := os.CopyFS(app, os.DirFS("testdata/projects/failclosed")); err != nil {
		t.Fatal(err)
	}
	return app
}

// refusedRoute is one line of `quarry routes` that says Quarry refuses the route.
type refusedRoute struct{ method, path, why string }

// refusedRoutes runs `quarry routes` and keeps the refused REST routes and GraphQL fields.
func refusedRoutes(t *testing.T, env []string, app string) (rest, graphql []refusedRoute) {
	t.Helper()
	out := quarry(t, env, "routes", "--app", app)
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || f[2] != "refused" {
			continue
		}
		r := refusedRoute{method: f[0], path: f[1], why: strings.Join(f[3:], " ")}
		if r.method == "GRAPHQL" {
			graphql = append(graphql, r)
		} else {
			rest = append(rest, r)
		}
	}
	return rest, graphql
}

// TestFailClosed checks that no route whose project code Quarry does not run is answered
// by its core action: every route `quarry routes` lists as refused answers 501
// NotImplementedError naming the file, on every database, with nothing written; the routes
// without such code are served. The runtime for project code is off here
// (QUARRY_PROJECT_CODE=off), so every kind of code is refused.
func TestFailClosed(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			app := failClosedApp(t)
			off := backend{Name: be.Name, Env: func(t *testing.T) []string { return append(be.Env(t), "QUARRY_PROJECT_CODE=off") }}
			srv := start(t, off, app)
			rest, gql := refusedRoutes(t, srv.Env, app)
			want := map[string]bool{
				"GET /api/articles/:id": true, "PUT /api/articles/:id": true, "DELETE /api/articles/:id": true,
				"GET /api/tags": true, "GET /api/tags/count": true, "POST /api/writers": true, "GET /api/pages": true,
				"PUT /api/homepage": true, "GET /api/users": true, "PUT /api/users/:id": true, "GET /api/hello/greeting": true,
			}
			for _, r := range rest {
				delete(want, r.method+" "+r.path)
				path := strings.NewReplacer(":id", "1", ":role", "1", "(.*)", "x", ":provider", "github").Replace(r.path)
				var body []byte
				if r.method == "POST" || r.method == "PUT" {
					body = []byte(`{"data":{"name":"Refused","title":"Refused"},"username":"x"}`)
				}
				st, b := srv.do(t, r.method, path, body)
				file, _, _ := strings.Cut(r.why, ":")
				if st != 501 || !strings.Contains(string(b), `"name":"NotImplementedError"`) || !strings.Contains(string(b), file) {
					t.Errorf("%s %s (%s): %d %s", r.method, path, r.why, st, b)
				}
			}
			for k := range want {
				t.Errorf("%s is not listed as refused", k)
			}
			// Nothing the refused writes carried was stored.
			for _, p := range []string{"/api/writers", "/api/homepage"} {
				if st, b := srv.do(t, "GET", p, nil); strings.Contains(string(b), "Refused") {
					t.Errorf("GET %s after a refused write: %d %s", p, st, b)
				}
			}
			// Routes without such code are Quarry's.
			for _, p := range []string{"/api/articles", "/api/writers/1", "/api/tags/1", "/api/users/me", "/api/homepage"} {
				if st, b := srv.do(t, "GET", p, nil); st == 501 {
					t.Errorf("GET %s: %d %s", p, st, b)
				}
			}
			if st, b := srv.do(t, "POST", "/api/tags", []byte(`{"data":{"name":"go"}}`)); st != 200 {
				t.Errorf("create tag: %d %s", st, b)
			}
			// GraphQL: the fields that run hooks or a replaced controller are refused; the
			// others (a service override does not reach Strapi's resolvers) are served.
			fields := map[string]string{
				"Mutation.createWriter":   `mutation { createWriter(data: {name: "G"}) { data { id } } }`,
				"Query.pages":             `{ pages { data { id } } }`,
				"Mutation.updateHomepage": `mutation { updateHomepage(data: {title: "T"}) { data { id } } }`,
			}
			for _, r := range gql {
				doc, ok := fields[r.path]
				if !ok {
					continue
				}
				delete(fields, r.path)
				_, out := srv.gqlCall(t, srv.Token, doc, nil)
				if !strings.Contains(out, "NotImplementedError") || strings.Contains(out, `"id"`) {
					t.Errorf("%s: %s", r.path, out)
				}
			}
			for f := range fields {
				t.Errorf("GraphQL %s is not listed as refused", f)
			}
			if _, out := srv.gqlCall(t, srv.Token, `{ tags { data { id attributes { name } } } }`, nil); !strings.Contains(out, `"name":"go"`) {
				t.Errorf("tags over GraphQL: %s", out)
			}
		})
	}
}

// TestFailClosedGlobalMiddleware: an app-level middleware of the project's runs on every
// request: Quarry runs it around the content API and GraphQL (here it refuses a request
// with x-block), refuses what does not travel through it (media files), and with the
// runtime for project code off serves nothing but the health checks.
func TestFailClosedGlobalMiddleware(t *testing.T) {
	be := backends()[0]
	app := copyProject(t, "../examples/blog")
	mw := `module.exports = ['strapi::logger', 'strapi::errors', 'strapi::security', 'strapi::cors', 'global::audit',
  'strapi::query', 'strapi::body', 'strapi::public'];`
	if err := os.WriteFile(filepath.Join(app, "config", "middlewares.js"), []byte(mw), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(app, "src", "middlewares"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(app, "src", "middlewares", "audit.js"),
		[]byte("module.exports = () => async (ctx, next) => { if (ctx.get('x-block')) return ctx.forbidden(); await next(); };"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := start(t, be, app)
	for _, p := range []string{"/api/articles", "/api/i18n/locales", "/graphql?query=%7B__typename%7D"} {
		if st, b := srv.do(t, "GET", p, nil); st != 200 {
			t.Errorf("GET %s: %d %s", p, st, b)
		}
		req, _ := http.NewRequest("GET", srv.URL+p, nil)
		req.Header.Set("X-Block", "1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 403 || !strings.Contains(string(b), `"name":"ForbiddenError"`) {
			t.Errorf("GET %s with x-block: %d %s", p, resp.StatusCode, b)
		}
	}
	// Media files go through the project's middlewares too (main's 3201226): the chain
	// answers first, and a file that is not there is then Quarry's 404.
	if st, b := srv.do(t, "GET", "/uploads/a.png", nil); st != 404 {
		t.Errorf("GET /uploads/a.png: %d %s", st, b)
	}
	blocked, _ := http.NewRequest("GET", srv.URL+"/uploads/a.png", nil)
	blocked.Header.Set("X-Block", "1")
	if resp, err := http.DefaultClient.Do(blocked); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
		if resp.StatusCode != 403 {
			t.Errorf("GET /uploads/a.png with x-block: %d", resp.StatusCode)
		}
	}
	if st, _ := srv.do(t, "GET", "/_health", nil); st != 204 {
		t.Errorf("/_health: %d", st)
	}
	env := append(be.Env(t), "API_TOKEN_SALT=quarry-e2e-salt", "LOG_LEVEL=warn", "QUARRY_PROJECT_CODE=off")
	off := serve(t, env, app, srv.Token)
	for _, p := range []string{"/api/articles", "/api/users/me", "/graphql"} {
		if st, b := off.do(t, "GET", p, nil); st != 501 || !strings.Contains(string(b), "global::audit") {
			t.Errorf("runtime off: GET %s: %d %s", p, st, b)
		}
	}
}

// TestFailClosedUpstream: beside Strapi (here one that is down, so a forwarded request
// answers 502 BadGatewayError), the routes that run the project's code go upstream and the
// others stay Quarry's; the start-up log says which went where, naming Quarry "quarry".
func TestFailClosedUpstream(t *testing.T) {
	be := backends()[0]
	app := failClosedApp(t)
	env := append(be.Env(t), "API_TOKEN_SALT=quarry-e2e-salt", "LOG_LEVEL=info", "QUARRY_PROJECT_CODE=off")
	token := strings.TrimSpace(quarry(t, env, "tokens", "create", "--app", app, "--name", "e2e", "--type", "full-access"))
	srv := serve(t, env, app, token, "--upstream", "http://127.0.0.1:9")
	for _, c := range []struct {
		method, path string
		want         int
	}{
		{"GET", "/api/articles/1", 502}, {"GET", "/api/tags", 502}, {"POST", "/api/writers", 502},
		{"GET", "/api/users", 502}, {"GET", "/api/hello/greeting", 502}, {"GET", "/api/tags/count", 502},
		{"GET", "/api/writers", 502}, {"GET", "/api/articles", 200}, {"GET", "/api/writers/1", 404}, {"GET", "/api/tags/1", 404},
	} {
		var body []byte
		if c.method == "POST" {
			body = []byte(`{"data":{"name":"x"}}`)
		}
		if st, b := srv.do(t, c.method, c.path, body); st != c.want {
			t.Errorf("%s %s: %d %s, want %d", c.method, c.path, st, b, c.want)
		}
	}
	// A document with a field that runs the project's hooks: GraphQL as a whole is Strapi's.
	if st, b := srv.do(t, "POST", "/graphql", []byte(`{"query":"{ tags { data { id } } }"}`)); st != 502 {
		t.Errorf("graphql beside Strapi: %d %s", st, b)
	}
	log := srv.log.String()
	for _, want := range []string{`path=/api/articles/:id to=upstream why="src/api/article/controllers/article.js: the controller defines findOne"`,
		`path=/api/articles to=quarry`} {
		if !strings.Contains(log, want) {
			t.Errorf("start-up log lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, "github.com/quarrycms/quarry") || strings.Contains(log, "serves its own core action") {
		t.Errorf("start-up log:\n%s", log)
	}
}

// TestUnprovidedModules: with the runtime on, code that requires an npm module Quarry's
// sandbox does not provide is refused, naming the module — at start when the file requires
// it at load (quarry routes says so), at the request when an action requires it inside.
// Module resolution does not depend on the database: SQLite only.
func TestUnprovidedModules(t *testing.T) {
	be := backends()[0]
	app := failClosedApp(t)
	srv := start(t, be, app)
	rest, _ := refusedRoutes(t, srv.Env, app)
	var listed bool
	for _, r := range rest {
		if r.method == "GET" && r.path == "/api/writers" {
			listed = strings.Contains(r.why, "'stripe'")
		}
	}
	if !listed {
		t.Errorf("quarry routes does not refuse GET /api/writers for 'stripe': %v", rest)
	}
	for path, module := range map[string]string{"/api/writers": "stripe", "/api/footer": "moment"} {
		st, b := srv.do(t, "GET", path, nil)
		if st != 501 || !strings.Contains(string(b), `"name":"NotImplementedError"`) || !strings.Contains(string(b), module) {
			t.Errorf("GET %s: %d %s, want 501 naming %s", path, st, b, module)
		}
	}
}
