package transport

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/schemas/jseval"
	"github.com/quarrycms/quarry/schemas/routes"
)

// TestBuildRoutesFailClosed reads the e2e fail-closed project (the blog with one of each kind
// of project code) and checks that every route running such code is refused, and only those.
func TestBuildRoutesFailClosed(t *testing.T) {
	s, m := failClosedModel(t)
	table := BuildRoutes(m, s, "/graphql", false, nil)
	refused := map[string]string{}
	for _, r := range table.List(s, "/api", false) {
		if r.How == HowRefused {
			refused[r.Method+" "+r.Path] = r.Why
		}
	}
	for route, file := range map[string]string{
		"GET /api/articles/:id":   "src/api/article/controllers/article.js",
		"PUT /api/articles/:id":   "src/api/article/routes/article.js",
		"GET /api/tags":           "src/api/tag/services/tag.js",
		"GET /api/tags/count":     "src/api/tag/routes/01-custom.js",
		"POST /api/writers":       "src/api/writer/content-types/writer/lifecycles.js",
		"GET /api/pages":          "src/api/page/content-types/page/lifecycles.ts",
		"PUT /api/homepage":       "src/index.js",
		"GET /api/users":          "src/index.js",
		"PUT /api/users/:id":      "src/extensions/users-permissions/strapi-server.js",
		"GET /api/hello/greeting": "src/plugins/hello/strapi-server.js",
		"GET /api/writers":        "src/api/writer/controllers/writer.js",
		"GET /api/footer":         "src/api/footer/controllers/footer.js",
	} {
		if why, ok := refused[route]; !ok || !strings.HasPrefix(why, file) {
			t.Errorf("%s: refused %v, why %q; want %s", route, ok, why, file)
		}
		delete(refused, route)
	}
	for route, why := range refused {
		switch route {
		case "DELETE /api/articles/:id", "DELETE /api/homepage", "POST /api/pages", "PUT /api/pages/:id",
			"DELETE /api/pages/:id", "GET /api/pages/:id", "POST /api/pages/:id/localizations":
		default:
			t.Errorf("refused but should not be: %s (%s)", route, why)
		}
	}
	// The pre-router check: plugin and local plugin routes; content types' routes are
	// Resolve's.
	if code := table.Refused("GET", "/api/users"); len(code) == 0 {
		t.Error("GET /api/users not refused")
	}
	if code := table.Refused("GET", "/api/users/me"); len(code) != 0 {
		t.Errorf("GET /api/users/me refused: %v", code)
	}
	if got := table.Resolve(s, "GET", "/articles/1"); got.Kind != RouteRefused {
		t.Errorf("findOne: %+v", got)
	}
	if got := table.Resolve(s, "GET", "/articles"); got.Kind != RouteCore {
		t.Errorf("find: %+v", got)
	}
	gql := GraphQLRefusals(m, s, false)
	for _, f := range []string{"Mutation.createWriter", "Query.pages", "Mutation.updateHomepage", "Mutation.updateUsersPermissionsUser"} {
		if len(gql[f]) == 0 {
			t.Errorf("GraphQL %s not refused", f)
		}
	}
	for _, f := range []string{"Query.tags", "Query.writers", "Mutation.createTag"} {
		if len(gql[f]) != 0 {
			t.Errorf("GraphQL %s refused: %v", f, gql[f])
		}
	}
}

// TestBuildRoutesReadHooks: with the runtime for project code on, a core find of a model
// whose lifecycles file has read hooks runs in the sandbox through Strapi's controller steps
// (never the native action alone); so does its GraphQL query, the type being localized.
func TestBuildRoutesReadHooks(t *testing.T) {
	s, m := failClosedModel(t)
	const uid = "api::page.page"
	if !m.ReadHooks(uid, "find") || m.ReadHooks(uid, "create") || m.ReadHooks("api::tag.tag", "find") {
		t.Fatal("ReadHooks: want find of pages only")
	}
	table := BuildRoutes(m, s, "/graphql", true, nil)
	cr := table.Core[uid]
	pr := cr.Project["find"]
	if pr == nil || pr.Native != "" {
		t.Fatalf("find of pages: project route %+v, want Strapi's steps in the sandbox", pr)
	}
	if len(cr.Code["find"]) == 0 {
		t.Error("find of pages: no code listed, the route would be served natively")
	}
	// findOne reaches no read hook of the file (afterFindMany only): native.
	if pr := cr.Project["findOne"]; pr != nil {
		t.Errorf("findOne of pages runs in the sandbox: %+v", pr)
	}
	// Its GraphQL query runs the hooks in the sandbox too (execute.ReadHooks), with i18n's
	// locale filter as for REST; without the runtime it is refused for the hooks.
	if gql := GraphQLRefusals(m, s, true); len(gql["Query.pages"]) != 0 {
		t.Errorf("GraphQL Query.pages refused: %v", gql["Query.pages"])
	}
	if run := GraphQLProjectCode(m, s, true); len(run["Query.pages"]) == 0 || len(run["Query.page"]) != 0 {
		t.Errorf("GraphQL project code: %v, want the pages' list only", run)
	}
	if gql := GraphQLRefusals(m, s, false); len(gql["Query.pages"]) == 0 {
		t.Error("GraphQL Query.pages is served without the runtime that runs its afterFindMany")
	}
	if run := GraphQLProjectCode(m, s, false); len(run) != 0 {
		t.Errorf("GraphQL project code without the runtime: %v", run)
	}
}

// failClosedModel reads the e2e fail-closed project (the blog with one of each kind of
// project code): its schema and its code's model.
func failClosedModel(t *testing.T) (*schemas.Schema, *routes.Model) {
	t.Helper()
	app := t.TempDir()
	if err := os.CopyFS(app, os.DirFS("../examples/blog")); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(app, os.DirFS("../e2e/testdata/projects/failclosed")); err != nil {
		t.Fatal(err)
	}
	s, err := schemas.Load(app)
	if err != nil {
		t.Fatal(err)
	}
	m, err := routes.Load(context.Background(), app, jseval.Options{Root: app})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.LoadCode(context.Background(), routes.CodeInput{}); err != nil {
		t.Fatal(err)
	}
	return s, m
}

// projectModel reads an e2e test project, its schema.json files changed by edit (nil: none).
func projectModel(t *testing.T, name string, edit func(app string)) (*schemas.Schema, *routes.Model) {
	t.Helper()
	app := t.TempDir()
	if err := os.CopyFS(app, os.DirFS("../e2e/testdata/projects/"+name)); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(app)
	}
	s, err := schemas.Load(app)
	if err != nil {
		t.Fatal(err)
	}
	m, err := routes.Load(context.Background(), app, jseval.Options{Root: app})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.LoadCode(context.Background(), routes.CodeInput{}); err != nil {
		t.Fatal(err)
	}
	return s, m
}

// TestBuildRoutesWriteHooks: a core create, update or delete of a model whose findOne read
// hooks (or a function subscriber) run on the entry's read-back goes through Strapi's
// controller steps in the sandbox; a model whose writes fire other models' query-engine
// events Quarry does not, which the function subscriber would see, stays refused. The GraphQL mutations run in the
// sandbox the same way, and are refused with the REST writes.
func TestBuildRoutesWriteHooks(t *testing.T) {
	const uid = "api::article.article"
	s, m := projectModel(t, "writehooks", nil)
	for _, a := range []string{"create", "update", "delete"} {
		if !m.ReadHooks(uid, a) {
			t.Errorf("ReadHooks(%s): false", a)
		}
	}
	table := BuildRoutes(m, s, "/graphql", true, nil)
	for _, a := range []string{"create", "update", "delete"} {
		pr := table.Core[uid].Project[a]
		if pr == nil || pr.Native != "" {
			t.Errorf("%s: project route %+v, want Strapi's steps in the sandbox", a, pr)
		}
	}
	// The GraphQL mutations run in the sandbox as well; without the runtime they are refused.
	if gql := GraphQLRefusals(m, s, true); len(gql["Mutation.createArticle"]) != 0 {
		t.Errorf("GraphQL Mutation.createArticle is refused: %v", gql["Mutation.createArticle"])
	}
	if run := GraphQLProjectCode(m, s, true); len(run["Mutation.createArticle"]) == 0 || len(run["Mutation.updateArticle"]) == 0 ||
		len(run["Mutation.deleteArticle"]) == 0 || len(run["Query.articles"]) == 0 || len(run["Query.article"]) == 0 {
		t.Errorf("GraphQL project code: %v, want the article's queries and mutations", run)
	}
	if gql := GraphQLRefusals(m, s, false); len(gql["Mutation.createArticle"]) == 0 {
		t.Error("GraphQL Mutation.createArticle is served without the runtime that runs its read-back hooks")
	}

	// The function subscriber sees every model's events: where Strapi's entity service fires
	// other models' (a component's writes, the count of the upload plugin's files or of a
	// plugin type's entries) the writes that fire them stay refused; a unique text or uid
	// attribute's check is the article's own findOne, which runs.
	write := []string{"create", "update"}
	all := []string{"create", "update", "delete"}
	for _, c := range []struct {
		attr, why string
		refused   []string
	}{
		{`"title": { "type": "string", "unique": true }`, "", nil},
		{`"title": { "type": "uid" }`, "", nil},
		{`"title": { "type": "integer", "unique": true }`, "a unique integer attribute (title)", write},
		{`"title": { "type": "relation", "relation": "manyToOne", "target": "plugin::users-permissions.user" }`, "a relation to plugin::users-permissions.user (title)", write},
		{`"title": { "type": "media", "multiple": false }`, "media (title)", write},
		{`"title": { "type": "component", "component": "shared.seo" }`, "components (title) and hooks on every model's events", all},
	} {
		s, m = projectModel(t, "writehooks", func(app string) {
			f := app + "/src/api/article/content-types/article/schema.json"
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			b = []byte(strings.Replace(string(b), `"title": { "type": "string" }`, c.attr, 1))
			if err := os.WriteFile(f, b, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(app+"/src/components/shared", 0o755); err != nil {
				t.Fatal(err)
			}
			seo := `{ "collectionName": "components_shared_seos", "info": { "displayName": "seo" }, "attributes": { "metaTitle": { "type": "string" } } }`
			if err := os.WriteFile(app+"/src/components/shared/seo.json", []byte(seo), 0o644); err != nil {
				t.Fatal(err)
			}
		})
		table = BuildRoutes(m, s, "/graphql", true, nil)
		cr := table.Core[uid]
		gql := GraphQLRefusals(m, s, true)
		for _, a := range all {
			field := map[string]string{"create": "Mutation.createArticle", "update": "Mutation.updateArticle", "delete": "Mutation.deleteArticle"}[a]
			if !slices.Contains(c.refused, a) {
				if cr.Project[a] == nil {
					t.Errorf("%s: %s does not run: %s", c.attr, a, describe(cr.Code[a]))
				}
				if len(gql[field]) != 0 {
					t.Errorf("%s: GraphQL %s refused: %s", c.attr, field, describe(gql[field]))
				}
				continue
			}
			if cr.Project[a] != nil {
				t.Errorf("%s: %s runs", c.attr, a)
			}
			if got := describe(cr.Code[a]); !strings.Contains(got, c.why) {
				t.Errorf("%s: %s refused for %q, want %q", c.attr, a, got, c.why)
			}
			if got := describe(gql[field]); !strings.Contains(got, c.why) {
				t.Errorf("%s: GraphQL %s refused for %q, want %q", c.attr, field, got, c.why)
			}
		}
		if cr.Project["find"] == nil {
			t.Errorf("%s: find no longer runs", c.attr)
		}
	}
}

// TestBuildRoutesHookWrites: the hookwrites project's article (an SEO component, a dynamic
// zone, a cover, a uid slug) with findOne hooks in its lifecycles file runs its writes in the
// sandbox, as it does with a subscription naming only the article; a subscription naming the
// SEO component, or one naming no models (it sees the components' writes), refuses them.
func TestBuildRoutesHookWrites(t *testing.T) {
	const uid = "api::article.article"
	for _, c := range []struct {
		name, index, why string
	}{
		{"lifecycles file", "", ""},
		{"a subscription naming the article", `strapi.db.lifecycles.subscribe({ models: ['api::article.article'], afterFindOne() {} });`, ""},
		{"a subscription naming the component", `strapi.db.lifecycles.subscribe({ models: ['shared.seo'], beforeCreate() {} });`, "whose component shared.seo has lifecycle hooks"},
		{"a subscription naming no models", `strapi.db.lifecycles.subscribe({ afterCreate() {} });`, "hooks on every model's events"},
	} {
		s, m := projectModel(t, "hookwrites", func(app string) {
			if c.index == "" {
				return
			}
			src := "module.exports = { register() {}, bootstrap({ strapi }) { " + c.index + " } };\n"
			if err := os.WriteFile(app+"/src/index.js", []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		})
		table := BuildRoutes(m, s, "/graphql", true, nil)
		cr := table.Core[uid]
		gql := GraphQLRefusals(m, s, true)
		for _, a := range []string{"create", "update", "delete"} {
			field := map[string]string{"create": "Mutation.createArticle", "update": "Mutation.updateArticle", "delete": "Mutation.deleteArticle"}[a]
			if c.why == "" {
				if cr.Project[a] == nil || len(gql[field]) != 0 {
					t.Errorf("%s: %s does not run: %s %s", c.name, a, describe(cr.Code[a]), describe(gql[field]))
				}
				continue
			}
			if cr.Project[a] != nil || !strings.Contains(describe(cr.Code[a]), c.why) || !strings.Contains(describe(gql[field]), c.why) {
				t.Errorf("%s: %s: %s / GraphQL %s, want refused naming %q", c.name, a, describe(cr.Code[a]), describe(gql[field]), c.why)
			}
		}
	}
}

// TestBuildRoutesWrappedRouters: the routers project's route files, read as Strapi registers
// them: releases' core routes (find public) before its extra routes, so the extra
// /releases/latest is never reached; the banner's route of its own before its core find and
// update, DELETE answering 405; the extension's unshifted routes run its actions while the
// plugin's own routes stay native. A core action running the project's controller is
// reached before a later custom route of the same path too.
func TestBuildRoutesWrappedRouters(t *testing.T) {
	s, m := projectModel(t, "routers", func(app string) {
		// findOne overridden: the core route runs the project's controller, still first.
		ctrl := filepath.Join(app, "src", "api", "release", "controllers", "release.js")
		src, err := os.ReadFile(ctrl)
		if err != nil {
			t.Fatal(err)
		}
		src = []byte(strings.Replace(string(src), "  // The release's notes", "  async findOne(ctx) { return super.findOne(ctx); },\n\n  // The release's notes", 1))
		if err := os.WriteFile(ctrl, src, 0o644); err != nil {
			t.Fatal(err)
		}
	})
	if len(m.Unreadable) > 0 {
		t.Fatalf("unreadable: %q", m.Unreadable)
	}
	table := BuildRoutes(m, s, "/graphql", true, nil)
	for _, c := range []struct {
		method, path string
		kind         RouteKind
		action       string
		public       bool
	}{
		{"GET", "/releases", RouteCore, "find", true},
		{"GET", "/releases/1", RouteProject, "findOne", false},
		{"GET", "/releases/latest", RouteProject, "findOne", false},
		{"GET", "/releases/1/notes", RouteProject, "", false},
		{"GET", "/banner", RouteCore, "find", true},
		{"PUT", "/banner", RouteCore, "update", false},
		{"DELETE", "/banner", RouteMethod, "", false},
		{"GET", "/banner/text", RouteProject, "", false},
	} {
		got := table.Resolve(s, c.method, c.path)
		if got.Kind != c.kind || got.Action != c.action || got.Public != c.public {
			t.Errorf("%s %s: got kind %d %q public %v, want %d %q %v", c.method, c.path, got.Kind, got.Action, got.Public, c.kind, c.action, c.public)
		}
	}
	for _, r := range table.List(s, "/api", false) {
		if r.Path == "/api/releases/latest" && (r.How != HowQuarryJS || !strings.HasPrefix(r.Why, "never reached: the core findOne of api::release.release")) {
			t.Errorf("listed: %+v", r)
		}
	}
	if got := table.Allowed(s, "/banner"); !slices.Equal(got, []string{"GET", "PUT"}) {
		t.Errorf("allowed on /banner: %v", got)
	}
	if pr, _ := table.PluginProject("POST", "/api/auth/logout"); pr == nil || pr.Handler != "plugin::users-permissions.auth.logout" {
		t.Errorf("POST /api/auth/logout: %+v", pr)
	}
	for _, p := range [][2]string{{"GET", "/api/users/me"}, {"GET", "/api/users/count"}, {"DELETE", "/api/users-permissions/roles/1"}} {
		if pr, _ := table.PluginProject(p[0], p[1]); pr != nil {
			t.Errorf("%s %s runs project code: %+v", p[0], p[1], pr)
		}
		if code := table.Refused(p[0], p[1]); code != nil {
			t.Errorf("%s %s refused: %v", p[0], p[1], code)
		}
	}
}
