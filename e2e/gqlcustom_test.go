package e2e

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateGQLCustom = flag.Bool("update-gqlcustom", false, "record testdata/gqlcustom_rest.json from the Strapi at QUARRY_ORACLE_URL (started with --fresh on testdata/projects/gqlcustom and ORACLE_GRANTS=testdata/projects/gqlcustom/config/permissions.json)")

func gqlStep(name, query string) ownCodeStep {
	return ownCodeStep{Name: name, Method: "POST", Path: "/graphql", As: "public", Body: gqlBody(query)}
}

// gqlCustomSteps: a site's content, then the GraphQL queries and mutation of its own that
// return generated types (toEntityResponse, toEntityResponseCollection), and tags made with
// the query engine's createMany.
var gqlCustomSteps = []ownCodeStep{
	{Name: "category news", Method: "POST", Path: "/api/categories", Body: `{"data":{"name":"News"}}`},
	{Name: "category guides", Method: "POST", Path: "/api/categories", Body: `{"data":{"name":"Guides"}}`},
	{Name: "tags in one createMany", Method: "POST", Path: "/api/tags/bulk", Body: `{"names":["go","js","sql"]}`, As: "public"},
	{Name: "the tags createMany made", Path: "/api/tags?sort=id", As: "public"},
	{Name: "article 1", Method: "POST", Path: "/api/articles", Body: `{"data":{"title":"Hello Go","slug":"hello-go","views":1,"rating":4.5,"kind":"news","category":1,"tags":[1,3],"seo":{"metaTitle":"Hello"}}}`},
	{Name: "article 2", Method: "POST", Path: "/api/articles", Body: `{"data":{"title":"JS tips","slug":"js-tips","kind":"howto","category":2,"tags":[2]}}`},
	{Name: "article 3", Method: "POST", Path: "/api/articles", Body: `{"data":{"title":"More Go","slug":"more-go","category":1,"tags":[1,2]}}`},
	gqlStep("article by slug, relations under attributes", `{ articleBySlug(slug: "hello-go") { data { id attributes { title slug views rating kind category { data { id attributes { name } } } tags(sort: "name:desc") { data { id attributes { name } } } seo { metaTitle noIndex } } } } }`),
	gqlStep("article by slug, nested twice, with __typename", `{ articleBySlug(slug: "more-go") { __typename data { __typename id attributes { title category { data { attributes { name articles(sort: "id") { data { id attributes { slug } } } } } } } } } }`),
	gqlStep("article by a missing slug", `{ articleBySlug(slug: "nope") { data { id attributes { title } } } }`),
	gqlStep("articles by tag, with meta", `{ articlesByTag(tag: "go") { data { id attributes { title tags(sort: "id") { data { attributes { name } } } } } meta { pagination { total page pageSize pageCount } } } }`),
	gqlStep("articles by a tag nobody has", `{ articlesByTag(tag: "none") { data { id } meta { pagination { total } } } }`),
	gqlStep("a collection without info", `{ allArticles { data { id attributes { slug } } } }`),
	gqlStep("a collection without info, its meta", `{ allArticles { data { id } meta { pagination { total } } } }`),
	gqlStep("a featured article the resolver changes", `{ featuredArticle { data { id attributes { title slug category { data { attributes { name } } } } } } }`),
	gqlStep("a custom mutation answering the entry", `mutation { readArticle(slug: "js-tips") { data { id attributes { title views category { data { id } } } } } }`),
	gqlStep("the custom mutation, missing entry", `mutation { readArticle(slug: "nope") { data { id } } }`),
	{Name: "the views the mutation wrote", Path: "/api/articles?sort=id&fields[0]=slug&fields[1]=views", As: "public"},
	{Name: "one more tag in a createMany", Method: "POST", Path: "/api/tags/bulk", Body: `{"names":["css"]}`, As: "public"},
	{Name: "the tags after", Path: "/api/tags?sort=id&fields[0]=name&fields[1]=weight", As: "public"},
	gqlStep("a middleware adds a filter to a generated query", `{ articles(sort: "id") { data { id attributes { title kind } } meta { pagination { total } } } }`),
	gqlStep("a middleware adds a filter to a filtered generated query", `{ articles(filters: { title: { contains: "Go" } }) { data { id attributes { title } } } }`),
	gqlStep("a middleware pages and sorts a generated query", `{ tags { data { attributes { name } } meta { pagination { page pageSize pageCount total } } } }`),
	gqlStep("a middleware pages a generated query, page 2", `{ tags(pagination: { page: 2 }) { data { attributes { name } } meta { pagination { page pageSize } } } }`),
	{Name: "the role service lists the roles", Path: "/api/tags/roles", As: "public"},
	{Name: "the role service makes a role", Method: "POST", Path: "/api/tags/roles", Body: `{"name":"Tag editors","description":"They edit tags"}`, As: "public"},
	{Name: "the role service reads it", Path: "/api/tags/roles/3", As: "public"},
	{Name: "the role service reads a missing role", Path: "/api/tags/roles/99", As: "public"},
	{Name: "the role service changes it", Method: "PUT", Path: "/api/tags/roles/3", As: "public",
		Body: `{"name":"Tag chiefs","permissions":{"api::tag":{"controllers":{"tag":{"find":{"enabled":true},"findOne":{"enabled":true},"bulk":{"enabled":false}}}}}}`},
	{Name: "the role service changes it without permissions", Method: "PUT", Path: "/api/tags/roles/3", Body: `{"description":"No rights left"}`, As: "public"},
	{Name: "the role service changes a missing role", Method: "PUT", Path: "/api/tags/roles/99", Body: `{"description":"x"}`, As: "public"},
	{Name: "the role service deletes it", Method: "DELETE", Path: "/api/tags/roles/3", As: "public"},
	{Name: "the role service reads the deleted role", Path: "/api/tags/roles/3", As: "public"},
}

// TestGraphQLCustomResolvers replays testdata/projects/gqlcustom on every database against
// the answers of real Strapi 4.26.2 (recorded with -update-gqlcustom): custom GraphQL
// queries and a mutation returning ArticleEntityResponse(Collection) through the format
// service, whose relations, components and meta resolve as Strapi's generated ones, and the
// query engine's createMany. Before, the format service answered 501 and createMany too.
func TestGraphQLCustomResolvers(t *testing.T) {
	replayProject(t, "gqlcustom", gqlCustomSteps, *updateGQLCustom, "-update-gqlcustom")
}

// templatedMail sends with the email service's sendTemplatedEmail, as projects send their
// notifications: lodash's <%= %> of data's key paths in subject, text and html.
const templatedMail = `'use strict';
module.exports = {
  async afterCreate(event) {
    const { result } = event;
    await strapi.plugin('email').service('email').sendTemplatedEmail(
      { to: 'team@example.com', from: 'site@example.com' },
      {
        subject: 'New event: <%= event.title %>',
        text: 'See /events/<%= event.slug %> (<%=event.title%>, <%= nothing %>)',
        html: '<p><%= event.title %></p>',
      },
      { event: { title: result.title, slug: result.slug }, nothing: null },
    );
  },
};
`

// TestProjectCodeSendsTemplatedEmail: sendTemplatedEmail renders the template as the email
// plugin's does (only <%= %> of data's key paths; null renders empty) and sends it through the project's provider (SMTP on loopback). Before,
// it answered 501.
func TestProjectCodeSendsTemplatedEmail(t *testing.T) {
	got := createEventMailing(t, templatedMail)
	if got.hdr["Subject"] != "New event: Summer Fair" || got.hdr["To"] != "<team@example.com>" ||
		!strings.Contains(got.text, "See /events/summer-fair (Summer Fair, )") || !strings.Contains(got.html, "<p>Summer Fair</p>") {
		t.Fatalf("mail: %v %q %q", got.hdr, got.text, got.html)
	}
}

// TestGraphQLNestedEntityResponseRefused: an EntityResponse the format service makes for a
// field below the root is not resolved by Quarry: the field answers 501 naming it, never an
// empty response.
func TestGraphQLNestedEntityResponseRefused(t *testing.T) {
	app := copyProject(t, filepath.Join("testdata", "projects", "gqlcustom"))
	index := filepath.Join(app, "src", "index.js")
	b, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	for _, r := range [][2]string{
		{"extend type Query {", "type ArticlePick { article: ArticleEntityResponse }\n          extend type Query {\n            pick: ArticlePick"},
		{"resolvers: {\n          Query: {", "resolvers: {\n          ArticlePick: {\n            async article() { return toEntityResponse(await strapi.entityService.findOne('api::article.article', 1)); },\n          },\n          Query: {\n            pick() { return {}; },"},
		{"'Query.articleBySlug': { auth: false },", "'Query.articleBySlug': { auth: false },\n          'Query.pick': { auth: false },"},
	} {
		if !strings.Contains(src, r[0]) {
			t.Fatalf("index.js has no %q", r[0])
		}
		src = strings.Replace(src, r[0], r[1], 1)
	}
	if err := os.WriteFile(index, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := start(t, backends()[0], app)
	if st, b := srv.do(t, "POST", "/api/articles", []byte(`{"data":{"title":"One","slug":"one"}}`)); st != 200 {
		t.Fatalf("create: %d %s", st, b)
	}
	st, body := srv.doAs(t, "", "POST", "/graphql", []byte(gqlBody(`{ pick { article { data { id } } } }`)))
	if st != 200 || !strings.Contains(string(body), `"pick":{"article":null}`) || !strings.Contains(string(body), "NotImplementedError") ||
		!strings.Contains(string(body), "ArticlePick.article returns a ArticleEntityResponse") {
		t.Fatalf("nested EntityResponse: %d %s", st, body)
	}
}

// TestCreateManyValidates: the query engine's createMany validates every entry as the one
// write path validates writes (Strapi's query engine would store a name that is no string):
// one bad entry answers 400 and none of them is written.
func TestCreateManyValidates(t *testing.T) {
	app := copyProject(t, filepath.Join("testdata", "projects", "gqlcustom"))
	srv := start(t, backends()[0], app)
	st, body := srv.doAs(t, "", "POST", "/api/tags/bulk", []byte(`{"names":["ok",{"not":"a string"}]}`))
	if st != 400 || !strings.Contains(string(body), `"ValidationError"`) {
		t.Fatalf("createMany with a bad entry: %d %s", st, body)
	}
	st, body = srv.doAs(t, "", "GET", "/api/tags", nil)
	if st != 200 || !strings.Contains(string(body), `"total":0`) {
		t.Fatalf("tags after the refused createMany: %d %s", st, body)
	}
	st, body = srv.doAs(t, "", "POST", "/api/tags/bulk", []byte(`{"names":[]}`))
	if st != 400 || !strings.Contains(string(body), "Nothing to insert") {
		t.Fatalf("createMany of nothing: %d %s", st, body)
	}
}
