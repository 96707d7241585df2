package bench

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// BenchmarkConcurrentWrites measures write throughput through the handler on PostgreSQL
// with the response cache's write tracking off and on: with it on, each write transaction
// records its tables and sends a NOTIFY, and PostgreSQL serializes the commits of notifying
// transactions. Eight writers update one article each per iteration.
//
//	go test ./bench -run '^$' -bench ConcurrentWrites -benchtime 2000x
func BenchmarkConcurrentWrites(b *testing.B) {
	admin := os.Getenv("QUARRY_TEST_POSTGRES_URL")
	if admin == "" {
		b.Skip("QUARRY_TEST_POSTGRES_URL is not set")
	}
	for _, tracked := range []bool{false, true} {
		b.Run(fmt.Sprintf("tracked=%v", tracked), func(b *testing.B) {
			u, drop, err := PostgresDatabase(context.Background(), admin, "quarry_writes")
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { drop() })
			e, err := Open(context.Background(), Config{AppDir: "../examples/blog", Client: "postgres", URL: u,
				Articles: 200, Seed: 1, ResponseCache: tracked})
			if err != nil {
				b.Fatal(err)
			}
			defer e.Close()
			h := e.Server.Handler()
			var next, failed atomic.Int64
			var wg sync.WaitGroup
			b.ResetTimer()
			for w := 0; w < 8; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						n := next.Add(1)
						if n > int64(b.N) {
							return
						}
						req := httptest.NewRequest("PUT", fmt.Sprintf("/api/articles/%d", 1+n%200),
							bytes.NewReader([]byte(fmt.Sprintf(`{"data":{"summary":"updated %d"}}`, n))))
						req.Header.Set("Authorization", "Bearer "+TokenKey)
						req.Header.Set("Content-Type", "application/json")
						rec := httptest.NewRecorder()
						h.ServeHTTP(rec, req)
						if rec.Code != 200 {
							failed.Add(1)
						}
					}
				}()
			}
			wg.Wait()
			b.StopTimer()
			if n := failed.Load(); n > 0 {
				b.Errorf("%d writes failed", n)
			}
		})
	}
}

// BenchmarkHandlerWrites measures one REST write through the whole handler on SQLite
// (decode, lower, apply: existence check, validation, the write, the read-back, the
// transaction): an update of a scalar and a relation, and a create with a component, a
// dynamic zone and relations.
//
//	go test ./bench -run '^$' -bench HandlerWrites -benchmem
func BenchmarkHandlerWrites(b *testing.B) {
	e, err := Open(context.Background(), Config{AppDir: "../examples/blog", Client: "sqlite",
		Filename: b.TempDir() + "/bench.db", Articles: 200, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	h := e.Server.Handler()
	for _, c := range []struct{ name, method, path, body string }{
		{"update", "PUT", "/api/articles/%d", `{"data":{"summary":"updated %d","tags":[1,2]}}`},
		{"create", "POST", "/api/articles", `{"data":{"title":"Bench %d","seo":{"metaTitle":"m"},"links":[{"label":"l"}],` +
			`"blocks":[{"__component":"shared.quote","text":"q"}],"author":1,"tags":[1,2]}}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				n++
				path := c.path
				if strings.Contains(path, "%d") {
					path = fmt.Sprintf(path, 1+n%200)
				}
				req := httptest.NewRequest(c.method, path, bytes.NewReader([]byte(fmt.Sprintf(c.body, n))))
				req.Header.Set("Authorization", "Bearer "+TokenKey)
				req.Header.Set("Content-Type", "application/json")
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != 200 {
					b.Fatalf("%s %s: %d %s", c.method, path, rec.Code, rec.Body)
				}
			}
		})
	}
}
