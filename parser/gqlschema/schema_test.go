package gqlschema_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/parser/gqlschema"
	"github.com/quarrycms/quarry/schemas"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func loadBlog(t *testing.T) *schemas.Schema {
	t.Helper()
	s, err := schemas.Load("../../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func build(t *testing.T, cfg gqlschema.Config) *gqlschema.Schema {
	t.Helper()
	s, err := gqlschema.Build(loadBlog(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// golden compares text with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./parser/gqlschema -update to create it)", err)
	}
	if string(want) != got {
		wl, gl := strings.Split(string(want), "\n"), strings.Split(got, "\n")
		for i := 0; i < len(wl) || i < len(gl); i++ {
			var w, g string
			if i < len(wl) {
				w = wl[i]
			}
			if i < len(gl) {
				g = gl[i]
			}
			if w != g {
				t.Fatalf("%s differs from the generated SDL at line %d:\n want: %s\n  got: %s\n(run go test ./parser/gqlschema -update after checking the change)", path, i+1, w, g)
			}
		}
	}
}

// TestBlogSDL is the golden Shadow CRUD schema of examples/blog.
func TestBlogSDL(t *testing.T) {
	s := build(t, gqlschema.DefaultConfig())
	if len(s.Warnings) > 0 {
		t.Errorf("warnings: %v", s.Warnings)
	}
	golden(t, "blog.graphql", s.SDL())
}

// TestStrapiShapes pins the parts of the schema a Strapi client depends on, as Strapi
// 4.26 generates them for the same app (checked against the oracle's introspection).
func TestStrapiShapes(t *testing.T) {
	sdl := build(t, gqlschema.DefaultConfig()).SDL()
	for _, want := range []string{
		"articles(filters: ArticleFiltersInput, pagination: PaginationArg = {}, sort: [String] = [], publicationState: PublicationState = LIVE): ArticleEntityResponseCollection",
		"article(id: ID): ArticleEntityResponse",
		"homepage(publicationState: PublicationState = LIVE): HomepageEntityResponse",
		"createArticle(data: ArticleInput!): ArticleEntityResponse",
		"updateArticle(id: ID!, data: ArticleInput!): ArticleEntityResponse",
		"deleteArticle(id: ID!): ArticleEntityResponse",
		"updateHomepage(data: HomepageInput!): HomepageEntityResponse",
		"deleteHomepage: HomepageEntityResponse",
		"union ArticleBlocksDynamicZone = ComponentSharedSeo | ComponentSharedLink | ComponentSharedQuote | Error",
		"scalar ArticleBlocksDynamicZoneInput",
		"enum ENUM_ARTICLE_CATEGORY {\n  tech_news\n  sport\n  a_b\n}",
		"enum ENUM_COMPONENTSHAREDSEO_KIND {\n  a\n  b\n}",
		"  related(filters: ArticleFiltersInput, pagination: PaginationArg = {}, sort: [String] = [], publicationState: PublicationState = LIVE): ArticleRelationResponseCollection\n",
		"  links(filters: ComponentSharedLinkFiltersInput, pagination: PaginationArg = {}, sort: [String] = []): [ComponentSharedLink]\n",
		"  gallery(filters: UploadFileFiltersInput, pagination: PaginationArg = {}, sort: [String] = []): UploadFileRelationResponseCollection\n",
		"  blocks: [ArticleBlocksDynamicZoneInput!]\n",
		"type ComponentSharedSeo {\n  id: ID!\n  metaTitle: String!\n",
		"input ComponentSharedSeoInput {\n  id: ID\n",
		"type ArticleEntityResponseCollection {\n  data: [ArticleEntity!]!\n  meta: ResponseCollectionMeta!\n}",
		"type Pagination {\n  total: Int!\n  page: Int!\n  pageSize: Int!\n  pageCount: Int!\n}",
		"input PaginationArg {\n  page: Int\n  pageSize: Int\n  start: Int\n  limit: Int\n}",
		"type UploadFile {\n  name: String!\n",
		"  size: Float!\n",
		"input IDFilterInput {\n  and: [ID]\n  or: [ID]\n  not: IDFilterInput\n  eq: ID\n  eqi: ID\n",
		"  null: Boolean\n  notNull: Boolean\n  in: [ID]\n  notIn: [ID]\n  between: [ID]\n}",
		// Private and password attributes stay filterable and writable, as in Strapi.
		"  secret: StringFilterInput\n  password: StringFilterInput\n",
		"  secret: String\n  password: String\n",
	} {
		if !strings.Contains(sdl, want) {
			t.Errorf("SDL lacks %q", want)
		}
	}
	for _, absent := range []string{
		// A component used only in a dynamic zone has neither filters nor input (pruned).
		"ComponentSharedQuoteFiltersInput", "ComponentSharedQuoteInput",
		// A single type has no collection types.
		"HomepageEntityResponseCollection", "HomepageFiltersInput",
	} {
		if strings.Contains(sdl, absent) {
			t.Errorf("SDL has %q", absent)
		}
	}
	art := sdl[strings.Index(sdl, "type Article {"):]
	art = art[:strings.Index(art, "}")]
	if strings.Contains(art, "password") || strings.Contains(art, "secret") {
		t.Errorf("type Article exposes a private or password attribute:\n%s", art)
	}
}

func TestNaming(t *testing.T) {
	cases := []struct{ uid, singular, plural, typ, find, findOne string }{
		{"api::article.article", "article", "articles", "Article", "articles", "article"},
		{"plugin::upload.file", "file", "files", "UploadFile", "uploadFiles", "uploadFile"},
		{"plugin::users-permissions.user", "user", "users", "UsersPermissionsUser", "usersPermissionsUsers", "usersPermissionsUser"},
		{"plugin::i18n.locale", "locale", "locales", "I18NLocale", "i18NLocales", "i18NLocale"},
		{"api::blog-post.blog-post", "blog-post", "blog-posts", "BlogPost", "blogPosts", "blogPost"},
	}
	for _, c := range cases {
		m := &schemas.Model{UID: c.uid, SingularName: c.singular, PluralName: c.plural}
		if got := gqlschema.TypeName(m); got != c.typ {
			t.Errorf("TypeName(%s) = %s, want %s", c.uid, got, c.typ)
		}
		if got := gqlschema.FindName(m); got != c.find {
			t.Errorf("FindName(%s) = %s, want %s", c.uid, got, c.find)
		}
		if got := gqlschema.FindOneName(m); got != c.findOne {
			t.Errorf("FindOneName(%s) = %s, want %s", c.uid, got, c.findOne)
		}
	}
	comp := &schemas.Model{UID: "shared.seo", Kind: schemas.Component}
	if got := gqlschema.TypeName(comp); got != "ComponentSharedSeo" {
		t.Errorf("component name %s", got)
	}
	for in, want := range map[string]string{"tech news": "tech_news", "a-b": "a_b", "Été chaud": "Ete_chaud",
		"rock & roll": "rock_and_roll", "  x  ": "x", "1st": "_1st", "CamelCase": "CamelCase", "a--b__c": "a_b_c"} {
		if got := gqlschema.EnumValueName(in); got != want {
			t.Errorf("EnumValueName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "config"), 0o755)
	c, err := gqlschema.LoadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	if c.Endpoint != "/graphql" || !c.ShadowCRUD || c.DefaultLimit != 10 || c.MaxLimit != -1 || c.AmountLimit != 100 || c.DepthLimit != 0 || c.PlaygroundAlways || c.Tracing || !c.Enabled {
		t.Errorf("defaults: %+v", c)
	}
	os.WriteFile(filepath.Join(dir, "config", "plugins.json"), []byte(`{
	  "graphql": {"config": {
	    "endpoint": "/gql", "playgroundAlways": true, "depthLimit": 7, "amountLimit": 50,
	    "defaultLimit": 5, "maxLimit": 20, "apolloServer": {"tracing": true},
	    "typeDefs": "type Query { hello: String }",
	    "resolversConfig": {"Query.hello": {"auth": false}, "Query.articles": {"auth": {"scope": ["api::article.article.find"]}}},
	    "shadowCRUD": {"api::article.article": {"disabledActions": ["delete"], "fields": {"body": {"filters": false}}},
	                   "api::tag.tag": {"enabled": false}}
	  }}
	}`), 0o644)
	c, err = gqlschema.LoadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	if c.Endpoint != "/gql" || !c.PlaygroundAlways || c.DepthLimit != 7 || c.AmountLimit != 50 || c.DefaultLimit != 5 || c.MaxLimit != 20 || !c.Tracing {
		t.Errorf("parsed: %+v", c)
	}
	if !c.ResolversConfig["Query.hello"].AuthDisabled || c.ResolversConfig["Query.articles"].Scope[0] != "api::article.article.find" {
		t.Errorf("resolversConfig: %+v", c.ResolversConfig)
	}
	ext := c.Extension()
	if !ext.ShadowCRUD("api::article.article").IsActionDisabled("delete") || ext.ShadowCRUD("api::article.article").IsActionDisabled("create") {
		t.Error("disabledActions not applied")
	}
	if ext.ShadowCRUD("api::article.article").Field("body").HasFiltersEnabled() || !ext.ShadowCRUD("api::article.article").Field("body").HasOutputEnabled() {
		t.Error("field switches not applied")
	}
	if !ext.ShadowCRUD("api::tag.tag").IsDisabled() {
		t.Error("type switch not applied")
	}
	for _, bad := range []string{
		`{"graphql": {"config": {"endpoint": "gql"}}}`,
		`{"graphql": {"config": {"shadowCRUD": {"api::a.a": {"disabledActions": ["remove"]}}}}}`,
		`{"graphql": {"config": {"shadowCRUD": "yes"}}}`,
		`{"graphql": {"config": {"defaultLimit": 0}}}`,
		`{"graphql": `,
	} {
		if _, err := gqlschema.ParseConfig([]byte(bad)); err == nil {
			t.Errorf("ParseConfig(%s) accepted", bad)
		}
	}
	if c, err := gqlschema.ParseConfig([]byte(`{"graphql": {"config": {"shadowCRUD": false}}}`)); err != nil || c.ShadowCRUD {
		t.Errorf("shadowCRUD false: %v %+v", err, c)
	}
}

func TestExtensionSwitches(t *testing.T) {
	cfg := gqlschema.DefaultConfig()
	ext := cfg.Extension()
	art := ext.ShadowCRUD("api::article.article")
	art.DisableAction("delete").Field("body").DisableFilters()
	art.Field("summary").DisableOutput()
	art.Field("views").DisableInput()
	art.Field("score").Disable()
	ext.ShadowCRUD("api::tag.tag").Disable()
	ext.ShadowCRUD("api::writer.writer").DisableMutations()
	ext.ShadowCRUD("api::homepage.homepage").DisableQueries()

	if !art.IsEnabled() || art.IsDisabled() || !art.AreQueriesEnabled() || !art.AreMutationsEnabled() ||
		!art.IsActionEnabled("create") || !art.IsActionDisabled("delete") {
		t.Error("article getters")
	}
	w := ext.ShadowCRUD("api::writer.writer")
	if !w.AreMutationsDisabled() || w.AreQueriesDisabled() || !w.IsActionDisabled("update") || w.IsActionDisabled("find") {
		t.Error("writer getters")
	}
	f := art.Field("score")
	if f.IsEnabled() || !f.IsDisabled() || f.HasInputEnabled() || f.HasOutputEnabled() || f.HasFiltersEnabled() {
		t.Error("field getters")
	}

	s, err := gqlschema.Build(loadBlog(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	sdl := s.SDL()
	has := func(x string) bool { return strings.Contains(sdl, x) }
	block := func(head string) string {
		i := strings.Index(sdl, head)
		if i < 0 {
			return ""
		}
		b := sdl[i:]
		return b[:strings.Index(b, "\n}")]
	}
	switch {
	case has("deleteArticle"):
		t.Error("deleteArticle still generated")
	case !has("createArticle("):
		t.Error("createArticle missing")
	case strings.Contains(block("input ArticleFiltersInput {"), "  body:"):
		t.Error("body still filterable")
	case !strings.Contains(block("type Article {"), "  body:"):
		t.Error("body missing from output")
	case strings.Contains(block("type Article {"), "  summary:"):
		t.Error("summary still in output")
	case strings.Contains(block("input ArticleInput {"), "  views:"):
		t.Error("views still in input")
	case strings.Contains(block("type Article {"), "  score:") || strings.Contains(block("input ArticleInput {"), "  score:"):
		t.Error("score still present")
	case has("type Tag ") || has("tags(") || strings.Contains(block("type Article {"), "  tags"):
		t.Error("disabled tag type still reachable")
	case has("createWriter") || !has("writers("):
		t.Error("writer mutations/queries")
	case has("homepage(") || !has("updateHomepage("):
		t.Error("homepage queries/mutations")
	}
}

func TestTypeDefsExtension(t *testing.T) {
	cfg := gqlschema.DefaultConfig()
	cfg.TypeDefs = "extend type Article { wordCount: Int }"
	cfg.Extension().Use(gqlschema.SchemaExtension{TypeDefs: "type Greeting { text: String }\nextend type Query { hello(name: String): Greeting }"})
	s, err := gqlschema.Build(loadBlog(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	sdl := s.SDL()
	if !strings.Contains(sdl, "  wordCount: Int\n") || !strings.Contains(sdl, "  hello(name: String): Greeting\n") || !strings.Contains(sdl, "type Greeting {") {
		t.Errorf("typeDefs not merged:\n%s", sdl[len(sdl)-800:])
	}
	cfg2 := gqlschema.DefaultConfig()
	cfg2.TypeDefs = "type Query { broken: Nope }"
	if _, err := gqlschema.Build(loadBlog(t), cfg2); err == nil || !strings.Contains(err.Error(), "typeDefs") {
		t.Errorf("bad typeDefs: %v", err)
	}
	cfg3 := gqlschema.DefaultConfig()
	cfg3.ShadowCRUD = false
	if _, err := gqlschema.Build(loadBlog(t), cfg3); err == nil {
		t.Error("a schema without any query built")
	}
}

func TestLookups(t *testing.T) {
	s := build(t, gqlschema.DefaultConfig())
	cs := s.Content
	art := cs.Models["api::article.article"]
	r, ok := s.Root("query", "articles")
	if !ok || r.Model != art || r.Action != "find" {
		t.Errorf("Root(articles) = %+v", r)
	}
	if r, ok := s.Root("mutation", "deleteHomepage"); !ok || r.Action != "delete" {
		t.Errorf("Root(deleteHomepage) = %+v", r)
	}
	if ti := s.Type("ArticleBlocksDynamicZone"); ti == nil || ti.Role != gqlschema.RoleDynamicZone || ti.Attr.Name != "blocks" {
		t.Errorf("Type(ArticleBlocksDynamicZone) = %+v", ti)
	}
	cat, _ := art.Attr("category")
	if s.EnumOut(cat, "tech news") != "tech_news" {
		t.Error("EnumOut")
	}
	if v, ok := s.EnumIn(cat, "a_b"); !ok || v != "a-b" {
		t.Error("EnumIn")
	}
	if _, ok := s.OutputAttr(art, "password"); ok {
		t.Error("password is an output attribute")
	}
	if _, ok := s.FilterAttr(art, "secret"); !ok {
		t.Error("secret is not a filter attribute")
	}
	types := s.Types()
	if types[0].Name != "JSON" || types[len(types)-1].Name != "__DirectiveLocation" {
		t.Errorf("type order: %s … %s", types[0].Name, types[len(types)-1].Name)
	}
}

func TestAppSDL(t *testing.T) {
	sdl, err := gqlschema.AppSDL("../../examples/blog", schemas.Load)
	if err != nil {
		t.Fatal(err)
	}
	if sdl != build(t, gqlschema.DefaultConfig()).SDL() {
		t.Error("AppSDL differs from Build with the default config (examples/blog has no graphql config)")
	}
}
