// Package execute runs GraphQL operations, the stage between the parser (parser/graphql) and
// the HTTP handler (transport/graphql): it parses and lowers a request, runs every Shadow CRUD
// root field through the shared planner and runner — one plan per root field, so a query
// costs the statements its REST equivalent costs — and mutations through the shared write path
// (planner/write's Apply), completes results along the selection (aliases, fragments,
// __typename, null propagation), answers introspection, formats errors as Strapi's plugin
// does and reports Apollo tracing. It reads no HTTP request: the handler (package graphql)
// decodes the request, identifies the caller and writes the Response, whose status is the one
// Apollo Server gives the outcome.
package execute

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/parser/gqlschema"
	pg "github.com/quarrycms/quarry/parser/graphql"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/planner/localize"
	"github.com/quarrycms/quarry/planner/write"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen/database"
	"github.com/quarrycms/quarry/transport/observe"
	"github.com/quarrycms/quarry/transport/respcache"
)

// Locales is the i18n plugin's locale list (i18n.Service): the default locale and whether a
// code exists. Localized types need it; nil leaves locales to the writer's default.
type Locales = localize.Locales

// Options assemble an executor.
type Options struct {
	// Schema is the content model. GraphQL, if set, is the already built GraphQL schema;
	// otherwise it is built from Schema and Config.
	Schema  *schemas.Schema
	GraphQL *gqlschema.Schema
	Config  gqlschema.Config
	// Planner and Runner are the shared read path; the planner's REST limits are replaced by
	// the plugin's pagination rules.
	Planner *planner.Planner
	Runner  *exec.Runner
	// Writes is the shared write path (REST's, the plugins'): the mutations run through its
	// Apply; nil answers them with NotImplementedError.
	Writes *write.Service
	DB     *database.DB
	// Locales serves localized types (a nil *i18n.Service must be left as a nil interface).
	Locales Locales
	// Localize applies i18n's rules to reads; built from the fields above when nil.
	Localize *localize.Service
	// Plugins resolve the root fields the schema gives the plugins (users-permissions'
	// account resolvers, upload's mutations; plugins.go); a field no plugin registered
	// answers NotImplementedError.
	Plugins []Plugin
	// ReadHooks runs the project's read lifecycle hooks (nil: no model has any, or the
	// project's code is not run, and the fields reaching them are refused by policy).
	ReadHooks ReadHooks
	Log       *slog.Logger
}

// Executor runs operations against one GraphQL schema.
type Executor struct {
	gs       *gqlschema.Schema
	planner  *planner.Planner
	runner   *exec.Runner
	writes   *write.Service
	db       *database.DB
	locales  Locales
	localize *localize.Service
	// resolvers are the plugins' resolvers by action; related is the upload plugin's
	// UploadFile.related reader (nil: none).
	resolvers map[string]Resolver
	related   func(ctx context.Context, db exec.Queryer, fileIDs []int64, canFind func(uid string) bool, fields []string) (map[int64][]*exec.Related, error)
	hooks     ReadHooks
	log       *slog.Logger
	opt       pg.Options
	tracing   bool
}

// New builds the executor, and the GraphQL schema unless Options carry it.
func New(o Options) (*Executor, error) {
	if o.Planner == nil || o.Runner == nil {
		return nil, errors.New("graphql: planner and runner are required")
	}
	gs := o.GraphQL
	if gs == nil {
		if o.Schema == nil {
			return nil, errors.New("graphql: a content schema is required")
		}
		var err error
		if gs, err = gqlschema.Build(o.Schema, o.Config); err != nil {
			return nil, err
		}
	}
	cfg := gs.Config
	// The plugin computes limits itself (defaultLimit, maxLimit, amountLimit) and passes
	// explicit start/limit, so the planner copy must not apply REST's.
	p := *o.Planner
	p.Config.DefaultLimit = cfg.DefaultLimit
	p.Config.MaxLimit = 0
	p.Config.WithCount = false
	if p.Config.MaxPopulateDepth < 20 {
		// A GraphQL relation level costs three selection levels (field, data, attributes);
		// depthLimit is the operator's knob, this only bounds runaway nesting.
		p.Config.MaxPopulateDepth = 20
	}
	log := o.Log
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	loc := o.Localize
	if loc == nil {
		loc = &localize.Service{Planner: o.Planner, Runner: o.Runner, Locales: o.Locales}
		if o.DB != nil {
			loc.Dialect = o.DB.Dialect
		}
	}
	opt := pg.OptionsFrom(cfg)
	opt.Docs = pg.NewDocuments(pg.DefaultDocuments)
	for _, w := range gs.Warnings {
		log.Warn("graphql schema", "warning", w)
	}
	resolvers := map[string]Resolver{}
	var related func(context.Context, exec.Queryer, []int64, func(string) bool, []string) (map[int64][]*exec.Related, error)
	for _, pl := range o.Plugins {
		for action, r := range pl.Resolvers {
			resolvers[action] = r
		}
		if pl.Related != nil {
			related = pl.Related
		}
	}
	return &Executor{resolvers: resolvers, related: related, gs: gs, planner: &p, runner: o.Runner, writes: o.Writes, db: o.DB, locales: o.Locales,
		localize: loc, log: log, opt: opt, tracing: cfg.Tracing, hooks: o.ReadHooks}, nil
}

// Schema is the GraphQL schema served.
func (h *Executor) Schema() *gqlschema.Schema { return h.gs }

// Request is one operation to run.
type Request struct {
	pg.Request
	// QueriesOnly refuses mutations (a GET request's operation).
	QueriesOnly bool
	// Files are the file parts of a multipart request, by map key (the upload plugin's
	// *upload.Incoming, which the executor hands to its resolvers unopened).
	Files map[string]any
}

// Response is the outcome of one request.
type Response struct {
	Status int
	Body   []byte
	// Statements is the number of SQL statements the request ran.
	Statements int
	// Unavailable is set when the database could not serve the request: it is answered
	// with this 503 instead of Body.
	Unavailable *apierror.Error
	// buf holds Body, until Release.
	buf *jw
}

// Release lends Body's memory to later responses once it has been written; Body must not
// be used after. A response never released is left to the garbage collector.
func (r Response) Release() {
	if r.buf != nil {
		putBuf(r.buf)
	}
}

// Execute runs a request for a caller.
func (h *Executor) Execute(ctx context.Context, caller *ir.Caller, req Request) Response {
	var tr *tracer
	if h.tracing {
		tr = &tracer{start: time.Now()}
	}
	op, err := pg.Parse(h.gs, req.Request, h.opt)
	if tr != nil {
		tr.parseDur = time.Since(tr.start)
		tr.validStart = tr.parseDur
	}
	if err != nil {
		observe.GraphQLOperation(ctx, "invalid")
		var re pg.RequestErrors
		if !errors.As(err, &re) {
			h.log.Error("graphql parse", "err", err)
			re = pg.RequestErrors{{Message: "Internal Server Error", Code: codeInternal}}
		}
		return Response{Status: http.StatusBadRequest, Body: RequestErrorsBody(re)}
	}
	observe.GraphQLOperation(ctx, string(op.Kind))
	if op.Kind != ast.Query || tr != nil {
		// A mutation's answer is never one to repeat; tracing's timings are this run's.
		respcache.NoStore(ctx)
	}
	if req.QueriesOnly && op.Kind == ast.Mutation {
		return Response{Status: http.StatusMethodNotAllowed, Body: RequestErrorsBody(pg.RequestErrors{{Message: "GET supports only query operation", Code: codeInternal}})}
	}
	// The data is written first, where it ends up when there are no errors; errors go
	// before it (as Apollo Server orders them), so then it is moved once.
	w := getBuf()
	w.WriteString(`{"data":`)
	x := &execution{h: h, ctx: ctx, caller: caller, op: op, log: h.log, trace: tr, files: req.Files, w: w}
	x.run()
	if x.unavailable != nil {
		putBuf(w)
		return Response{Status: x.unavailable.Status, Unavailable: x.unavailable, Statements: x.stmts}
	}
	if len(x.errs) > 0 {
		respcache.NoStore(ctx) // an error may be a passing one
		data := w
		w = getBuf()
		w.WriteString(`{"errors":`)
		writeErrors(w, x.errs)
		w.WriteByte(',')
		w.Write(data.Bytes()[1:])
		putBuf(data)
	}
	if tr != nil {
		tr.endTime = time.Now()
		w.WriteString(`,"extensions":{"tracing":`)
		tr.write(w)
		w.WriteByte('}')
	}
	w.WriteByte('}')
	return Response{Status: http.StatusOK, Body: w.Bytes(), Statements: x.stmts, buf: w}
}

// RequestErrorsBody is the answer to a request refused before it ran, in the errors format
// of executed ones.
func RequestErrorsBody(re pg.RequestErrors) []byte {
	errs := make([]*gqlError, len(re))
	for i, e := range re {
		errs[i] = &gqlError{Message: e.Message, Locations: e.Locations, Code: e.Code}
	}
	var b jw
	b.WriteString(`{"errors":`)
	writeErrors(&b, errs)
	b.WriteByte('}')
	return b.Bytes()
}
