// Package graphql serves the GraphQL plugin's endpoint over HTTP: it decodes requests (POST
// JSON, batches, GET query string, multipart uploads), authenticates the caller, hands the
// operation to the executor (transport/graphql/execute), writes its response as Apollo
// Server does, and serves the embedded GraphiQL playground.
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

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/jsonw"
	"github.com/quarrycms/quarry/parser/gqlschema"
	pg "github.com/quarrycms/quarry/parser/graphql"
	"github.com/quarrycms/quarry/sqlgen/database"
	"github.com/quarrycms/quarry/transport/graphql/execute"
	"github.com/quarrycms/quarry/transport/respcache"
)

// The executor's interfaces and outcome, under the names the handler's callers use.
type (
	Locales  = execute.Locales
	Response = execute.Response
)

// Options assemble a handler: the executor's options, and what the HTTP side needs.
type Options struct {
	execute.Options
	// Authenticate identifies the caller of a request; an *apierror.Error refuses the
	// request with Strapi's REST error envelope, as Strapi's auth middleware does.
	Authenticate func(*http.Request) (*ir.Caller, error)
	// Env is the environment (development, staging, production); see EnvFrom.
	Env string
	// Upload reads multipart requests (the upload plugin's file parts, which the executor
	// hands to the plugin's resolvers); nil refuses them.
	Upload Multipart
	// MaxBody bounds request bodies (default 1 MB, Strapi's JSON limit).
	MaxBody int64
	// Timeout bounds the database work of one request (0: none): its statements are
	// cancelled when it passes, and the answer is a 503.
	Timeout time.Duration
	// Cache, when set, answers queries from memory while the database has not changed
	// (transport/respcache); the executor marks mutations and answers with errors as not
	// to be kept.
	Cache *respcache.Cache
}

// Handler is the GraphQL endpoint: it decodes HTTP requests, identifies the caller, hands the
// operation to the executor and writes its response.
type Handler struct {
	exec         *execute.Executor
	db           *database.DB
	upload       Multipart
	authenticate func(*http.Request) (*ir.Caller, error)
	log          *slog.Logger
	playground   bool
	maxBody      int64
	timeout      time.Duration
	cache        *respcache.Cache
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
	if o.Authenticate == nil {
		return nil, errors.New("graphql: an Authenticate function is required")
	}
	log := o.Log
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	eo := o.Options
	eo.Log = log
	x, err := execute.New(eo)
	if err != nil {
		return nil, err
	}
	env := o.Env
	if env == "" {
		env = "development"
	}
	h := &Handler{exec: x, db: o.DB, upload: o.Upload, authenticate: o.Authenticate, log: log,
		playground: env != "production" || x.Schema().Config.PlaygroundAlways, maxBody: o.MaxBody, timeout: o.Timeout,
		cache: o.Cache}
	if h.maxBody <= 0 {
		h.maxBody = 1 << 20
	}
	return h, nil
}

// Schema is the GraphQL schema served.
func (h *Handler) Schema() *gqlschema.Schema { return h.exec.Schema() }

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
	raw := r.URL.RawQuery // the request's text: the cache's key
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
			vars, err := decodeVariables([]byte(v))
			if err != nil {
				writeRequestErrors(w, http.StatusBadRequest, pg.RequestErrors{{Message: "Variables are invalid JSON.", Code: pg.CodeBadUserInput}})
				return
			}
			req.Variables = vars
			req.KeyOrder = func() pg.KeyOrder { return pg.OrderOf([]byte(v), vars) }
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
		body, err := []byte(nil), error(&http.MaxBytesError{Limit: h.maxBody})
		if r.ContentLength <= h.maxBody { // a declared length over the limit is refused unread
			body, err = io.ReadAll(http.MaxBytesReader(w, r.Body, h.maxBody))
		}
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				writeAPIError(w, &apierror.Error{Status: 413, Name: "PayloadTooLargeError", Message: "request entity too large", NoDetails: true})
				return
			}
			writeRequestErrors(w, http.StatusBadRequest, pg.RequestErrors{{Message: "Unreadable request body.", Code: pg.CodeInternal}})
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
		raw = string(body)
		if req, err = decodeBody(body); err != nil {
			if be, ok := err.(*bodyError); ok && be.text {
				writeText(w, http.StatusBadRequest, be.msg)
				return
			}
			writeRequestErrors(w, http.StatusBadRequest, pg.RequestErrors{{Message: err.Error(), Code: pg.CodeInternal}})
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
	run := func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if h.timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, h.timeout)
			defer cancel()
		}
		resp := h.exec.Execute(ctx, caller, execute.Request{Request: req, QueriesOnly: r.Method == http.MethodGet || r.Method == http.MethodHead})
		writeResponse(w, resp)
	}
	if h.cache == nil {
		run(w, r)
		return
	}
	key := respcache.Key("graphql", r.URL.Path, r.Method, raw, respcache.CallerKey(caller))
	h.cache.Serve(w, r, key, r.Header.Get("Authorization") != "", run)
}

// writeResponse answers with an execution's outcome; a database that could not serve it
// is a 503 in Strapi's REST envelope with Retry-After.
func writeResponse(w http.ResponseWriter, resp Response) {
	if resp.Unavailable != nil {
		writeAPIError(w, resp.Unavailable)
		return
	}
	writeBody(w, resp.Status, resp.Body)
	resp.Release()
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
	return h.exec.Execute(ctx, caller, execute.Request{Request: req})
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
	var v any
	err := dec.Decode(&v)
	raw, isObject := v.(map[string]any)
	if err != nil || !isObject || dec.More() {
		return pg.Request{}, &bodyError{msg: "POST body sent invalid JSON."}
	}
	req, err := requestFrom(raw)
	if req.KeyOrder == nil {
		req.KeyOrder = func() pg.KeyOrder { return pg.OrderOf(body, raw) }
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
		vars, err := decodeVariables([]byte(v))
		if err != nil {
			return req, &bodyError{msg: "Variables are invalid JSON.", text: true}
		}
		req.Variables = vars
		req.KeyOrder = func() pg.KeyOrder { return pg.OrderOf([]byte(v), vars) }
	case nil:
	default:
		return req, &bodyError{msg: "Variables must be provided as an Object where each property is a variable value. Perhaps look to see if an unparsed JSON string was provided."}
	}
	return req, nil
}

func decodeVariables(b []byte) (map[string]any, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("data after the variables")
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

func writeRequestErrors(w http.ResponseWriter, status int, re pg.RequestErrors) {
	writeBody(w, status, execute.RequestErrorsBody(re))
}

// writeBody answers with a GraphQL result, which Apollo Server (Strapi's) ends with a
// newline.
func writeBody(w http.ResponseWriter, status int, body []byte) {
	writeJSON(w, status, append(body, '\n'))
}

// writeJSON answers with all of body, so with its length, as Apollo Server under Koa does
// (net/http would send a body past its 4 KB buffer chunked).
func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

// writeAPIError answers with Strapi's REST error envelope, which Strapi's authentication
// middleware uses before the GraphQL server runs (e.g. 401 for an unknown token).
func writeAPIError(w http.ResponseWriter, ae *apierror.Error) {
	if ae.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(ae.RetryAfter))
	}
	var b jsonw.Buffer
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
