// Package observe records what each HTTP request did — its route pattern, status, bytes,
// duration, SQL statements, request id and GraphQL operations — and hands the record to the
// access log and the metrics once the response is written.
package observe

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/sqlgen"
)

// RequestIDHeader is the header a request id is read from and returned in.
const RequestIDHeader = "X-Request-Id"

// Record is one answered request.
type Record struct {
	ID     string
	Method string
	// Route is the router's pattern ("/api/{name}/{id}"), never the raw path, so it has few
	// values; "unmatched" when no route took the request.
	Route string
	// Path is the URL path without its query (queries can carry reset codes and tokens).
	Path       string
	Status     int
	Bytes      int64
	Duration   time.Duration
	Statements int64
	// GraphQL lists the operation types a GraphQL request ran ("query", "mutation", or
	// "invalid" when the document did not parse or validate); batches run several.
	GraphQL []string

	stmts atomic.Int64
	mu    sync.Mutex
}

// Observer gets every record once its response is written.
type Observer func(*Record)

type key struct{}

// FromContext is the record of the request a context belongs to, or nil.
func FromContext(ctx context.Context) *Record {
	rec, _ := ctx.Value(key{}).(*Record)
	return rec
}

// GraphQLOperation notes an operation type on the request's record, if any.
func GraphQLOperation(ctx context.Context, kind string) {
	if rec := FromContext(ctx); rec != nil {
		rec.mu.Lock()
		rec.GraphQL = append(rec.GraphQL, kind)
		rec.mu.Unlock()
	}
}

// Middleware records every request and calls the observers after it is answered; it must be
// the outermost middleware so that what the others answer (a recovered panic's 500, a CORS
// preflight) is recorded too.
func Middleware(now func() time.Time, observers ...Observer) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := now()
			rec := &Record{ID: requestID(r.Header.Get(RequestIDHeader)), Method: r.Method, Path: r.URL.Path}
			w.Header().Set(RequestIDHeader, rec.ID)
			ctx := context.WithValue(r.Context(), key{}, rec)
			ctx = exec.WithTrace(ctx, func(sqlgen.Stmt, int, time.Duration) { rec.stmts.Add(1) })
			rw := &writer{ResponseWriter: w}
			r = r.WithContext(ctx)
			defer func() {
				rec.Duration = now().Sub(start)
				rec.Status, rec.Bytes = rw.status, rw.bytes
				if rec.Status == 0 {
					rec.Status = http.StatusOK
				}
				rec.Statements = rec.stmts.Load()
				if rc := chi.RouteContext(r.Context()); rc != nil {
					rec.Route = rc.RoutePattern()
				}
				if rec.Route == "" || rec.Route == "/*" {
					rec.Route = "unmatched"
				}
				for _, o := range observers {
					o(rec)
				}
			}()
			next.ServeHTTP(rw, r)
		})
	}
}

// requestID keeps a client's or proxy's id when it is short and made of safe characters (it
// is echoed in a header and written to logs), and makes one otherwise.
func requestID(v string) string {
	if v != "" && len(v) <= 128 {
		ok := true
		for i := 0; i < len(v) && ok; i++ {
			c := v[i]
			ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
				c == '-' || c == '_' || c == '.' || c == ':' || c == '/' || c == '+' || c == '='
		}
		if ok {
			return v
		}
	}
	b := make([]byte, 16)
	rand.Read(b) // never fails (crypto/rand panics rather than return an error since Go 1.24)
	return hex.EncodeToString(b)
}

// writer remembers the status and counts the bytes of a response.
type writer struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *writer) WriteHeader(code int) {
	if w.status == 0 && code >= 200 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *writer) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the connection (flushes, deadlines, hijacking).
func (w *writer) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush keeps streaming answers streaming.
func (w *writer) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		if w.status == 0 {
			w.status = http.StatusOK
		}
		f.Flush()
	}
}
