package graphql_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/parser/gqlschema"
	gql "github.com/quarrycms/quarry/parser/graphql"
	"github.com/quarrycms/quarry/parser/rest"
	"github.com/quarrycms/quarry/schemas"
)

func blog(t testing.TB, cfg gqlschema.Config) *gqlschema.Schema {
	t.Helper()
	cs, err := schemas.Load("../../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	s, err := gqlschema.Build(cs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func parse(t *testing.T, s *gqlschema.Schema, query string, vars map[string]any) *gql.Operation {
	t.Helper()
	op, err := gql.Parse(s, gql.Request{Query: query, Variables: vars}, gql.OptionsFrom(s.Config))
	if err != nil {
		t.Fatalf("parse %s: %v", query, err)
	}
	return op
}

func compact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// stripGraphQL removes what GraphQL adds to a query that REST leaves to the planner's
// defaults: explicit root pagination, per-relation pagination and publication state.
func stripGraphQL(q *ir.Query) {
	q.Pagination = ir.Pagination{}
	if q.PublicationState == "live" {
		q.PublicationState = "" // REST's default
	}
	var walk func(p *ir.Populate)
	walk = func(p *ir.Populate) {
		if p == nil {
			return
		}
		for _, c := range p.Children {
			c.Pagination = nil
			c.PublicationState = ""
			walk(c.Populate)
			for _, on := range c.On {
				walk(on.Field.Populate)
			}
		}
	}
	walk(q.Populate)
}

// TestSameIRAsREST lowers GraphQL documents and the equivalent REST query strings and
// compares the queries: filters, sort, fields and populate levels must be identical.
func TestSameIRAsREST(t *testing.T) {
	s := blog(t, gqlschema.DefaultConfig())
	cases := []struct{ name, gql, rest string }{
		{"fields only",
			`{ articles { data { id attributes { title slug } } } }`,
			`fields[0]=title&fields[1]=slug`},
		{"filters and sort",
			`{ articles(filters: {title: {containsi: "go"}, or: [{slug: {eq: "a"}}, {slug: {endsWith: "z"}}]}, sort: ["title:desc", "slug"]) { data { attributes { title } } } }`,
			`filters[title][$containsi]=go&filters[$or][0][slug][$eq]=a&filters[$or][1][slug][$endsWith]=z&sort[0]=title:desc&sort[1]=slug&fields[0]=title`},
		{"deep filter and not",
			`{ articles(filters: {author: {name: {eq: "Ann"}}, not: {title: {startsWith: "x"}}}) { data { attributes { title } } } }`,
			`filters[author][name][$eq]=Ann&filters[$not][title][$startsWith]=x&fields[0]=title`},
		{"two nested relation levels",
			`{ articles { data { attributes { title author { data { attributes { name mentor { data { attributes { name } } } } } } tags { data { id } } } } } }`,
			`fields[0]=title&populate[author][fields][0]=name&populate[author][populate][mentor][fields][0]=name&populate[tags][fields]=`},
		{"relation args",
			`{ writers { data { attributes { articles(filters: {title: {eq: "x"}}, sort: "title:asc") { data { attributes { title } } } } } } }`,
			`fields=&populate[articles][fields][0]=title&populate[articles][filters][title][$eq]=x&populate[articles][sort][0]=title:asc`},
		{"components",
			`{ articles { data { attributes { seo { metaTitle keywords { word } image { data { attributes { url } } } } links { label } } } } }`,
			`fields=&populate[seo][fields][0]=metaTitle&populate[seo][populate][keywords][fields][0]=word&populate[seo][populate][image][fields][0]=url&populate[links][fields][0]=label`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			op := parse(t, s, c.gql, nil)
			got := op.Fields[0].Query
			if op.Fields[0].Err != nil {
				t.Fatal(op.Fields[0].Err)
			}
			stripGraphQL(got)
			want := &ir.Query{Model: got.Model, Op: ir.FindMany}
			if err := rest.Parse(c.rest, want); err != nil {
				t.Fatal(err)
			}
			// REST's fields= (empty) is one empty field name; GraphQL selects no scalar.
			normalizeEmptyFields(want)
			if compact(got) != compact(want) {
				t.Errorf("GraphQL lowers to\n %s\nREST to\n %s", compact(got), compact(want))
			}
		})
	}
}

func normalizeEmptyFields(q *ir.Query) {
	fix := func(f []string) []string {
		if len(f) == 1 && f[0] == "" {
			return []string{}
		}
		return f
	}
	q.Fields = fix(q.Fields)
	var walk func(p *ir.Populate)
	walk = func(p *ir.Populate) {
		if p == nil {
			return
		}
		for _, c := range p.Children {
			c.Fields = fix(c.Fields)
			walk(c.Populate)
		}
	}
	walk(q.Populate)
}

// TestLowering pins the lowering of GraphQL-specific input: typed values, variables,
// fragments, aliases, dynamic zones, pagination rules and mutation payloads.
func TestLowering(t *testing.T) {
	s := blog(t, gqlschema.DefaultConfig())
	cases := []struct {
		name  string
		query string
		vars  map[string]any
		want  string // compact JSON of the first root field's ir.Query
	}{
		{"typed values",
			`{ articles(filters: {views: {gt: 3}, featured: {eq: true}, big: {in: ["1", 2]}, id: {notIn: [1, "2"]}}) { data { id } } }`, nil,
			`{"model":"api::article.article","op":"findMany","filters":{"kind":"and","children":[{"kind":"cond","field":"views","operator":"$gt","values":[{"kind":"number","value":"3"}]},{"kind":"cond","field":"featured","operator":"$eq","values":[{"kind":"bool","value":"true"}]},{"kind":"cond","field":"big","operator":"$in","values":[{"kind":"string","value":"1"},{"kind":"number","value":"2"}]},{"kind":"cond","field":"id","operator":"$notIn","values":[{"kind":"string","value":"1"},{"kind":"string","value":"2"}]}]},"pagination":{"start":0,"limit":10,"withCount":false},"publicationState":"live"}`},
		{"variables and defaults",
			`query Q($f: ArticleFiltersInput, $p: PaginationArg = {pageSize: 3}, $state: PublicationState) { articles(filters: $f, pagination: $p, publicationState: $state) { data { id } meta { pagination { pageCount } } } }`,
			map[string]any{"f": map[string]any{"title": map[string]any{"eq": "x"}}, "state": "PREVIEW"},
			`{"model":"api::article.article","op":"findMany","filters":{"kind":"cond","field":"title","operator":"$eq","values":[{"kind":"string","value":"x"}]},"pagination":{"start":0,"limit":3,"withCount":true},"publicationState":"preview"}`},
		{"page without pageSize is a page of one (Strapi quirk)",
			`{ articles(pagination: {page: 3}) { data { id } } }`, nil,
			`{"model":"api::article.article","op":"findMany","pagination":{"start":2,"limit":1,"withCount":false},"publicationState":"live"}`},
		{"limit -1 is capped by amountLimit",
			`{ articles(pagination: {start: 2, limit: -1}) { data { id } } }`, nil,
			`{"model":"api::article.article","op":"findMany","pagination":{"start":2,"limit":100,"withCount":false},"publicationState":"live"}`},
		{"fragments, aliases and a dynamic zone",
			`query { articles { data { ...A b: attributes { title } } } } fragment A on ArticleEntity { attributes { slug blocks { __typename ... on ComponentSharedQuote { text } ...L } } } fragment L on ComponentSharedLink { label tag { data { id } } }`, nil,
			`{"model":"api::article.article","op":"findMany","fields":["slug","title"],"populate":{"fields":[{"field":"blocks","on":[{"component":"shared.seo","options":{"field":"blocks"}},{"component":"shared.link","options":{"field":"blocks","fields":["label"],"populate":{"fields":[{"field":"tag"}]}}},{"component":"shared.quote","options":{"field":"blocks","fields":["text"]}}]}]},"pagination":{"start":0,"limit":10,"withCount":false},"publicationState":"live"}`},
		{"the same relation twice with different arguments",
			`{ articles { data { attributes { a: tags(sort: "name") { data { id } } b: tags(pagination: {limit: 1}) { data { id } } } } } }`, nil,
			`{"model":"api::article.article","op":"findMany","populate":{"fields":[{"field":"tags","sort":[{"path":["name"]}],"pagination":{"start":0,"limit":10}},{"field":"tags","pagination":{"start":0,"limit":1}}]},"pagination":{"start":0,"limit":10,"withCount":false},"publicationState":"live"}`},
		{"relation publication state is its own",
			`{ articles(publicationState: PREVIEW) { data { attributes { related(publicationState: PREVIEW) { data { id } } a: related { data { id } } } } } }`, nil,
			`{"model":"api::article.article","op":"findMany","populate":{"fields":[{"field":"related","pagination":{"start":0,"limit":10},"publicationState":"preview"},{"field":"related","pagination":{"start":0,"limit":10},"publicationState":"live"}]},"pagination":{"start":0,"limit":10,"withCount":false},"publicationState":"preview"}`},
		{"skip and include",
			`query($no: Boolean!) { articles { data { attributes { title @skip(if: true) slug @include(if: $no) body } } } }`, map[string]any{"no": false},
			`{"model":"api::article.article","op":"findMany","fields":["body"],"pagination":{"start":0,"limit":10,"withCount":false},"publicationState":"live"}`},
		{"findOne",
			`{ article(id: 7) { data { attributes { title } } } }`, nil,
			`{"model":"api::article.article","op":"findOne","id":"7","fields":["title"],"pagination":{}}`},
		{"single type",
			`{ homepage { data { attributes { title seo { metaTitle } } } } }`, nil,
			`{"model":"api::homepage.homepage","op":"findMany","fields":["title"],"populate":{"fields":[{"field":"seo","fields":["metaTitle"]}]},"pagination":{},"publicationState":"live"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vars := c.vars
			if vars != nil {
				b, _ := json.Marshal(vars)
				vars = nil
				d := json.NewDecoder(strings.NewReader(string(b)))
				d.UseNumber()
				d.Decode(&vars)
			}
			op := parse(t, s, c.query, vars)
			rf := op.Fields[0]
			if rf.Err != nil {
				t.Fatal(rf.Err)
			}
			if got := compact(rf.Query); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// TestEmptyFieldSelection: selecting no scalar attribute reads none (an empty, non-nil
// field list), where a nil list would read them all.
func TestEmptyFieldSelection(t *testing.T) {
	s := blog(t, gqlschema.DefaultConfig())
	op := parse(t, s, `{ articles { data { id attributes { tags { data { id } } } } } }`, nil)
	q := op.Fields[0].Query
	if q.Fields == nil || len(q.Fields) != 0 || q.Populate.Children[0].Fields == nil || len(q.Populate.Children[0].Fields) != 0 {
		t.Errorf("fields: %#v / %#v", q.Fields, q.Populate.Children[0].Fields)
	}
}

func TestMutationData(t *testing.T) {
	s := blog(t, gqlschema.DefaultConfig())
	op := parse(t, s, `mutation { createArticle(data: {title: "T", category: tech_news, views: 3, rating: 1.5, tags: ["1", 2], author: "4",
		seo: {metaTitle: "m", kind: b, keywords: [{word: "w"}]}, links: [{id: "5", label: "l"}],
		blocks: [{__typename: "ComponentSharedQuote", text: "q"}, {__typename: "ComponentSharedSeo", metaTitle: "s", kind: "a"}], meta: {x: [1, "y"]}}) { data { id } } }`, nil)
	rf := op.Fields[0]
	if rf.Err != nil {
		t.Fatal(rf.Err)
	}
	b, _ := json.Marshal(rf.Data)
	want := `{"author":4,"blocks":[{"__component":"shared.quote","text":"q"},{"__component":"shared.seo","kind":"a","metaTitle":"s"}],"category":"tech news","links":[{"id":5,"label":"l"}],"meta":{"x":[1,"y"]},"rating":1.5,"seo":{"keywords":[{"word":"w"}],"kind":"b","metaTitle":"m"},"tags":[1,2],"title":"T","views":3}`
	if string(b) != want {
		t.Errorf("data\n got %s\nwant %s", b, want)
	}
}

// TestRequestErrors covers the failures that refuse the whole request (HTTP 400).
func TestRequestErrors(t *testing.T) {
	cfg := gqlschema.DefaultConfig()
	cfg.DepthLimit = 4
	s := blog(t, cfg)
	cases := []struct {
		query, op string
		vars      map[string]any
		code, msg string
	}{
		{"", "", nil, "INTERNAL_SERVER_ERROR", "GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension."},
		{"{ articles { data { id } ", "", nil, "GRAPHQL_PARSE_FAILED", "Syntax Error: Expected Name, found <EOF>."},
		{"{ articles { data { idx } } }", "", nil, "GRAPHQL_VALIDATION_FAILED", `Cannot query field "idx" on type "ArticleEntity". Did you mean "id"?`},
		{"query A { tags { data { id } } } query B { tags { data { id } } }", "", nil, "INTERNAL_SERVER_ERROR", "Must provide operation name if query contains multiple operations."},
		{"query A { tags { data { id } } }", "C", nil, "INTERNAL_SERVER_ERROR", `Unknown operation named "C".`},
		{"query($id: ID!) { tag(id: $id) { data { id } } }", "", nil, "BAD_USER_INPUT", `Variable "$id" of required type "ID!" was not provided.`},
		{"query($p: PaginationArg) { tags(pagination: $p) { data { id } } }", "", map[string]any{"p": map[string]any{"limit": "x"}}, "BAD_USER_INPUT", `Variable "$p" got invalid value "x" at "p.limit"; Int cannot represent non-integer value: "x"`},
		{"query($p: PaginationArg) { tags(pagination: $p) { data { id } } }", "", map[string]any{"p": map[string]any{"limitx": 1}}, "BAD_USER_INPUT", `Variable "$p" got invalid value { limitx: 1 }; Field "limitx" is not defined by type "PaginationArg". Did you mean "limit"?`},
		{`mutation { createArticle(data: {blocks: [{__typename: "Nope"}]}) { data { id } } }`, "", nil, "GRAPHQL_VALIDATION_FAILED", `Expected value of type "ArticleBlocksDynamicZoneInput!", found {__typename: "Nope"}; Component not found. expected one of: ComponentSharedSeo, ComponentSharedLink, ComponentSharedQuote`},
		{`mutation { createArticle(data: {blocks: ["x"], publishDate: "2024-13-45", eventAt: 5, startTime: "25:00:00", big: 1.5}) { data { id } } }`, "", nil, "GRAPHQL_VALIDATION_FAILED", `Expected value of type "ArticleBlocksDynamicZoneInput!", found "x".`},
		{`mutation($d: ArticleInput!) { createArticle(data: $d) { data { id } } }`, "", map[string]any{"d": map[string]any{"title": "abc", "publishDate": "2024-13-01", "blocks": []any{map[string]any{"x": 1}}}}, "BAD_USER_INPUT", `Variable "$d" got invalid value "2024-13-01" at "d.publishDate"; Date cannot represent an invalid date-string 2024-13-01.`},
		{"query Deep { articles { data { attributes { author { data { attributes { name } } } } } } }", "", nil, "GRAPHQL_VALIDATION_FAILED", "'Deep' exceeds maximum operation depth of 4"},
	}
	for _, c := range cases {
		vars := c.vars
		if vars != nil {
			b, _ := json.Marshal(vars)
			vars = nil
			d := json.NewDecoder(strings.NewReader(string(b)))
			d.UseNumber()
			d.Decode(&vars)
		}
		_, err := gql.Parse(s, gql.Request{Query: c.query, OperationName: c.op, Variables: vars}, gql.OptionsFrom(s.Config))
		var re gql.RequestErrors
		if !errors.As(err, &re) || len(re) == 0 {
			t.Errorf("%q: want request error, got %v", c.query, err)
			continue
		}
		if re[0].Code != c.code || re[0].Message != c.msg {
			t.Errorf("%q:\n got %s %q\nwant %s %q", c.query, re[0].Code, re[0].Message, c.code, c.msg)
		}
	}
}

func TestFieldErrors(t *testing.T) {
	s := blog(t, gqlschema.DefaultConfig())
	op := parse(t, s, `{ a: articles(pagination: {page: 1, limit: 2}) { data { id } } b: articles(sort: "title:up") { data { id } } c: tags { data { id } } }`, nil)
	var ae *apierror.Error
	if !errors.As(op.Fields[0].Err, &ae) || ae.Name != "PaginationError" {
		t.Errorf("mixed pagination: %v", op.Fields[0].Err)
	}
	if !errors.As(op.Fields[1].Err, &ae) || ae.Name != "ValidationError" {
		t.Errorf("bad sort order: %v", op.Fields[1].Err)
	}
	if op.Fields[2].Err != nil {
		t.Errorf("a healthy sibling failed: %v", op.Fields[2].Err)
	}
	// A relation's bad arguments fail that field only.
	op = parse(t, s, `{ articles { data { attributes { title tags(pagination: {page: 1, start: 1}) { data { id } } } } } }`, nil)
	rf := op.Fields[0]
	if rf.Err != nil || rf.Query.Populate != nil {
		t.Fatalf("root: %v %+v", rf.Err, rf.Query.Populate)
	}
	attrs := rf.Object.Fields[0].Object.Fields[0].Object
	if tags := attrs.Fields[1]; tags.Name != "tags" || tags.Err == nil {
		t.Errorf("tags field error: %+v", tags)
	}
}

// TestLowerPlugins: the upload and i18n plugins' root fields, the Upload scalar and a
// file's related entries.
func TestLowerPlugins(t *testing.T) {
	s := blog(t, gqlschema.DefaultConfig())
	op := parse(t, s, `mutation($f: Upload!) { upload(file: $f, info: {name: "n"}, ref: "api::article.article", refId: 1, field: "cover") { data { id attributes { name related { ... on Article { title views } ... on ComponentSharedSeo { metaTitle } } } } } }`,
		map[string]any{"f": gql.Upload{Part: "0"}})
	rf := op.Fields[0]
	if rf.Kind != gql.KindUpload || rf.Action != gqlschema.ActionUpload || rf.Err != nil {
		t.Fatalf("upload: kind %d action %s err %v", rf.Kind, rf.Action, rf.Err)
	}
	if got := rf.Args.Map["file"]; got != (gql.Upload{Part: "0"}) {
		t.Fatalf("file argument %#v", got)
	}
	if got := compact(rf.Query.Fields); got != `["name"]` || rf.Query.Model != schemas.FileUID {
		t.Fatalf("read-back %s %s", rf.Query.Model, got)
	}
	if got := compact(rf.Related); got != `["metaTitle","title","views"]` {
		t.Fatalf("related fields %s", got)
	}

	op = parse(t, s, `mutation { createPageLocalization(id: 3, locale: "fr", data: {title: "t", views: 2}) { data { id attributes { title } } } }`, nil)
	rf = op.Fields[0]
	if rf.Kind != gql.KindLocalization || rf.ID != "3" || compact(rf.Query.Locale) != `["fr"]` || compact(rf.Data) != `{"title":"t","views":2}` {
		t.Fatalf("createPageLocalization: kind %d id %s locale %v data %v", rf.Kind, rf.ID, rf.Query.Locale, rf.Data)
	}
	op = parse(t, s, `mutation { createFooterLocalization(locale: "fr") { data { id } } }`, nil)
	if rf = op.Fields[0]; rf.Err != nil || compact(rf.Data) != `{}` {
		t.Fatalf("createFooterLocalization without data: %v %v", rf.Err, rf.Data)
	}

	// Files come only through multipart variables.
	_, err := gql.Parse(s, gql.Request{Query: `mutation($f: Upload!) { upload(file: $f) { data { id } } }`, Variables: map[string]any{"f": "/etc/passwd"}}, gql.Options{})
	var re gql.RequestErrors
	if !errors.As(err, &re) || re[0].Message != `Variable "$f" got invalid value "/etc/passwd"; Upload value invalid.` {
		t.Fatalf("upload variable: %v", err)
	}
	_, err = gql.Parse(s, gql.Request{Query: `mutation { upload(file: "x") { data { id } } }`}, gql.Options{})
	if !errors.As(err, &re) || re[0].Message != "Upload literal unsupported." || re[0].Code != gql.CodeValidationFailed {
		t.Fatalf("upload literal: %v", err)
	}

	// Locale literals name a locale Strapi knows (or "all"); variables are taken as given.
	for q, want := range map[string]string{
		`{ pages(locale: "xx") { data { id } } }`: `Expected value of type "I18NLocaleCode", found "xx"; Unknown locale supplied`,
		`{ pages(locale: 5) { data { id } } }`:    `Expected value of type "I18NLocaleCode", found 5; Locale cannot represent non string type`,
	} {
		_, err = gql.Parse(s, gql.Request{Query: q}, gql.Options{})
		if !errors.As(err, &re) || re[0].Message != want || re[0].Code != gql.CodeValidationFailed {
			t.Errorf("%s: %v", q, err)
		}
	}
	for _, q := range []string{`{ pages(locale: "de-CH") { data { id } } }`, `{ pages(locale: "all") { data { id } } }`} {
		parse(t, s, q, nil)
	}
	parse(t, s, `query($l: I18NLocaleCode) { pages(locale: $l) { data { id } } }`, map[string]any{"l": "xx"})
}
