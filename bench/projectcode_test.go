package bench

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

var (
	codeOnce sync.Once
	codeEnv  *Env
	codeErr  error
)

// stampMiddleware is a typical route middleware of a project: it narrows the query the
// core action reads and marks the answer afterwards, so Quarry runs it in its runtime for
// project code (it does more than rewrite the query).
const stampMiddleware = `'use strict';
module.exports = (config, { strapi }) => async (ctx, next) => {
  ctx.query.filters = { ...(ctx.query.filters || {}), views: { $gte: 0 } };
  await next();
  ctx.set('x-served-by', 'middleware');
};
`

// projectCodeEnv is the benchmarks' SQLite database served for examples/blog with the
// articles' find route running stampMiddleware.
func projectCodeEnv(tb testing.TB) *Env {
	e, _ := envs(tb)
	codeOnce.Do(func() {
		dir := filepath.Join(tmpDir, "blog-with-code")
		if codeErr = os.CopyFS(dir, os.DirFS("../examples/blog")); codeErr != nil {
			return
		}
		files := map[string]string{
			"src/api/article/routes/article.js": "module.exports = require('@strapi/strapi').factories.createCoreRouter('api::article.article', { config: { find: { middlewares: ['global::stamp'] } } });\n",
			"src/middlewares/stamp.js":          stampMiddleware,
		}
		for _, api := range []string{"tag", "writer", "homepage", "page", "footer"} {
			files["src/api/"+api+"/routes/"+api+".js"] = "module.exports = require('@strapi/strapi').factories.createCoreRouter('api::" + api + "." + api + "');\n"
		}
		for name, src := range files {
			p := filepath.Join(dir, name)
			if codeErr = os.MkdirAll(filepath.Dir(p), 0o755); codeErr != nil {
				return
			}
			if codeErr = os.WriteFile(p, []byte(src), 0o644); codeErr != nil {
				return
			}
		}
		codeEnv, codeErr = Open(context.Background(), Config{AppDir: dir, Client: "sqlite",
			Filename: filepath.Join(tmpDir, "bench.db"), Log: e.Server.Log})
	})
	if codeErr != nil {
		tb.Fatal(codeErr)
	}
	return codeEnv
}

// BenchmarkProjectCode measures a route through a typical JavaScript middleware and the core
// action against the same request served natively (with the filter the middleware adds, so
// both read the same rows): the bound is 1.5× (bench/README).
func BenchmarkProjectCode(b *testing.B) {
	native, _ := envs(b)
	code := projectCodeEnv(b)
	query := "pagination[pageSize]=10&sort=id&populate[0]=tags"
	for _, v := range []struct {
		name   string
		env    *Env
		target string
	}{
		{"native", native, "http://127.0.0.1/api/articles?" + query + "&filters[views][$gte]=0"},
		{"middleware", code, "http://127.0.0.1/api/articles?" + query},
	} {
		target := v.target
		b.Run(v.name, func(b *testing.B) {
			h := v.env.Server.Handler()
			req, err := http.NewRequest(http.MethodGet, target, nil)
			if err != nil {
				b.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer "+TokenKey)
			w := &discard{}
			w.reset()
			h.ServeHTTP(w, req)
			if w.status != http.StatusOK {
				b.Fatalf("status %d", w.status)
			}
			b.ReportAllocs()
			for b.Loop() {
				w.reset()
				h.ServeHTTP(w, req)
			}
		})
	}
}

// TestProjectCodeBenchRoute checks the benchmark's route really runs the middleware.
func TestProjectCodeBenchRoute(t *testing.T) {
	code := projectCodeEnv(t)
	req, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1/api/articles?pagination[pageSize]=2", nil)
	req.Header.Set("Authorization", "Bearer "+TokenKey)
	w := &discard{keep: true}
	w.reset()
	code.Server.Handler().ServeHTTP(w, req)
	if w.status != http.StatusOK || w.Header().Get("X-Served-By") != "middleware" {
		t.Fatalf("%d %q %s", w.status, w.Header().Get("X-Served-By"), w.body)
	}
}
