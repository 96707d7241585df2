package graphql_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/parser/gqlschema"
	gql "github.com/quarrycms/quarry/parser/graphql"
)

// describe is everything lowering produced for a request, as text: each root field's
// outcome and its whole selection tree (arguments, errors, populate indexes).
func describe(op *gql.Operation) string {
	var b strings.Builder
	var field func(f *gql.Field, depth int)
	object := func(o *gql.Object, depth int) {
		if o == nil {
			return
		}
		if o.Level != nil {
			fmt.Fprintf(&b, "%*slevel %d\n", depth, "", len(o.Level.Attrs))
		}
		for _, f := range o.Fields {
			field(f, depth)
		}
	}
	field = func(f *gql.Field, depth int) {
		attr := ""
		if f.Attr != nil {
			attr = f.Attr.Name
		}
		fmt.Fprintf(&b, "%*s%s:%s args=%s err=%v pop=%d attr=%s morph=%v\n", depth, "", f.Key, f.Name, compact(f.Args), f.Err, f.Pop, attr, f.Morph)
		object(f.Object, depth+1)
		for name, o := range f.Union {
			fmt.Fprintf(&b, "%*s... on %s\n", depth+1, "", name)
			object(o, depth+2)
		}
	}
	for _, rf := range op.Fields {
		fmt.Fprintf(&b, "root %s kind=%d action=%s id=%q start=%d limit=%d count=%v related=%v err=%v\n query=%s\n data=%s\n",
			rf.Key, rf.Kind, rf.Action, rf.ID, rf.Start, rf.Limit, rf.Count, rf.Related, rf.Err, compact(rf.Query), compact(rf.Data))
		field(rf.Field, 1)
	}
	return b.String()
}

// vars decodes variables as the transport does (numbers as json.Number).
func vars(t *testing.T, js string) map[string]any {
	t.Helper()
	if js == "" {
		return nil
	}
	var v map[string]any
	d := json.NewDecoder(strings.NewReader(js))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestTemplatesBindEachRequest sends the same documents with different variables through one
// document cache, interleaved, and checks that every request gets exactly what a parse
// without the cache gives it, that what an earlier request got does not change when later
// ones are lowered or when the executor changes its own copy of a query (as it sets the
// default locale), and that the cached lowering is really reused.
func TestTemplatesBindEachRequest(t *testing.T) {
	s := blog(t, gqlschema.DefaultConfig())
	const (
		// Root arguments from variables beside constant ones (filters, sort).
		rootVars = `query R($id: ID, $loc: I18NLocaleCode, $p: PaginationArg, $f: ArticleFiltersInput, $state: PublicationState) {
			article(id: $id) { data { id attributes { title } } }
			pages(locale: $loc) { data { id attributes { title } } }
			articles(filters: $f, pagination: $p, publicationState: $state, sort: "title:desc") {
				data { id attributes { title tags(sort: "name") { data { id } } } }
				meta { pagination { pageSize } }
			}
			fixed: articles(filters: {views: {gt: 3}}, sort: ["slug"]) { data { id } meta { pagination { total } } }
			__type(name: "Article") { name }
		}`
		// Variables below the root: lowered per request.
		nested = `query N($n: Int, $name: String) { articles(pagination: {limit: 2}) { data { attributes {
			tags(pagination: {limit: $n}, filters: {name: {eq: $name}}) { data { id attributes { name } } } } } } }`
		// The selection's shape depends on variables.
		shape = `query S($with: Boolean!, $skip: Boolean = false) { articles { data { attributes {
			title @include(if: $with) slug @skip(if: $with) author @skip(if: $skip) { data { id } } } } } }`
		typeVar = `query T($t: String!) { __type(name: $t) { name } }`
		write   = `mutation W($title: String) { createArticle(data: {title: $title, views: 3}) { data { id } }
			fixedData: createArticle(data: {title: "Same", seo: {metaTitle: "m"}}) { data { id } } }`
	)
	reqs := []gql.Request{
		{Query: rootVars, Variables: vars(t, `{"id": "1", "loc": "fr", "p": {"page": 2, "pageSize": 5}, "f": {"title": {"eq": "a"}}, "state": "PREVIEW"}`)},
		{Query: rootVars, Variables: vars(t, `{"id": 7, "loc": "en", "p": {"limit": -1}, "f": {"views": {"lt": 3}}}`)},
		{Query: rootVars, Variables: vars(t, `{}`)},
		{Query: rootVars, Variables: vars(t, `{"p": {"page": 1, "start": 3}}`)},             // the root field fails
		{Query: rootVars, Variables: vars(t, `{"f": {"title": {"eq": "a"}}, "loc": "de"}`)}, // shares a filter with the first
		{Query: nested, Variables: vars(t, `{"n": 1, "name": "x"}`)},
		{Query: nested, Variables: vars(t, `{"n": 5}`)},
		{Query: nested, Variables: vars(t, `{"n": 1, "name": "x"}`)},
		{Query: shape, Variables: vars(t, `{"with": true}`)},
		{Query: shape, Variables: vars(t, `{"with": false, "skip": true}`)},
		{Query: shape, Variables: vars(t, `{"with": true, "skip": true}`)},
		{Query: shape, Variables: vars(t, `{"with": false}`)},
		{Query: typeVar, Variables: vars(t, `{"t": "Tag"}`)},
		{Query: typeVar, Variables: vars(t, `{"t": "Writer"}`)},
		{Query: write, Variables: vars(t, `{"title": "First"}`)},
		{Query: write, Variables: vars(t, `{"title": "Second"}`)},
	}
	cached := gql.OptionsFrom(s.Config)
	cached.Docs = gql.NewDocuments(8)
	type seen struct {
		op   *gql.Operation
		text string
	}
	var earlier []seen
	distinct := map[string]map[string]bool{}
	for round := 0; round < 3; round++ {
		for i, r := range reqs {
			want, err := gql.Parse(s, r, gql.OptionsFrom(s.Config))
			if err != nil {
				t.Fatalf("request %d: %v", i, err)
			}
			got, err := gql.Parse(s, r, cached)
			if err != nil {
				t.Fatalf("request %d (cached): %v", i, err)
			}
			g, w := describe(got), describe(want)
			if g != w {
				t.Errorf("round %d request %d (%s):\n got:\n%s\nwant:\n%s", round, i, compact(r.Variables), g, w)
			}
			if distinct[r.Query] == nil {
				distinct[r.Query] = map[string]bool{}
			}
			distinct[r.Query][g] = true
			// The executor owns the top level of each query: it fills in the default locale.
			for _, rf := range got.Fields {
				if rf.Query != nil && rf.Query.Locale == nil {
					rf.Query.Locale = []string{fmt.Sprintf("req%d", i)}
				}
				if rf.Data != nil {
					rf.Data["title"] = fmt.Sprintf("changed by %d", i)
				}
			}
			earlier = append(earlier, seen{got, describe(got)})
		}
	}
	for i, e := range earlier {
		if now := describe(e.op); now != e.text {
			t.Errorf("lowering %d changed after later requests:\n now:\n%s\nwas:\n%s", i, now, e.text)
		}
	}
	// Requests that differ in variables got different lowerings (the test would not see a
	// leak otherwise).
	for q, n := range map[string]int{rootVars: 5, nested: 2, shape: 4, typeVar: 2, write: 2} {
		if len(distinct[q]) != n {
			t.Errorf("%d distinct lowerings of %.20q, want %d", len(distinct[q]), q, n)
		}
	}

	// The cached lowering is reused: root fields without variables share their selection
	// tree, those with variables in their own arguments share their sub-selection, and those
	// with variables further down are lowered anew.
	a, _ := gql.Parse(s, reqs[0], cached)
	b, _ := gql.Parse(s, reqs[1], cached)
	if a.Fields[3].Field != b.Fields[3].Field || a.Fields[3].Query.Filters != b.Fields[3].Query.Filters {
		t.Error("a root field without variables was lowered again")
	}
	if a.Fields[2].Field == b.Fields[2].Field || a.Fields[2].Object != b.Fields[2].Object || a.Fields[2].Query == b.Fields[2].Query {
		t.Error("a root field with variables: own field and query per request, shared sub-selection expected")
	}
	if a.Fields[2].Query.Sort == nil || &a.Fields[2].Query.Sort[0] != &b.Fields[2].Query.Sort[0] {
		t.Error("constant sort beside variables was lowered again")
	}
	n1, _ := gql.Parse(s, reqs[5], cached)
	n2, _ := gql.Parse(s, reqs[6], cached)
	if n1.Fields[0].Object == n2.Fields[0].Object {
		t.Error("a root field with variables below shares its selection")
	}
	s1, _ := gql.Parse(s, reqs[8], cached)
	s2, _ := gql.Parse(s, reqs[10], cached)
	s3, _ := gql.Parse(s, reqs[9], cached)
	if s1.Fields[0].Field == s3.Fields[0].Field || s1.Fields[0].Field == s2.Fields[0].Field {
		t.Error("selections of different @skip/@include variables share a template")
	}
	w1, _ := gql.Parse(s, reqs[14], cached)
	w2, _ := gql.Parse(s, reqs[14], cached)
	if w1.Fields[1].Data == nil || fmt.Sprint(w1.Fields[1].Data["seo"]) == "" {
		t.Fatal("no data")
	}
	w1.Fields[1].Data["seo"].(map[string]any)["metaTitle"] = "changed"
	if w2.Fields[1].Data["seo"].(map[string]any)["metaTitle"] != "m" {
		t.Error("mutations share their payload")
	}
}

// TestTemplatesNotForOtherOptions: a template is kept per pagination options, which lowering
// bakes into constant pagination.
func TestTemplatesNotForOtherOptions(t *testing.T) {
	s := blog(t, gqlschema.DefaultConfig())
	docs := gql.NewDocuments(4)
	q := gql.Request{Query: `{ articles { data { id } } }`}
	limit := func(def int) int {
		opt := gql.OptionsFrom(s.Config)
		opt.Docs, opt.DefaultLimit = docs, def
		op, err := gql.Parse(s, q, opt)
		if err != nil {
			t.Fatal(err)
		}
		return op.Fields[0].Limit
	}
	if a, b := limit(5), limit(7); a != 5 || b != 7 {
		t.Errorf("limits %d, %d; want 5, 7", a, b)
	}
}

// TestTemplatesConcurrently lowers one document with different variables from several
// goroutines at once (run with -race): each gets what a parse without the cache gives it.
func TestTemplatesConcurrently(t *testing.T) {
	s := blog(t, gqlschema.DefaultConfig())
	const doc = `query($p: PaginationArg, $w: Boolean!, $n: Int) { articles(pagination: $p, sort: "id", filters: {views: {gt: 1}}) {
		data { id attributes { title @include(if: $w) tags(pagination: {limit: $n}) { data { id } } } } meta { pagination { total } } }
		tags { data { id } } }`
	cached := gql.OptionsFrom(s.Config)
	cached.Docs = gql.NewDocuments(4)
	reqs := make([]gql.Request, 8)
	wants := make([]string, len(reqs))
	for i := range reqs {
		reqs[i] = gql.Request{Query: doc, Variables: vars(t, fmt.Sprintf(`{"p": {"page": %d, "pageSize": %d}, "w": %v, "n": %d}`, i+1, i+2, i%2 == 0, i))}
		want, err := gql.Parse(s, reqs[i], gql.OptionsFrom(s.Config))
		if err != nil {
			t.Fatal(err)
		}
		wants[i] = describe(want)
	}
	errs := make(chan string, 64)
	done := make(chan struct{})
	for g := 0; g < 4; g++ {
		go func(g int) {
			defer func() { done <- struct{}{} }()
			for k := 0; k < 20; k++ {
				i := (g + k) % len(reqs)
				op, err := gql.Parse(s, reqs[i], cached)
				if err != nil {
					errs <- err.Error()
					return
				}
				if got := describe(op); got != wants[i] {
					errs <- fmt.Sprintf("request %d:\n got:\n%s\nwant:\n%s", i, got, wants[i])
					return
				}
			}
		}(g)
	}
	for g := 0; g < 4; g++ {
		<-done
	}
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
