// Command load is the end-to-end load benchmark of issue 5. It generates the benchmark data
// (bench/datagen) into a fresh SQLite or PostgreSQL database, serves it with a Quarry
// assembled in process (or targets any base URL on this machine, e.g. a real Strapi serving
// the same data), and for each request shape of the corpus and each page size runs a
// bounded, fixed-concurrency load over loopback. It reports requests/s, p50/p99 latency and
// SQL statements per request, next to the raw-SQL baseline: the same statements the plan
// runs, replayed directly on the database at the same concurrency (no HTTP, no parsing, no
// stitching). Quarry's throughput is reported as a fraction of the baseline. On PostgreSQL a
// second baseline replays the same statements pipelined as Quarry's plan sends them (one pgx
// batch per populate level, on a native connection of the same pool): the limit Quarry's
// plan shape can reach, which Quarry is measured against ("of piped"). By default Quarry is
// measured twice, with the response cache off and on (transport/respcache: two servers on the
// same pool; with no writes during the load the cached one answers from memory after the
// warm-up). Each round measures every variant in a rotating order, so that load from
// elsewhere on the machine falls on all of them alike; the ratios are the medians of the
// rounds' ratios.
//
//	go run ./bench/cmd/load                      # SQLite, 10 000 articles, cache off and on
//	go run ./bench/cmd/load -db postgres         # a fresh database on the local PostgreSQL
//	go run ./bench/cmd/load -url http://127.0.0.1:1338 -dsn postgres://…/strapi_oracle -token KEY
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/quarrycms/quarry/bench"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/transport/respcache"
)

type options struct {
	app         string
	db          string
	pgAdmin     string
	dsn         string
	keep        bool
	articles    int
	seed        uint64
	target      string
	token       string
	salt        string
	concurrency int
	requests    int
	duration    time.Duration
	warmup      int
	names       []string
	sizes       []int
	raw         bool
	piped       bool
	rounds      int
	jsonOut     string
	cache       cacheMode
	genOnly     bool
	cpuProfile  string
	memProfile  string
}

func main() {
	var o options
	var names, sizes string
	flag.StringVar(&o.app, "app", "examples/blog", "Strapi app folder (schemas)")
	flag.StringVar(&o.db, "db", "sqlite", "database: sqlite or postgres (mysql with -dsn)")
	flag.StringVar(&o.pgAdmin, "pg", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable", "PostgreSQL server to create the benchmark database in (-db postgres)")
	flag.StringVar(&o.dsn, "dsn", "", "use this existing database instead of a fresh one: a SQLite file or a PostgreSQL URL (generated into when it holds no articles)")
	flag.BoolVar(&o.keep, "keep", false, "keep the fresh database at the end (prints where it is)")
	flag.IntVar(&o.articles, "articles", 10000, "articles to generate")
	flag.Uint64Var(&o.seed, "seed", 1, "generator seed")
	flag.StringVar(&o.target, "url", "", "base URL to load instead of the in-process Quarry (loopback only), e.g. a Strapi serving the same database")
	flag.StringVar(&o.token, "token", bench.TokenKey, "API token sent as Bearer (the generator stores the default one)")
	flag.StringVar(&o.salt, "salt", bench.TokenSalt, "API_TOKEN_SALT of the in-process Quarry (for a database whose tokens were hashed with another salt)")
	flag.IntVar(&o.concurrency, "c", 8, "concurrent clients (and raw-SQL workers)")
	flag.IntVar(&o.requests, "n", 2000, "at most this many requests per measurement")
	flag.DurationVar(&o.duration, "d", 8*time.Second, "at most this long per measurement")
	flag.IntVar(&o.warmup, "warmup", 50, "unmeasured requests before each measurement")
	flag.StringVar(&names, "requests", "", "comma-separated corpus requests or ad-hoc REST requests such as /api/articles?populate=* (default: the corpus)")
	flag.StringVar(&sizes, "sizes", "10,100", "comma-separated page sizes")
	flag.BoolVar(&o.raw, "raw", true, "also run the raw-SQL baseline")
	flag.BoolVar(&o.piped, "piped", true, "also run the pipelined native baseline (PostgreSQL only)")
	flag.IntVar(&o.rounds, "rounds", 1, "alternate Quarry and baseline this many times; the median is reported")
	flag.StringVar(&o.jsonOut, "json", "", "also write the results as JSON to this file")
	flag.BoolVar(&o.genOnly, "generate-only", false, "generate the data (into -dsn, or a kept fresh database) and exit")
	o.cache = cacheBoth
	flag.Var(&o.cache, "cache", "the response cache (transport/respcache): -cache=both measures Quarry with it off and on side by side, "+
		"-cache (or -cache=on) only on, -cache=false (or -cache=off) only off; with no writes, on measures its hits")
	flag.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the whole run (server, client and baselines) to this file")
	flag.StringVar(&o.memProfile, "memprofile", "", "write an allocation profile of the whole run to this file at the end")
	flag.CommandLine.Parse(joinCacheValue(os.Args[1:]))
	if flag.NArg() > 0 {
		// A bool-like flag takes its value after "=": "-cache both" leaves "both" here.
		fatal(fmt.Errorf("unexpected argument %q (flags take values as -flag=value, e.g. -cache=both)", flag.Arg(0)))
	}
	for _, n := range strings.Split(names, ",") {
		if n = strings.TrimSpace(n); n != "" {
			o.names = append(o.names, n)
		}
	}
	for _, s := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			fatal(fmt.Errorf("bad page size %q", s))
		}
		o.sizes = append(o.sizes, n)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err != nil {
			fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	if err := run(ctx, o); err != nil {
		fatal(err)
	}
	if o.memProfile != "" {
		f, err := os.Create(o.memProfile)
		if err != nil {
			fatal(err)
		}
		defer f.Close()
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			fatal(err)
		}
	}
}

// cacheMode is -cache: off, on or both. It is a bool flag to the flag package, so that a
// bare -cache keeps meaning on (as before both existed).
type cacheMode string

const (
	cacheOff  cacheMode = "off"
	cacheOn   cacheMode = "on"
	cacheBoth cacheMode = "both"
)

func (m *cacheMode) String() string {
	if m == nil || *m == "" {
		return string(cacheBoth)
	}
	return string(*m)
}

func (m *cacheMode) Set(v string) error {
	switch strings.ToLower(v) {
	case "on", "true", "1":
		*m = cacheOn
	case "off", "false", "0":
		*m = cacheOff
	case "both":
		*m = cacheBoth
	default:
		return fmt.Errorf("want on, off or both, got %q", v)
	}
	return nil
}

func (m *cacheMode) IsBoolFlag() bool { return true }

// joinCacheValue turns "-cache both" into "-cache=both": -cache is a bool-like flag (a bare
// -cache means on), which the flag package only gives a value written after "=".
func joinCacheValue(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if (a == "-cache" || a == "--cache") && i+1 < len(args) {
			switch args[i+1] {
			case "on", "off", "both":
				a += "=" + args[i+1]
				i++
			}
		}
		if a == "--" {
			out = append(out, args[i:]...)
			break
		}
		out = append(out, a)
	}
	return out
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "load:", err)
	os.Exit(1)
}

// result is one measurement.
type result struct {
	Requests   int     `json:"requests"`
	Errors     int     `json:"errors"`
	Seconds    float64 `json:"seconds"`
	RPS        float64 `json:"rps"`
	P50        float64 `json:"p50_ms"`
	P99        float64 `json:"p99_ms"`
	Statements string  `json:"statements,omitempty"` // per request, from X-Quarry-Statements
	Bytes      int64   `json:"bytes_per_request,omitempty"`
	FirstError string  `json:"first_error,omitempty"`
	// CacheHits and CacheMisses are the response cache's counters over the measurement
	// (warm-up excluded), for Quarry with the cache.
	CacheHits   int64 `json:"cache_hits,omitempty"`
	CacheMisses int64 `json:"cache_misses,omitempty"`
}

type row struct {
	Request  string `json:"request"`
	PageSize int    `json:"page_size"`
	// Target is Quarry (with the cache only under -cache=on) or the -url server.
	Target []result `json:"target"`
	// Cached is Quarry with the response cache, under -cache=both.
	Cached []result `json:"cached,omitempty"`
	Raw    []result `json:"raw,omitempty"`
	// RawStatements is the number of statements the baseline replays per request.
	RawStatements int     `json:"raw_statements"`
	Ratio         float64 `json:"ratio,omitempty"` // median over rounds of target rps / raw rps
	// Piped is the pipelined native baseline (PostgreSQL): the same statements in
	// PipedRoundTrips round trips per request.
	Piped           []result `json:"piped,omitempty"`
	PipedRoundTrips int      `json:"piped_round_trips,omitempty"`
	PipedRatio      float64  `json:"piped_ratio,omitempty"` // median over rounds of target rps / piped rps
	// With Cached: the medians over rounds of cached rps / raw, / piped and / target rps.
	CachedRatio      float64 `json:"cached_ratio,omitempty"`
	CachedPipedRatio float64 `json:"cached_piped_ratio,omitempty"`
	CacheSpeedup     float64 `json:"cache_speedup,omitempty"`
}

func run(ctx context.Context, o options) error {
	if o.target != "" {
		if err := loopbackOnly(o.target); err != nil {
			return err
		}
	}
	// The in-process server logs nothing: errors show as failed requests in the report.
	if o.target != "" && o.cache == cacheBoth {
		o.cache = cacheOff // the other server's own caching is its business
	}
	cfg := bench.Config{AppDir: o.app, Client: o.db, Articles: o.articles, Seed: o.seed, Salt: o.salt, ResponseCache: o.cache == cacheOn}
	if o.genOnly && o.dsn == "" {
		o.keep = true
	}
	var cleanup func()
	switch {
	case o.dsn != "" && o.db != "sqlite":
		cfg.URL = o.dsn // PostgreSQL, or MySQL/MariaDB (an existing database only)
	case o.dsn != "":
		cfg.Filename = o.dsn
	case o.db == "postgres":
		u, drop, err := bench.PostgresDatabase(ctx, o.pgAdmin, "quarry_bench")
		if err != nil {
			return err
		}
		cfg.URL = u
		cleanup = func() {
			if o.keep {
				fmt.Fprintln(os.Stderr, "kept database", u)
				return
			}
			if err := drop(); err != nil {
				fmt.Fprintln(os.Stderr, "drop database:", err)
			}
		}
	default:
		dir, err := os.MkdirTemp("", "quarry-load-")
		if err != nil {
			return err
		}
		cfg.Filename = filepath.Join(dir, "bench.db")
		cleanup = func() {
			if o.keep {
				fmt.Fprintln(os.Stderr, "kept database", cfg.Filename)
				return
			}
			os.RemoveAll(dir)
		}
	}
	if cleanup != nil {
		defer cleanup()
	}
	fmt.Fprintf(os.Stderr, "opening %s database…\n", o.db)
	env, err := bench.Open(ctx, cfg)
	if err != nil {
		return err
	}
	defer env.Close()
	if env.Stats != nil {
		fmt.Fprintf(os.Stderr, "generated %d rows in %d tables in %s\n", env.Stats.Total(), env.Stats.Tables, env.Stats.Took.Round(time.Millisecond))
	}
	if o.genOnly {
		if env.Stats == nil {
			fmt.Fprintln(os.Stderr, "the database already holds articles: nothing generated")
		}
		return nil
	}
	serve := func(h http.Handler) (string, error) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return "", err
		}
		srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
		go srv.Serve(ln)
		context.AfterFunc(ctx, func() { srv.Close() })
		return "http://" + ln.Addr().String(), nil
	}
	ctx, stopServers := context.WithCancel(ctx)
	defer stopServers()
	base := o.target
	if base == "" {
		if base, err = serve(env.Handler); err != nil {
			return err
		}
	}
	// Under -cache=both a second server on the same pool keeps a response cache.
	var cachedEnv *bench.Env
	var cachedBase string
	both := o.cache == cacheBoth
	if both {
		if cachedEnv, err = env.WithResponseCache(); err != nil {
			return err
		}
		if cachedBase, err = serve(cachedEnv.Handler); err != nil {
			return err
		}
	}
	reqs := bench.Corpus
	if len(o.names) > 0 {
		reqs = nil
		for _, n := range o.names {
			if path, query, ok := strings.Cut(n, "?"); ok && strings.HasPrefix(n, "/api/") {
				// An ad-hoc REST request, e.g. /api/articles?populate=*
				reqs = append(reqs, bench.Request{Name: n, Path: path, Query: query})
				continue
			}
			r, err := bench.Lookup(n)
			if err != nil {
				return err
			}
			reqs = append(reqs, r)
		}
	}
	client := &http.Client{Transport: &http.Transport{
		MaxIdleConns: o.concurrency, MaxIdleConnsPerHost: o.concurrency, MaxConnsPerHost: o.concurrency,
		DisableCompression: true, IdleConnTimeout: time.Minute,
	}, Timeout: 60 * time.Second}
	who := "in-process Quarry"
	switch o.cache {
	case cacheOn:
		who += " with the response cache"
	case cacheBoth:
		who += " with the response cache off and on"
	}
	if o.target != "" {
		who = o.target
	}
	fmt.Printf("# %s on %s (%s), %d articles, concurrency %d, ≤%d requests or ≤%s per measurement, %d round(s)\n",
		who, o.db, bench.Machine(), o.articles, o.concurrency, o.requests, o.duration, o.rounds)
	piped := o.raw && o.piped && o.db == "postgres"
	var rows []row
	for _, r := range reqs {
		for _, size := range o.sizes {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			rw := row{Request: r.Name, PageSize: size}
			var stmts []sqlgen.Stmt
			var trips [][]sqlgen.Stmt
			if o.raw {
				if trips, err = env.CaptureRounds(ctx, r, size); err != nil {
					return fmt.Errorf("%s: capture statements: %w", r.Name, err)
				}
				for _, t := range trips {
					stmts = append(stmts, t...)
				}
				rw.RawStatements = len(stmts)
				if piped {
					rw.PipedRoundTrips = len(trips)
				}
			}
			var ratios, pipedRatios, cachedRatios, cachedPipedRatios, speedups []float64
			for round := 0; round < o.rounds; round++ {
				target := func() result {
					return o.load(ctx, o.warmup, func(ctx context.Context) (string, int64, error) { return send(ctx, client, base, o.token, r, size) })
				}
				cachedLoad := func() result {
					var before respcache.Stats
					warm := o.warmup
					// The warm-up fills the cache; the counters are read after it.
					for i := 0; i < warm; i++ {
						send(ctx, client, cachedBase, o.token, r, size)
					}
					before = cachedEnv.Cache.Stats()
					res := o.load(ctx, 0, func(ctx context.Context) (string, int64, error) {
						return send(ctx, client, cachedBase, o.token, r, size)
					})
					after := cachedEnv.Cache.Stats()
					res.CacheHits, res.CacheMisses = after.Hits-before.Hits, after.Misses-before.Misses
					return res
				}
				raw := func() result {
					if env.App.DB.Dialect == sqlgen.SQLite {
						// Quarry runs SQLite's reads prepared; so does the baseline.
						prepared, err := bench.Prepare(ctx, env.App.DB.DB.DB, stmts)
						if err != nil {
							return result{Errors: 1, FirstError: err.Error()}
						}
						defer func() {
							for _, p := range prepared {
								p.Close()
							}
						}()
						return o.load(ctx, o.warmup, func(ctx context.Context) (string, int64, error) {
							_, err := bench.ReplayPrepared(ctx, prepared, stmts)
							return "", 0, err
						})
					}
					return o.load(ctx, o.warmup, func(ctx context.Context) (string, int64, error) {
						_, err := bench.Replay(ctx, env.App.DB.DB.DB, stmts)
						return "", 0, err
					})
				}
				pipe := func() result {
					return o.load(ctx, o.warmup, func(ctx context.Context) (string, int64, error) {
						_, err := bench.ReplayPipelined(ctx, env.App.DB, trips)
						return "", 0, err
					})
				}
				var t, c, b, p result
				// The order rotates from round to round.
				steps := []func(){func() { t = target() }}
				if both {
					steps = append(steps, func() { c = cachedLoad() })
				}
				if o.raw {
					steps = append(steps, func() { b = raw() })
				}
				if piped {
					steps = append(steps, func() { p = pipe() })
				}
				for i := range steps {
					steps[(round+i)%len(steps)]()
				}
				rw.Target = append(rw.Target, t)
				if both {
					rw.Cached = append(rw.Cached, c)
					if t.RPS > 0 {
						speedups = append(speedups, c.RPS/t.RPS)
					}
					if o.raw && b.RPS > 0 {
						cachedRatios = append(cachedRatios, c.RPS/b.RPS)
					}
					if piped && p.RPS > 0 {
						cachedPipedRatios = append(cachedPipedRatios, c.RPS/p.RPS)
					}
				}
				if o.raw {
					rw.Raw = append(rw.Raw, b)
					if b.RPS > 0 {
						ratios = append(ratios, t.RPS/b.RPS)
					}
				}
				if piped {
					rw.Piped = append(rw.Piped, p)
					if p.RPS > 0 {
						pipedRatios = append(pipedRatios, t.RPS/p.RPS)
					}
				}
			}
			if len(ratios) > 0 {
				rw.Ratio = median(ratios)
			}
			if len(pipedRatios) > 0 {
				rw.PipedRatio = median(pipedRatios)
			}
			if len(cachedRatios) > 0 {
				rw.CachedRatio = median(cachedRatios)
			}
			if len(cachedPipedRatios) > 0 {
				rw.CachedPipedRatio = median(cachedPipedRatios)
			}
			if len(speedups) > 0 {
				rw.CacheSpeedup = median(speedups)
			}
			rows = append(rows, rw)
			printRow(os.Stderr, rw)
		}
	}
	printTable(os.Stdout, rows, o.raw, piped, both)
	if o.jsonOut != "" {
		b, _ := json.MarshalIndent(map[string]any{"machine": bench.Machine(), "target": who, "database": o.db,
			"articles": o.articles, "concurrency": o.concurrency, "rounds": o.rounds, "cache": o.cache.String(),
			"rows": rows}, "", "  ")
		if err := os.WriteFile(o.jsonOut, append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	for _, rw := range rows {
		for _, t := range slices.Concat(rw.Target, rw.Cached, rw.Raw, rw.Piped) {
			if t.Errors > 0 {
				return fmt.Errorf("%s at page size %d: %d failed requests (first: %s)", rw.Request, rw.PageSize, t.Errors, t.FirstError)
			}
		}
	}
	return nil
}

// load runs fn from o.concurrency workers until o.requests calls were made or o.duration
// passed; requests in flight at the deadline finish (and count).
func (o options) load(ctx context.Context, warmup int, fn func(context.Context) (string, int64, error)) result {
	for i := 0; i < warmup; i++ {
		fn(ctx)
	}
	var next atomic.Int64
	lat := make([][]time.Duration, o.concurrency)
	var mu sync.Mutex
	var res result
	stmts := map[string]int{}
	var bytes int64
	var wg sync.WaitGroup
	start := time.Now()
	deadline := start.Add(o.duration)
	for w := 0; w < o.concurrency; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for next.Add(1) <= int64(o.requests) && ctx.Err() == nil && time.Now().Before(deadline) {
				t0 := time.Now()
				st, n, err := fn(ctx)
				d := time.Since(t0)
				if err != nil {
					if ctx.Err() != nil {
						return // interrupted
					}
					mu.Lock()
					res.Errors++
					if res.FirstError == "" {
						res.FirstError = err.Error()
					}
					mu.Unlock()
					continue
				}
				lat[w] = append(lat[w], d)
				mu.Lock()
				stmts[st]++
				bytes += n
				mu.Unlock()
			}
		}(w)
	}
	wg.Wait()
	elapsed := time.Since(start)
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	slices.Sort(all)
	res.Requests = len(all)
	res.Seconds = elapsed.Seconds()
	if len(all) > 0 {
		res.RPS = float64(len(all)) / elapsed.Seconds()
		res.P50 = ms(all[len(all)*50/100])
		res.P99 = ms(all[min(len(all)-1, len(all)*99/100)])
		res.Bytes = bytes / int64(len(all))
	}
	var keys []string
	for k := range stmts {
		if k != "" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	res.Statements = strings.Join(keys, "|") // more than one value would show as "a|b"
	return res
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// send makes one request and reads the whole answer.
func send(ctx context.Context, c *http.Client, base, token string, r bench.Request, size int) (string, int64, error) {
	method, body := http.MethodGet, r.Body(size)
	var rd io.Reader
	if body != nil {
		method, rd = http.MethodPost, strings.NewReader(string(body))
	}
	req, err := http.NewRequestWithContext(ctx, method, base+r.Target(size), rd)
	if err != nil {
		return "", 0, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.Do(req)
	if err != nil {
		return "", 0, err
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil {
		return "", 0, err
	}
	if resp.StatusCode != http.StatusOK {
		return "", 0, fmt.Errorf("%s %s: status %d", method, r.Target(size), resp.StatusCode)
	}
	return resp.Header.Get(bench.StatementHeaderName), n, nil
}

// loopbackOnly refuses targets off this machine: the load driver only ever sends traffic
// over loopback.
func loopbackOnly(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return errors.New("-url must be a loopback address (127.0.0.0/8, ::1 or localhost)")
	}
	return nil
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// medianOf picks the measurement with the median throughput.
func medianOf(rs []result) result {
	if len(rs) == 0 {
		return result{}
	}
	s := slices.Clone(rs)
	slices.SortFunc(s, func(a, b result) int {
		switch {
		case a.RPS < b.RPS:
			return -1
		case a.RPS > b.RPS:
			return 1
		}
		return 0
	})
	return s[len(s)/2]
}

func printRow(w io.Writer, rw row) {
	t := medianOf(rw.Target)
	fmt.Fprintf(w, "  %-12s size %-4d %8.0f req/s  p50 %6.2f ms  p99 %6.2f ms  stmts %s", rw.Request, rw.PageSize, t.RPS, t.P50, t.P99, orDash(t.Statements))
	if len(rw.Cached) > 0 {
		c := medianOf(rw.Cached)
		fmt.Fprintf(w, "  | cached %8.0f req/s  p50 %6.2f ms  ×%.1f", c.RPS, c.P50, rw.CacheSpeedup)
	}
	if len(rw.Raw) > 0 {
		b := medianOf(rw.Raw)
		fmt.Fprintf(w, "  | raw %8.0f req/s  p50 %6.2f ms  → %.0f%%", b.RPS, b.P50, 100*rw.Ratio)
	}
	if len(rw.Piped) > 0 {
		p := medianOf(rw.Piped)
		fmt.Fprintf(w, "  | piped %8.0f req/s  p50 %6.2f ms  → %.0f%%", p.RPS, p.P50, 100*rw.PipedRatio)
	}
	fmt.Fprintln(w)
}

func printTable(w io.Writer, rows []row, raw, piped, cached bool) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "request\tpage\treq/s\tp50 ms\tp99 ms\tstmts/req\t"
	if cached {
		head += "+cache req/s\t+cache p50 ms\t+cache p99 ms\t"
	}
	if raw {
		head += "raw req/s\traw p50 ms\traw p99 ms\traw stmts\tof raw\t"
	}
	if piped {
		head += "piped req/s\tpiped p50 ms\tround trips\tof piped\t"
	}
	if cached {
		if raw {
			head += "+cache of raw\t"
		}
		if piped {
			head += "+cache of piped\t"
		}
		head += "+cache ÷ off\t"
	}
	fmt.Fprintln(tw, head)
	for _, rw := range rows {
		t := medianOf(rw.Target)
		fmt.Fprintf(tw, "%s\t%d\t%.0f\t%.2f\t%.2f\t%s\t", rw.Request, rw.PageSize, t.RPS, t.P50, t.P99, orDash(t.Statements))
		if cached {
			c := medianOf(rw.Cached)
			fmt.Fprintf(tw, "%.0f\t%.2f\t%.2f\t", c.RPS, c.P50, c.P99)
		}
		if raw {
			b := medianOf(rw.Raw)
			fmt.Fprintf(tw, "%.0f\t%.2f\t%.2f\t%d\t%.0f%%\t", b.RPS, b.P50, b.P99, rw.RawStatements, 100*rw.Ratio)
		}
		if piped {
			p := medianOf(rw.Piped)
			fmt.Fprintf(tw, "%.0f\t%.2f\t%d\t%.0f%%\t", p.RPS, p.P50, rw.PipedRoundTrips, 100*rw.PipedRatio)
		}
		if cached {
			if raw {
				fmt.Fprintf(tw, "%.0f%%\t", 100*rw.CachedRatio)
			}
			if piped {
				fmt.Fprintf(tw, "%.0f%%\t", 100*rw.CachedPipedRatio)
			}
			fmt.Fprintf(tw, "×%.1f\t", rw.CacheSpeedup)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
