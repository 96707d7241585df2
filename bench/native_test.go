package bench

import (
	"context"
	"net/http"
	"os"
	"testing"
)

// BenchmarkHandlerPostgres is BenchmarkHandler on PostgreSQL's native path (pgx's
// connection, planner/exec/native.go): the whole request, the database's own time included,
// so its time is noisy but its allocations are Quarry's. It runs on the database
// QUARRY_BENCH_POSTGRES_URL names (generated into when it holds no articles, as the load
// driver's -dsn), and is skipped without one:
//
//	go run ./bench/cmd/load -db postgres -generate-only   # prints a kept database's URL
//	QUARRY_BENCH_POSTGRES_URL=<URL> QUARRY_BENCH_PAGESIZE=100 \
//	  go test ./bench -run '^$' -bench HandlerPostgres -benchmem -cpuprofile /tmp/cpu.out
func BenchmarkHandlerPostgres(b *testing.B) {
	u := os.Getenv("QUARRY_BENCH_POSTGRES_URL")
	if u == "" {
		b.Skip("QUARRY_BENCH_POSTGRES_URL is not set")
	}
	e, err := Open(context.Background(), Config{AppDir: "../examples/blog", Client: "postgres", URL: u, Articles: articles(), Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	reqs := restCorpus()
	reqs = append(reqs, Request{Name: "populate-star", Path: "/api/articles", Query: "populate=*"})
	for _, r := range reqs {
		b.Run(r.Name, func(b *testing.B) {
			h := e.Server.Handler()
			req, err := http.NewRequest(http.MethodGet, "http://127.0.0.1"+r.Target(PageSize), nil)
			if err != nil {
				b.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer "+TokenKey)
			w := &discard{keep: os.Getenv("QUARRY_BENCH_DUMP") != ""}
			h.ServeHTTP(w, req)
			if w.status != http.StatusOK {
				b.Fatalf("status %d: %s", w.status, w.body)
			}
			if dir := os.Getenv("QUARRY_BENCH_DUMP"); dir != "" {
				if err := os.WriteFile(dir+"/"+r.Name+".json", w.body, 0o644); err != nil {
					b.Fatal(err)
				}
				w.keep = false
			}
			size := w.n
			b.ReportAllocs()
			for b.Loop() {
				w.reset()
				h.ServeHTTP(w, req)
			}
			b.ReportMetric(float64(size), "resp-bytes/op")
		})
	}
}
