package bench

import (
	"context"
	"net/http"
	"os"
	"sync"
	"testing"

	"github.com/quarrycms/quarry/transport/envelope"
)

// BenchmarkHandlerPostgres is BenchmarkHandler on PostgreSQL's native path (pgx's
// connection, planner/exec/native.go): the whole request, the database's own time included,
// so its time is noisy but its allocations are Quarry's (the CI guard holds them to the
// budget). It runs on the database QUARRY_BENCH_POSTGRES_URL names (generated into when
// it holds no articles, as the load driver's -dsn), else on a fresh one generated next to
// QUARRY_TEST_POSTGRES_URL, and is skipped without either:
//
//	go run ./bench/cmd/load -db postgres -generate-only   # prints a kept database's URL
//	QUARRY_BENCH_POSTGRES_URL=<URL> QUARRY_BENCH_PAGESIZE=100 \
//	  go test ./bench -run '^$' -bench HandlerPostgres -benchmem -cpuprofile /tmp/cpu.out
//
// QUARRY_BENCH_DUMP=<dir> also writes each response there, to compare two builds' byte
// for byte.
func BenchmarkHandlerPostgres(b *testing.B) {
	e := postgresEnv(b)
	reqs := append([]Request(nil), Corpus...) // REST and GraphQL
	reqs = append(reqs, Request{Name: "populate-star", Path: "/api/articles", Query: "populate=*"})
	for _, r := range reqs {
		b.Run(r.Name, func(b *testing.B) {
			h := e.Server.Handler()
			method, body := http.MethodGet, r.Body(PageSize)
			if body != nil {
				method = http.MethodPost
			}
			req, err := http.NewRequest(method, "http://127.0.0.1"+r.Target(PageSize), nil)
			if err != nil {
				b.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer "+TokenKey)
			if body != nil {
				req.Header.Set("Content-Type", "application/json")
			}
			serve := func(w *discard) {
				if body != nil {
					req.Body = &reader{b: body}
				}
				h.ServeHTTP(w, req)
			}
			w := &discard{keep: os.Getenv("QUARRY_BENCH_DUMP") != ""}
			serve(w)
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
				serve(w)
			}
			b.ReportMetric(float64(size), "resp-bytes/op")
		})
	}
}

var (
	pgOnce sync.Once
	pgEnv  *Env
	pgDrop func() error
	pgErr  error
)

// postgresEnv opens BenchmarkHandlerPostgres's database once per test binary (-count runs
// the benchmark again); TestMain closes it and drops a fresh one.
func postgresEnv(b *testing.B) *Env {
	u := os.Getenv("QUARRY_BENCH_POSTGRES_URL")
	admin := os.Getenv("QUARRY_TEST_POSTGRES_URL")
	if u == "" && admin == "" {
		b.Skip("neither QUARRY_BENCH_POSTGRES_URL nor QUARRY_TEST_POSTGRES_URL is set")
	}
	pgOnce.Do(func() {
		ctx := context.Background()
		if u == "" {
			if u, pgDrop, pgErr = PostgresDatabase(ctx, admin, "quarry_bench_native"); pgErr != nil {
				return
			}
		}
		pgEnv, pgErr = Open(ctx, Config{AppDir: "../examples/blog", Client: "postgres", URL: u, Articles: articles(), Seed: 1})
	})
	if pgErr != nil {
		b.Fatal(pgErr)
	}
	return pgEnv
}

// closePostgresEnv closes and drops what postgresEnv opened.
func closePostgresEnv() {
	if pgEnv != nil {
		pgEnv.Close()
	}
	if pgDrop != nil {
		pgDrop()
	}
}

// BenchmarkWritePostgres writes the populate=* page of BenchmarkHandlerPostgres alone, from
// a result read once on the native path: the REST envelope's and jsonw's CPU on the page the
// load driver measures (media formats and metadata as PostgreSQL prints jsonb, numerics,
// dates), which the whole request's time hides among the database's.
func BenchmarkWritePostgres(b *testing.B) {
	e := postgresEnv(b)
	pl, err := e.Plan(Request{Name: "populate-star", Path: "/api/articles", Query: "populate=*"}, PageSize)
	if err != nil {
		b.Fatal(err)
	}
	res, err := e.Server.Runner.Run(context.Background(), e.Server.DB, pl)
	if err != nil {
		b.Fatal(err)
	}
	buf := envelope.Get()
	defer envelope.Put(buf)
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		buf.WriteString(`{"data":[`)
		for i, en := range res.Entries {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.Entry(pl.Root, en)
		}
		buf.WriteString(`]}`)
	}
	b.SetBytes(int64(buf.Len()))
}
