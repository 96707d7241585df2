package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRouteMiddlewares runs a project whose core routes declare middlewares (see
// testdata/projects/middleware): the corporate starter's page-populate middleware rewrites
// ctx.query before find, so the front-end's `?filters[slug]=home` answers as the explicit
// populate query does; a route whose middleware sets ctx.body runs it as Strapi does.
func TestRouteMiddlewares(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			srv := start(t, be, copyProject(t, "testdata/projects/middleware"))
			for _, body := range []string{
				`{"data":{"title":"Home","slug":"home","seo":{"metaTitle":"Welcome","metaDescription":"d"},"contentSections":[{"__component":"sections.hero","title":"Hi","buttons":[{"text":"Go","url":"/go"}]}]}}`,
				`{"data":{"title":"About","slug":"about","seo":{"metaTitle":"About us"}}}`,
			} {
				if st, b := srv.do(t, "POST", "/api/pages", []byte(body)); st != 200 {
					t.Fatalf("create: %d %s", st, b)
				}
			}
			explicit := "/api/pages?populate[contentSections][populate][buttons][populate]=true" +
				"&populate[seo][fields][0]=metaTitle&populate[seo][fields][1]=metaDescription&filters[slug]=home"
			// The reference: the explicit query, answered by a second server on the same database
			// for the same project without route middlewares.
			plain := copyProject(t, "testdata/projects/middleware")
			if err := os.WriteFile(filepath.Join(plain, "src/api/page/routes/page.js"),
				[]byte("module.exports = require('@strapi/strapi').factories.createCoreRouter('api::page.page');\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			ref := serve(t, srv.Env, plain, srv.Token)
			st, want := ref.doAs(t, "", "GET", explicit, nil)
			if st != 200 {
				t.Fatalf("explicit: %d %s", st, want)
			}
			st, got := srv.doAs(t, "", "GET", "/api/pages?filters[slug]=home&locale=en", nil)
			if st != 200 || !bytes.Equal(got, want) {
				t.Fatalf("middleware: %d\n got %s\nwant %s", st, got, want)
			}
			var env struct {
				Data []struct {
					Attributes map[string]json.RawMessage `json:"attributes"`
				} `json:"data"`
			}
			if err := json.Unmarshal(got, &env); err != nil || len(env.Data) != 1 {
				t.Fatalf("want one page: %v %s", err, got)
			}
			a := env.Data[0].Attributes
			if !strings.Contains(string(a["contentSections"]), `"buttons":[{"id":1,"text":"Go","url":"/go"}]`) ||
				!strings.Contains(string(a["seo"]), `"metaTitle":"Welcome"`) {
				t.Errorf("page not populated: %s", got)
			}
			// A query the middleware cannot read (no filters: ctx.query.filters.slug throws):
			// Strapi answers 500; Quarry a 400 without the script's stack.
			st, b := srv.doAs(t, "", "GET", "/api/pages", nil)
			if st != 400 || !strings.Contains(string(b), `"name":"ValidationError"`) || strings.Contains(string(b), "TypeError") {
				t.Errorf("throwing middleware: %d %s", st, b)
			}
			// An { name, config } middleware of findOne, reading ctx.params and its config.
			st, b = srv.doAs(t, "", "GET", "/api/pages/2?fields[0]=slug", nil)
			if st != 200 || string(b) != `{"data":{"id":2,"attributes":{"title":"About"}},"meta":{}}` {
				t.Errorf("findOne with config middleware: %d %s", st, b)
			}
			// The ctx.body middleware of update is not a query rewriter: Quarry runs it around
			// the core update, as Strapi does.
			st, b = srv.do(t, "PUT", "/api/pages/2", []byte(`{"data":{"title":"Changed"}}`))
			if st != 200 || !strings.HasPrefix(string(b), `{"wrapped":{"data":{"id":2,"attributes":{"title":"Changed"`) {
				t.Errorf("update with a ctx.body middleware: %d %s", st, b)
			}
			// Without the runtime for project code the route is refused, never served without it.
			off := serve(t, append(srv.Env, "QUARRY_PROJECT_CODE=off"), srv.App, srv.Token)
			st, b = off.do(t, "PUT", "/api/pages/2", []byte(`{"data":{"title":"Again"}}`))
			if st != 501 || !strings.Contains(string(b), `"name":"NotImplementedError"`) || !strings.Contains(string(b), "src/api/page/routes/page.js") {
				t.Errorf("update with a ctx.body middleware, code off: %d %s", st, b)
			}
			if st, b := srv.doAs(t, "", "GET", "/api/pages/2?fields[0]=title", nil); st != 200 || !strings.Contains(string(b), `"title":"Changed"`) {
				t.Errorf("the refused update wrote: %d %s", st, b)
			}
		})
	}
}
