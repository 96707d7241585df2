package routes

import (
	"context"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/schemas/jseval"
)

// TestServerUses: the middlewares src/index gives strapi.server.use take their places in the
// app-level chain (register()'s before config/middlewares', bootstrap()'s after them), and its
// strapi.server.routes routes are kept, refused where Quarry does not run them.
func TestServerUses(t *testing.T) {
	dir := project(t, map[string]string{
		"src/middlewares/trail.js": `module.exports = () => async (ctx, next) => next();`,
		"src/policies/signed.js":   `module.exports = () => true;`,
		"src/index.js": `module.exports = {
  register({ strapi }) {
    // strapi.server.use(notAMiddleware) in a comment is no call
    strapi.server.use(async (ctx, next) => next());
    strapi.server.routes([
      { method: 'GET', path: '/api/ping', handler: (ctx) => { ctx.body = 'pong'; }, config: { auth: false, policies: ['global::signed', () => true] } },
      { method: 'get', path: '/api/by-name', handler: 'api::a.a.find' },
      { method: 'GET', path: '/api/rate', handler: [(ctx, next) => next(), (ctx) => 1], config: { middlewares: ['plugin::users-permissions.rateLimit'] } },
      { method: 'GET', path: '/api/n/:id(\\d+)', handler: (ctx) => {} },
      { method: 'GET', path: '/api/s', handler: (ctx) => {}, config: { auth: { strategies: [{}] } } },
    ]);
  },
  async bootstrap({ strapi }) {
    strapi.server.use(async (ctx, next) => next()).use(async (ctx, next) => next());
    strapi.server.routes([{ method: 'ALL', path: '/hooks/:source/(.*)', handler: (ctx) => {}, config: { auth: false } }]);
    await strapi.entityService.count('api::a.a');
  },
};`,
	})
	m, err := Load(context.Background(), dir, jseval.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.LoadCode(context.Background(), CodeInput{Middlewares: []any{"strapi::errors", "global::trail", "strapi::body"}}); err != nil {
		t.Fatal(err)
	}
	if len(m.Global) > 0 {
		t.Fatalf("every route refused: %v", m.Global)
	}
	var order []string
	for _, a := range m.AppMiddlewares {
		order = append(order, a.Name)
	}
	if got := strings.Join(order, ", "); got != "strapi.server.use #1 in register(), global::trail, strapi.server.use #1 in bootstrap(), strapi.server.use #2 in bootstrap()" {
		t.Errorf("app-level chain: %s", got)
	}
	want := []struct{ method, path, refused string }{
		{"GET", "/api/ping", ""},
		{"GET", "/api/by-name", "the handler api::a.a.find"},
		{"GET", "/api/rate", "policies or middlewares that are not the project's own files"},
		{"GET", "/api/n/:id(\\d+)", "whose pattern Quarry does not match"},
		{"GET", "/api/s", "config.auth.strategies"},
		{"ALL", "/hooks/:source/(.*)", ""},
	}
	if len(m.ServerRoutes) != len(want) {
		t.Fatalf("server routes: %+v", m.ServerRoutes)
	}
	for i, w := range want {
		r := m.ServerRoutes[i]
		if r.Method != w.method || r.Path != w.path || (w.refused == "") != (r.Refused == "") || !strings.Contains(r.Refused, w.refused) {
			t.Errorf("server route %d: %+v, want %s %s refused %q", i, r, w.method, w.path, w.refused)
		}
	}
	if r := m.ServerRoutes[5]; r.From != "bootstrap" || r.Index != 0 || !r.Open || r.Name() != "strapi.server.routes #1 in bootstrap()" {
		t.Errorf("bootstrap()'s route: %+v", r)
	}
	if n := m.BootstrapUses(); n != 3 {
		t.Errorf("bootstrap() gives %d middlewares and routes, want 3", n)
	}
}

func TestServerPath(t *testing.T) {
	for p, ok := range map[string]bool{
		"/api/ping": true, "/hooks/:source": true, "/a/:b?": true, "/files/(.*)": true, "/": true,
		"api/ping": false, "/a/:b?/c": false, "/n/:id(\\d+)": false, "/a*": false, "/(.*)/x": false, "/a/:": false,
	} {
		if serverPath(p) != ok {
			t.Errorf("serverPath(%q) = %v, want %v", p, !ok, ok)
		}
	}
}
