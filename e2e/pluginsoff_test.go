package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The users-permissions and i18n plugins are on exactly as Strapi's plugin loader decides:
// installed (a package.json dependency) unless config/plugins says enabled: false. The
// answers below are Strapi 4.26.2's for the same project (testdata/projects/pluginsoff) with
// the same config/plugins.js, recorded by hand with the oracle kit (its bootstrap needs both
// plugins, so the oracle's app was run with a bootstrap that only creates an API token).

const (
	unauthorized401 = `{"data":null,"error":{"status":401,"name":"UnauthorizedError","message":"Missing or invalid credentials","details":{}}}`
	notFound404     = `{"data":null,"error":{"status":404,"name":"NotFoundError","message":"Not Found","details":{}}}`
)

// servePluginsOff serves the pluginsoff project with config/plugins.js (none when empty),
// package.json's dependencies edited by edit and the files of extra (path → text), on
// SQLite, with a full-access token.
func servePluginsOff(t *testing.T, plugins string, edit func(pkg string) string, extra ...map[string]string) *server {
	t.Helper()
	app := copyTestProject(t, "pluginsoff")
	for _, files := range extra {
		for name, body := range files {
			f := filepath.Join(app, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if plugins != "" {
		if err := os.WriteFile(filepath.Join(app, "config", "plugins.js"), []byte(plugins), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if edit != nil {
		f := filepath.Join(app, "package.json")
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(edit(string(b))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"DATABASE_FILENAME=" + filepath.Join(t.TempDir(), "data.db"), "API_TOKEN_SALT=plugins-off-salt",
		"JWT_SECRET=plugins-off-jwt-secret"}
	token := strings.TrimSpace(quarry(t, env, "tokens", "create", "--app", app, "--name", "e2e", "--type", "full-access"))
	s := serveProject(t, app, env)
	s.Token = token
	return s
}

func TestUsersPermissionsDisabled(t *testing.T) {
	s := servePluginsOff(t, "module.exports = { 'users-permissions': { enabled: false } };\n", nil)
	// No users-permissions strategy: a request without a token is 401 even where the public
	// role (config/permissions.json) has the permission, and so is a users' JWT.
	jwt := signJWT("plugins-off-jwt-secret", `{"alg":"HS256","typ":"JWT"}`, `{"id":1,"iat":1700000000,"exp":4100000000}`)
	for _, tok := range []string{"", jwt} {
		if st, b := s.doAs(t, tok, "GET", "/api/articles", nil); st != 401 || string(b) != unauthorized401 {
			t.Errorf("GET /api/articles with %q: %d %s", tok, st, b)
		}
	}
	if st, b := s.doAs(t, "", "POST", "/graphql", []byte(`{"query":"{ articles { data { id } } }"}`)); st != 401 || string(b) != unauthorized401 {
		t.Errorf("POST /graphql without a token: %d %s", st, b)
	}
	// API tokens still work.
	if st, b := s.do(t, "POST", "/api/articles", []byte(`{"data":{"title":"a"}}`)); st != 200 {
		t.Errorf("create with the token: %d %s", st, b)
	}
	// The plugin's routes are gone, for everyone.
	for _, tok := range []string{"", s.Token} {
		for _, p := range []string{"/api/users", "/api/users/me", "/api/users/1", "/api/users/count", "/api/users-permissions/roles",
			"/api/users-permissions/permissions", "/api/auth/email-confirmation", "/api/connect/google"} {
			if st, b := s.doAs(t, tok, "GET", p, nil); st != 404 || string(b) != notFound404 {
				t.Errorf("GET %s (token %v): %d %s", p, tok != "", st, b)
			}
		}
	}
	// And its GraphQL types and resolvers.
	for _, q := range []string{`{ me { id } }`, `{ usersPermissionsUsers { data { id } } }`} {
		st, b := s.do(t, "POST", "/graphql", []byte(`{"query":"`+q+`"}`))
		if st != 400 || !bytes.Contains(b, []byte(`Cannot query field`)) {
			t.Errorf("%s: %d %s", q, st, b)
		}
	}
	if st, b := s.do(t, "POST", "/graphql", []byte(`{"query":"{ articles { data { id } } }"}`)); st != 200 || string(bytes.TrimSpace(b)) != `{"data":{"articles":{"data":[{"id":"1"}]}}}` {
		t.Errorf("GraphQL with the token: %d %s", st, b)
	}
	if !strings.Contains(s.log.String(), "the users-permissions plugin is off (config/plugins says enabled: false)") {
		t.Errorf("the start-up log does not say users-permissions is off:\n%s", s.log.String())
	}
}

func TestI18nDisabled(t *testing.T) {
	for name, c := range map[string]struct {
		plugins string
		edit    func(string) string
	}{
		"enabled false": {plugins: "module.exports = { i18n: { enabled: false } };\n"},
		"not installed": {edit: func(pkg string) string {
			return strings.Replace(pkg, `"@strapi/plugin-i18n": "4.26.2",`, "", 1)
		}},
	} {
		t.Run(name, func(t *testing.T) {
			s := servePluginsOff(t, c.plugins, c.edit)
			// pluginOptions.i18n is inert: no locale attribute, a locale in the body is dropped.
			st, b := s.doAs(t, "", "POST", "/api/articles", []byte(`{"data":{"title":"a","code":"c","locale":"fr"}}`))
			if st != 200 || bytes.Contains(b, []byte(`"locale"`)) || !bytes.Contains(b, []byte(`"attributes":{"title":"a","code":"c","createdAt":`)) {
				t.Errorf("create with a locale: %d %s", st, b)
			}
			// ?locale is no parameter of anyone's, and lists every entry.
			if st, b := s.doAs(t, "", "GET", "/api/articles?locale=fr", nil); st != 200 || !bytes.Contains(b, []byte(`"total":1`)) {
				t.Errorf("GET ?locale=fr: %d %s", st, b)
			}
			want := `{"data":null,"error":{"status":400,"name":"ValidationError","message":"Invalid parameter locale","details":{}}}`
			if st, b := s.doAs(t, "", "GET", "/api/articles?filters[locale][$eq]=fr", nil); st != 400 || string(b) != want {
				t.Errorf("filter on locale: %d %s", st, b)
			}
			if st, b := s.doAs(t, "", "GET", "/api/i18n/locales", nil); st != 404 || string(b) != notFound404 {
				t.Errorf("GET /api/i18n/locales: %d %s", st, b)
			}
			why := map[string]string{"enabled false": "config/plugins says enabled: false", "not installed": "package.json does not depend on @strapi/plugin-i18n"}[name]
			if !strings.Contains(s.log.String(), "the i18n plugin is off ("+why+")") {
				t.Errorf("the start-up log does not say why i18n is off:\n%s", s.log.String())
			}
			st, b = s.do(t, "POST", "/graphql", []byte(`{"query":"{ i18NLocales { data { id } } }"}`))
			if st != 400 || !bytes.Contains(b, []byte(`Cannot query field`)) {
				t.Errorf("i18NLocales: %d %s", st, b)
			}
		})
	}
}

// TestPluginsOnByDefault is the control: the same project with both plugins installed and
// not disabled serves their routes and localizes.
func TestPluginsOnByDefault(t *testing.T) {
	s := servePluginsOff(t, "", nil)
	if st, b := s.doAs(t, "", "GET", "/api/i18n/locales", nil); st != 200 {
		t.Errorf("GET /api/i18n/locales: %d %s", st, b)
	}
	if st, b := s.doAs(t, "", "POST", "/api/articles", []byte(`{"data":{"title":"a"}}`)); st != 200 || !bytes.Contains(b, []byte(`"locale":"en"`)) {
		t.Errorf("create: %d %s", st, b)
	}
	if st, b := s.doAs(t, "", "GET", "/api/users/me", nil); st != 403 {
		t.Errorf("GET /api/users/me without a token: %d %s", st, b)
	}
}

// The project's code sees a plugin turned off as Strapi's code does: strapi.plugin(name) and
// strapi.plugins[name] are undefined, so code calling its services fails as it would in
// Strapi rather than reaching a plugin the project has turned off.
func TestProjectCodePluginsOff(t *testing.T) {
	probe := map[string]string{
		"src/api/probe/routes/probe.js": `module.exports = { routes: [{ method: 'GET', path: '/probe', handler: 'probe.show', config: { auth: false } }] };` + "\n",
		"src/api/probe/controllers/probe.js": `module.exports = { show(ctx) { ctx.body = {
  up: typeof strapi.plugin('users-permissions'), upObject: typeof strapi.plugins['users-permissions'],
  i18n: typeof strapi.plugin('i18n'), email: typeof strapi.plugin('email') }; } };` + "\n",
	}
	for _, tc := range []struct {
		plugins, want string
	}{
		{"module.exports = { 'users-permissions': { enabled: false }, i18n: { enabled: false } };\n",
			`{"up":"undefined","upObject":"undefined","i18n":"undefined","email":"object"}`},
		{"", `{"up":"object","upObject":"object","i18n":"object","email":"object"}`},
	} {
		s := servePluginsOff(t, tc.plugins, nil, probe)
		if st, b := s.doAs(t, "", "GET", "/api/probe", nil); st != 200 || string(b) != tc.want {
			t.Errorf("plugins %q: %d %s, want %s", tc.plugins, st, b, tc.want)
		}
	}
}
