package transport_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/parser/qs"
	"github.com/quarrycms/quarry/schemas/jseval"
	"github.com/quarrycms/quarry/schemas/routes"
	"github.com/quarrycms/quarry/transport"
)

func writeFile(t *testing.T, dir, rel, src string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

const pagePopulate = `'use strict';
const populate = { contentSections: { populate: { picture: { fields: ['url', 'width'] }, buttons: { populate: true } } }, seo: { fields: ['metaTitle'] } };
module.exports = (config, { strapi }) => {
  return async (ctx, next) => {
    ctx.query = { populate, filters: { slug: ctx.query.filters.slug }, locale: ctx.query.locale, limit: config.limit, flag: false };
    console.log('ctx.query =', ctx.query);
    await next();
  };
};
`

func TestMiddlewareQueryRoundTrip(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "src/api/page/middlewares/page-populate.js", pagePopulate)
	writeFile(t, dir, "src/middlewares/boom.js", `module.exports = () => async (ctx, next) => { throw new Error('no slug'); };`)
	writeFile(t, dir, "src/middlewares/body.js", `module.exports = () => async (ctx, next) => { await next(); ctx.body = {}; };`)
	writeFile(t, dir, "src/middlewares/loop.js", `module.exports = () => async (ctx) => { for (;;) {} };`)
	cfg := routes.RouteConfig{Middlewares: []any{map[string]any{"name": "api::page.page-populate", "config": map[string]any{"limit": 3}}}}
	if !routes.QueryOnly(dir, cfg) {
		t.Fatal("page-populate middleware should be runnable")
	}
	for _, c := range []routes.RouteConfig{
		{Middlewares: []any{"global::body"}},
		{Middlewares: []any{"global::missing"}},
		{Middlewares: []any{"plugin::foo.bar"}},
		{Middlewares: []any{"api::page.page-populate"}, Policies: []any{"global::is-owner"}},
	} {
		if routes.QueryOnly(dir, c) {
			t.Errorf("%v should not be runnable", c)
		}
	}
	ch, err := transport.LoadMiddlewareChain(dir, cfg, jseval.Options{Root: dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ch.Rewrite(context.Background(), "filters[slug]=home&locale=en&populate=*", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "populate[contentSections][populate][picture][fields][0]=url&populate[contentSections][populate][picture][fields][1]=width" +
		"&populate[contentSections][populate][buttons][populate]=true&populate[seo][fields][0]=metaTitle" +
		"&filters[slug]=home&locale=en&limit=3&flag=false"
	if dec := strings.NewReplacer("%5B", "[", "%5D", "]").Replace(got); dec != want {
		t.Errorf("rewritten query\n got %s\nwant %s", dec, want)
	}
	// What Quarry parses afterwards is what the middleware set.
	o, _ := qs.Parse(got, qs.StrapiOptions())
	if s := o.String(); !strings.Contains(s, `"filters":{"slug":"home"}`) || !strings.Contains(s, `"limit":"3"`) {
		t.Errorf("reparsed %s", s)
	}
	// A missing filter throws in the middleware (ctx.query.filters is undefined): an error, not a panic.
	if _, err := ch.Rewrite(context.Background(), "", nil); err == nil {
		t.Error("want the middleware's TypeError")
	}
	for _, name := range []string{"global::boom", "global::loop"} {
		ch, err := transport.LoadMiddlewareChain(dir, routes.RouteConfig{Middlewares: []any{name}}, jseval.Options{Root: dir, Timeout: 200e6}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ch.Rewrite(context.Background(), "a=1", nil); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
}

// FuzzRewriteIdentity: a middleware that leaves ctx.query alone must hand the core action the
// query the request had (the qs structure survives the trip through JavaScript and back).
func FuzzRewriteIdentity(f *testing.F) {
	dir := f.TempDir()
	p := filepath.Join(dir, "src", "middlewares", "same.js")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte(`module.exports = () => async (ctx, next) => { ctx.query = ctx.query; await next(); };`), 0o644)
	ch, err := transport.LoadMiddlewareChain(dir, routes.RouteConfig{Middlewares: []any{"global::same"}}, jseval.Options{Root: dir}, nil)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"filters[slug]=home&locale=en", "populate[0]=a&populate[1]=b", "a", "a=&b=%20x",
		"filters[$or][0][title][$eq]=x&filters[$or][1][id][$in][0]=2", "sort=title:asc&pagination[page]=2", "a[b][c]=%E2%9C%93&a[d]=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		before, _ := qs.Parse(raw, qs.StrapiOptions())
		var tree any
		if json.Unmarshal([]byte(before.String()), &tree) != nil || bracketKey(tree) {
			t.Skip("a key with a bracket has no bracket notation (README: route middlewares)")
		}
		if strings.ContainsRune(before.String(), '\uFFFD') {
			t.Skip("bytes that are not UTF-8 become U+FFFD in JavaScript, as in Node")
		}
		out, err := ch.Rewrite(context.Background(), raw, nil)
		if err != nil {
			t.Fatalf("%q: %v", raw, err)
		}
		after, _ := qs.Parse(out, qs.StrapiOptions())
		if before.String() != after.String() {
			t.Fatalf("%q → %q\nbefore %s\nafter  %s", raw, out, before, after)
		}
	})
}

func bracketKey(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if strings.ContainsAny(k, "[]") || bracketKey(x) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if bracketKey(x) {
				return true
			}
		}
	}
	return false
}
