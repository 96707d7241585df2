// Package graphql serves the GraphQL plugin's endpoint: it decodes requests (POST JSON,
// GET query string), authenticates the caller, parses and lowers the operation
// (parser/graphql), runs every Shadow CRUD root field through the shared planner and
// runner — one plan per root field, so a query costs the statements its REST equivalent
// costs — and mutations through the shared writer in one transaction each, shapes results
// along the selection (aliases, fragments, __typename, null propagation), answers
// introspection, formats errors as Strapi's plugin does, reports Apollo tracing and serves
// the embedded GraphiQL playground.
package graphql

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/jsonw"
	"github.com/quarrycms/quarry/parser/gqlschema"
	pg "github.com/quarrycms/quarry/parser/graphql"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen/database"
	"github.com/quarrycms/quarry/transport/observe"
	"github.com/quarrycms/quarry/transport/plugins/i18n/localize"
	"github.com/quarrycms/quarry/transport/plugins/upload"
)

// Writer is the shared write path (planner/write.Writer): the same validation and
// relation, component and media handling as REST.
type Writer interface {
	Create(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, data map[string]any) (int64, error)
	CreateDraft(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, data map[string]any) (int64, error)
	Update(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, id int64, data map[string]any) error
	Delete(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, id int64) error
}

// Locales is the i18n plugin's locale list (i18n.Service): the default locale and whether a
// code exists. Localized types need it; nil leaves locales to the writer's default.
type Locales = localize.Locales

// Options assemble a handler.
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
	// Writer is the shared write path; nil answers mutations with NotImplementedError.
	Writer Writer
	DB     *database.DB
	// Locales serves localized types (a nil *i18n.Service must be left as a nil interface).
	Locales Locales
	// Localize applies i18n's rules (create<Type>Localization); built from the fields above
	// when nil.
	Localize *localize.Service
	// Upload serves the upload plugin's mutations, multipart requests and files' related
	// entries; nil answers them with NotImplementedError.
	Upload *upload.Service
	// Accounts serves me, login, register and the other users-permissions resolvers
	// (userspermissions.Service); nil answers them with NotImplementedError.
	Accounts Accounts
	// Authenticate identifies the caller of a request; an *apierror.Error refuses the
	// request with Strapi's REST error envelope, as Strapi's auth middleware does.
	Authenticate func(*http.Request) (*ir.Caller, error)
	Log          *slog.Logger
	// Env is the environment (development, staging, production); see EnvFrom.
	Env string
	// MaxBody bounds request bodies (default 1 MB, Strapi's JSON limit).
	MaxBody int64
	// Events queues the webhook events of mutations; nil fires none.
	Events EntryEvents
}

// EntryEvents queues webhook events (transport.Server): EntryEvent reads the entry through q,
// inside the write's transaction, and returns what queues the event once it committed.
type EntryEvents interface {
	EntryEvent(ctx context.Context, q exec.Queryer, event string, m *schemas.Model, id int64) (func(), error)
}

// Handler is the GraphQL endpoint.
type Handler struct {
	gs           *gqlschema.Schema
	planner      *planner.Planner
	runner       *exec.Runner
	writer       Writer
	db           *database.DB
	locales      Locales
	localize     *localize.Service
	upload       *upload.Service
	accounts     Accounts
	authenticate func(*http.Request) (*ir.Caller, error)
	log          *slog.Logger
	opt          pg.Options
	playground   bool
	tracing      bool
	maxBody      int64
	events       EntryEvents
}

// EnvFrom reads the environment the way Quarry does: QUARRY_ENV, else NODE_ENV (Strapi's),
// else development.
func EnvFrom(getenv func(string) string) string {
	for _, k := range []string{"QUARRY_ENV", "NODE_ENV"} {
		if v := strings.TrimSpace(getenv(k)); v != "" {
			return strings.ToLower(v)
		}
	}
	return "development"
}

// New builds the handler.
func New(o Options) (*Handler, error) {
	if o.Planner == nil || o.Runner == nil {
		return nil, errors.New("graphql: planner and runner are required")
	}
	if o.Authenticate == nil {
		return nil, errors.New("graphql: an Authenticate function is required")
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
	env := o.Env
	if env == "" {
		env = "development"
	}
	loc := o.Localize
	if loc == nil {
		loc = &localize.Service{Planner: o.Planner, Runner: o.Runner, Locales: o.Locales}
		if o.Writer != nil {
			loc.Writer = o.Writer
		}
		if o.DB != nil {
			loc.Dialect = o.DB.Dialect
		}
	}
	opt := pg.OptionsFrom(cfg)
	opt.Docs = pg.NewDocuments(pg.DefaultDocuments)
	h := &Handler{gs: gs, planner: &p, runner: o.Runner, writer: o.Writer, db: o.DB, locales: o.Locales, localize: loc,
		upload: o.Upload, accounts: o.Accounts, authenticate: o.Authenticate,
		log: log, opt: opt, playground: env != "production" || cfg.PlaygroundAlways,
		tracing: cfg.Tracing, maxBody: o.MaxBody, events: o.Events}
	if h.maxBody <= 0 {
		h.maxBody = 1 << 20
	}
	for _, w := range gs.Warnings {
		log.Warn("graphql schema", "warning", w)
	}
	return h, nil
}

// Schema is the GraphQL schema served.
func (h *Handler) Schema() *gqlschema.Schema { return h.gs }

// Response is the outcome of one request, for in-process callers and tests.
type Response struct {
	Status int
	Body   []byte
	// Statements is the number of SQL statements the request ran.
	Statements int
	// Unavailable is set when the database could not serve the request: it is answered
	// with this 503 instead of Body.
	Unavailable *apierror.Error
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			h.log.Error("graphql panic", "panic", v)
			writeBody(w, http.StatusInternalServerError, []byte(`{"errors":[{"message":"Internal Server Error","extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}`))
		}
	}()
	var req pg.Request
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		q := r.URL.Query()
		if name := q.Get("playground_asset"); name != "" && h.playground {
			servePlaygroundAsset(w, r, name)
			return
		}
		if q.Get("query") == "" {
			if h.playground && acceptsHTML(r) {
				servePlayground(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, "GET query missing.")
			return
		}
		req.Query = q.Get("query")
		req.OperationName = q.Get("operationName")
		if v := q.Get("variables"); v != "" {
			req.KeyOrder = pg.KeyOrder{}
			vars, err := decodeVariables([]byte(v), req.KeyOrder)
			if err != nil {
				writeRequestErrors(w, http.StatusBadRequest, pg.RequestErrors{{Message: "Variables are invalid JSON.", Code: pg.CodeBadUserInput}})
				return
			}
			req.Variables = vars
		}
	case http.MethodPost:
		if isMultipart(r) {
			h.serveMultipart(w, r)
			return
		}
		if !jsonBody(r) {
			// Strapi's body parser leaves any other type unread, and Apollo refuses the
			// request. Forms (urlencoded) are refused too, although Strapi parses them: a
			// page on another site can post a form, or text/plain, without a CORS
			// preflight, so neither may reach a mutation.
			writeText(w, http.StatusBadRequest, noBody)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.maxBody))
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				writeAPIError(w, &apierror.Error{Status: 413, Name: "PayloadTooLargeError", Message: "request entity too large", NoDetails: true})
				return
			}
			writeRequestErrors(w, http.StatusBadRequest, pg.RequestErrors{{Message: "Unreadable request body.", Code: codeInternal}})
			return
		}
		if len(bytes.TrimSpace(body)) > 0 && jsonw.ParseError(body) != "" {
			// Strapi's body parser refuses malformed JSON before Apollo sees it, so the
			// answer is the REST error envelope.
			writeAPIError(w, jsonSyntaxError(body))
			return
		}
		if t := bytes.TrimSpace(body); len(t) > 0 && t[0] == '[' {
			h.serveBatch(w, r, t)
			return
		}
		if t := bytes.TrimSpace(body); len(t) == 0 || bytes.Equal(t, []byte("{}")) {
			writeText(w, http.StatusBadRequest, noBody)
			return
		} else if t[0] != '{' {
			// koa-body's strict JSON parser takes only objects and arrays.
			writeAPIError(w, &apierror.Error{Status: 400, Name: "SyntaxError", Message: "invalid JSON, only supports object and array", NoDetails: true})
			return
		}
		if req, err = decodeBody(body); err != nil {
			if be, ok := err.(*bodyError); ok && be.text {
				writeText(w, http.StatusBadRequest, be.msg)
				return
			}
			writeRequestErrors(w, http.StatusBadRequest, pg.RequestErrors{{Message: err.Error(), Code: codeInternal}})
			return
		}
	default:
		w.Header().Set("Allow", "GET, POST")
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusMethodNotAllowed)
		io.WriteString(w, "Method Not Allowed")
		return
	}
	caller, err := h.authenticate(r)
	if err != nil {
		h.authError(w, err)
		return
	}
	resp := h.execute(r.Context(), caller, req, r.Method == http.MethodGet || r.Method == http.MethodHead, nil)
	writeResponse(w, resp)
}

// writeResponse answers with an execution's outcome; a database that could not serve it
// is a 503 in Strapi's REST envelope with Retry-After.
func writeResponse(w http.ResponseWriter, resp Response) {
	if resp.Unavailable != nil {
		writeAPIError(w, resp.Unavailable)
		return
	}
	writeBody(w, resp.Status, resp.Body)
}

// authError answers a failed authentication with Strapi's REST error envelope.
func (h *Handler) authError(w http.ResponseWriter, err error) {
	var ae *apierror.Error
	if u := h.db.Unavailable(h.log, err); u != nil {
		ae = u
	} else if !errors.As(err, &ae) {
		h.log.Error("graphql authenticate", "err", err)
		ae = &apierror.Error{Status: 500, Name: "InternalServerError", Message: "Internal Server Error", NoDetails: true}
	}
	writeAPIError(w, ae)
}

// Execute runs one request for a caller, in process.
func (h *Handler) Execute(ctx context.Context, caller *ir.Caller, req pg.Request) Response {
	return h.execute(ctx, caller, req, false, nil)
}

// execute runs a request; files are the file parts of a multipart request by map key.
func (h *Handler) execute(ctx context.Context, caller *ir.Caller, req pg.Request, viaGET bool, files map[string]*upload.Incoming) Response {
	var tr *tracer
	if h.tracing {
		tr = &tracer{start: time.Now()}
	}
	op, err := pg.Parse(h.gs, req, h.opt)
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
		return Response{Status: http.StatusBadRequest, Body: requestErrorsBody(re)}
	}
	observe.GraphQLOperation(ctx, string(op.Kind))
	if viaGET && op.Kind == ast.Mutation {
		return Response{Status: http.StatusMethodNotAllowed, Body: requestErrorsBody(pg.RequestErrors{{Message: "GET supports only query operation", Code: codeInternal}})}
	}
	x := &execution{h: h, ctx: ctx, caller: caller, op: op, log: h.log, trace: tr, files: files}
	data := x.run()
	if x.unavailable != nil {
		return Response{Status: x.unavailable.Status, Unavailable: x.unavailable, Statements: x.stmts}
	}
	var b jw
	b.WriteByte('{')
	if len(x.errs) > 0 {
		b.WriteString(`"errors":`)
		writeErrors(&b, x.errs)
		b.WriteByte(',')
	}
	b.WriteString(`"data":`)
	if data == nil {
		b.WriteString("null")
	} else {
		b.value(data)
	}
	if tr != nil {
		tr.endTime = time.Now()
		b.WriteString(`,"extensions":{"tracing":`)
		tr.write(&b)
		b.WriteByte('}')
	}
	b.WriteByte('}')
	return Response{Status: http.StatusOK, Body: b.Bytes(), Statements: x.stmts}
}

// bodyError is a request Apollo Server refuses before running it; text marks the ones it
// answers as plain text rather than a GraphQL errors list.
type bodyError struct {
	msg  string
	text bool
}

func (e *bodyError) Error() string { return e.msg }

// decodeBody reads {query, variables, operationName}.
func decodeBody(body []byte) (pg.Request, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	order := pg.KeyOrder{}
	v, err := pg.DecodeOrdered(dec, order)
	raw, isObject := v.(map[string]any)
	if err != nil || !isObject || dec.More() {
		return pg.Request{}, &bodyError{msg: "POST body sent invalid JSON."}
	}
	req, err := requestFrom(raw)
	if req.KeyOrder == nil {
		req.KeyOrder = order
	}
	return req, err
}

// requestFrom reads a decoded {query, variables, operationName} object, refusing what
// Apollo Server 3 refuses with its words.
func requestFrom(raw map[string]any) (pg.Request, error) {
	var req pg.Request
	switch q := raw["query"].(type) {
	case string:
		req.Query = q
	case nil:
	default:
		return req, &bodyError{msg: "GraphQL queries must be strings.", text: true}
	}
	switch n := raw["operationName"].(type) {
	case string:
		req.OperationName = n
	case nil:
	case json.Number, bool:
		// Apollo looks the operation up by the value's text.
		return req, &bodyError{msg: fmt.Sprintf("Unknown operation named \"%v\".", n)}
	default:
		return req, &bodyError{msg: "`operationName` in a POST body must be a string if provided."}
	}
	switch v := raw["variables"].(type) {
	case map[string]any:
		req.Variables = v
	case string:
		// Some clients send variables as a JSON string.
		req.KeyOrder = pg.KeyOrder{}
		vars, err := decodeVariables([]byte(v), req.KeyOrder)
		if err != nil {
			return req, &bodyError{msg: "Variables are invalid JSON.", text: true}
		}
		req.Variables = vars
	case nil:
	default:
		return req, &bodyError{msg: "Variables must be provided as an Object where each property is a variable value. Perhaps look to see if an unparsed JSON string was provided."}
	}
	return req, nil
}

func decodeVariables(b []byte, order pg.KeyOrder) (map[string]any, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := pg.DecodeOrdered(dec, order)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("variables must be an object")
	}
	return m, nil
}

func requestErrorsBody(re pg.RequestErrors) []byte {
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

func writeRequestErrors(w http.ResponseWriter, status int, re pg.RequestErrors) {
	writeBody(w, status, requestErrorsBody(re))
}

// writeBody answers with a GraphQL result, which Apollo Server (Strapi's) ends with a
// newline.
func writeBody(w http.ResponseWriter, status int, body []byte) {
	writeJSON(w, status, append(body, '\n'))
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	w.Write(body)
}

// writeAPIError answers with Strapi's REST error envelope, which Strapi's authentication
// middleware uses before the GraphQL server runs (e.g. 401 for an unknown token).
func writeAPIError(w http.ResponseWriter, ae *apierror.Error) {
	if ae.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(ae.RetryAfter))
	}
	var b jw
	b.Envelope(ae)
	writeJSON(w, ae.Status, b.Bytes())
}

func acceptsHTML(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/html")
}

// jsonSyntaxError words a malformed body as Strapi's SyntaxError envelope (Node's
// JSON.parse message).
func jsonSyntaxError(body []byte) *apierror.Error {
	return &apierror.Error{Status: 400, Name: "SyntaxError", Message: jsonw.ParseError(body), NoDetails: true}
}
