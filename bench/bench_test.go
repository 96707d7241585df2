package bench

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/plan"
	pg "github.com/quarrycms/quarry/parser/graphql"
	"github.com/quarrycms/quarry/parser/rest"
	"github.com/quarrycms/quarry/sqlgen"
)

// PageSize is the page size of the Go benchmarks: 10, or QUARRY_BENCH_PAGESIZE (the budget
// holds for 10; the load driver runs 10 and 100).
var PageSize = func() int {
	if n, err := strconv.Atoi(os.Getenv("QUARRY_BENCH_PAGESIZE")); err == nil && n > 0 {
		return n
	}
	return 10
}()

var (
	envOnce sync.Once
	sqlite  *Env
	replay  *Env
	envErr  error
	tmpDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	closePostgresEnv()
	if sqlite != nil {
		sqlite.Close()
	}
	if tmpDir != "" {
		os.RemoveAll(tmpDir)
	}
	os.Exit(code)
}

// articles is the generated data size of the in-process benchmarks (QUARRY_BENCH_ARTICLES,
// default 1000: a page of 100 fills and generation takes well under a second).
func articles() int {
	if n, err := strconv.Atoi(os.Getenv("QUARRY_BENCH_ARTICLES")); err == nil && n > 0 {
		return n
	}
	return 1000
}

// envs opens the seeded SQLite Env once per test binary, and a second Env over a replay of
// it (see ReplayDB).
func envs(tb testing.TB) (*Env, *Env) {
	tb.Helper()
	envOnce.Do(func() {
		tmpDir, envErr = os.MkdirTemp("", "quarry-bench-")
		if envErr != nil {
			return
		}
		sqlite, envErr = Open(context.Background(), Config{AppDir: "../examples/blog", Client: "sqlite",
			Filename: filepath.Join(tmpDir, "bench.db"), Articles: articles(), Seed: 1})
		if envErr != nil {
			return
		}
		replay = &Env{App: sqlite.App, Caller: sqlite.Caller}
		envErr = replay.assemble(ReplayDB(sqlite.App.DB), sqlite.Server.Log)
	})
	if envErr != nil {
		tb.Fatal(envErr)
	}
	return sqlite, replay
}

var (
	cachedOnce sync.Once
	cached     *Env
	cachedErr  error
)

// cachedEnv is the SQLite Env's app served with the response cache on: the same database,
// its own server. With no writes, every measured request is a hit (the change position
// check included).
func cachedEnv(tb testing.TB, e *Env) *Env {
	cachedOnce.Do(func() {
		cached, cachedErr = e.WithResponseCache()
	})
	if cachedErr != nil {
		tb.Fatal(cachedErr)
	}
	return cached
}

func restCorpus() []Request {
	var out []Request
	for _, r := range Corpus {
		if !r.IsGraphQL() {
			out = append(out, r)
		}
	}
	return out
}

// steps lists every statement of a plan (root, count, each populate step) with the parent
// ids child steps batch on.
func steps(p *plan.Plan) []*plan.Select {
	out := []*plan.Select{p.Root}
	if p.Count != nil {
		out = append(out, p.Count)
	}
	var walk func(s *plan.Select)
	walk = func(s *plan.Select) {
		for _, c := range s.Children {
			for _, cs := range c.Steps {
				out = append(out, cs)
				walk(cs)
			}
		}
	}
	walk(p.Root)
	return out
}

// render renders every statement of a plan through the cache, walking it as the runner
// does (without collecting the steps first).
func render(c *sqlgen.Cache, d sqlgen.Dialect, p *plan.Plan) error {
	if _, err := c.SelectParents(d, p.Root, sqlgen.Parents{}); err != nil {
		return err
	}
	if p.Count != nil {
		if _, err := c.SelectParents(d, p.Count, sqlgen.Parents{}); err != nil {
			return err
		}
	}
	return renderChildren(c, d, p.Root)
}

// renderChildren renders the child steps of s, which batch on one encoding of their
// parents' ids per level, as the runner's do.
func renderChildren(c *sqlgen.Cache, d sqlgen.Dialect, s *plan.Select) error {
	if len(s.Children) == 0 {
		return nil
	}
	parents := sqlgen.NewParents(d, parentIDs)
	for _, ch := range s.Children {
		for _, cs := range ch.Steps {
			if _, err := c.SelectParents(d, cs, parents); err != nil {
				return err
			}
			if err := renderChildren(c, d, cs); err != nil {
				return err
			}
		}
	}
	return nil
}

var parentIDs = func() []int64 {
	ids := make([]int64, PageSize)
	for i := range ids {
		ids[i] = int64(i + 1)
	}
	return ids
}()

func idsFor(s *plan.Select) []int64 {
	if s.Via == nil {
		return nil
	}
	return parentIDs
}

// BenchmarkParse is the REST query string parse: qs bracket syntax and lowering to the IR.
func BenchmarkParse(b *testing.B) {
	e, _ := envs(b)
	for _, r := range restCorpus() {
		b.Run(r.Name, func(b *testing.B) {
			m, _ := e.App.Schema.ByPlural(r.Plural())
			raw := r.RawQuery(PageSize)
			b.ReportAllocs()
			for b.Loop() {
				q := &ir.Query{Model: m.UID, Op: ir.FindMany}
				if err := rest.Parse(raw, q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGraphQLParse is GraphQL parse, validation and lowering to the IR: <req> with the
// server's document cache (a client sending the same document: parse and validation are
// skipped, variables are coerced and the query lowered), <req>_uncached without it.
func BenchmarkGraphQLParse(b *testing.B) {
	e, _ := envs(b)
	gs := e.GraphQL.Schema()
	cached := pg.OptionsFrom(gs.Config)
	cached.Docs = pg.NewDocuments(pg.DefaultDocuments)
	for _, r := range Corpus {
		if !r.IsGraphQL() {
			continue
		}
		for _, v := range []struct {
			name string
			opt  pg.Options
		}{{r.Name, cached}, {r.Name + "_uncached", pg.OptionsFrom(gs.Config)}} {
			opt := v.opt
			b.Run(v.name, func(b *testing.B) {
				req := pg.Request{Query: r.GraphQL, Variables: map[string]any{"pageSize": json.Number(strconv.Itoa(PageSize))}}
				// The cached variant measures a repeated document: its first request, which
				// parses, validates and builds the kept lowering, is not one of them (with
				// -benchtime 100x it would add a hundredth of itself to every op).
				if _, err := pg.Parse(gs, req, opt); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					op, err := pg.Parse(gs, req, opt)
					if err != nil {
						b.Fatal(err)
					}
					for _, f := range op.Fields {
						if f.Err != nil {
							b.Fatal(f.Err)
						}
					}
				}
			})
		}
	}
}

// BenchmarkPlan is planning a parsed query: names, permissions, casts, limits, populate.
func BenchmarkPlan(b *testing.B) {
	e, _ := envs(b)
	for _, r := range restCorpus() {
		b.Run(r.Name, func(b *testing.B) {
			q, err := e.Query(r, PageSize)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := e.Server.Planner.Read(q, e.Caller); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSQL renders every statement of a plan, without the shape cache (what the first
// request of a shape costs) and with it (every later request, walking the plan as the runner
// does: one encoding of the parent ids per level).
func BenchmarkSQL(b *testing.B) {
	e, _ := envs(b)
	d := e.App.DB.Dialect
	for _, r := range restCorpus() {
		pl, err := e.Plan(r, PageSize)
		if err != nil {
			b.Fatal(err)
		}
		all := steps(pl)
		b.Run(r.Name+"/uncached", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, s := range all {
					if _, err := sqlgen.Select(d, s, idsFor(s)); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Run(r.Name+"/cached", func(b *testing.B) {
			c := sqlgen.NewCache()
			if err := render(c, d, pl); err != nil { // every shape is cached after the first request
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := render(c, d, pl); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFront is REST parse + plan + SQL rendering through the shape cache: everything a
// request costs before the database, as the server runs it. Issue 5's target for populate2:
// under 20 µs and under 100 allocations.
func BenchmarkFront(b *testing.B) {
	e, _ := envs(b)
	d := e.App.DB.Dialect
	for _, r := range restCorpus() {
		b.Run(r.Name, func(b *testing.B) {
			m, _ := e.App.Schema.ByPlural(r.Plural())
			raw := r.RawQuery(PageSize)
			c := sqlgen.NewCache()
			run := func() {
				q := &ir.Query{Model: m.UID, Op: ir.FindMany}
				if err := rest.Parse(raw, q); err != nil {
					b.Fatal(err)
				}
				pl, err := e.Server.Planner.Read(q, e.Caller)
				if err != nil {
					b.Fatal(err)
				}
				if err := render(c, d, pl); err != nil {
					b.Fatal(err)
				}
			}
			run() // the shape is cached after the first request
			b.ReportAllocs()
			for b.Loop() {
				run()
			}
		})
	}
}

// BenchmarkExec runs a plan: SQL through the shape cache, the statements, row scanning and
// stitching of every populate level. On "replay" the rows come from memory (Quarry's own
// work only); on "sqlite" from the seeded SQLite database (engine included).
func BenchmarkExec(b *testing.B) {
	e, re := envs(b)
	for _, r := range restCorpus() {
		pl, err := e.Plan(r, PageSize)
		if err != nil {
			b.Fatal(err)
		}
		for _, v := range []struct {
			name string
			env  *Env
		}{{"replay", re}, {"sqlite", e}, {"sqlite-cached", cachedEnv(b, e)}} {
			b.Run(r.Name+"/"+v.name, func(b *testing.B) {
				ctx := context.Background()
				res, err := v.env.Server.Runner.Run(ctx, v.env.Server.DB, pl)
				if err != nil {
					b.Fatal(err)
				}
				stmts := res.Statements
				b.ReportAllocs()
				for b.Loop() {
					if _, err := v.env.Server.Runner.Run(ctx, v.env.Server.DB, pl); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(stmts), "stmts/op")
				b.ReportMetric(float64(len(res.Entries)), "entries/op")
			})
		}
	}
}

// BenchmarkRawSQL runs the statements the request's plan ran, directly on the SQLite
// database, reading every row into sql.RawBytes: the database's own cost of the request.
func BenchmarkRawSQL(b *testing.B) {
	e, _ := envs(b)
	for _, r := range Corpus {
		b.Run(r.Name, func(b *testing.B) {
			ctx := context.Background()
			stmts, err := e.Capture(ctx, r, PageSize)
			if err != nil {
				b.Fatal(err)
			}
			db := e.App.DB.DB.DB
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Replay(ctx, db, stmts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(stmts)), "stmts/op")
		})
	}
}

// BenchmarkHandler is the whole request in process: routing, token authentication (cached
// by the server), parse, plan, run, response encoding. Encoding alone is not exported by
// transport; it is Handler/replay minus Exec/replay minus Front (see README).
func BenchmarkHandler(b *testing.B) {
	e, re := envs(b)
	for _, r := range Corpus {
		for _, v := range []struct {
			name string
			env  *Env
		}{{"replay", re}, {"sqlite", e}, {"sqlite-cached", cachedEnv(b, e)}} {
			b.Run(r.Name+"/"+v.name, func(b *testing.B) {
				h := v.env.Server.Handler()
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
				w := &discard{}
				serve := func() {
					w.reset()
					if body != nil {
						req.Body = &reader{b: body}
					}
					h.ServeHTTP(w, req)
					if w.status != http.StatusOK {
						w.keep = true
						w.reset()
						if body != nil {
							req.Body = &reader{b: body}
						}
						h.ServeHTTP(w, req)
						b.Fatalf("status %d: %s", w.status, w.body)
					}
				}
				serve()
				size := w.n
				b.ReportAllocs()
				for b.Loop() {
					serve()
				}
				b.ReportMetric(float64(size), "resp-bytes/op")
			})
		}
	}
}

// reader is a resettable request body that does not allocate.
type reader struct {
	b []byte
	i int
}

func (r *reader) Read(p []byte) (int, error) {
	if r.i >= len(r.b) {
		return 0, io.EOF
	}
	n := copy(p, r.b[r.i:])
	r.i += n
	return n, nil
}

func (r *reader) Close() error { return nil }

// TestCorpus checks every corpus request answers 200 with entries on the generated data, so
// the benchmarks measure real work.
func TestCorpus(t *testing.T) {
	e, _ := envs(t)
	for _, r := range Corpus {
		t.Run(r.Name, func(t *testing.T) {
			st, body := get(t, e, r, PageSize)
			if st.status != http.StatusOK {
				t.Fatalf("status %d: %s", st.status, body)
			}
			if !strings.Contains(body, `"id":`) {
				t.Fatalf("no entries: %s", body)
			}
		})
	}
}

type answer struct {
	status int
	stmts  string
}

func get(t *testing.T, e *Env, r Request, pageSize int) (answer, string) {
	t.Helper()
	method, body := http.MethodGet, r.Body(pageSize)
	if body != nil {
		method = http.MethodPost
	}
	req, err := http.NewRequest(method, "http://127.0.0.1"+r.Target(pageSize), nil)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Body = &reader{b: body}
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+TokenKey)
	w := &discard{keep: true}
	e.Handler.ServeHTTP(w, req)
	return answer{status: w.status, stmts: w.Header().Get(StatementHeaderName)}, string(w.body)
}
