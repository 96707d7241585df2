package e2e

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"
)

var updateHookWrites = flag.Bool("update-hookwrites", false, "record testdata/hookwrites_rest.json from the Strapi at QUARRY_ORACLE_URL (started with --fresh on testdata/projects/hookwrites and ORACLE_GRANTS=testdata/projects/hookwrites/config/permissions.json)")

// hookWritesSteps write, through the REST API and the GraphQL mutations, an article with an
// SEO component, a dynamic zone, a cover image and a unique slug, whose lifecycles file has
// findOne hooks (a reading time, an audit entry for every read with its params) and after
// hooks auditing every write: the audit log at the end shows every findOne event Strapi's
// entity service fires on the article itself — the slug's uniqueness read, the loads of the
// components an update and a delete make, the read-backs — with its params (a single type's
// home page with an SEO component too). A localized
// page's list runs its findMany hooks with the locale filter i18n's decorator adds.
var hookWritesSteps = []ownCodeStep{
	{Name: "upload the cover", Method: "POST", Path: "/api/upload", Form: []formPart{{Name: "files", File: "red.png", Type: "image/png"}}, StatusOnly: true},
	{Name: "create with an SEO component, blocks, a cover and a slug", Method: "POST", Path: "/api/articles?populate[seo]=true&populate[blocks]=true&populate[cover][fields][0]=name",
		Body: `{"data":{"title":"Hello world","slug":"hello-world","body":"A first post, with a few words in it.","cover":1,"seo":{"metaTitle":"Hello","metaDescription":"The first post"},"blocks":[{"__component":"shared.quote","title":"Someone","body":"Quoted words"},{"__component":"shared.rich-text","body":"Some *rich* text"}]}}`, As: "public"},
	{Name: "create without populate: read back without its components", Method: "POST", Path: "/api/articles",
		Body: `{"data":{"title":"Second","slug":"second","body":"Another post.","seo":{"metaTitle":"Second"}}}`, As: "public"},
	{Name: "create with a taken slug: the uniqueness read runs the findOne hooks", Method: "POST", Path: "/api/articles",
		Body: `{"data":{"title":"Copy","slug":"hello-world"}}`, As: "public"},
	{Name: "create with a taken slug and a title too long: both errors", Method: "POST", Path: "/api/articles",
		Body: `{"data":{"title":"` + strings.Repeat("long ", 20) + `","slug":"second","seo":{"metaTitle":"x"}}}`, As: "public"},
	{Name: "create with a slug of the wrong type: no uniqueness read", Method: "POST", Path: "/api/articles",
		Body: `{"data":{"title":"Typed","slug":12}}`, As: "public"},
	{Name: "update: a new slug, the SEO component kept by id, the blocks replaced", Method: "PUT", Path: "/api/articles/1?populate[seo]=true&populate[blocks]=true",
		Body: `{"data":{"slug":"hello-again","seo":{"id":1,"metaTitle":"Hello again"},"blocks":[{"__component":"shared.rich-text","body":"Only rich text now"}]}}`, As: "public"},
	{Name: "update keeping its own slug: no uniqueness read", Method: "PUT", Path: "/api/articles/1?fields[0]=title&fields[1]=slug",
		Body: `{"data":{"slug":"hello-again","title":"Hello, again"}}`, As: "public"},
	{Name: "update to a taken slug", Method: "PUT", Path: "/api/articles/2",
		Body: `{"data":{"slug":"hello-again","seo":{"metaTitle":"Taken"}}}`, As: "public"},
	{Name: "update a missing one", Method: "PUT", Path: "/api/articles/99", Body: `{"data":{"slug":"nowhere"}}`, As: "public"},
	{Name: "read one with its components", Path: "/api/articles/1?populate[seo]=true&populate[blocks]=true", As: "public"},
	{Name: "GraphQL: create with components", Method: "POST", Path: "/graphql", As: "public", Body: gqlBody(`mutation { createArticle(data: { title: "From GraphQL", slug: "from-graphql", body: "Written over GraphQL.", seo: { metaTitle: "GraphQL" }, blocks: [{ __typename: "ComponentSharedQuote", title: "Q", body: "Said over GraphQL" }] }) { data { id attributes { title slug seo { metaTitle } blocks { __typename ... on ComponentSharedQuote { title body } } } } } }`)},
	{Name: "GraphQL: create with a taken slug", Method: "POST", Path: "/graphql", As: "public", Body: gqlBody(`mutation { createArticle(data: { title: "Again", slug: "from-graphql" }) { data { id } } }`)},
	{Name: "GraphQL: update the SEO component and the slug", Method: "POST", Path: "/graphql", As: "public", Body: gqlBody(`mutation { updateArticle(id: 2, data: { slug: "second-again", seo: { metaTitle: "Second SEO" } }) { data { id attributes { slug seo { metaTitle } } } } }`)},
	{Name: "GraphQL: delete", Method: "POST", Path: "/graphql", As: "public", Body: gqlBody(`mutation { deleteArticle(id: 2) { data { id attributes { title slug } } } }`)},
	{Name: "delete: its components loaded first", Method: "DELETE", Path: "/api/articles/1?populate[seo]=true", As: "public"},
	{Name: "delete a missing one", Method: "DELETE", Path: "/api/articles/99", As: "public"},
	{Name: "the articles left", Path: "/api/articles?sort=id&populate[seo]=true&populate[blocks]=true&populate[cover][fields][0]=name", As: "public"},
	{Name: "a page in English", Method: "POST", Path: "/api/pages", Body: `{"data":{"title":"About"}}`, As: "public"},
	{Name: "a page in French", Method: "POST", Path: "/api/pages", Body: `{"data":{"title":"A propos","locale":"fr"}}`, As: "public"},
	{Name: "pages: the default locale's, listed with its filter", Path: "/api/pages", As: "public"},
	{Name: "pages in French", Path: "/api/pages?locale=fr", As: "public"},
	{Name: "pages in every locale", Path: "/api/pages?locale=all&sort=id", As: "public"},
	{Name: "pages in French with a filter", Path: "/api/pages?locale=fr&filters[title][$contains]=propos&fields[0]=title", As: "public"},
	{Name: "pages in English with a filter finding none", Path: "/api/pages?filters[title][$contains]=propos", As: "public"},
	{Name: "a French page by id", Path: "/api/pages/2", As: "public"},
	gqlStep("GraphQL: pages of the default locale", `{ pages { data { id attributes { title locale } } meta { pagination { total } } } }`),
	gqlStep("GraphQL: pages in French", `{ pages(locale: "fr", sort: "id") { data { id attributes { title locale } } } }`),
	gqlStep("GraphQL: pages in every locale", `{ pages(locale: "all", sort: "id") { data { id attributes { title locale } } meta { pagination { total } } } }`),
	gqlStep("GraphQL: a page by id", `{ page(id: 2) { data { id attributes { title locale } } } }`),
	{Name: "the home page, created with its SEO component", Method: "PUT", Path: "/api/homepage?populate=seo", Body: `{"data":{"title":"Home","seo":{"metaTitle":"Home"}}}`, As: "public"},
	{Name: "the home page, its SEO component replaced", Method: "PUT", Path: "/api/homepage?populate=seo", Body: `{"data":{"seo":{"metaTitle":"Welcome"}}}`, As: "public"},
	{Name: "the home page", Path: "/api/homepage?populate=seo", As: "public"},
	{Name: "the home page, deleted", Method: "DELETE", Path: "/api/homepage", As: "public"},
	{Name: "the audit log", Path: "/api/audits?sort=id&pagination[pageSize]=100&fields[0]=action&fields[1]=entry&fields[2]=title&fields[3]=note", As: "public"},
}

// TestHookWrites serves a project whose article (with a component, a dynamic zone, media and
// a unique uid) has findOne hooks in its lifecycles file on every database, and compares each
// answer with real Strapi 4.26.2's (recorded with -update-hookwrites): its REST writes and
// GraphQL mutations run, firing the article's own findOne events as Strapi's entity service
// does.
func TestHookWrites(t *testing.T) {
	replayProjectChecking(t, "hookwrites", hookWritesSteps, *updateHookWrites, "-update-hookwrites", func(t *testing.T, out string) {
		n := 0
		for _, line := range strings.Split(out, "\n") {
			f := strings.Fields(line)
			if len(f) >= 3 && f[0]+" "+f[1] == "GET /api/pages" && !strings.Contains(line, "project code run by Quarry") {
				t.Errorf("a localized type's read with hooks not run by Quarry: %s", line)
			}
			if len(f) < 3 || !(strings.HasPrefix(f[1], "/api/articles") || strings.HasPrefix(f[1], "Mutation.")) {
				continue
			}
			if strings.HasPrefix(f[1], "Mutation.") && !strings.Contains(f[1], "Article") {
				continue
			}
			n++
			if !strings.Contains(line, "project code run by Quarry") {
				t.Errorf("not run by Quarry: %s", line)
			}
		}
		if n != 8 {
			t.Errorf("%d routes and mutations of articles, want 8:\n%s", n, out)
		}
	})
}

// TestHookWritesFormRefused: a multipart/form-data create or update of an article whose
// findOne hooks run goes through Strapi's controller steps, whose entity service uploads the
// form's files and reads the entry again; Quarry's does not, so it answers 501 naming it and
// writes nothing, where it would otherwise write without the files.
func TestHookWritesFormRefused(t *testing.T) {
	app := copyProject(t, filepath.Join("testdata", "projects", "hookwrites"))
	srv := start(t, backends()[0], app)
	for _, c := range []struct{ method, path string }{{"POST", "/api/articles"}, {"PUT", "/api/articles/1"}} {
		body, ct := formBody(t, []formPart{{Name: "data", Value: `{"title":"Form","slug":"form"}`}, {Name: "files.cover", File: "red.png", Type: "image/png"}})
		status, b, _ := srv.send(t, "", c.method, c.path, ct, body)
		if status != 501 || !strings.Contains(string(b), "multipart/form-data") {
			t.Errorf("%s %s: %d %s, want 501 naming the multipart write", c.method, c.path, status, b)
		}
	}
	if status, b, _ := srv.send(t, "", "GET", "/api/articles", "", nil); status != 200 || !strings.Contains(string(b), `"data":[]`) {
		t.Errorf("the refused write wrote: %d %s", status, b)
	}
}
