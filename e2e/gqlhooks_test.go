package e2e

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"
)

var updateGQLHooks = flag.Bool("update-gqlhooks", false, "record testdata/gqlhooks_rest.json from the Strapi at QUARRY_ORACLE_URL (started with --fresh on testdata/projects/gqlhooks and ORACLE_GRANTS=testdata/projects/gqlhooks/config/permissions.json)")

// gqlHooksSteps read, through the GraphQL plugin's generated queries, a model whose read
// lifecycle hooks filter (beforeFindMany, beforeCount, beforeFindOne), compute fields
// (afterFindMany, afterFindOne) and write an audit entry (a subscription's afterFindMany).
var gqlHooksSteps = []ownCodeStep{
	gqlStep("the list: private out, reading times in, counted with the hook", `{ articles(sort: "id") { data { id attributes { title readingTime private } } meta { pagination { total page pageSize pageCount } } } }`),
	gqlStep("a filter on private: the hook lets them in", `{ articles(filters: { private: { eq: true } }) { data { id attributes { title readingTime } } meta { pagination { total } } } }`),
	gqlStep("filters with or, a relation and sort", `{ articles(filters: { or: [{ title: { containsi: "second" } }, { category: { name: { eq: "News" } } }] }, sort: ["title:desc"]) { data { id attributes { title } } } }`),
	gqlStep("a page of one, page 2", `{ articles(sort: "id", pagination: { page: 2, pageSize: 1 }) { data { id attributes { title readingTime } } meta { pagination { total page pageSize pageCount } } } }`),
	gqlStep("start and limit", `{ articles(sort: "id", pagination: { start: 1, limit: 5 }) { data { id } meta { pagination { page pageSize total } } } }`),
	gqlStep("meta without pagination", `{ articles(sort: "id") { data { id } meta { __typename } } }`),
	gqlStep("one article: the hooks' title and reading time", `{ article(id: 1) { data { id attributes { title body readingTime } } } }`),
	gqlStep("the private one by id: beforeFindOne hides it", `{ article(id: 2) { data { id attributes { title } } } }`),
	gqlStep("no such article", `{ article(id: 99) { data { id } } }`),
	gqlStep("aliases: a list and one", `{ all: articles(sort: "id") { data { id attributes { title } } } one: article(id: 3) { data { attributes { title readingTime } } } }`),
	gqlStep("the categories with their articles: the articles' hooks do not run on a load", `{ categories(sort: "id") { data { id attributes { name articles(sort: "id") { data { id attributes { title readingTime private } } } } } } }`),
	gqlStep("the audit trail over GraphQL: the subscriber sees its reads too", `{ audits(sort: "id", pagination: { limit: 2 }) { data { id attributes { action } } meta { pagination { total } } } }`),
	gqlStep("the draft category in preview", `{ categories(sort: "id", publicationState: PREVIEW) { data { id attributes { name articles(sort: "id") { data { id } } } } } }`),
	gqlStep("the draft category by id (findOne reads drafts)", `{ category(id: 2) { data { id attributes { name } } } }`),
	gqlStep("one category, its articles", `{ category(id: 1) { data { attributes { name articles { data { id attributes { title } } } } } } }`),
	{Name: "the REST list: the same hooks", Path: "/api/articles?sort=id", As: "public"},
	{Name: "the audit trail of the lists read", Path: "/api/audits?sort=id&fields[0]=action&fields[1]=note", As: "public"},
	gqlStep("create: the read-back runs the findOne hooks", `mutation { createArticle(data: { title: "New one", body: "Just in, fresh from the press.", category: "1" }) { data { id attributes { title body readingTime private } } } }`),
	gqlStep("create a private one: its read-back finds nothing", `mutation { createArticle(data: { title: "Hush", body: "Quiet one.", private: true }) { data { id attributes { title } } } }`),
	gqlStep("update: read first, written, read back", `mutation { updateArticle(id: 1, data: { body: "One two three four five six seven." }) { data { id attributes { title body readingTime } } } }`),
	gqlStep("update the private one: beforeFindOne hides it", `mutation { updateArticle(id: 2, data: { body: "Found you." }) { data { id attributes { title } } } }`),
	gqlStep("update a missing one", `mutation { updateArticle(id: 99, data: { body: "x" }) { data { id } } }`),
	gqlStep("delete: the entry as the hooks leave it", `mutation { deleteArticle(id: 3) { data { id attributes { title readingTime } } } }`),
	gqlStep("delete a missing one", `mutation { deleteArticle(id: 99) { data { id } } }`),
	gqlStep("a mutation refused by the entity validator", `mutation { createArticle(data: { title: "Lost", category: "99" }) { data { id } } }`),
	{Name: "the articles after the mutations", Path: "/api/articles?sort=id&filters[private][$in][0]=true&filters[private][$in][1]=false", As: "public"},
	{Name: "the private one, untouched", Path: "/api/articles?filters[private][$eq]=true&sort=id", As: "public"},
	gqlStep("an article's category: the load runs the article's findOne hooks", `{ article(id: 1) { data { id attributes { title category { data { id attributes { name } } } } } } }`),
	gqlStep("the list with categories: a load per entry", `{ articles(sort: "id") { data { id attributes { title category { data { id attributes { name } } } } } } }`),
	gqlStep("back and forth: the private article's category load finds nothing", `{ categories(sort: "id") { data { id attributes { name articles(sort: "id") { data { id attributes { title category { data { id } } } } } } } } }`),
	gqlStep("a filtered, sorted relation below a category", `{ category(id: 1) { data { attributes { articles(filters: { title: { contains: "e" } }, sort: "title:desc") { data { id attributes { title } } } } } } }`),
	gqlStep("a mutation's answer with its category", `mutation { updateArticle(id: 1, data: { title: "Hello again" }) { data { id attributes { title category { data { attributes { name articles(sort: "id") { data { id } } } } } } } } }`),
	{Name: "the audit trail after the loads", Path: "/api/audits?sort=id&fields[0]=action&fields[1]=note", As: "public"},
}

// TestGraphQLReadHooks replays testdata/projects/gqlhooks on every database against the
// answers of real Strapi 4.26.2 (recorded with -update-gqlhooks): the generated queries of a
// model with read lifecycle hooks run them as Strapi's resolvers do, its mutations too, and
// the relations below its entries are loaded through its findOne hooks.
func TestGraphQLReadHooks(t *testing.T) {
	replayProjectChecking(t, "gqlhooks", gqlHooksSteps, *updateGQLHooks, "-update-gqlhooks", func(t *testing.T, routes string) {
		// The function subscriber sees every model's events: the project's types' queries and
		// mutations run in the sandbox (the users-permissions plugin's routes, whose events it
		// would see too, stay refused).
		listed := map[string]bool{}
		for _, line := range strings.Split(routes, "\n") {
			f := strings.Fields(line)
			if len(f) < 3 {
				continue
			}
			if strings.HasPrefix(f[1], "/api/articles") || strings.HasPrefix(f[1], "/api/categories") || strings.HasPrefix(f[1], "/api/audits") {
				if strings.Contains(line, " refused ") {
					t.Errorf("refused: %s", line)
				}
			}
			if f[0] != "GRAPHQL" {
				continue
			}
			if strings.Contains(line, " project code run by Quarry ") {
				listed[f[1]] = true
			}
		}
		for _, field := range []string{"Query.articles", "Query.article", "Mutation.createArticle", "Mutation.updateArticle", "Mutation.deleteArticle",
			"Query.categories", "Query.category", "Mutation.createCategory", "Query.audits"} {
			if !listed[field] {
				t.Errorf("GraphQL %s is not listed as project code run by Quarry:\n%s", field, routes)
			}
		}
	})
}

// TestGraphQLReadHooksRefused: where Quarry does not run the hooks Strapi's resolvers reach,
// the GraphQL fields are refused, never answered without them. An SEO component on the
// article makes its writes fire the component's own query-engine events, which the function
// subscriber sees and Quarry's write path does not fire (its mutations answer 501 naming
// them, and write nothing, while its queries still run the hooks); without the runtime for
// project code every field of the article is refused (and bootstrap() is not run: there is
// nothing to read).
func TestGraphQLReadHooksRefused(t *testing.T) {
	be := backends()[0]
	gql := func(t *testing.T, srv *server, query string) (int, string) {
		t.Helper()
		st, b := srv.doAs(t, "", "POST", "/graphql", []byte(gqlBody(query)))
		return st, string(b)
	}
	t.Run("a component", func(t *testing.T) {
		app := copyProject(t, filepath.Join("testdata", "projects", "gqlhooks"))
		withSEO(t, app)
		srv := start(t, be, app)
		st, b := gql(t, srv, `mutation { createArticle(data: { title: "With SEO" }) { data { id } } }`)
		if st != 200 || !strings.Contains(b, `"NotImplementedError"`) || !strings.Contains(b, "components (seo) and hooks on every model's events") {
			t.Errorf("createArticle: %d %s, want NotImplementedError naming the component", st, b)
		}
		if st, b := gql(t, srv, `{ articles(sort: "id") { data { id attributes { title readingTime } } } }`); st != 200 || !strings.Contains(b, `"readingTime":3`) || strings.Contains(b, "With SEO") || strings.Contains(b, "Secret") {
			t.Errorf("articles: %d %s, want the hooks' answer without the refused write", st, b)
		}
	})
	t.Run("project code off", func(t *testing.T) {
		app := copyProject(t, filepath.Join("testdata", "projects", "gqlhooks"))
		off := backend{Name: be.Name, Env: func(t *testing.T) []string { return append(be.Env(t), "QUARRY_PROJECT_CODE=off") }}
		srv := start(t, off, app)
		for _, q := range []string{`{ articles { data { id } } }`, `{ article(id: 1) { data { id } } }`, `mutation { deleteArticle(id: 1) { data { id } } }`} {
			if st, b := gql(t, srv, q); st != 200 || !strings.Contains(b, `"NotImplementedError"`) || !strings.Contains(b, "lifecycles.js") {
				t.Errorf("%s: %d %s, want NotImplementedError naming the lifecycles file", q, st, b)
			}
		}
	})
}
