package transport

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildRoutesUsersPermissionsServices: what a project assigns to the users-permissions
// plugin's services decides which of its routes Quarry still answers with its own service.
// A method a plugin action calls refuses that action's routes (fetchAuthenticatedUser, which
// the plugin's authentication calls, every route); a method no action calls, and a method
// assigned on the service's factory (which Strapi ignores), leave them as they were; a route
// the extension adds for an action of its own runs in the sandbox.
func TestBuildRoutesUsersPermissionsServices(t *testing.T) {
	write := func(rel, src string) func(app string) {
		return func(app string) {
			if err := os.WriteFile(filepath.Join(app, rel), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	ext := "src/extensions/users-permissions/strapi-server.js"
	for _, tc := range []struct {
		name    string
		noCode  bool // Quarry does not run the project's code
		edit    func(app string)
		refused map[string]string // route → what its refusal names
		served  []string          // routes not refused
		gql     map[string]bool   // GraphQL field → refused
	}{
		{
			name: "the extension as is",
			served: []string{"PUT /api/user/me", "POST /api/user/me/password", "GET /api/users/me", "POST /api/auth/local",
				"GET /api/notes", "POST /api/auth/change-password"},
			// upext wraps auth.callback, which the login mutation runs in the sandbox.
			gql: map[string]bool{"Mutation.login": false, "Mutation.register": false, "Mutation.updateUsersPermissionsUser": true},
		},
		{
			// The project's own: src/index's register(), which the runtime runs where the
			// plugin's authentication fetches a JWT's user.
			name:   "register() replaces fetchAuthenticatedUser",
			served: []string{"GET /api/users/me", "GET /api/notes", "POST /api/auth/local", "PUT /api/user/me"},
			gql:    map[string]bool{"Query.me": true, "Mutation.register": false},
		},
		{
			name:    "register() replaces fetchAuthenticatedUser, without the runtime",
			noCode:  true,
			refused: map[string]string{"GET /api/users/me": "user.fetchAuthenticatedUser", "GET /api/notes": "user.fetchAuthenticatedUser", "POST /api/auth/local": "user.fetchAuthenticatedUser"},
		},
		{
			name: "register() sets the user service anew",
			edit: write("src/index.js", `module.exports = { register({ strapi }) {
  const users = strapi.plugin('users-permissions').services.user;
  strapi.plugin('users-permissions').services.user = { ...users, fetchAuthenticatedUser: async (id) => null };
} };`),
			refused: map[string]string{"GET /api/users/me": "user.fetchAuthenticatedUser", "GET /api/notes": "user.fetchAuthenticatedUser"},
		},
		{
			name: "bootstrap() replaces fetchAuthenticatedUser",
			edit: write("src/index.js", `module.exports = { register() {}, bootstrap({ strapi }) {
  strapi.plugin('users-permissions').service('user').fetchAuthenticatedUser = (id) =>
    strapi.query('plugin::users-permissions.user').findOne({ where: { id }, populate: ['role'] });
} };`),
			refused: map[string]string{"GET /api/users/me": "user.fetchAuthenticatedUser", "GET /api/notes": "user.fetchAuthenticatedUser",
				"POST /api/auth/local": "user.fetchAuthenticatedUser", "PUT /api/user/me": "user.fetchAuthenticatedUser"},
		},
		{
			name: "bootstrap() replaces validatePassword",
			edit: write("src/index.js", `module.exports = { register() {}, bootstrap({ strapi }) {
  const users = strapi.plugin('users-permissions').service('user');
  users.validatePassword = async () => true;
} };`),
			refused: map[string]string{"POST /api/auth/local": "user.validatePassword", "POST /api/auth/change-password": "user.validatePassword"},
			served:  []string{"GET /api/users/me", "GET /api/notes", "POST /api/auth/local/register"},
			gql:     map[string]bool{"Mutation.login": true, "Mutation.register": false},
		},
		{
			name: "register() replaces an api's service method",
			edit: write("src/index.js", `module.exports = { register({ strapi }) {
  const notes = strapi.service('api::note.note');
  notes.find = async () => ({ results: [], pagination: {} });
} };`),
			refused: map[string]string{"GET /api/notes": "api::note.note.find", "GET /api/users/me": "api::note.note.find"},
		},
		{
			name: "the extension's service factory replaces fetch",
			edit: write(ext, `module.exports = (plugin) => {
  const user = plugin.services.user;
  plugin.services.user = ({ strapi }) => ({ ...user({ strapi }), fetch: async (id) => ({ id }), hello: () => 'hi' });
  return plugin;
};`),
			refused: map[string]string{"GET /api/users/me": "user.fetch", "GET /api/users/:id": "user.fetch", "PUT /api/users/:id": "user.fetch"},
			served:  []string{"GET /api/users", "POST /api/auth/local", "GET /api/notes"},
		},
		{
			name: "the extension assigns methods on the service's factory",
			edit: write(ext, `module.exports = (plugin) => {
  plugin.services.user.fetch = async (id) => ({ id });
  plugin.services.user.hello = () => 'hi';
  return plugin;
};`),
			served: []string{"GET /api/users/me", "GET /api/users/:id", "POST /api/auth/local", "GET /api/notes"},
		},
		{
			name: "the extension wraps auth.callback",
			edit: write(ext, `module.exports = (plugin) => {
  const callback = plugin.controllers.auth.callback;
  plugin.controllers.auth.callback = async (ctx) => { await callback(ctx); };
  return plugin;
};`),
			served: []string{"POST /api/auth/local", "GET /api/users/me"},
			// The GraphQL login calls the wrapped controller in the sandbox (Server.projectAuth).
			gql: map[string]bool{"Mutation.login": false, "Mutation.register": false},
		},
		{
			name: "the extension pushes a route to an action it does not define",
			edit: write(ext, `module.exports = (plugin) => {
  plugin.routes['content-api'].routes.push({ method: 'GET', path: '/user/nothing', handler: 'user.nothing', config: { prefix: '' } });
  return plugin;
};`),
			refused: map[string]string{"GET /api/user/nothing": "no controller of the project defines"},
			served:  []string{"GET /api/users/me"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, m := projectModel(t, "upext", tc.edit)
			table := BuildRoutes(m, s, "/graphql", !tc.noCode, nil)
			// upext's own src/index.js replaces fetchAuthenticatedUser; the cases writing
			// another leave it out.
			if want := !tc.noCode && !strings.Contains(tc.name, "register() replaces an api") && !strings.Contains(tc.name, "anew") && !strings.HasPrefix(tc.name, "bootstrap()"); table.AuthUser != want {
				t.Errorf("AuthUser %v, want %v", table.AuthUser, want)
			}
			how := map[string]RouteInfo{}
			for _, r := range table.List(s, "/api", false) {
				how[r.Method+" "+r.Path] = r
			}
			for route, what := range tc.refused {
				r, ok := how[route]
				if !ok || r.How != HowRefused || !strings.Contains(r.Why, what) {
					t.Errorf("%s: %s (%s); want refused naming %s", route, r.How, r.Why, what)
				}
			}
			for _, route := range tc.served {
				r, ok := how[route]
				if !ok || r.How == HowRefused {
					t.Errorf("%s: %v %s (%s); want served", route, ok, r.How, r.Why)
				}
			}
			gql := GraphQLRefusals(m, s, !tc.noCode)
			for f, want := range tc.gql {
				if got := len(gql[f]) > 0; got != want {
					t.Errorf("GraphQL %s refused %v (%v), want %v", f, got, gql[f], want)
				}
			}
		})
	}
}
