package projectcode

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/dop251/goja"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/parser/qs"
	"github.com/quarrycms/quarry/schemas/jseval"
	"github.com/quarrycms/quarry/transport/envelope"
)

// Route is a route whose chain runs the project's code: its policies and middlewares, then
// the project's controller action (Handler) or Quarry's own core action (Native).
type Route struct {
	Key     string `json:"key"` // unique per route: the sandboxes keep its composed chain
	Method  string `json:"method"`
	Path    string `json:"path"`
	Handler string `json:"handler"` // api::article.article.find
	// Native is the core action Quarry runs at the end of the chain when the project does not
	// replace it (its controller and service are Strapi's own); UID is its content type.
	Native string `json:"native,omitempty"`
	// NativeRoute ends the chain with Quarry's own answer to the request's route (a plugin's
	// action, such as users-permissions' user.find), given the query and body the chain left.
	NativeRoute bool `json:"nativeRoute,omitempty"`
	// Live takes the route's policies and middlewares from the plugin's routes as the
	// project's register(), run in each sandbox, left them (inline functions included);
	// Plugin and PluginHandler find the route there.
	Live bool `json:"live,omitempty"`
	// App is the chain of the project's app-level middlewares (Middlewares), which ends in
	// the request served as the router serves it (Host.AppNext).
	App bool `json:"app,omitempty"`
	// ServerRoute is set for a route src/index's register() or bootstrap() gives
	// strapi.server.routes ("register" or "bootstrap"): the Index-th route it gives, whose
	// handler, policies and middlewares the sandbox takes from its own run of that function.
	ServerRoute string `json:"serverRoute,omitempty"`
	Index       int    `json:"index"`
	// Extension runs the action as the project's plugin extension replaced it.
	Extension     bool           `json:"extension,omitempty"`
	Plugin        string         `json:"plugin,omitempty"`
	PluginHandler string         `json:"pluginHandler,omitempty"`
	UID           string         `json:"uid,omitempty"`
	Policies      []any          `json:"policies"`
	Middlewares   []any          `json:"middlewares"`
	Info          map[string]any `json:"info"`
	Config        map[string]any `json:"config"`

	once sync.Once
	json string // the route as the sandboxes read it, made once
}

// request is what ctx is built from.
type request struct {
	Method      string            `json:"method"`
	URL         string            `json:"url"`
	Path        string            `json:"path"`
	Querystring string            `json:"querystring"`
	Headers     map[string]string `json:"headers"`
	IP          string            `json:"ip"`
	Params      map[string]string `json:"params"`
	Query       json.RawMessage   `json:"query"`
	Body        json.RawMessage   `json:"body"`
	UserID      int64             `json:"userId,omitempty"`
	Auth        map[string]any    `json:"auth,omitempty"`
	// Encrypted is a request that came over TLS (Koa's socket.encrypted): ctx.protocol is
	// https for it whatever its headers say.
	Encrypted bool `json:"encrypted,omitempty"`
}

// Serve answers a request through a route's chain, for a caller already authenticated and
// allowed the route's action (Strapi's authenticate and authorize steps come first). body is
// the request's JSON body (nil when none); ip is the client's address as koa sees it.
func (rt *Runtime) Serve(w http.ResponseWriter, r *http.Request, route *Route, who *ir.Caller, params map[string]string, body []byte, ip string) {
	ae := rt.serve(w, r, route, who, params, body, ip)
	if ae != nil {
		writeError(w, ae)
	}
}

func (rt *Runtime) serve(w http.ResponseWriter, r *http.Request, route *Route, who *ir.Caller, params map[string]string, body []byte, ip string) *apierror.Error {
	ctx := r.Context()
	root, err := qs.Parse(r.URL.RawQuery, qs.StrapiOptions())
	if err != nil {
		return apierror.Validation("Invalid query string")
	}
	req := request{Method: r.Method, URL: r.URL.RequestURI(), Path: r.URL.Path, Querystring: r.URL.RawQuery,
		Headers: make(map[string]string, len(r.Header)+1), IP: ip, Params: params, Encrypted: r.TLS != nil}
	if req.Params == nil {
		req.Params = map[string]string{}
	}
	for k, v := range r.Header {
		if len(v) > 0 && !strings.EqualFold(k, "Authorization") {
			req.Headers[strings.ToLower(k)] = v[0]
		}
	}
	if h := r.Header.Get("Authorization"); h != "" {
		req.Headers["authorization"] = h // the project's code may read its own scheme
	}
	if r.Host != "" {
		req.Headers["host"] = r.Host
	}
	if who != nil && who.Kind == ir.UserCaller {
		req.UserID = who.UserID
	}
	route.once.Do(func() {
		b, _ := json.Marshal(route)
		route.json = string(b)
	})
	// The body goes as its JSON, parsed in the sandbox: null when there is none.
	if len(body) > 0 && !json.Valid(body) {
		return internal()
	}
	bodyJSON := goja.Null()
	var res boxResult
	c := &call{who: who, route: route.Key, method: r.Method, path: r.URL.Path, resHeader: w.Header()}
	err = rt.run(ctx, c, func(v *vm, js *goja.Runtime) (goja.Value, error) {
		if len(body) > 0 {
			bodyJSON = js.ToValue(string(body))
		}
		jr := jsRequest(js, &req, root, who)
		if files := filesJSON(ctx); files != "" {
			put(jr, "files", js.ToValue(files))
		}
		if st, ok := ctx.Value(appStateKey{}).(string); ok && !route.App {
			put(jr, "appState", js.ToValue(st))
		}
		if h, ok := ctx.Value(stackHeadersKey{}).(http.Header); ok && route.App && len(h) > 0 {
			names := make([]string, 0, len(h))
			for k, v := range h {
				if len(v) > 0 {
					names = append(names, strings.ToLower(k), v[0])
				}
			}
			put(jr, "stackHeaders", js.ToValue(names))
		}
		if be, ok := ctx.Value(bodyErrorKey{}).(bodyError); ok {
			put(jr, "bodyErrorStatus", js.ToValue(be.status))
			put(jr, "bodyError", js.ToValue(be.body))
		}
		return v.serve(goja.Undefined(), js.ToValue(route.Key), js.ToValue(route.json), jr, bodyJSON)
	}, func(box *goja.Object) { res = readBox(box) })
	if err != nil {
		return rt.failed(route, err)
	}
	if res.state != "done" {
		rt.Log.Error("project code did not finish: it waits on something that never comes", "route", route.Key)
		return internal()
	}
	if res.internal != "" {
		rt.Log.Error("project code failed", "route", route.Key, "error", res.internal)
		return internal()
	}
	for _, k := range res.removed {
		w.Header().Del(k)
	}
	for k, vals := range res.headers {
		out := make([]string, len(vals))
		for i, v := range vals {
			b, ok := latin1(v)
			if !ok {
				// Node refuses such a header (ERR_INVALID_CHAR): Strapi answers 500.
				rt.Log.Error("project code set a header Node would refuse", "route", route.Key, "header", k)
				return internal()
			}
			out[i] = b
		}
		w.Header()[http.CanonicalHeaderKey(k)] = out
	}
	switch {
	case res.raw == DeferredBody:
		d, _ := ctx.Value(deferredKey{}).(*Deferred)
		if d == nil || d.Serve == nil {
			return internal()
		}
		d.Serve(&statusWriter{ResponseWriter: w, status: res.status})
	case res.raw != "":
		writeBody(w, res.status, "application/json; charset=utf-8", res.raw)
	case res.json != "":
		writeBody(w, res.status, "application/json; charset=utf-8", res.json)
	default:
		ct := "text/plain; charset=utf-8"
		if strings.HasPrefix(strings.TrimSpace(res.text), "<") {
			ct = "text/html; charset=utf-8"
		}
		if res.text == "" {
			ct = ""
		}
		writeBody(w, res.status, ct, res.text)
	}
	return nil
}

// authState is ctx.state.auth as Strapi's auth service leaves it.
func authState(who *ir.Caller) map[string]any {
	if who == nil {
		return nil
	}
	switch who.Kind {
	case ir.UserCaller:
		return map[string]any{"strategy": map[string]any{"name": "users-permissions"}, "credentials": map[string]any{"id": who.UserID}}
	case ir.TokenCaller:
		return map[string]any{"strategy": map[string]any{"name": "api-token"}, "credentials": map[string]any{"id": who.TokenID, "type": who.TokenType}}
	}
	return map[string]any{"strategy": map[string]any{"name": "users-permissions"}, "credentials": nil}
}

type boxResult struct {
	state, internal, raw, json, text string
	status                           int
	// headers are the response's headers the code set: one value each, but for Set-Cookie,
	// whose values are lines of their own (ctx.cookies.set, ctx.set('Set-Cookie', [...])).
	headers map[string][]string
	// removed are the headers the code removed (ctx.remove) of those set before it.
	removed []string
}

// fromLatin1 reads a header value written as Latin-1 bytes (latin1) back as its text; a value
// that is UTF-8 already stays as it is.
func fromLatin1(v string) string {
	if utf8.ValidString(v) {
		return v
	}
	r := make([]rune, len(v))
	for i := 0; i < len(v); i++ {
		r[i] = rune(v[i])
	}
	return string(r)
}

// latin1 is a header value as Node writes it: each character one byte (Latin-1), so an é
// in a file name goes out as 0xE9; a character beyond U+00FF is refused (ok false).
func latin1(v string) (string, bool) {
	ascii := true
	for i := 0; i < len(v); i++ {
		if v[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return v, true
	}
	b := make([]byte, 0, len(v))
	for _, r := range v {
		if r > 0xFF {
			return "", false
		}
		b = append(b, byte(r))
	}
	return string(b), true
}

// boxString is a box's field as a string, "" when it is not set.
func boxString(b *goja.Object, k string) string {
	v := b.Get(k)
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return ""
	}
	return v.String()
}

func readBox(b *goja.Object) boxResult {
	str := func(k string) string { return boxString(b, k) }
	res := boxResult{state: str("state"), internal: str("internal"), raw: str("raw"), json: str("json"), text: str("text"), headers: map[string][]string{}}
	if rm := str("removed"); rm != "" {
		res.removed = strings.Split(rm, "\n")
	}
	res.status, _ = strconv.Atoi(str("status"))
	if res.status == 0 {
		res.status = http.StatusOK
	}
	// The headers' own keys and values, read one by one: what Export would give, without the
	// map of every value it makes first.
	if ho, ok := b.Get("headers").(*goja.Object); ok && ho.ClassName() == "Object" {
		for _, k := range ho.Keys() {
			switch x := ho.Get(k).Export().(type) {
			case string:
				res.headers[k] = []string{x}
			case []any:
				parts := make([]string, len(x))
				for i, p := range x {
					parts[i], _ = p.(string)
				}
				if strings.EqualFold(k, "set-cookie") {
					res.headers[k] = parts
				} else {
					res.headers[k] = []string{strings.Join(parts, ", ")}
				}
			}
		}
	}
	return res
}

// boxError is the Strapi error a box settled with (its JSON envelope), for callers that
// answer it as an error rather than write it.
func boxError(res boxResult) *apierror.Error {
	var env struct {
		Error struct {
			Status  int    `json:"status"`
			Name    string `json:"name"`
			Message string `json:"message"`
			Details any    `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(res.json), &env); err != nil {
		return internal()
	}
	return &apierror.Error{Status: env.Error.Status, Name: env.Error.Name, Message: env.Error.Message, Details: env.Error.Details}
}

func writeBody(w http.ResponseWriter, status int, contentType, body string) {
	if contentType != "" && w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", contentType)
	}
	if status == http.StatusNoContent || status == http.StatusNotModified {
		w.WriteHeader(status)
		return
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	io.WriteString(w, body) // net/http's writer takes the string as it is, with no []byte made of it
}

func writeError(w http.ResponseWriter, ae *apierror.Error) { envelope.WriteAPIError(w, ae) }

// internal is Strapi's answer to an error that is not Strapi's: no details key, as http-errors
// leaves it undefined.
func internal() *apierror.Error {
	return &apierror.Error{Status: http.StatusInternalServerError, Name: "InternalServerError", Message: "Internal Server Error", NoDetails: true}
}

// failed logs why a route's code could not run and answers as Strapi answers an internal
// error; a client that left gets nothing more.
func (rt *Runtime) failed(route *Route, err error) *apierror.Error {
	switch {
	case errors.Is(err, context.Canceled):
		return &apierror.Error{Status: 499, Name: "ClientClosedRequest", Message: "Client Closed Request"}
	case errors.Is(err, jseval.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		rt.Log.Error("project code ran out of time", "route", route.Key, "limit", rt.Timeout)
	case errors.Is(err, ErrMemory):
		rt.Log.Error("project code stopped: the heap passed its limit", "route", route.Key, "limit_bytes", rt.MaxHeap)
	default:
		rt.Log.Error("project code failed", "route", route.Key, "error", err)
	}
	return internal()
}

// ClientIP is koa's ctx.request.ip for a request: the connection's address.
func ClientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// DeferredBody is the body Host.AppNext answers for a response Quarry sends itself once the
// app-level middlewares have run (a media file): its bytes never enter the sandbox, and a
// chain that leaves ctx.body as it is sends it (Deferred.Serve), with the chain's headers
// and status.
const DeferredBody = "\x00quarry:deferred-body"

type deferredKey struct{}

// Deferred is, in a request's context, the response AppNext left to send after the chain.
type Deferred struct {
	Serve func(w http.ResponseWriter)
}

// WithDeferred gives a request's context the holder AppNext fills.
func WithDeferred(ctx context.Context) (context.Context, *Deferred) {
	d := &Deferred{}
	return context.WithValue(ctx, deferredKey{}, d), d
}

// DeferredFrom is the holder of a request's context (nil when there is none).
func DeferredFrom(ctx context.Context) *Deferred {
	d, _ := ctx.Value(deferredKey{}).(*Deferred)
	return d
}

// statusWriter sends a deferred response with the status the chain left, where a middleware
// changed the one the file had.
type statusWriter struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (s *statusWriter) WriteHeader(code int) {
	if s.wrote {
		return
	}
	s.wrote = true
	if s.status != 0 {
		code = s.status
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(p []byte) (int, error) {
	if !s.wrote {
		s.WriteHeader(http.StatusOK)
	}
	return s.ResponseWriter.Write(p)
}

// ReadFrom keeps the file's copy to the connection without a user-space copy (http.ServeContent).
func (s *statusWriter) ReadFrom(r io.Reader) (int64, error) {
	if !s.wrote {
		s.WriteHeader(http.StatusOK)
	}
	return io.Copy(s.ResponseWriter, r)
}

type bodyErrorKey struct{}

type bodyError struct {
	status int
	body   string
}

// WithBodyError gives the app-level chain the answer of Strapi's body parser to a body it
// refuses (malformed JSON, too large): the middlewares src/index's register() gives
// strapi.server.use run around it, as they run outside Strapi's stack, and it is what the
// stack answers them.
func WithBodyError(ctx context.Context, status int, body string) context.Context {
	return context.WithValue(ctx, bodyErrorKey{}, bodyError{status: status, body: body})
}

type stackHeadersKey struct{}

// WithStackHeaders gives the app-level chain the headers Strapi's own middlewares
// (strapi::security, strapi::cors, strapi::poweredBy) set before those after them run: an
// answer a middleware inside the stack gives itself carries them, as in Strapi; one
// src/index's register() gives outside it does not.
func WithStackHeaders(ctx context.Context, h http.Header) context.Context {
	return context.WithValue(ctx, stackHeadersKey{}, h)
}

// callerKey holds, in the context of a request the app-level middlewares' chain hands on, where
// its route's authentication leaves the caller (RecordCaller): what ctx.state.user and
// ctx.state.auth are to the middlewares after their next(), as in Strapi, whose router sets
// them on the same ctx.
type callerKey struct{}

type callerHolder struct{ who *ir.Caller }

// RecordCaller notes the caller a request's route authenticated, for the app-level
// middlewares that handed the request on (nothing outside such a request).
func RecordCaller(ctx context.Context, who *ir.Caller) {
	if h, ok := ctx.Value(callerKey{}).(*callerHolder); ok && who != nil {
		h.who = who
	}
}
