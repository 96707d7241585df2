package e2e

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateWriteHooks = flag.Bool("update-writehooks", false, "record testdata/writehooks_rest.json from the Strapi at QUARRY_ORACLE_URL (started with --fresh on testdata/projects/writehooks and ORACLE_GRANTS=testdata/projects/writehooks/config/permissions.json)")

// writeHooksSteps write articles through the REST API and a custom route while a function
// subscriber (an audit log) and an afterFindOne hook watch: each write reads its entry back
// through findOne as Strapi's query engine does, and the audit log shows what every after
// hook was given.
var writeHooksSteps = []ownCodeStep{
	{Name: "create: trimmed, read back with an excerpt", Method: "POST", Path: "/api/articles", Body: `{"data":{"title":"  First post  ","body":"The body of the first post."}}`, As: "public"},
	{Name: "create, one field", Method: "POST", Path: "/api/articles?fields[0]=title", Body: `{"data":{"title":"Second","body":"Another body text"}}`, As: "public"},
	{Name: "update", Method: "PUT", Path: "/api/articles/1", Body: `{"data":{"body":"Changed body text"}}`, As: "public"},
	{Name: "update, one field", Method: "PUT", Path: "/api/articles/2?fields[0]=body", Body: `{"data":{"title":"Second, again"}}`, As: "public"},
	{Name: "read one", Path: "/api/articles/1", As: "public"},
	{Name: "update a missing one", Method: "PUT", Path: "/api/articles/99", Body: `{"data":{"title":"x"}}`, As: "public"},
	{Name: "update without data", Method: "PUT", Path: "/api/articles/1", Body: `{"nope":1}`, As: "public"},
	{Name: "delete", Method: "DELETE", Path: "/api/articles/2", As: "public"},
	{Name: "delete a missing one", Method: "DELETE", Path: "/api/articles/99", As: "public"},
	{Name: "copy through the entity service and the query engine", Method: "POST", Path: "/api/articles/1/copy", As: "public"},
	{Name: "copy a missing one", Method: "POST", Path: "/api/articles/99/copy", As: "public"},
	{Name: "bulk create, rewrite and delete: createMany, updateMany and deleteMany with their hooks", Method: "POST", Path: "/api/articles/bulk", As: "public"},
	{Name: "create with a category: the validator counts it", Method: "POST", Path: "/api/articles", Body: `{"data":{"title":"Related","body":"Has a category here","category":2}}`, As: "public"},
	{Name: "update connecting a category", Method: "PUT", Path: "/api/articles/1?populate=category", Body: `{"data":{"category":{"connect":[{"id":1}]}}}`, As: "public"},
	{Name: "create with a missing category", Method: "POST", Path: "/api/articles", Body: `{"data":{"title":"Lost","category":[99,2,99]}}`, As: "public"},
	{Name: "the home page, none yet", Path: "/api/homepage", As: "public"},
	{Name: "the home page, created", Method: "PUT", Path: "/api/homepage", Body: `{"data":{"title":"Welcome","body":"All the news that fits."}}`, As: "public"},
	{Name: "the home page, updated", Method: "PUT", Path: "/api/homepage?fields[0]=body", Body: `{"data":{"body":"Only the news that fits."}}`, As: "public"},
	{Name: "the home page", Path: "/api/homepage", As: "public"},
	{Name: "the home page, deleted", Method: "DELETE", Path: "/api/homepage", As: "public"},
	{Name: "the home page, deleted again", Method: "DELETE", Path: "/api/homepage", As: "public"},
	{Name: "the articles left", Path: "/api/articles?sort=id&populate=category", As: "public"},
	{Name: "the audit log", Path: "/api/audits?sort=id&pagination[pageSize]=50&fields[0]=action&fields[1]=entry&fields[2]=title&fields[3]=note", As: "public"},
}

// TestWriteHooks serves a project whose writes run read hooks (a function subscriber
// writing an audit log, an afterFindOne hook) on every database, and compares each answer
// with real Strapi 4.26.2's (recorded with -update-writehooks). The articles' and audits'
// routes run as project code; the plugins' routes, whose events the function subscriber
// would see in Strapi, stay refused.
func TestWriteHooks(t *testing.T) {
	replayProjectChecking(t, "writehooks", writeHooksSteps, *updateWriteHooks, "-update-writehooks", func(t *testing.T, out string) {
		n := 0
		for _, line := range strings.Split(out, "\n") {
			f := strings.Fields(line)
			if len(f) < 3 {
				continue
			}
			switch {
			case strings.HasPrefix(f[1], "/api/articles"), strings.HasPrefix(f[1], "/api/audits"), strings.HasPrefix(f[1], "/api/categories"), f[1] == "/api/homepage":
				n++
				if !strings.Contains(line, "project code run by Quarry") {
					t.Errorf("not run by Quarry: %s", line)
				}
			case f[0]+" "+f[1] == "GET /api/users" && f[2] != "refused":
				t.Errorf("not refused: %s", line)
			}
		}
		if n != 12 {
			t.Errorf("%d routes of articles, audits, categories and the home page, want 12:\n%s", n, out)
		}
	})
}

// TestWriteHooksRefused: where Strapi's entity service fires query-engine events Quarry's
// write path does not and the project's hooks would see them (here the writes of an SEO
// component given to the article, which the function subscriber sees as it sees every
// model's events), the REST writes are refused at start and the project's own
// entity-service writes whose data give the component answer 501 naming it, writing
// nothing. (A unique title, refused before, now runs: the uniqueness read is the article's
// own findOne, which Quarry fires through its hooks; see TestHookWrites.)
func TestWriteHooksRefused(t *testing.T) {
	app := copyProject(t, filepath.Join("testdata", "projects", "writehooks"))
	withSEO(t, app)
	ctrl := filepath.Join(app, "src", "api", "article", "controllers", "article.js")
	src, err := os.ReadFile(ctrl)
	if err != nil {
		t.Fatal(err)
	}
	const at = `data: { title: 'Bulk one', body: 'Bulk body one' }`
	if !strings.Contains(string(src), at) {
		t.Fatal("writehooks' bulk action does not create 'Bulk one'")
	}
	if err := os.WriteFile(ctrl, []byte(strings.Replace(string(src), at, `data: { title: 'Bulk one', body: 'Bulk body one', seo: { metaTitle: 'Bulk' } }`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := start(t, backends()[0], app)
	out := quarry(t, srv.Env, "routes", "--app", app)
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) >= 3 && f[1] == "/api/articles" && f[0] == "POST" && (f[2] != "refused" || !strings.Contains(line, "components (seo) and hooks on every model's events")) {
			t.Errorf("create not refused for the component: %s", line)
		}
	}
	status, body, _ := srv.send(t, "", "POST", "/api/articles/bulk", "", nil)
	if status != 501 || !strings.Contains(string(body), "the writes of its component seo") {
		t.Errorf("bulk: %d %s, want 501 naming the component's writes", status, body)
	}
	if status, body, _ := srv.send(t, "", "GET", "/api/articles", "", nil); status != 200 || !strings.Contains(string(body), `"data":[]`) {
		t.Errorf("the refused write wrote: %d %s", status, body)
	}
}

// withSEO gives the article of the project at app a shared.seo component attribute.
func withSEO(t *testing.T, app string) {
	t.Helper()
	schema := filepath.Join(app, "src", "api", "article", "content-types", "article", "schema.json")
	src, err := os.ReadFile(schema)
	if err != nil {
		t.Fatal(err)
	}
	const at = `"title": { "type": "string" }`
	if !strings.Contains(string(src), at) {
		t.Fatal("the article has no plain title")
	}
	if err := os.WriteFile(schema, []byte(strings.Replace(string(src), at, at+`, "seo": { "type": "component", "repeatable": false, "component": "shared.seo" }`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(app, "src", "components", "shared")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	seo := `{ "collectionName": "components_shared_seos", "info": { "displayName": "seo" }, "attributes": { "metaTitle": { "type": "string" } } }`
	if err := os.WriteFile(filepath.Join(dir, "seo.json"), []byte(seo), 0o644); err != nil {
		t.Fatal(err)
	}
}
