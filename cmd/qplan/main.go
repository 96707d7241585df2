// Command qplan shows how Quarry answers a request: the parsed IR, the plan as a tree of
// steps with the parent keys each batches on, and each step's SQL with its bind values for a
// dialect; optionally the database's EXPLAIN of each step.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/parser/rest"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/explain"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/transport"
	"github.com/quarrycms/quarry/transport/app"
	"github.com/quarrycms/quarry/transport/plugins/userspermissions"
)

const usage = `qplan prints the query plan of a Quarry request.

Usage:
  qplan --app DIR [--dialect sqlite|postgres|mysql] [--json] [--explain [--analyze]] [--as CALLER] 'GET /api/articles?filters[title][$containsi]=go'
  qplan --app DIR --graphql [--variables JSON|@file] [--json] 'query { articles { data { id } } }'   (or @file, or - for stdin)

The request is METHOD PATH?QUERY as a client would send it (only GET reads are planned).
--explain runs EXPLAIN (SQLite: EXPLAIN QUERY PLAN) for each step against the app's configured
database (DATABASE_CLIENT, DATABASE_URL, ...); child steps are explained with parent ids [1].
`

func main() {
	code, err := run(context.Background(), os.Args[1:], os.Stdout, os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "qplan:", err)
	}
	os.Exit(code)
}

type output struct {
	Request string          `json:"request"`
	IR      *ir.Query       `json:"ir"`
	Dialect string          `json:"dialect"`
	Steps   []explain.Step  `json:"steps,omitempty"`
	Removed []string        `json:"removed,omitempty"`
	Error   json.RawMessage `json:"error,omitempty"`
	ErrorAt string          `json:"errorAt,omitempty"`
}

// caller builds the principal named by --as. Roles (public, authenticated or any role name)
// read their permissions from the app's database, as the server does.
func caller(ctx context.Context, as, dir string, getenv func(string) string) (*ir.Caller, error) {
	switch as {
	case "token:full-access":
		return &ir.Caller{Kind: ir.TokenCaller, TokenType: ir.TokenFullAccess}, nil
	case "token:read-only":
		return &ir.Caller{Kind: ir.TokenCaller, TokenType: ir.TokenReadOnly}, nil
	}
	if strings.HasPrefix(as, "token:") || as == "" {
		return nil, fmt.Errorf("--as must be public, authenticated, a role name, token:full-access or token:read-only, got %q", as)
	}
	a, err := app.Open(ctx, dir, getenv, nil)
	if err != nil {
		return nil, err
	}
	defer a.DB.Close()
	role, err := userspermissions.FindRole(ctx, a.DB, as)
	if err != nil {
		return nil, err
	}
	if role == nil {
		return nil, fmt.Errorf("--as: no role named %q", as)
	}
	actions, err := userspermissions.RoleActions(ctx, a.DB, role.ID)
	if err != nil {
		return nil, err
	}
	c := &ir.Caller{Kind: ir.UserCaller, RoleID: role.ID, Actions: map[string]bool{}}
	if role.Type == "public" {
		c.Kind = ir.PublicCaller
	}
	for _, act := range actions {
		c.Actions[act] = true
	}
	return c, nil
}

func run(ctx context.Context, args []string, stdout io.Writer, getenv func(string) string) (int, error) {
	fs := flag.NewFlagSet("qplan", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dir := fs.String("app", ".", "app folder")
	dialect := fs.String("dialect", "", "sqlite, postgres or mysql (default: the app's configured database client)")
	asJSON := fs.Bool("json", false, "print one JSON document")
	doExplain := fs.Bool("explain", false, "run EXPLAIN for each step against the configured database")
	analyze := fs.Bool("analyze", false, "with --explain on PostgreSQL: EXPLAIN (ANALYZE, BUFFERS)")
	as := fs.String("as", "token:full-access", "plan as this caller: public, authenticated (or another role), token:full-access, token:read-only")
	gql := fs.Bool("graphql", false, "the request is a GraphQL document (text, @file, or - for stdin)")
	variables := fs.String("variables", "", "GraphQL variables as JSON (text or @file)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			// Asked for: the usage is the answer, on stdout, exit 0 as the Go tools do.
			fmt.Fprint(stdout, usage)
			return 0, nil
		}
		fmt.Fprint(os.Stderr, usage)
		return 2, err
	}
	if fs.NArg() != 1 {
		fmt.Fprint(os.Stderr, usage)
		return 2, errors.New("give exactly one request")
	}
	request := fs.Arg(0)
	if err := checkAppDir(*dir); err != nil {
		return 2, err
	}
	s, err := app.LoadSchema(*dir)
	if err != nil {
		return 1, err
	}
	client := *dialect
	if client == "" {
		client = getenv("DATABASE_CLIENT")
	}
	d, err := sqlgen.ByName(client)
	if err != nil {
		return 2, err
	}
	var a *app.App
	if *doExplain {
		if a, err = app.Open(ctx, *dir, getenv, nil); err != nil {
			return 1, err
		}
		defer a.DB.Close()
		if a.DB.Dialect != d {
			return 2, fmt.Errorf("--dialect %s does not match the configured database %s", d.Name(), a.DB.Dialect.Name())
		}
	}
	cfg := planner.DefaultConfig()
	if a != nil {
		cfg = a.REST
	} else {
		proj, _, err := app.LoadConfig(ctx, *dir, getenv)
		if err != nil {
			return 2, err
		}
		if cfg.Deep, err = app.PopulateDeepConfig(*dir, proj.JSON("plugins"), getenv, cfg.Deep); err != nil {
			return 2, err
		}
	}
	out := output{Request: request, Dialect: d.Name()}
	who, err := caller(ctx, *as, *dir, getenv)
	if err != nil {
		return 2, err
	}
	if *gql {
		return runGraphQL(ctx, stdout, *dir, s, d, a, who, request, *variables, *asJSON, *analyze)
	}
	q, pl, perr := planRequest(s, cfg, request, who)
	out.IR = q
	if perr != nil {
		var ae *apierror.Error
		if !errors.As(perr, &ae) {
			return 1, perr
		}
		out.Error = envelope(ae)
		out.ErrorAt = ae.Path
	} else {
		steps, err := explain.Steps(pl, d)
		if err != nil {
			return 1, err
		}
		if a != nil {
			if err := explain.Run(ctx, a.DB, steps, *analyze); err != nil {
				return 1, err
			}
		}
		out.Steps, out.Removed = steps, pl.Removed
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out); err != nil {
			return 1, err
		}
	} else {
		fmt.Fprintf(stdout, "request: %s\n\nIR:\n", request)
		irJSON, _ := json.MarshalIndent(q, "  ", "  ")
		fmt.Fprintf(stdout, "  %s\n\n", irJSON)
		if out.Error != nil {
			fmt.Fprintf(stdout, "error (as the server answers):\n  %s\n", out.Error)
			if out.ErrorAt != "" {
				fmt.Fprintf(stdout, "at: %s\n", out.ErrorAt)
			}
		} else {
			fmt.Fprintf(stdout, "plan (%s):\n", d.Name())
			fmt.Fprint(stdout, explain.Format(out.Steps))
			for _, r := range out.Removed {
				fmt.Fprintf(stdout, "removed: %s\n", r)
			}
		}
	}
	if out.Error != nil {
		return 3, nil
	}
	return 0, nil
}

// planRequest parses "GET /api/<name>[/<id>]?query" and plans it.
func planRequest(s *schemas.Schema, cfg planner.Config, request string, who *ir.Caller) (*ir.Query, *plan.Plan, error) {
	method, target, ok := strings.Cut(strings.TrimSpace(request), " ")
	if !ok {
		method, target = "GET", request
	}
	if !strings.EqualFold(method, "GET") {
		return nil, nil, fmt.Errorf("only GET requests are planned, got %s", method)
	}
	u, err := url.Parse(strings.TrimSpace(target))
	if err != nil {
		return nil, nil, fmt.Errorf("bad request target: %w", err)
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if len(parts) < 2 || parts[0] != "api" || len(parts) > 3 {
		return nil, nil, apierror.NotFound()
	}
	q := &ir.Query{Op: ir.FindMany}
	if m, ok := s.ByPlural(parts[1]); ok {
		q.Model = m.UID
		if len(parts) == 3 {
			q.Op, q.ID = ir.FindOne, parts[2]
		}
	} else if m, ok := s.BySingular(parts[1]); ok && len(parts) == 2 {
		q.Model = m.UID
	} else {
		return nil, nil, apierror.NotFound()
	}
	if err := rest.Parse(u.RawQuery, q); err != nil {
		return q, nil, err
	}
	action := "find"
	if q.Op == ir.FindOne {
		action = "findOne"
	}
	if !who.Can(q.Model + "." + action) {
		return q, nil, apierror.Forbidden()
	}
	pl, err := (&planner.Planner{Schema: s, Config: cfg}).Read(q, who)
	return q, pl, err
}

// envelope renders the error exactly as the server's REST envelope does.
func envelope(ae *apierror.Error) json.RawMessage {
	rec := httptest.NewRecorder()
	transport.WriteError(rec, ae)
	return rec.Body.Bytes()
}

// checkAppDir names what --app must point at before the schema loader's file-level errors
// (`stat src`) would, which is all a user who forgot --app would otherwise see.
func checkAppDir(dir string) error {
	for _, p := range []string{"src/api", "src/components", "api", "components"} {
		if st, err := os.Stat(filepath.Join(dir, p)); err == nil && st.IsDir() {
			return nil
		}
	}
	abs, _ := filepath.Abs(dir)
	return fmt.Errorf("%s is not a Strapi app folder (no src/api or src/components): pass the app folder with --app DIR, e.g. qplan --app ./examples/blog 'GET /api/articles'", abs)
}
