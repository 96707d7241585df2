package execute_test

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
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
	"github.com/quarrycms/quarry/transport/graphql/execute"
)

// The executor runs operations in process: no HTTP request, no handler. The endpoint's own
// tests (transport/graphql) cover the rest through HTTP.
func TestExecuteWithoutHTTP(t *testing.T) {
	s, err := schemas.Load("../../../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := database.Open(ctx, database.Config{Client: "sqlite", Filename: filepath.Join(t.TempDir(), "t.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(ctx, s, nil); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	p := &planner.Planner{Schema: s, Config: planner.DefaultConfig()}
	r := &exec.Runner{Dialect: db.Dialect, Cache: sqlgen.NewCache()}
	w := &write.Writer{Schema: s, Dialect: db.Dialect, Now: func() time.Time { return now }}
	x, err := execute.New(execute.Options{Schema: s, Config: gqlschema.DefaultConfig(), Planner: p, Runner: r,
		Writes: &write.Service{Writer: w, Planner: p, Runner: r, DB: db}, DB: db})
	if err != nil {
		t.Fatal(err)
	}
	full := &ir.Caller{Kind: ir.TokenCaller, TokenType: ir.TokenFullAccess}
	run := func(req execute.Request) execute.Response {
		t.Helper()
		return x.Execute(ctx, full, req)
	}

	resp := run(execute.Request{Request: pg.Request{Query: `mutation { createTag(data: {name: "go"}) { data { id attributes { name } } } }`}})
	if resp.Status != http.StatusOK || string(resp.Body) != `{"data":{"createTag":{"data":{"id":"1","attributes":{"name":"go"}}}}}` {
		t.Fatalf("create: %d %s", resp.Status, resp.Body)
	}
	resp = run(execute.Request{Request: pg.Request{Query: `{ tags { data { attributes { name } } } }`}})
	if resp.Status != http.StatusOK || string(resp.Body) != `{"data":{"tags":{"data":[{"attributes":{"name":"go"}}]}}}` || resp.Statements != 1 {
		t.Errorf("find: %d %s (%d statements)", resp.Status, resp.Body, resp.Statements)
	}
	// A GET request's operation may not mutate.
	resp = run(execute.Request{Request: pg.Request{Query: `mutation { deleteTag(id: 1) { data { id } } }`}, QueriesOnly: true})
	if resp.Status != http.StatusMethodNotAllowed || !strings.Contains(string(resp.Body), "GET supports only query operation") {
		t.Errorf("mutation refused for GET: %d %s", resp.Status, resp.Body)
	}
	// Refused before running: the errors list, 400.
	resp = run(execute.Request{Request: pg.Request{Query: `{ nope }`}})
	if resp.Status != http.StatusBadRequest || !strings.HasPrefix(string(resp.Body), `{"errors":[`) {
		t.Errorf("invalid: %d %s", resp.Status, resp.Body)
	}
	if _, err := execute.New(execute.Options{Schema: s}); err == nil {
		t.Error("an executor needs a planner and a runner")
	}
}
