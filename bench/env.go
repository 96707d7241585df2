package bench

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/quarrycms/quarry/bench/datagen"
	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/parser/gqlschema"
	"github.com/quarrycms/quarry/parser/rest"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/planner/write"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/sqlgen/database"
	"github.com/quarrycms/quarry/transport"
	"github.com/quarrycms/quarry/transport/app"
	gql "github.com/quarrycms/quarry/transport/graphql"
	"github.com/quarrycms/quarry/transport/graphql/execute"
	"github.com/quarrycms/quarry/transport/plugins/userspermissions"
	"github.com/quarrycms/quarry/transport/respcache"
)

// The load driver's API token: stored by the generator (hashed with TokenSalt, as Strapi
// stores keys) so every run authenticates with the same key. Local benchmark databases only.
const (
	TokenKey  = "quarry0bench0full0access0token00000000000000000000000000000000001"
	TokenSalt = "quarry-bench-api-token-salt"
)

// Config says which database an Env serves and what to put in it.
type Config struct {
	// AppDir is the Strapi app folder (examples/blog).
	AppDir string
	// Client is sqlite or postgres; Filename (SQLite) or URL (PostgreSQL) names the database.
	Client   string
	Filename string
	URL      string
	// Articles > 0 generates that many articles (and the rest, see datagen) when the
	// database holds none yet.
	Articles int
	Seed     uint64
	// Salt is API_TOKEN_SALT (default TokenSalt).
	Salt string
	Log  *slog.Logger
	// ResponseCache turns the response cache on (transport/respcache).
	ResponseCache bool
}

// Env is a Quarry assembled in process the way `quarry serve` assembles it, over a
// database holding the generated content.
type Env struct {
	App     *app.App
	Server  *transport.Server
	GraphQL *gql.Handler
	// Handler is the server's handler wrapped by StatementHeader.
	Handler http.Handler
	// Stats are the generator's, when it ran.
	Stats *datagen.Stats
	// Caller is the full-access token's caller, for in-process planning.
	Caller *ir.Caller
	// Cache is the response cache when Config.ResponseCache asked for it.
	Cache *respcache.Cache
}

// Open opens (and if needed fills) the database and assembles the server.
func Open(ctx context.Context, c Config) (*Env, error) {
	if c.Salt == "" {
		c.Salt = TokenSalt
	}
	log := c.Log
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	env := map[string]string{
		"DATABASE_CLIENT":   c.Client,
		"DATABASE_FILENAME": c.Filename,
		"DATABASE_URL":      c.URL,
		"API_TOKEN_SALT":    c.Salt,
		// Passed through so that SQLite's memory map can be measured off and on.
		"QUARRY_SQLITE_MMAP_SIZE": os.Getenv("QUARRY_SQLITE_MMAP_SIZE"),
	}
	a, err := app.Open(ctx, c.AppDir, func(k string) string { return env[k] }, log)
	if err != nil {
		return nil, err
	}
	e := &Env{App: a, Caller: &ir.Caller{Kind: ir.TokenCaller, TokenType: ir.TokenFullAccess}}
	if c.ResponseCache {
		if err := a.DB.TrackWrites(ctx); err != nil {
			return nil, err
		}
		e.Cache = respcache.New(a.DB, respcache.Config{})
	}
	if c.Articles > 0 {
		var n int
		count := sqlgen.TableCount(a.DB.Dialect, "articles")
		if err := a.DB.GetContext(ctx, &n, count.SQL, count.Args...); err != nil {
			a.DB.Close()
			return nil, err
		}
		if n == 0 {
			st, err := datagen.Generate(ctx, a.DB, a.Schema, datagen.Options{Articles: c.Articles, Seed: c.Seed,
				Token: &datagen.Token{Name: "quarry-bench", Key: TokenKey, Salt: c.Salt}})
			if err != nil {
				a.DB.Close()
				return nil, fmt.Errorf("generate: %w", err)
			}
			e.Stats = &st
		}
	}
	if err := e.assemble(a.DB, log); err != nil {
		a.DB.Close()
		return nil, err
	}
	return e, nil
}

// assemble builds the server over db (the app's database, or a replay of it) the way
// `quarry serve` does (cmd/quarry): users-permissions auth with config/plugins.json, the
// HTTP middlewares of config/middlewares.json, the GraphQL plugin. Uploads are left out
// (no read in the corpus touches them, and the service creates folders in the app).
func (e *Env) assemble(db *database.DB, log *slog.Logger) error {
	a := e.App
	srv := &transport.Server{
		Schema:    a.Schema,
		DB:        db,
		Planner:   &planner.Planner{Schema: a.Schema, Config: a.REST},
		Runner:    &exec.Runner{Dialect: db.Dialect, Cache: sqlgen.NewCache()},
		Writer:    &write.Writer{Schema: a.Schema, Dialect: db.Dialect, Now: time.Now},
		Log:       log,
		TokenSalt: a.TokenSalt,
		I18n:      a.I18n,
		Cache:     e.Cache,
	}
	cfg := a.Auth
	cfg.JWTSecret = "quarry-bench-jwt-secret"
	srv.Auth = userspermissions.NewService(db, a.Schema, cfg, a.TokenSalt, log)
	mw, err := a.Middlewares()
	if err != nil {
		return err
	}
	if srv.HTTP, err = transport.ParseHTTPConfig(mw); err != nil {
		return err
	}
	gcfg, err := gqlschema.LoadConfig(a.Dir)
	if err != nil {
		return err
	}
	opts := gql.Options{Options: execute.Options{Schema: a.Schema, Config: gcfg, Planner: srv.Planner, Runner: srv.Runner,
		Writes: srv.WriteService(), DB: db, Log: log, Plugins: []execute.Plugin{srv.Auth.GraphQL()}}, Authenticate: srv.Authenticate, Cache: e.Cache}
	if a.I18n != nil {
		opts.Locales = a.I18n
	}
	h, err := gql.New(opts)
	if err != nil {
		return err
	}
	srv.GraphQL, srv.GraphQLPath = h, gcfg.Endpoint
	// The project's route files and own code, as quarry serve runs them.
	srv.Routes = transport.BuildRoutes(a.Routes, a.Schema, gcfg.Endpoint, true, log)
	srv.Code = a.ProjectCode(srv, srv.Runner, log)
	e.Server, e.GraphQL = srv, h
	e.Handler = StatementHeader(srv.Handler())
	return nil
}

// Close closes the database.
func (e *Env) Close() error { return e.App.DB.Close() }

// WithResponseCache is the same app on the same database pool served by a second server
// with a response cache of its own (transport/respcache), so that one run can measure the
// cache off and on side by side. Closing e closes both.
func (e *Env) WithResponseCache() (*Env, error) {
	c := &Env{App: e.App, Caller: e.Caller, Cache: respcache.New(e.App.DB, respcache.Config{})}
	if err := c.assemble(e.App.DB, e.Server.Log); err != nil {
		return nil, err
	}
	return c, nil
}

// Query parses a REST corpus request as the server does (qs and lowering into the IR).
func (e *Env) Query(r Request, pageSize int) (*ir.Query, error) {
	m, ok := e.App.Schema.ByPlural(r.Plural())
	if !ok {
		return nil, fmt.Errorf("%s: no collection type %q", r.Name, r.Plural())
	}
	q := &ir.Query{Model: m.UID, Op: ir.FindMany}
	if err := rest.Parse(r.RawQuery(pageSize), q); err != nil {
		return nil, fmt.Errorf("%s: %w", r.Name, err)
	}
	return q, nil
}

// Plan parses and plans a REST corpus request.
func (e *Env) Plan(r Request, pageSize int) (*plan.Plan, error) {
	q, err := e.Query(r, pageSize)
	if err != nil {
		return nil, err
	}
	return e.Server.Planner.Read(q, e.Caller)
}

// Capture runs a REST request in process and returns the SQL statements it ran, in order,
// with their bind values: what the raw-SQL baseline replays.
func (e *Env) Capture(ctx context.Context, r Request, pageSize int) ([]sqlgen.Stmt, error) {
	rounds, err := e.CaptureRounds(ctx, r, pageSize)
	var stmts []sqlgen.Stmt
	for _, rt := range rounds {
		stmts = append(stmts, rt...)
	}
	return stmts, err
}

// CaptureRounds is Capture with the statements grouped by the round trips the plan made:
// one per statement on SQLite, one per populate level on PostgreSQL (pgx batches).
func (e *Env) CaptureRounds(ctx context.Context, r Request, pageSize int) ([][]sqlgen.Stmt, error) {
	var stmts []sqlgen.Stmt
	var sizes []int
	ctx = exec.WithTrace(ctx, func(st sqlgen.Stmt, rows int, took time.Duration) { stmts = append(stmts, st) })
	ctx = exec.WithRoundTrips(ctx, func(n int) { sizes = append(sizes, n) })
	group := func() ([][]sqlgen.Stmt, error) {
		var out [][]sqlgen.Stmt
		rest := stmts
		for _, n := range sizes {
			if n > len(rest) {
				return nil, fmt.Errorf("%s: %d statements traced for round trips of %v", r.Name, len(stmts), sizes)
			}
			out = append(out, rest[:n:n])
			rest = rest[n:]
		}
		return out, nil
	}
	if r.IsGraphQL() {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "/graphql", strings.NewReader(string(r.Body(pageSize))))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+TokenKey)
		w := &discard{}
		e.Server.Handler().ServeHTTP(w, req)
		if w.status != http.StatusOK {
			return nil, fmt.Errorf("%s: status %d", r.Name, w.status)
		}
		return group()
	}
	pl, err := e.Plan(r, pageSize)
	if err != nil {
		return nil, err
	}
	if _, err := e.Server.Runner.Run(ctx, e.App.DB, pl); err != nil {
		return nil, err
	}
	return group()
}

// ReplayPipelined runs captured round trips on one native PostgreSQL connection of db, each
// round trip's statements in one pgx batch, and reads every row's raw bytes: the limit a
// plan pipelined per populate level can reach on this database.
func ReplayPipelined(ctx context.Context, db *database.DB, rounds [][]sqlgen.Stmt) (rows int, err error) {
	ok, err := db.WithNativeConn(ctx, func(c *pgx.Conn) error {
		for _, rt := range rounds {
			var b pgx.Batch
			for _, st := range rt {
				b.Queue(st.SQL, st.Args...)
			}
			br := c.SendBatch(ctx, &b)
			for range rt {
				rs, err := br.Query()
				if err != nil {
					br.Close()
					return err
				}
				for rs.Next() {
					_ = rs.RawValues()
					rows++
				}
				rs.Close()
				if err := rs.Err(); err != nil {
					br.Close()
					return err
				}
			}
			if err := br.Close(); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil && !ok {
		err = fmt.Errorf("pipelined replay needs PostgreSQL (the database is %s)", db.Dialect.Name())
	}
	return rows, err
}

// Replay runs captured statements one after the other on db and reads every row: the
// database's own cost of a request, without HTTP, parsing, planning or stitching.
func Replay(ctx context.Context, db *sql.DB, stmts []sqlgen.Stmt) (rows int, err error) {
	var d drain
	for _, st := range stmts {
		n, err := d.rows(db.QueryContext(ctx, st.SQL, st.Args...))
		rows += n
		if err != nil {
			return rows, err
		}
	}
	return rows, nil
}

// Prepare prepares stmts on db for ReplayPrepared: the raw baseline on SQLite, whose driver
// parses a statement sent as text on every run, where Quarry runs its reads prepared.
func Prepare(ctx context.Context, db *sql.DB, stmts []sqlgen.Stmt) ([]*sql.Stmt, error) {
	out := make([]*sql.Stmt, len(stmts))
	for i, st := range stmts {
		p, err := db.PrepareContext(ctx, st.SQL)
		if err != nil {
			for _, q := range out[:i] {
				q.Close()
			}
			return nil, fmt.Errorf("prepare %q: %w", st.SQL, err)
		}
		out[i] = p
	}
	return out, nil
}

// ReplayPrepared is Replay with the statements prepared by Prepare.
func ReplayPrepared(ctx context.Context, prepared []*sql.Stmt, stmts []sqlgen.Stmt) (rows int, err error) {
	var d drain
	for i, st := range stmts {
		n, err := d.rows(prepared[i].QueryContext(ctx, st.Args...))
		rows += n
		if err != nil {
			return rows, err
		}
	}
	return rows, nil
}

// drain reads rows as raw bytes and closes them.
type drain struct {
	dest []any
	raw  []sql.RawBytes
}

func (d *drain) rows(rs *sql.Rows, err error) (n int, _ error) {
	if err != nil {
		return 0, err
	}
	defer rs.Close()
	cols, err := rs.Columns()
	if err != nil {
		return 0, err
	}
	if len(d.raw) < len(cols) {
		d.raw = make([]sql.RawBytes, len(cols))
		d.dest = make([]any, len(cols))
		for i := range d.raw {
			d.dest[i] = &d.raw[i]
		}
	}
	for rs.Next() {
		if err := rs.Scan(d.dest[:len(cols)]...); err != nil {
			return n, err
		}
		n++
	}
	return n, rs.Err()
}

// StatementHeaderName carries the number of SQL statements a request ran.
const StatementHeaderName = transport.StatementHeaderName

// StatementHeader is the server's statement-count middleware (QUARRY_DEBUG_STATEMENTS=1).
func StatementHeader(next http.Handler) http.Handler { return transport.StatementHeader(next) }

// discard is a ResponseWriter that keeps the status and the body size.
type discard struct {
	h      http.Header
	status int
	n      int
	body   []byte
	keep   bool
}

func (d *discard) Header() http.Header {
	if d.h == nil {
		d.h = http.Header{}
	}
	return d.h
}

func (d *discard) WriteHeader(code int) {
	if d.status == 0 {
		d.status = code
	}
}

// WriteString is net/http's: its ResponseWriter is an io.StringWriter too, which a handler
// writing a string it holds uses to skip a copy.
func (d *discard) WriteString(s string) (int, error) {
	if d.status == 0 {
		d.status = http.StatusOK
	}
	d.n += len(s)
	if d.keep {
		d.body = append(d.body, s...)
	}
	return len(s), nil
}

func (d *discard) Write(b []byte) (int, error) {
	if d.status == 0 {
		d.status = http.StatusOK
	}
	d.n += len(b)
	if d.keep {
		d.body = append(d.body, b...)
	}
	return len(b), nil
}

func (d *discard) reset() {
	clear(d.h)
	d.status, d.n = 0, 0
	d.body = d.body[:0]
}

// PostgresDatabase creates a fresh database next to admin (a PostgreSQL URL) and returns
// its URL and a function that drops it.
func PostgresDatabase(ctx context.Context, admin, prefix string) (string, func() error, error) {
	db, err := sql.Open("pgx", admin)
	if err != nil {
		return "", nil, err
	}
	name := fmt.Sprintf("%s_%d_%d", prefix, os.Getpid(), time.Now().UnixNano())
	if _, err := db.ExecContext(ctx, sqlgen.PostgresCreateDatabase(name)); err != nil {
		db.Close()
		return "", nil, fmt.Errorf("create database %s: %w", name, err)
	}
	u, err := url.Parse(admin)
	if err != nil {
		db.Close()
		return "", nil, err
	}
	u.Path = "/" + name
	drop := func() error {
		defer db.Close()
		_, err := db.ExecContext(context.Background(), sqlgen.PostgresDropDatabase(name))
		return err
	}
	return u.String(), drop, nil
}

// RepoRoot finds the module root (the folder with go.mod) from the working directory.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}

// Machine describes where figures were measured.
func Machine() string {
	return fmt.Sprintf("%s/%s, %d CPUs, GOMAXPROCS %d, %s", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version())
}
