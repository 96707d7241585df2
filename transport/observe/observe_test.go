package observe

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A request id from a client is echoed in a header and written to logs: whatever comes in,
// what goes out is short and made of safe characters, and a sane one is kept.
func FuzzRequestID(f *testing.F) {
	for _, s := range []string{"", "abc-123", "a b", "x\r\nSet-Cookie: y", string(make([]byte, 200)), "é", "req_1.2:3/4+5=6"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := requestID(in)
		if out == "" || len(out) > 128 {
			t.Fatalf("requestID(%q) = %q", in, out)
		}
		for i := 0; i < len(out); i++ {
			c := out[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == ':' || c == '/' || c == '+' || c == '=') {
				t.Fatalf("requestID(%q) = %q has %q", in, out, c)
			}
		}
		if in != "" && len(in) <= 128 && out != in && requestID(out) != out {
			t.Fatalf("a generated id is not kept: %q", out)
		}
	})
}

func TestMiddlewareRecords(t *testing.T) {
	var got *Record
	h := Middleware(time.Now, func(r *Record) { got = r })(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		GraphQLOperation(r.Context(), "query")
		w.WriteHeader(http.StatusTeapot)
		w.Write([]byte("hello"))
	}))
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/x?token=secret", nil)
	req.Header.Set(RequestIDHeader, "given-1")
	h.ServeHTTP(rec, req)
	if got == nil || got.Status != http.StatusTeapot || got.Bytes != 5 || got.ID != "given-1" || got.Path != "/x" || got.Route != "unmatched" || len(got.GraphQL) != 1 {
		t.Fatalf("record %+v", got)
	}
	if rec.Header().Get(RequestIDHeader) != "given-1" {
		t.Errorf("X-Request-Id not returned")
	}
}

func TestAccessLogLevels(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))
	al := AccessLog(log)
	al(&Record{Method: "GET", Route: "/_health", Path: "/_health", Status: 204, ID: "probe"})
	al(&Record{Method: "GET", Route: "/api/{name}", Path: "/api/articles", Status: 200, ID: "ok-1", Statements: 3})
	al(&Record{Method: "POST", Route: "/graphql", Path: "/graphql", Status: 500, ID: "bad-1", GraphQL: []string{"mutation"}})
	out := buf.String()
	if strings.Contains(out, "probe") {
		t.Errorf("a health probe is logged at info: %s", out)
	}
	if !strings.Contains(out, `"level":"INFO","msg":"request","method":"GET","route":"/api/{name}"`) || !strings.Contains(out, `"sql_statements":3`) {
		t.Errorf("request line: %s", out)
	}
	if !strings.Contains(out, `"level":"ERROR"`) || !strings.Contains(out, `"graphql":"mutation"`) {
		t.Errorf("5xx line: %s", out)
	}
}
