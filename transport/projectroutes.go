package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/quarrycms/quarry/parser/qs"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/jsonw"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/write"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/schemas/routes"
	"github.com/quarrycms/quarry/sqlgen/database"
	"github.com/quarrycms/quarry/transport/envelope"
	"github.com/quarrycms/quarry/transport/plugins"
	"github.com/quarrycms/quarry/transport/plugins/upload"
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
	body, form, err := s.projectBody(w, r)
	if err == nil && body == nil && form == nil && pr.Native == "" && !pr.NativeRoute {
		// The project's own action reads a form or text body as Strapi's body parser gives
		// it; Quarry's own actions never take one as a payload (jsonw.IsJSONRequest).
		body, err = s.formBody(w, r)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if form != nil {
		// Strapi's body parser removes the files when the request is answered.
		defer form.Discard()
		r = withForm(r, form)
	}
	if pr.NativeRoute {
		r = r.WithContext(context.WithValue(r.Context(), origRequestKey{}, r))
	}
	s.Code.Serve(w, r, pr, who, res.Params, body, s.clientIP(r))
}

// serveServerRoute answers a route src/index gives strapi.server.routes as Strapi's router
// does: one that is not public answers 401 (no authentication strategy is registered for
// such routes), a public one runs its policies, middlewares and handler in the runtime with
// no user; one Quarry does not run is forwarded or refused.
func (s *Server) serveServerRoute(w http.ResponseWriter, r *http.Request, sr *ServerRoute, params map[string]string) {
	if sr.Project == nil || s.Code == nil {
		if s.Upstream != nil {
			s.toUpstream(w, r, "the project's code: "+sr.Code[0].String())
			return
		}
		code := sr.Code
		if code == nil {
			code = []routes.Code{{What: sr.Project.Handler}}
		}
		envelope.WriteAPIError(w, NotImplemented(code))
		return
	}
	if !sr.Open {
		envelope.WriteAPIError(w, &apierror.Error{Status: http.StatusUnauthorized, Name: "UnauthorizedError", Message: "Missing or invalid credentials"})
		return
	}
	s.serveProject(w, r, Resolved{Kind: RouteProject, Project: sr.Project, Params: params})
}

// projectBody is ctx.request.body: a JSON body within the server's limit, or a multipart
// form's fields with its files (the form, whose files the caller discards); nil when the
// request has none or sends another type.
func (s *Server) projectBody(w http.ResponseWriter, r *http.Request) ([]byte, *upload.Form, error) {
	if r.Body == nil || r.ContentLength == 0 {
		return nil, nil, nil
	}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt == "multipart/form-data" && s.Upload != nil {
		form, err := s.Upload.ReadForm(w, r)
		if err != nil {
			return nil, nil, err
		}
		return formFields(form), form, nil
	}
	if mt != "application/json" && mt != "application/vnd.api+json" {
		return nil, nil, nil
	}
	b, err := readBody(w, r, s.MaxBody)
	if err != nil {
		return nil, nil, err
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, nil, nil
	}
	if err := syntaxError(b); err != nil {
		return nil, nil, err
	}
	return b, nil, nil
}

// formLimit is koa-body's formLimit and textLimit (56 kb).
const formLimit = 56 << 10

// formBody is an urlencoded or text body as koa-body makes ctx.request.body of it, as JSON:
// a form parsed as co-body parses it (qs with allowDots), a text/* body as its string; nil for
// other bodies. Over 56 kb it answers koa-body's 413.
func (s *Server) formBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if r.Body == nil || r.ContentLength == 0 || (r.Method != http.MethodPost && r.Method != http.MethodPut && r.Method != http.MethodPatch) {
		return nil, nil // koa-body parses the bodies of POST, PUT and PATCH only
	}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	form := mt == "application/x-www-form-urlencoded"
	if !form && !strings.HasPrefix(mt, "text/") {
		return nil, nil
	}
	limit := int64(formLimit)
	if s.FormMaxBody > 0 {
		limit = s.FormMaxBody // strapi::body's formLimit
	}
	raw, err := readBody(w, r, limit)
	if err != nil {
		return nil, err
	}
	if !form {
		return json.Marshal(string(raw))
	}
	o, err := qs.Parse(string(raw), qs.FormOptions())
	if err != nil {
		return nil, err
	}
	return o.AppendJSON(nil), nil
}

// withForm hands a multipart request's form to the project's code (ctx.request.files) and
// to Quarry's own action at the end of its chain.
func withForm(r *http.Request, form *upload.Form) *http.Request {
	return r.WithContext(projectcode.WithFiles(upload.WithForm(r.Context(), form), projectFiles(form)))
}

// formFields is a multipart form's fields as koa-body makes ctx.request.body of them: in
// the order they came, a field sent once as its string, several times as an array (a
// repeat after an empty value replaces it, as koa-body's truthiness check does).
func formFields(form *upload.Form) []byte {
	var b jsonw.Buffer
	b.WriteByte('{')
	for i, name := range form.Names {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Key(name)
		var vals []string
		for _, v := range form.Fields[name] {
			if len(vals) == 1 && vals[0] == "" {
				vals = vals[:0]
			}
			vals = append(vals, v)
		}
		switch len(vals) {
		case 0:
			b.WriteString("null")
			continue
		case 1:
			b.Str(vals[0])
			continue
		}
		b.WriteByte('[')
		for j, v := range vals {
			if j > 0 {
				b.WriteByte(',')
			}
			b.Str(v)
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
	return b.Bytes()
}

// projectFiles are a form's files as the project's code receives them.
func projectFiles(form *upload.Form) []projectcode.File {
	files := make([]projectcode.File, 0, len(form.Files))
	for _, in := range form.Files {
		f := projectcode.File{Field: in.Field, Path: in.TempPath(), Name: in.Filename, Type: in.Declared, Size: in.Size, Modified: time.Now()}
		if st, err := os.Stat(in.TempPath()); err == nil {
			f.Modified = st.ModTime()
		}
		files = append(files, f)
	}
	return files
}

// writeBody is the body a chain's create or update hands to Quarry's own action: its JSON,
// or, for a multipart request, the multipart form rebuilt from the fields the chain left
// (ctx.request.body) and the files the client sent, streamed.
func writeBody(ctx context.Context, method string, body []byte) (rd io.Reader, contentType string, length int64) {
	form := upload.FormOf(ctx)
	if form == nil || method != http.MethodPost && method != http.MethodPut {
		if body == nil {
			return nil, "", 0
		}
		return bytes.NewReader(body), "application/json", int64(len(body))
	}
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		pw.CloseWithError(writeForm(mw, form, body))
	}()
	return pr, mw.FormDataContentType(), -1
}

// closeBody ends a streamed form whose reader stopped early (a refused part): its writer
// would otherwise wait for a reader forever.
func closeBody(rd io.Reader) {
	if c, ok := rd.(io.Closer); ok {
		c.Close()
	}
}

// writeForm writes the fields of body (a JSON object; values that are not strings as
// JavaScript's String() gives them, as koa-body would have received them) and the form's
// files.
func writeForm(mw *multipart.Writer, form *upload.Form, body []byte) error {
	fields, err := orderedFields(body)
	if err != nil {
		return err
	}
	for _, f := range fields {
		if err := mw.WriteField(f[0], f[1]); err != nil {
			return err
		}
	}
	for _, in := range form.Files {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", mime.FormatMediaType("form-data", map[string]string{"name": in.Field, "filename": in.Filename}))
		if in.Declared != "" {
			h.Set("Content-Type", in.Declared)
		}
		part, err := mw.CreatePart(h)
		if err != nil {
			return err
		}
		f, err := in.Open()
		if err != nil {
			return err
		}
		_, err = io.Copy(part, f)
		f.Close()
		if err != nil {
			return err
		}
	}
	return mw.Close()
}

// orderedFields reads a JSON object's members in order as form fields: an array is the
// field repeated (koa-body's reading of a repeated field, undone), any other value as
// JavaScript's String() writes it.
func orderedFields(body []byte) ([][2]string, error) {
	if len(bytes.TrimSpace(body)) == 0 || bytes.Equal(bytes.TrimSpace(body), []byte("null")) {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("ctx.request.body of a multipart request is not an object")
	}
	var out [][2]string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, _ := t.(string)
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if list, ok := v.([]any); ok {
			for _, x := range list {
				out = append(out, [2]string{name, write.JSString(x)})
			}
			continue
		}
		out = append(out, [2]string{name, write.JSString(v)})
	}
	return out, nil
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
		path += "/" + url.PathEscape(id) // an id is one segment, whatever it holds
	}
	if rawQuery != "" {
		path += "?" + rawQuery
	}
	rd, ct, n := writeBody(ctx, method, body)
	req, err := http.NewRequestWithContext(ctx, method, path, rd)
	if err != nil {
		return http.StatusBadRequest, `{"data":null,"error":{"status":400,"name":"ValidationError","message":"Invalid request","details":{}}}`
	}
	if rd != nil {
		req.Header.Set("Content-Type", ct)
		req.ContentLength = n
	}
	rec := &capture{header: http.Header{}, status: http.StatusOK}
	s.dispatchNow(rec, req, m, action, id, who)
	closeBody(rd)
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
	rd, ct, n := writeBody(ctx, method, body)
	req, err := s.reentry(ctx, method, path, rawQuery, rd)
	if err != nil {
		return http.StatusBadRequest, `{"data":null,"error":{"status":400,"name":"ValidationError","message":"Invalid request","details":{}}}`, nil
	}
	if rd != nil {
		req.Header.Set("Content-Type", ct)
		req.ContentLength = n
	}
	rec := &capture{header: http.Header{}, status: http.StatusOK}
	s.router.ServeHTTP(rec, req)
	closeBody(rd)
	return rec.status, rec.body.String(), rec.header
}

// reentry is the request the router serves again for the project's code: the original's
// headers, address and host, with the path, query and body the code left.
func (s *Server) reentry(ctx context.Context, method, path, rawQuery string, rd io.Reader) (*http.Request, error) {
	target := path
	if rawQuery != "" {
		target += "?" + rawQuery
	}
	req, err := http.NewRequestWithContext(ctx, method, target, rd)
	if err != nil {
		return nil, err
	}
	if orig, ok := ctx.Value(origRequestKey{}).(*http.Request); ok {
		req.Header = orig.Header.Clone()
		req.RemoteAddr = orig.RemoteAddr
		req.Host = orig.Host
	}
	if left, ok := ctx.Value(chainHeadersKey{}).(map[string]string); ok {
		applyChainHeaders(req.Header, left)
	}
	req.Header.Del("Content-Length")
	req.ContentLength = 0
	return req, nil
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

// CoreStore is strapi.store's get, set and delete on Strapi's core store
// (projectcode.Host); a write forgets the settings the server keeps (users-permissions'
// advanced settings and providers, i18n's default locale, the webhooks), as an admin's
// change of them does.
func (s *Server) CoreStore(ctx context.Context, op string, where database.StoreEntry) ([]byte, error) {
	var e *database.StoreEntry
	var err error
	switch op {
	case "get":
		e, err = s.DB.StoreGet(ctx, where)
	case "set":
		e, err = s.DB.StoreSet(ctx, where)
	case "delete":
		e, err = s.DB.StoreDelete(ctx, where)
	default:
		return nil, fmt.Errorf("core store: no operation %q", op)
	}
	if err != nil {
		return nil, err
	}
	if op != "get" {
		s.ForgetSettings()
	}
	return json.Marshal(e)
}

// files are stored files as the query engine reads them (flat, every attribute), for the
// upload service the project's code calls.
func (s *Server) files(ctx context.Context, ids []int64) (json.RawMessage, error) {
	var b envelope.Buf
	b.WriteByte('[')
	for i, id := range ids {
		pl, e, err := s.readOne(ctx, s.DB, upload.FileQuery(id), ir.System)
		if err != nil {
			return nil, err
		}
		if e == nil {
			return nil, fmt.Errorf("upload: file %d vanished", id)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.FlatEntry(pl.Root, e)
	}
	b.WriteByte(']')
	return bytes.Clone(b.Bytes()), nil
}

// fileWrite runs a write of the file model for the upload service the project's code
// calls, through the one write path as the system, and answers the entry flat as the
// entity service returns it (as the model's after hook left it, when one read it back).
func (s *Server) fileWrite(ctx context.Context, q *ir.Query) (json.RawMessage, error) {
	ws := s.WriteService()
	if ws == nil {
		return nil, &apierror.Error{Status: http.StatusNotImplemented, Name: "NotImplementedError", Message: "writes from the project's code are not available"}
	}
	res, err := ws.Apply(ctx, q, ir.System)
	if err != nil {
		return nil, err
	}
	if res.Hooked != nil {
		return res.Hooked, nil
	}
	if res.Entry == nil || res.Plan == nil {
		return json.RawMessage("null"), nil
	}
	var b envelope.Buf
	b.FlatEntry(res.Plan.Root, res.Entry)
	return bytes.Clone(b.Bytes()), nil
}

// projectAuth runs the users-permissions auth action (auth.callback, auth.register) the
// project's extension replaced, as the plugin's GraphQL login and register resolvers call the
// controller: with the mutation's input as ctx.request.body, without the REST route's
// policies and middlewares, the controller's own answer (its status and JSON) returned; ok is
// false when the project did not replace the action, or Quarry does not run its extension.
// The cookies it sets go with the GraphQL answer (plugins.WithResponseHeader).
func (s *Server) projectAuth(ctx context.Context, action string, input map[string]any) (int, []byte, bool, error) {
	var pr *projectcode.Route
	var path string
	for i := range s.Routes.Plugin {
		r := &s.Routes.Plugin[i]
		if r.Name == "users-permissions "+action && r.Method == http.MethodPost && r.Project != nil && r.Project.Extension {
			pr, path = r.Project, r.Path
			break
		}
	}
	if pr == nil {
		return 0, nil, false, nil
	}
	route := projectcode.Route{Key: pr.Key + " (GraphQL)", Method: pr.Method, Path: pr.Path, Handler: pr.Handler,
		NativeRoute: pr.NativeRoute, Live: pr.Live, Plugin: pr.Plugin, PluginHandler: pr.PluginHandler, Extension: pr.Extension,
		Policies: []any{}, Middlewares: []any{}, Info: pr.Info, Config: pr.Config}
	body, err := json.Marshal(input)
	if err != nil {
		return 0, nil, false, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, path, bytes.NewReader(body))
	if err != nil {
		return 0, nil, false, err
	}
	req.Header.Set("Content-Type", "application/json")
	req = req.WithContext(context.WithValue(req.Context(), origRequestKey{}, req))
	rec := &capture{header: http.Header{}, status: http.StatusOK}
	s.Code.Serve(rec, req, &route, &ir.Caller{Kind: ir.PublicCaller, Actions: map[string]bool{}}, nil, body, "")
	if h := plugins.ResponseHeaderFrom(ctx); h != nil {
		// The cookies the action sets go with the GraphQL answer, as on Strapi's koa context.
		for _, v := range rec.header.Values("Set-Cookie") {
			h.Add("Set-Cookie", v)
		}
	}
	return rec.status, []byte(rec.body.String()), true, nil
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
