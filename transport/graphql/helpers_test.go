package graphql_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/parser/gqlschema"
	pg "github.com/quarrycms/quarry/parser/graphql"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/planner/write"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/sqlgen/database"
	gql "github.com/quarrycms/quarry/transport/graphql"
	"github.com/quarrycms/quarry/transport/graphql/execute"
)

// fullAccess is a full-access API token caller.
var fullAccess = &ir.Caller{Kind: ir.TokenCaller, TokenType: ir.TokenFullAccess}

type env struct {
	t       testing.TB
	h       *gql.Handler
	db      *database.DB
	schema  *schemas.Schema
	planner *planner.Planner
	runner  *exec.Runner
}

// newEnv serves examples/blog on a fresh SQLite database.
func newEnv(t testing.TB, cfg gqlschema.Config) *env { return newEnvWith(t, cfg, nil) }

// newEnvWith is newEnv with options adjusted before the handler is built.
func newEnvWith(t testing.TB, cfg gqlschema.Config, adjust func(*gql.Options)) *env {
	t.Helper()
	return newEnvOn(t, cfg, adjust, database.Config{Client: "sqlite", Filename: filepath.Join(t.TempDir(), "t.db")})
}

// newEnvOn is newEnvWith on the database dbc names.
func newEnvOn(t testing.TB, cfg gqlschema.Config, adjust func(*gql.Options), dbc database.Config) *env {
	t.Helper()
	s, err := schemas.Load("../../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := database.Open(ctx, dbc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(ctx, s, nil); err != nil {
		t.Fatal(err)
	}
	p := &planner.Planner{Schema: s, Config: planner.DefaultConfig()}
	r := &exec.Runner{Dialect: db.Dialect, Cache: sqlgen.NewCache()}
	now := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	w := &write.Writer{Schema: s, Dialect: db.Dialect, Now: func() time.Time { return now }}
	o := gql.Options{Options: execute.Options{Schema: s, Config: cfg, Planner: p, Runner: r,
		Writes: &write.Service{Writer: w, Planner: p, Runner: r, DB: db}, DB: db},
		Authenticate: func(r *http.Request) (*ir.Caller, error) {
			if r.Header.Get("Authorization") == "" {
				return &ir.Caller{Kind: ir.PublicCaller}, nil
			}
			if r.Header.Get("Authorization") == "Bearer read-only" {
				return &ir.Caller{Kind: ir.TokenCaller, TokenType: ir.TokenReadOnly}, nil
			}
			return fullAccess, nil
		}}
	if adjust != nil {
		adjust(&o)
	}
	h, err := gql.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return &env{t: t, h: h, db: db, schema: s, planner: p, runner: r}
}

// exec runs a request in process as a caller.
func (e *env) exec(caller *ir.Caller, query string, vars map[string]any) gql.Response {
	e.t.Helper()
	if vars != nil {
		// Variables arrive as JSON: numbers as json.Number.
		b, _ := json.Marshal(vars)
		d := json.NewDecoder(bytes.NewReader(b))
		d.UseNumber()
		vars = nil
		if err := d.Decode(&vars); err != nil {
			e.t.Fatal(err)
		}
	}
	return e.h.Execute(context.Background(), caller, pg.Request{Query: query, Variables: vars})
}

// q runs a query as full access and returns the body.
func (e *env) q(query string) string {
	e.t.Helper()
	r := e.exec(fullAccess, query, nil)
	return string(r.Body)
}

// http sends a request through ServeHTTP.
func (e *env) http(method, target, token string, body []byte, header map[string]string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, bytes.NewReader(body))
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	return rec
}
