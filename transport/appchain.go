package transport

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"

	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/jsonw"
	"github.com/quarrycms/quarry/schemas/routes"
	"github.com/quarrycms/quarry/transport/envelope"
	"github.com/quarrycms/quarry/transport/projectcode"
)

// appDoneKey marks, in a request's context, a request whose app-level middlewares have run
// (Server.AppNext): the router serves it as usual, its own route's chain included.
type appDoneKey struct{}

// appChain runs the project's own app-level middlewares (config/middlewares' global::…)
// around every request before Quarry routes it, as Strapi's koa app does: the chain runs in
// the runtime for project code and ends in AppNext, which serves the request as the chain
// left it. JSON and multipart bodies travel through the chain; a request under the content
// API or GraphQL with another body, and a request elsewhere (media files) other than GET
// and HEAD, is refused rather than served without the project's middlewares. Beside Strapi
// those requests are Strapi's.
func (s *Server) appChain(next http.Handler) http.Handler {
	var once sync.Once
	var route *projectcode.Route
	// stack sets the headers of Strapi's own stack (strapi::security, cors, poweredBy) as they
	// are set before the middlewares after it run: an answer the chain gives from there has them.
	stack := s.httpMiddleware(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.Routes == nil || len(s.Routes.App) == 0 || r.Context().Value(appDoneKey{}) != nil {
			next.ServeHTTP(w, r)
			return
		}
		segs := splitPath(r.URL.Path)
		if len(segs) == 1 && (segs[0] == "_health" || segs[0] == "_ready") {
			next.ServeHTTP(w, r)
			return
		}
		what := "the project's app-level middlewares (" + s.appNames() + ")"
		if s.Upstream != nil {
			s.toUpstream(w, r, what)
			return
		}
		refuse := func(why string) {
			envelope.WriteAPIError(w, &apierror.Error{Status: http.StatusNotImplemented, Name: "NotImplementedError", Message: why})
		}
		if s.Code == nil {
			refuse("This request runs " + what + ", which this server does not run")
			return
		}
		if !s.appPath(r.URL.Path) && r.Method != http.MethodGet && r.Method != http.MethodHead {
			refuse("This request runs " + what + "; outside the content API and GraphQL Quarry runs them for GET and HEAD only")
			return
		}
		body, form, err := s.projectBody(w, r)
		var bodyErr *apierror.Error
		if err != nil && (!errors.As(err, &bodyErr) || !s.appRegisterUses()) {
			s.writeError(w, r, err)
			return
		}
		if bodyErr == nil && body == nil && form == nil {
			// A form or text body travels through the chain as koa-body parses it; Quarry's
			// own actions after it still take it as no payload (jsonw.WithFormOrigin).
			fb, err := s.formBody(w, r)
			if err != nil {
				s.writeError(w, r, err)
				return
			}
			if fb != nil {
				body = fb
				r = r.WithContext(jsonw.WithFormOrigin(r.Context()))
			}
		}
		if form != nil {
			defer form.Discard()
			r = withForm(r, form)
		}
		if bodyErr == nil && body == nil && r.ContentLength != 0 && r.Body != nil && r.Body != http.NoBody {
			refuse("This request runs " + what + "; Quarry runs them for JSON, multipart, form and text bodies only")
			return
		}
		once.Do(func() {
			route = &projectcode.Route{Key: "app-level middlewares", App: true, Method: "*", Path: "*",
				Info: map[string]any{}, Config: map[string]any{}}
			for _, a := range s.Routes.App {
				if a.Server != "" {
					// A function src/index's register() or bootstrap() gave strapi.server.use:
					// the sandbox takes it from its own run of that function.
					route.Middlewares = append(route.Middlewares, map[string]any{"server": a.Server, "index": a.Index, "name": a.Name})
					continue
				}
				route.Middlewares = append(route.Middlewares, map[string]any{"name": a.Name, "config": a.Config})
			}
		})
		ctx, _ := projectcode.WithDeferred(context.WithValue(r.Context(), origRequestKey{}, r))
		if bodyErr != nil {
			// register()'s strapi.server.use middlewares run outside Strapi's body parser:
			// they run around its answer.
			rec := &bodyCapture{headCapture: headCapture{header: http.Header{}, status: http.StatusOK}}
			envelope.WriteAPIError(rec, bodyErr)
			ctx = projectcode.WithBodyError(ctx, rec.status, rec.body.String())
		}
		hc := &headCapture{header: http.Header{}, status: http.StatusOK}
		stack.ServeHTTP(hc, r)
		ctx = projectcode.WithStackHeaders(ctx, hc.header)
		r = r.WithContext(ctx)
		s.Code.Serve(w, r, route, nil, nil, body, s.clientIP(r))
	})
}

// appRegisterUses says whether src/index's register() gives strapi.server.use middlewares,
// which run outside Strapi's own stack (its body parser and error handler).
func (s *Server) appRegisterUses() bool {
	for _, a := range s.Routes.App {
		if a.Server == "register" {
			return true
		}
	}
	return false
}

// appPath says whether the app-level middlewares run for a path here: the content API,
// GraphQL and the routes src/index gives strapi.server.routes (JSON both ways).
func (s *Server) appPath(p string) bool {
	if s.Routes.serverPath(p) {
		return true // a strapi.server.routes route's, answered as the project's code answers
	}
	api := "/api"
	if s.RESTPrefix != "" {
		api = s.RESTPrefix
	}
	gql := s.GraphQLPath
	if gql == "" {
		gql = "/graphql"
	}
	for _, base := range []string{api, gql} {
		if p == base || strings.HasPrefix(p, base+"/") {
			return true
		}
	}
	return false
}

// appNames names the app-level middlewares Quarry runs.
func (s *Server) appNames() string { return AppNames(s.Routes.App) }

// AppNames names app-level middlewares for listings and refusals: config/middlewares' and
// those src/index gives strapi.server.use.
func AppNames(list []routes.AppMiddleware) string {
	var config, server []string
	for _, a := range list {
		if a.Server != "" {
			server = append(server, a.Name)
		} else {
			config = append(config, a.Name)
		}
	}
	var parts []string
	if len(config) > 0 {
		parts = append(parts, "config/middlewares: "+strings.Join(config, ", "))
	}
	if len(server) > 0 {
		parts = append(parts, "src/index: "+strings.Join(server, ", "))
	}
	return strings.Join(parts, "; ")
}

// AppNext serves a request whose app-level middlewares have run, with the query and body
// they left (projectcode.Host): its status, body and headers. Outside the content API and
// GraphQL (media files) the body stays out of the sandbox: the chain sees the status and
// headers, and the response is sent after it (projectcode.DeferredBody).
func (s *Server) AppNext(ctx context.Context, method, path, rawQuery string, body []byte, header map[string]string) (int, string, http.Header) {
	ctx = context.WithValue(ctx, appDoneKey{}, true)
	if header != nil {
		ctx = context.WithValue(ctx, chainHeadersKey{}, header)
	}
	if d := projectcode.DeferredFrom(ctx); d != nil && !s.appPath(path) {
		// A HEAD answers the status and headers the GET will, without reading the file twice.
		req, err := s.reentry(ctx, http.MethodHead, path, rawQuery, nil)
		if err != nil {
			return http.StatusBadRequest, `{"data":null,"error":{"status":400,"name":"ValidationError","message":"Invalid request","details":{}}}`, nil
		}
		head := &headCapture{header: http.Header{}, status: http.StatusOK}
		s.router.ServeHTTP(head, req)
		d.Serve = func(w http.ResponseWriter) {
			again, err := s.reentry(ctx, method, path, rawQuery, nil)
			if err != nil {
				w.WriteHeader(http.StatusBadRequest)
				return
			}
			s.router.ServeHTTP(w, again)
		}
		return head.status, projectcode.DeferredBody, head.header
	}
	return s.reenter(ctx, method, path, rawQuery, body)
}

// chainHeadersKey holds, in a request's context, its headers as the app-level middlewares
// left them (lower-case names, first values), which the request served after them carries:
// Strapi's koa app hands the router the request the middlewares changed, so an Authorization
// header a middleware makes from a cookie authenticates it.
type chainHeadersKey struct{}

// applyChainHeaders makes h the headers the middlewares left: a value they changed replaces
// the client's, one they removed goes, one they added comes; values they did not touch keep
// all their lines. The body's own headers are the re-entry's.
func applyChainHeaders(h http.Header, left map[string]string) {
	for k := range h {
		if _, ok := left[strings.ToLower(k)]; !ok && !bodyHeader(k) {
			delete(h, k)
		}
	}
	for k, v := range left {
		if bodyHeader(k) || strings.EqualFold(k, "host") {
			continue
		}
		if h.Get(k) != v {
			h.Set(k, v)
		}
	}
}

func bodyHeader(k string) bool {
	return strings.EqualFold(k, "Content-Length") || strings.EqualFold(k, "Content-Type")
}

// headCapture keeps a response's status and headers and drops its body: what the app-level
// middlewares see of a media file before Quarry sends it.
type headCapture struct {
	header http.Header
	status int
}

func (c *headCapture) Header() http.Header         { return c.header }
func (c *headCapture) WriteHeader(status int)      { c.status = status }
func (c *headCapture) Write(p []byte) (int, error) { return len(p), nil }

// bodyCapture keeps a response's status and body: an error's answer as Strapi's stack gives it
// to the middlewares around it.
type bodyCapture struct {
	headCapture
	body bytes.Buffer
}

func (c *bodyCapture) Write(p []byte) (int, error) { return c.body.Write(p) }
