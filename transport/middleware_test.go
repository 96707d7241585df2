package transport

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// Headers as the real Strapi 4.26 sends them (oracle, default middlewares).
const (
	strapiCSPHeader   = "connect-src 'self' https:;img-src 'self' data: blob: https://market-assets.strapi.io;media-src 'self' data: blob:;default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline'"
	strapiGraphQLCSP  = "connect-src 'self' https:;img-src 'self' data: blob: https://market-assets.strapi.io 'self' data: cdn.jsdelivr.net strapi.io;media-src 'self' data: blob:;script-src 'self' 'unsafe-inline' cdn.jsdelivr.net;default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';object-src 'none';script-src-attr 'none';style-src 'self' https: 'unsafe-inline'"
	strapiHSTSHeader  = "max-age=31536000; includeSubDomains"
	strapiCORSMethods = "GET,POST,PUT,PATCH,DELETE,HEAD,OPTIONS"
)

func serveWith(t *testing.T, hc *HTTPConfig, req *http.Request) *httptest.ResponseRecorder {
	t.Helper()
	s := &Server{HTTP: hc}
	h := s.httpMiddleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(299) }))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestSecurityHeadersLikeStrapi(t *testing.T) {
	rec := serveWith(t, nil, httptest.NewRequest("GET", "/api/articles", nil))
	want := map[string]string{
		"Content-Security-Policy": strapiCSPHeader, "Referrer-Policy": "no-referrer", "Strict-Transport-Security": strapiHSTSHeader,
		"X-Content-Type-Options": "nosniff", "X-Dns-Prefetch-Control": "off", "X-Download-Options": "noopen",
		"X-Frame-Options": "SAMEORIGIN", "X-Permitted-Cross-Domain-Policies": "none", "Vary": "Origin",
		"Access-Control-Allow-Credentials": "true",
	}
	for k, v := range want {
		if got := rec.Header().Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	for _, k := range []string{"X-Xss-Protection", "Cross-Origin-Embedder-Policy", "Cross-Origin-Opener-Policy", "Origin-Agent-Cluster", "X-Powered-By"} {
		if rec.Header().Get(k) != "" {
			t.Errorf("%s set", k)
		}
	}
	if v, ok := rec.Header()["Access-Control-Allow-Origin"]; !ok || v[0] != "" {
		t.Errorf("Access-Control-Allow-Origin without Origin: %q (Strapi sends it empty)", v)
	}
	rec = serveWith(t, nil, httptest.NewRequest("GET", "/graphql", nil))
	if got := rec.Header().Get("Content-Security-Policy"); got != strapiGraphQLCSP {
		t.Errorf("GraphQL CSP %q", got)
	}
	if rec.Code != 299 {
		t.Errorf("next not called: %d", rec.Code)
	}
}

func TestCORS(t *testing.T) {
	req := httptest.NewRequest("OPTIONS", "/api/articles", nil)
	req.Header.Set("Origin", "http://foo.com")
	req.Header.Set("Access-Control-Request-Method", "POST")
	rec := serveWith(t, nil, req)
	if rec.Code != 204 || rec.Header().Get("Access-Control-Allow-Origin") != "http://foo.com" ||
		rec.Header().Get("Access-Control-Allow-Methods") != strapiCORSMethods || rec.Header().Get("Access-Control-Max-Age") != "31536000" ||
		rec.Header().Get("Access-Control-Allow-Headers") != "Content-Type,Authorization,Origin,Accept" {
		t.Fatalf("preflight %d %v", rec.Code, rec.Header())
	}

	hc, err := ParseHTTPConfig([]byte(`["strapi::errors", {"name":"strapi::security","config":{"contentSecurityPolicy":{"directives":{"img-src":["'self'"],"frameAncestors":["'none'"]}},"hsts":false,"xssFilter":true}},
		{"name":"strapi::cors","config":{"origin":["https://a.example","https://b.example"],"headers":["Content-Type","Authorization"],"expose":"X-Total"}}, "strapi::poweredBy"]`))
	if err != nil {
		t.Fatal(err)
	}
	req = httptest.NewRequest("GET", "/api/articles", nil)
	req.Header.Set("Origin", "https://b.example")
	rec = serveWith(t, hc, req)
	h := rec.Header()
	if h.Get("Access-Control-Allow-Origin") != "https://b.example" || h.Get("Access-Control-Expose-Headers") != "X-Total" ||
		h.Get("Strict-Transport-Security") != "" || h.Get("X-Xss-Protection") != "0" || h.Get("X-Powered-By") != "Strapi <strapi.io>" {
		t.Fatalf("configured: %v", h)
	}
	// Config values win index by index, Strapi's longer lists keep their tail (lodash defaultsDeep).
	if got := h.Get("Content-Security-Policy"); got != "img-src 'self' data: blob: https://market-assets.strapi.io;frame-ancestors 'none';connect-src 'self' https:;media-src 'self' data: blob:;default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline'" {
		t.Fatalf("CSP %q", got)
	}
	req = httptest.NewRequest("GET", "/api/articles", nil)
	req.Header.Set("Origin", "https://evil.example")
	if h := serveWith(t, hc, req).Header(); h.Get("Access-Control-Allow-Origin") != "" || h.Get("Vary") != "Origin" {
		t.Fatalf("unlisted origin: %v", h)
	}

	// A file without strapi::cors and strapi::security turns them off.
	hc, _ = ParseHTTPConfig([]byte(`["strapi::errors"]`))
	if h := serveWith(t, hc, httptest.NewRequest("GET", "/", nil)).Header(); len(h) != 0 {
		t.Fatalf("off: %v", h)
	}
	if _, err := ParseHTTPConfig([]byte(`{"not":"a list"}`)); err == nil {
		t.Fatal("bad file accepted")
	}
}
