package transport

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
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
