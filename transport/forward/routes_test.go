package forward

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/quarrycms/quarry/schemas"
)

func TestDecide(t *testing.T) {
	s, err := schemas.Load("../../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	app := t.TempDir()
	files := map[string]string{
		"src/api/tag/routes/01-custom.js": `module.exports = { routes: [
  { method: 'GET', path: '/tags/featured', handler: 'tag.featured' },
  { method: 'POST', path: '/tags/:id/like', handler: 'tag.like' },
  { method: 'GET', path: '/hello', handler: 'tag.hello', config: { prefix: '' } },
] };`,
		"src/api/tag/routes/tag.js": `module.exports = require('@strapi/strapi').factories.createCoreRouter('api::tag.tag', {
  except: ['delete'],
  config: { update: { policies: ['global::is-owner'] }, find: { auth: false, middlewares: ['api::tag.populate'] },
    findOne: { middlewares: ['global::wrap'] } },
});`,
		"src/api/tag/middlewares/populate.js": `module.exports = () => async (ctx, next) => { ctx.query = { ...ctx.query, populate: '*' }; await next(); };`,
		"src/middlewares/wrap.js":             `module.exports = () => async (ctx, next) => { await next(); ctx.body = { wrapped: ctx.body }; };`,
		"src/api/article/controllers/article.js": `const { createCoreController } = require('@strapi/strapi').factories;
module.exports = createCoreController('api::article.article', ({ strapi }) => ({
  async find(ctx) { return super.find(ctx); },
  async custom(ctx) {},
}));`,
		"src/api/writer/content-types/writer/lifecycles.js": `module.exports = { afterCreate() {} };`,
	}
	for name, content := range files {
		p := filepath.Join(app, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		opts         Options
		method, path string
		upstream     bool
	}{
		{Options{}, "GET", "/api/tags/featured", true},
		{Options{}, "GET", "/api/tags/1", true},    // a middleware that sets ctx.body
		{Options{}, "GET", "/api/tags", false},     // auth: false and a query-only middleware are Quarry's
		{Options{}, "PUT", "/api/tags/1", true},    // policies
		{Options{}, "DELETE", "/api/tags/1", true}, // left out: Strapi's 404
		{Options{Overrides: Serve}, "PUT", "/api/tags/1", false},
		{Options{}, "POST", "/api/tags/7/like", true},
		{Options{}, "POST", "/api/tags//like", false},
		{Options{}, "GET", "/hello", true},
		{Options{}, "GET", "/api/hello", false},
		{Options{}, "GET", "/api/articles", true},    // find is overridden
		{Options{}, "GET", "/api/articles/1", false}, // findOne is not
		{Options{}, "POST", "/api/writers", true},    // lifecycles
		{Options{}, "PUT", "/api/writers/3", true},   // lifecycles
		{Options{}, "GET", "/api/writers", false},    // reads are Quarry's
		{Options{}, "GET", "/api/connect/github", true},
		{Options{Overrides: Serve}, "GET", "/api/articles", false},
		{Options{Lifecycles: Serve}, "POST", "/api/writers", false},
		{Options{Lifecycles: Serve}, "GET", "/api/tags/featured", true},
	}
	for _, c := range cases {
		rs, err := Load(context.Background(), app, s, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		up, why := rs.Decide(httptest.NewRequest(c.method, c.path, nil))
		if up != c.upstream {
			t.Errorf("%+v %s %s: upstream=%v (%s), want %v", c.opts, c.method, c.path, up, why, c.upstream)
		}
	}
}

func TestParsePolicy(t *testing.T) {
	if p, err := ParsePolicy("", Forward); err != nil || p != Forward {
		t.Errorf("default: %v %v", p, err)
	}
	if p, err := ParsePolicy(" Serve ", Forward); err != nil || p != Serve {
		t.Errorf("serve: %v %v", p, err)
	}
	if _, err := ParsePolicy("proxy", Forward); err == nil {
		t.Error("proxy accepted")
	}
}
