package projectcode

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/schemas/jseval"
	"github.com/quarrycms/quarry/sqlgen/database"
)

// fakeHost answers every core action with one fixed body, so that a benchmark of a route
// through the sandbox measures the sandbox and its glue alone.
type fakeHost struct {
	body  string
	query string // the last core action's query
}

func (h *fakeHost) Native(_ context.Context, _ *schemas.Model, _, _, rawQuery string, _ []byte, _ *ir.Caller) (int, string) {
	h.query = rawQuery
	return http.StatusOK, h.body
}

func (h *fakeHost) NativeRoute(context.Context, string, string, string, []byte) (int, string) {
	return http.StatusOK, h.body
}

func (h *fakeHost) AppNext(context.Context, string, string, string, []byte, map[string]string) (int, string, http.Header) {
	return http.StatusOK, h.body, nil
}

func (h *fakeHost) User(context.Context, int64) ([]byte, error) { return nil, nil }
func (h *fakeHost) CoreStore(context.Context, string, database.StoreEntry) ([]byte, error) {
	return []byte("null"), nil
}

// stampProject is examples/blog with a typical route middleware (the one
// bench.BenchmarkProjectCode runs) on the articles' find.
func stampProject(tb testing.TB) (*Runtime, *Route, *fakeHost) {
	tb.Helper()
	dir := tb.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../../examples/blog")); err != nil {
		tb.Fatal(err)
	}
	mw := `'use strict';
module.exports = (config, { strapi }) => async (ctx, next) => {
  ctx.query.filters = { ...(ctx.query.filters || {}), views: { $gte: 0 } };
  await next();
  ctx.set('x-served-by', 'middleware');
};
`
	if err := os.MkdirAll(filepath.Join(dir, "src", "middlewares"), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src", "middlewares", "stamp.js"), []byte(mw), 0o644); err != nil {
		tb.Fatal(err)
	}
	s, err := schemas.Load(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var entries []string
	for i := range 10 {
		entries = append(entries, `{"id":`+string(rune('1'+i%9))+`,"attributes":{"title":"relations errors and migrations","body":"`+strings.Repeat("and the same JSON, on SQLite and PostgreSQL. ", 20)+`","views":295,"tags":{"data":[{"id":3,"attributes":{"name":"go"}}]}}}`)
	}
	host := &fakeHost{body: `{"data":[` + strings.Join(entries, ",") + `],"meta":{"pagination":{"page":1,"pageSize":10,"pageCount":100,"total":1000}}}`}
	rt := &Runtime{Dir: dir, Schema: s, Eval: jseval.Options{Root: dir}, Host: host, Size: 1}
	route := &Route{Key: "GET /api/articles", Method: "GET", Path: "/api/articles", Handler: "api::article.article.find",
		Native: "find", UID: "api::article.article", Policies: []any{}, Middlewares: []any{"global::stamp"},
		Info: map[string]any{"apiName": "article", "type": "content-api"}, Config: map[string]any{}}
	return rt, route, host
}

// TestServeStampRoute checks the route the benchmark runs: the middleware's filter reaches
// the core action, its header the answer, and the core action's body goes out as it is.
func TestServeStampRoute(t *testing.T) {
	rt, route, host := stampProject(t)
	who := &ir.Caller{Kind: ir.TokenCaller, TokenID: 1, TokenType: "full-access"}
	for range 2 { // the second request reuses the sandbox
		r := httptest.NewRequest(http.MethodGet, "/api/articles?pagination[pageSize]=10&sort=id&populate[0]=tags", nil)
		w := httptest.NewRecorder()
		rt.Serve(w, r, route, who, nil, nil, "127.0.0.1")
		if w.Code != http.StatusOK || w.Header().Get("X-Served-By") != "middleware" || w.Body.String() != host.body {
			t.Fatalf("%d %v %.200s", w.Code, w.Header(), w.Body.String())
		}
		if want := "pagination%5BpageSize%5D=10&sort=id&populate%5B0%5D=tags&filters%5Bviews%5D%5B%24gte%5D=0"; host.query != want {
			t.Fatalf("core action's query %q, want %q", host.query, want)
		}
	}
}

// echoMiddleware answers what the project's code sees of ctx, then changes some of it and
// answers what it sees after.
const echoMiddleware = `'use strict';
module.exports = () => async (ctx) => {
  const r = ctx.request;
  const seen = () => ({
    method: ctx.method, url: ctx.url, originalUrl: ctx.originalUrl, path: ctx.path, ip: ctx.ip, host: ctx.host, hostname: ctx.hostname,
    headers: ctx.headers, same: ctx.header === ctx.headers && r.headers === ctx.headers && r.header === ctx.headers,
    request: { method: r.method, url: r.url, path: r.path, querystring: r.querystring, ip: r.ip, ips: r.ips, host: r.host, hostname: r.hostname, sameIps: r.ips === r.ips },
    query: ctx.query, params: ctx.params, auth: ctx.state.auth, sameAuth: ctx.state.auth === ctx.state.auth,
    cookie: ctx.cookies.get('a') === undefined, get: ctx.get('X-Test'), rget: r.get('x-test'), route: ctx.state.route.handler,
    own: ['method', 'url', 'headers', 'host', 'cookies'].map((k) => Object.prototype.hasOwnProperty.call(ctx, k)),
  });
  const before = JSON.parse(JSON.stringify(seen()));
  ctx.method = 'POST'; r.url = '/changed'; ctx.hostname = 'h'; ctx.headers = { x: '1' };
  if (ctx.state.auth) ctx.state.auth.credentials = 'changed';
  const after = seen();
  ctx.state.auth = 'mine';
  ctx.body = { before, after, auth: ctx.state.auth, state: Object.keys(ctx.state) };
};
`

// TestServeContext checks ctx as the project's code sees it, before and after it changes
// parts of it, for every kind of caller.
func TestServeContext(t *testing.T) {
	rt, route, _ := stampProject(t)
	if err := os.WriteFile(filepath.Join(rt.Dir, "src", "middlewares", "echo.js"), []byte(echoMiddleware), 0o644); err != nil {
		t.Fatal(err)
	}
	route.Key, route.Middlewares = "GET /api/articles echo", []any{"global::echo"}
	for _, who := range []*ir.Caller{nil, {Kind: ir.PublicCaller}, {Kind: ir.UserCaller, UserID: 42}, {Kind: ir.TokenCaller, TokenID: 7, TokenType: "full-access"}} {
		r := httptest.NewRequest(http.MethodGet, "/api/articles?pagination[pageSize]=10&filters[title][$eq]=%C3%A9t%C3%A9", nil)
		r.Host = "example.com:8080"
		r.Header.Set("X-Test", "yes")
		w := httptest.NewRecorder()
		rt.Serve(w, r, route, who, map[string]string{"id": "3"}, nil, "10.0.0.1")
		var got map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
			t.Fatalf("%d %s: %v", w.Code, w.Body, err)
		}
		var auth any
		if a := authState(who); a != nil {
			b, _ := json.Marshal(a)
			json.Unmarshal(b, &auth)
		}
		headers := map[string]any{"host": "example.com:8080", "x-test": "yes"}
		query := map[string]any{"pagination": map[string]any{"pageSize": "10"}, "filters": map[string]any{"title": map[string]any{"$eq": "été"}}}
		url := "/api/articles?pagination[pageSize]=10&filters[title][$eq]=%C3%A9t%C3%A9"
		qstr := "pagination[pageSize]=10&filters[title][$eq]=%C3%A9t%C3%A9"
		seen := func(method, url, reqURL, hostname string, headers map[string]any, auth any, own []any) map[string]any {
			m := map[string]any{"method": method, "url": url, "originalUrl": "/api/articles?pagination[pageSize]=10&filters[title][$eq]=%C3%A9t%C3%A9",
				"path": "/api/articles", "ip": "10.0.0.1", "host": "example.com:8080", "hostname": hostname, "headers": headers,
				"same": headers["x"] == nil,
				"request": map[string]any{"method": "GET", "url": reqURL, "path": "/api/articles", "querystring": qstr, "ip": "10.0.0.1",
					"ips": []any{"10.0.0.1"}, "host": "example.com:8080", "hostname": "example.com", "sameIps": true},
				"query": query, "params": map[string]any{"id": "3"}, "sameAuth": true, "cookie": true,
				"get": "yes", "rget": "yes", "route": "api::article.article.find", "own": own}
			if headers["x"] != nil {
				m["get"] = ""
			}
			if auth != nil {
				m["auth"] = auth
			}
			return m
		}
		var changed any
		if auth != nil {
			b, _ := json.Marshal(auth)
			json.Unmarshal(b, &changed)
			changed.(map[string]any)["credentials"] = "changed"
		}
		want := map[string]any{
			"before": seen("GET", url, url, "example.com", headers, auth, []any{false, false, false, false, false}),
			"after":  seen("POST", url, "/changed", "h", map[string]any{"x": "1"}, changed, []any{true, false, true, false, false}),
			"auth":   "mine", "state": []any{"route", "auth", "user"},
		}
		if !reflect.DeepEqual(got, want) {
			g, _ := json.MarshalIndent(got, "", " ")
			wb, _ := json.MarshalIndent(want, "", " ")
			t.Errorf("caller %+v:\n got %s\nwant %s", who, g, wb)
		}
	}
}

// TestServeAuthorize checks Strapi's authorize step: an UnauthorizedError or ForbiddenError
// (a PolicyError is one) anywhere in a route's chain answers as ctx.unauthorized() or
// ctx.forbidden() do; other errors as Strapi's error middleware does.
func TestServeAuthorize(t *testing.T) {
	rt, route, _ := stampProject(t)
	files := map[string]string{
		"src/policies/deny.js":        "module.exports = () => false;\n",
		"src/policies/allow.js":       "module.exports = () => true;\n",
		"src/middlewares/unauth.js":   "const { errors } = require('@strapi/utils');\nmodule.exports = () => async () => { throw new errors.UnauthorizedError('no'); };\n",
		"src/middlewares/after.js":    "const { errors } = require('@strapi/utils');\nmodule.exports = () => async (ctx, next) => { await next(); ctx.set('x-after', '1'); throw new errors.ForbiddenError('late'); };\n",
		"src/middlewares/invalid.js":  "const { errors } = require('@strapi/utils');\nmodule.exports = () => async () => { throw new errors.ValidationError('bad', { a: 1 }); };\n",
		"src/middlewares/nextnext.js": "module.exports = () => async (ctx, next) => { await next(); await next(); };\n",
		"src/middlewares/own.js":      "module.exports = () => async (ctx) => { ctx.forbidden = () => { throw new Error('mine'); }; throw new (require('@strapi/utils').errors.ForbiddenError)(); };\n",
	}
	for name, src := range files {
		p := filepath.Join(rt.Dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	who := &ir.Caller{Kind: ir.TokenCaller, TokenID: 1, TokenType: "full-access"}
	for _, c := range []struct {
		policies, middlewares []any
		status                int
		body, header          string
	}{
		{[]any{"global::allow", "global::deny"}, nil, 403, `{"data":null,"error":{"status":403,"name":"ForbiddenError","message":"Forbidden","details":{}}}`, ""},
		{[]any{"global::allow"}, []any{"global::unauth"}, 401, `{"data":null,"error":{"status":401,"name":"UnauthorizedError","message":"Unauthorized","details":{}}}`, ""},
		{nil, []any{"global::after"}, 403, `{"data":null,"error":{"status":403,"name":"ForbiddenError","message":"Forbidden","details":{}}}`, "1"},
		{nil, []any{"global::invalid"}, 400, `{"data":null,"error":{"status":400,"name":"ValidationError","message":"bad","details":{"a":1}}}`, ""},
		{nil, []any{"global::nextnext"}, 500, `{"data":null,"error":{"status":500,"name":"InternalServerError","message":"Internal Server Error"}}`, ""},
		{nil, []any{"global::own"}, 500, `{"data":null,"error":{"status":500,"name":"InternalServerError","message":"Internal Server Error"}}`, ""},
	} {
		route := &Route{Key: fmt.Sprint("GET /api/articles ", c.policies, c.middlewares), Method: route.Method, Path: route.Path,
			Handler: route.Handler, Native: route.Native, UID: route.UID, Policies: c.policies, Middlewares: c.middlewares, Info: route.Info, Config: route.Config}
		r := httptest.NewRequest(http.MethodGet, "/api/articles", nil)
		w := httptest.NewRecorder()
		rt.Serve(w, r, route, who, nil, nil, "127.0.0.1")
		if w.Code != c.status || w.Body.String() != c.body || w.Header().Get("X-After") != c.header {
			t.Errorf("%v %v: %d %q %q, want %d %q %q", c.policies, c.middlewares, w.Code, w.Body, w.Header().Get("X-After"), c.status, c.body, c.header)
		}
	}
}

// TestServeHeaders checks the headers a route's code sets reach the answer: lists joined,
// names of every case, objects of headers.
func TestServeHeaders(t *testing.T) {
	rt, _, _ := stampProject(t)
	src := "module.exports = () => async (ctx, next) => { await next(); ctx.set('X-List', ['a', 'b']); ctx.set({ 'X-Obj': 1, 'x-two': true }); ctx.response.set('X-Res', 'r'); };\n"
	if err := os.WriteFile(filepath.Join(rt.Dir, "src", "middlewares", "headers.js"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	route := &Route{Key: "GET /api/articles headers", Method: "GET", Path: "/api/articles", Handler: "api::article.article.find",
		Native: "find", UID: "api::article.article", Policies: []any{}, Middlewares: []any{"global::headers"}, Info: map[string]any{"apiName": "article"}, Config: map[string]any{}}
	w := httptest.NewRecorder()
	rt.Serve(w, httptest.NewRequest(http.MethodGet, "/api/articles", nil), route, &ir.Caller{Kind: ir.PublicCaller}, nil, nil, "127.0.0.1")
	for k, want := range map[string]string{"X-List": "a, b", "X-Obj": "1", "X-Two": "true", "X-Res": "r", "Content-Type": "application/json; charset=utf-8"} {
		if got := w.Header().Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
}

// TestServePluginJSON: JSON.stringify of a plugin, or of its services, lists what there is
// and asks no service named toJSON (which answered 501).
func TestServePluginJSON(t *testing.T) {
	rt, _, _ := stampProject(t)
	src := "module.exports = () => async (ctx) => { ctx.body = { plugin: typeof JSON.stringify(strapi.plugin('users-permissions')), services: JSON.stringify(strapi.plugins['users-permissions'].services) }; };\n"
	if err := os.WriteFile(filepath.Join(rt.Dir, "src", "middlewares", "tojson.js"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	route := &Route{Key: "GET /api/articles tojson", Method: "GET", Path: "/api/articles", Handler: "api::article.article.find",
		Native: "find", UID: "api::article.article", Policies: []any{}, Middlewares: []any{"global::tojson"}, Info: map[string]any{"apiName": "article"}, Config: map[string]any{}}
	w := httptest.NewRecorder()
	rt.Serve(w, httptest.NewRequest(http.MethodGet, "/api/articles", nil), route, &ir.Caller{Kind: ir.PublicCaller}, nil, nil, "127.0.0.1")
	if w.Code != 200 || w.Body.String() != `{"plugin":"string","services":"{}"}` {
		t.Errorf("%d %s", w.Code, w.Body)
	}
}

// BenchmarkServe is a route through a typical middleware with the core action answered at
// once: what the sandbox and its glue cost a request (bench.BenchmarkProjectCode measures
// it beside the real core action).
func BenchmarkServe(b *testing.B) {
	rt, route, _ := stampProject(b)
	who := &ir.Caller{Kind: ir.TokenCaller, TokenID: 1, TokenType: "full-access"}
	r := httptest.NewRequest(http.MethodGet, "/api/articles?pagination[pageSize]=10&sort=id&populate[0]=tags", nil)
	r.Header.Set("Authorization", "Bearer x")
	w := &nullWriter{h: http.Header{}}
	rt.Serve(w, r, route, who, nil, nil, "127.0.0.1")
	if w.status != http.StatusOK {
		b.Fatalf("status %d", w.status)
	}
	b.ReportAllocs()
	for b.Loop() {
		clear(w.h)
		rt.Serve(w, r, route, who, nil, nil, "127.0.0.1")
	}
}

type nullWriter struct {
	h      http.Header
	status int
}

func (w *nullWriter) Header() http.Header               { return w.h }
func (w *nullWriter) WriteHeader(s int)                 { w.status = s }
func (w *nullWriter) Write(p []byte) (int, error)       { return len(p), nil }
func (w *nullWriter) WriteString(s string) (int, error) { return len(s), nil }

// TestServeNodeAPI: a route's middleware waits on a timer and uses the modules and globals
// real projects require (uuid, bcryptjs, jsonwebtoken, Buffer); an interval that never lets
// the request settle is stopped by the time limit.
func TestServeNodeAPI(t *testing.T) {
	rt, route, _ := stampProject(t)
	mw := `'use strict';
const { v4, validate } = require('uuid');
const bcrypt = require('bcryptjs');
const jwt = require('jsonwebtoken');
module.exports = () => async (ctx) => {
  if (ctx.query.hang) { setInterval(() => {}, 5); return new Promise(() => {}); }
  const t0 = Date.now();
  await new Promise((r) => setTimeout(r, 30));
  const hash = await bcrypt.hash('pw', 4);
  const token = jwt.sign({ id: 7 }, 'secret', { expiresIn: '7d' });
  ctx.body = { waited: Date.now() - t0 >= 30, uuid: validate(v4()), ok: await bcrypt.compare('pw', hash),
    id: jwt.verify(token, 'secret').id, b64: Buffer.from('héllo').toString('base64') };
};
`
	if err := os.WriteFile(filepath.Join(rt.Dir, "src", "middlewares", "stamp.js"), []byte(mw), 0o644); err != nil {
		t.Fatal(err)
	}
	who := &ir.Caller{Kind: ir.TokenCaller, TokenID: 1, TokenType: "full-access"}
	for range 2 {
		w := httptest.NewRecorder()
		rt.Serve(w, httptest.NewRequest(http.MethodGet, "/api/articles", nil), route, who, nil, nil, "127.0.0.1")
		if want := `{"waited":true,"uuid":true,"ok":true,"id":7,"b64":"aMOpbGxv"}`; w.Code != http.StatusOK || w.Body.String() != want {
			t.Fatalf("%d %s, want %s", w.Code, w.Body.String(), want)
		}
	}
	rt.Timeout = 200 * time.Millisecond
	start := time.Now()
	w := httptest.NewRecorder()
	rt.Serve(w, httptest.NewRequest(http.MethodGet, "/api/articles?hang=1", nil), route, who, nil, nil, "127.0.0.1")
	if w.Code != http.StatusInternalServerError || time.Since(start) > time.Second {
		t.Fatalf("hanging route: %d after %v", w.Code, time.Since(start))
	}
}

// TestServeCoreRouter: createCoreRouter in the project's code is Strapi's router, its routes
// the core routes of the uid (only's order, config[action] on each).
func TestServeCoreRouter(t *testing.T) {
	rt, route, _ := stampProject(t)
	mw := `'use strict';
const { createCoreRouter } = require('@strapi/strapi').factories;
module.exports = () => async (ctx) => {
  const r = createCoreRouter('api::article.article', { only: ['findOne', 'find'], config: { find: { auth: false } } });
  ctx.body = { type: r.type, prefix: r.prefix === undefined ? 'none' : r.prefix, routes: r.routes, same: r.routes === r.routes };
};
`
	if err := os.WriteFile(filepath.Join(rt.Dir, "src", "middlewares", "stamp.js"), []byte(mw), 0o644); err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	rt.Serve(w, httptest.NewRequest(http.MethodGet, "/api/articles", nil), route, &ir.Caller{Kind: ir.TokenCaller, TokenID: 1, TokenType: "full-access"}, nil, nil, "127.0.0.1")
	want := `{"type":"content-api","prefix":"none","routes":[{"method":"GET","path":"/articles/:id","handler":"api::article.article.findOne","config":{}},{"method":"GET","path":"/articles","handler":"api::article.article.find","config":{"auth":false}}],"same":true}`
	if w.Code != http.StatusOK || w.Body.String() != want {
		t.Fatalf("%d %s\nwant %s", w.Code, w.Body.String(), want)
	}
}
