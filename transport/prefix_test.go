package transport

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/schemas"
)

func TestWithRESTPrefix(t *testing.T) {
	var seen string
	h := withRESTPrefix("/v1", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { seen = r.URL.Path }))
	for path, want := range map[string]string{"/v1/articles": "/api/articles", "/v1": "/api", "/graphql": "/graphql", "/v1x/a": "/v1x/a"} {
		seen = ""
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", path, nil))
		if seen != want {
			t.Errorf("%s routed as %q, want %q", path, seen, want)
		}
	}
	seen = ""
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/articles", nil))
	if seen != "" || rec.Code != 404 {
		t.Errorf("/api under prefix /v1: %d, routed as %q", rec.Code, seen)
	}
}

func TestClientIP(t *testing.T) {
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "10.0.0.1:5000"
	r.Header.Set("X-Forwarded-For", "203.0.113.7, 10.0.0.2")
	if got := (&Server{}).clientIP(r); got != "10.0.0.1" {
		t.Errorf("without proxy: %s", got)
	}
	if got := (&Server{TrustProxy: true}).clientIP(r); got != "203.0.113.7" {
		t.Errorf("with proxy: %s", got)
	}
}

// TestUpstreamKeepsPrefix: what goes to Strapi under a REST prefix keeps the client's path
// (Strapi serves the prefix too), not the /api path Quarry routes by.
func TestUpstreamKeepsPrefix(t *testing.T) {
	var got string
	s := &Server{Log: slog.New(slog.DiscardHandler), Upstream: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = r.URL.Path })}
	h := withRESTPrefix("/v1", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.toUpstream(w, r, "test") }))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/v1/articles/featured", nil))
	if got != "/v1/articles/featured" {
		t.Errorf("upstream got %q, want /v1/articles/featured", got)
	}
}

// A path with one trailing slash is routed as without it, as Strapi's (not strict) router
// does; two slashes are not (issue 28, item 3).
func TestWithoutTrailingSlash(t *testing.T) {
	var seen string
	h := withoutTrailingSlash(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { seen = r.URL.Path }))
	for path, want := range map[string]string{"/api/product-reviews/": "/api/product-reviews", "/api/a/1/": "/api/a/1",
		"/": "/", "/api/a//": "/api/a//", "/graphql/": "/graphql", "/api/a": "/api/a"} {
		seen = ""
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", path+"?x=1", nil))
		if seen != want {
			t.Errorf("%s routed as %q, want %q", path, seen, want)
		}
	}
}

// /_health answers every method 204 with Strapi's header; GET / is a page, not a 404 (issue
// 28, item 14).
func TestHealthAndWelcome(t *testing.T) {
	s := &Server{Log: slog.New(slog.DiscardHandler), Schema: &schemas.Schema{}, Environment: "production"}
	h := s.Handler()
	for _, m := range []string{"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(m, "/_health", nil))
		if rec.Code != 204 || rec.Header().Get("Strapi") != "You are so French!" {
			t.Errorf("%s /_health: %d, strapi header %q", m, rec.Code, rec.Header().Get("Strapi"))
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") || !strings.Contains(rec.Body.String(), "production") {
		t.Errorf("GET /: %d %q\n%s", rec.Code, rec.Header().Get("Content-Type"), rec.Body.String())
	}
}

// With the documentation plugin installed, /documentation/v1.0.0 shows the OpenAPI document
// in Swagger UI, as Strapi's plugin does there (issue 28, item 15).
func TestDocsUI(t *testing.T) {
	s := &Server{Log: slog.New(slog.DiscardHandler), Schema: &schemas.Schema{}, OpenAPI: []byte(`{}`), DocsUI: true}
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/documentation/v1.0.0", nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"/documentation/v1.0.0/openapi.json"`) || !strings.Contains(rec.Body.String(), "SwaggerUIBundle") {
		t.Errorf("docs UI: %d\n%s", rec.Code, rec.Body.String())
	}
	s = &Server{Log: slog.New(slog.DiscardHandler), Schema: &schemas.Schema{}, OpenAPI: []byte(`{}`)}
	rec = httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/documentation/v1.0.0", nil))
	if rec.Code != 404 {
		t.Errorf("docs UI without the plugin: %d", rec.Code)
	}
}
