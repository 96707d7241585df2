package transport

import (
	"bytes"
	"context"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/transport/envelope"
	"github.com/quarrycms/quarry/transport/projectcode"
)

// serveProject answers a route whose chain runs the project's code (RouteProject): Strapi's
// authenticate and authorize steps here, then the chain in the runtime for project code.
func (s *Server) serveProject(w http.ResponseWriter, r *http.Request, res Resolved) {
	if s.Code == nil {
		s.notServed(w, r, res.Code)
		return
	}
	pr := res.Project
	var who *ir.Caller
	if auth, ok := pr.Config["auth"].(bool); ok && !auth {
		who = &ir.Caller{Kind: ir.PublicCaller, Actions: map[string]bool{}}
	} else {
		c, err := s.Authenticate(r)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		if !c.Can(pr.Handler) {
			s.writeError(w, r, apierror.Forbidden())
			return
		}
		who = c
	}
	body, err := s.projectBody(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if pr.NativeRoute {
		r = r.WithContext(context.WithValue(r.Context(), origRequestKey{}, r))
	}
	s.Code.Serve(w, r, pr, who, res.Params, body, s.clientIP(r))
}

// projectBody is ctx.request.body: a JSON body within the server's limit (nil when the
// request has none or sends another type).
func (s *Server) projectBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if r.Body == nil || r.ContentLength == 0 {
		return nil, nil
	}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "application/json" && mt != "application/vnd.api+json" {
		return nil, nil
	}
	b, err := []byte(nil), error(&http.MaxBytesError{Limit: s.MaxBody})
	if r.ContentLength <= s.MaxBody { // a declared length over the limit is refused unread
		b, err = io.ReadAll(http.MaxBytesReader(w, r.Body, s.MaxBody))
	}
	if err != nil {
		return nil, &apierror.Error{Status: http.StatusRequestEntityTooLarge, Name: "PayloadTooLargeError", Message: "request entity too large", NoDetails: true}
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, nil
	}
	if err := syntaxError(b); err != nil {
		return nil, err
	}
	return b, nil
}

// Native runs a core action for the project's code (projectcode.Host): the answer Quarry
// gives that action's route, without its cache.
func (s *Server) Native(ctx context.Context, m *schemas.Model, action, id, rawQuery string, body []byte, who *ir.Caller) (int, string) {
	method := "" // a switch, not a map literal made on every call
	switch action {
	case "find", "findOne":
		method = http.MethodGet
	case "create":
		method = http.MethodPost
	case "update":
		method = http.MethodPut
	case "delete":
		method = http.MethodDelete
	}
	path := "/api/" + m.PluralName
	if m.Kind == schemas.SingleType {
		path = "/api/" + m.SingularName
	} else if id != "" {
		path += "/" + id
	}
	if rawQuery != "" {
		path += "?" + rawQuery
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, path, rd)
	if err != nil {
		return http.StatusBadRequest, `{"data":null,"error":{"status":400,"name":"ValidationError","message":"Invalid request","details":{}}}`
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
		req.ContentLength = int64(len(body))
	}
	rec := &capture{header: http.Header{}, status: http.StatusOK}
	s.dispatchNow(rec, req, m, action, id, who)
	return rec.status, rec.body.String()
}

// nativeKey marks, in a request's context, Quarry's own answer to a route whose project
// chain has run (NativeRoute): routeFirst serves it without the chain a second time.
type nativeKey struct{}

// origRequestKey holds the client's request while a project chain runs, so that the native
// answer at its end authenticates the same caller from the same headers.
type origRequestKey struct{}

// NativeRoute answers a request's route as Quarry serves it natively, with the chain's query
// and body (projectcode.Host).
func (s *Server) NativeRoute(ctx context.Context, method, path, rawQuery string, body []byte) (int, string) {
	status, out, _ := s.reenter(context.WithValue(ctx, nativeKey{}, true), method, path, rawQuery, body)
	return status, out
}

// reenter serves, through the router, the request whose project chain has run (ctx says
// which: nativeKey, appDoneKey), with the client's headers and the query and JSON body the
// chain left: its status, body and headers.
func (s *Server) reenter(ctx context.Context, method, path, rawQuery string, body []byte) (int, string, http.Header) {
	target := path
	if rawQuery != "" {
		target += "?" + rawQuery
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, rd)
	if err != nil {
		return http.StatusBadRequest, `{"data":null,"error":{"status":400,"name":"ValidationError","message":"Invalid request","details":{}}}`, nil
	}
	if orig, ok := ctx.Value(origRequestKey{}).(*http.Request); ok {
		req.Header = orig.Header.Clone()
		req.RemoteAddr = orig.RemoteAddr
		req.Host = orig.Host
	}
	req.Header.Del("Content-Length")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
		req.ContentLength = int64(len(body))
	} else {
		req.ContentLength = 0
	}
	rec := &capture{header: http.Header{}, status: http.StatusOK}
	s.router.ServeHTTP(rec, req)
	return rec.status, rec.body.String(), rec.header
}

// User is ctx.state.user: the user with its role, flat, without secrets (projectcode.Host).
func (s *Server) User(ctx context.Context, id int64) ([]byte, error) {
	q := &ir.Query{Model: schemas.UserUID, Op: ir.FindOne, ID: strconv.FormatInt(id, 10),
		Populate: &ir.Populate{Children: []*ir.PopulateField{{Field: "role"}}}}
	pl, e, err := s.readOne(ctx, s.DB, q, planner.Everyone{})
	if err != nil || e == nil {
		return nil, err
	}
	var b envelope.Buf
	b.FlatEntry(pl.Root, e)
	return bytes.Clone(b.Bytes()), nil
}

// capture keeps a response in memory, as the string the project's code receives (a
// strings.Builder hands it over without a copy).
type capture struct {
	header http.Header
	status int
	body   strings.Builder
}

func (c *capture) Header() http.Header               { return c.header }
func (c *capture) WriteHeader(status int)            { c.status = status }
func (c *capture) Write(p []byte) (int, error)       { return c.body.Write(p) }
func (c *capture) WriteString(s string) (int, error) { return c.body.WriteString(s) }

var _ projectcode.Host = (*Server)(nil)
