// Package transport serves the content API over HTTP: routing (chi), authentication
// middleware, request decoding and shaping of results into Strapi's REST envelope (package
// envelope). The plugins' routes live with their plugins (transport/plugins/...), mounted on
// the server through the plugins.Host it implements (host.go).
package transport

import (
	"cmp"
	"context"
	"fmt"
	"html"
	"log/slog"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/planner/localize"
	"github.com/quarrycms/quarry/planner/write"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen/database"
	"github.com/quarrycms/quarry/transport/envelope"
	"github.com/quarrycms/quarry/transport/observe"
	"github.com/quarrycms/quarry/transport/openapi"
	"github.com/quarrycms/quarry/transport/plugins"
	"github.com/quarrycms/quarry/transport/plugins/email"
	"github.com/quarrycms/quarry/transport/plugins/i18n"
	"github.com/quarrycms/quarry/transport/plugins/upload"
	"github.com/quarrycms/quarry/transport/plugins/userspermissions"
	"github.com/quarrycms/quarry/transport/projectcode"
	"github.com/quarrycms/quarry/transport/respcache"
	"github.com/quarrycms/quarry/transport/webhook"
)

// Server is the HTTP face of one app.
type Server struct {
	Schema  *schemas.Schema
	DB      *database.DB
	Planner *planner.Planner
	Runner  *exec.Runner
	Writer  *write.Writer
	Log     *slog.Logger
	// TokenSalt is API_TOKEN_SALT.
	TokenSalt string
	// MaxBody bounds request bodies (Strapi's JSON limit is 1 MB).
	MaxBody int64
	// RequestTimeout bounds the database work of one request, read or write (0: none): its
	// statements are cancelled when it passes (SQLite interrupts, PostgreSQL cancels on the
	// server, a write's transaction rolls back), and the answer is a 503.
	RequestTimeout time.Duration
	// EmailOff unmounts the email plugin's route (for a program embedding Quarry: Strapi, and
	// so quarry serve, keeps its internal plugins on whatever config/plugins says).
	EmailOff bool
	// I18nOff unmounts the i18n plugin's routes (/api/i18n/locales, the localizations
	// route): the plugin is not installed or config/plugins disables it.
	I18nOff bool
	// UsersPermissionsOff unmounts the users-permissions plugin's routes (/api/auth/*,
	// /api/connect/*, /api/users*, /api/users-permissions/*); Auth then authenticates API
	// tokens only (its PluginOff).
	UsersPermissionsOff bool
	Now                 func() time.Time
	// I18n serves locales; nil when the app has no localized types' tables yet.
	I18n *i18n.Service
	// Localize applies i18n's rules to localized entries; built from the fields above
	// when nil.
	Localize *localize.Service
	// DebugStatements reports each request's SQL statement count in a response header
	// (QUARRY_DEBUG_STATEMENTS=1), for the load benchmark.
	DebugStatements bool
	// LogPlans logs each read's statements with timings at debug level (QUARRY_LOG_PLANS=1).
	LogPlans bool
	// GraphQL, when set, is mounted at GraphQLPath (default /graphql).
	GraphQL     http.Handler
	GraphQLPath string
	// Upload, when set, serves the media library (/api/upload, /uploads).
	Upload *upload.Service
	// Auth authenticates requests (public role, users' JWTs, API tokens) and serves the
	// users-permissions routes (plugins/userspermissions/routes.go); built from TokenSalt
	// without JWTs when nil.
	Auth *userspermissions.Service
	// Mailer is the email plugin's provider: POST /api/email (email/routes.go); nil answers
	// without sending.
	Mailer email.Sender
	// HTTP is config/middlewares.json: security headers and CORS (middleware.go).
	HTTP *HTTPConfig
	// Routes is what the project's route files say (routes.go); nil serves every core route.
	Routes *RouteTable
	// NotServed answers the routes that run code of the project's that Quarry does not run:
	// 501 NotImplementedError naming the code when nil; Strapi when it runs beside Quarry.
	NotServed http.Handler
	// OpenAPI, when set, is served at openapi.Path.
	OpenAPI []byte
	// Observers get a record of every request once it is answered (the access log,
	// metrics); none, no recording.
	Observers []observe.Observer
	// RESTPrefix is api.rest.prefix: the content API's routes (content types and the
	// plugins' routes) answer under it instead of /api. Empty means /api.
	RESTPrefix string
	// TrustProxy is server.proxy: the client IP (rate limits) is the first address of
	// X-Forwarded-For, as koa's ctx.request.ip is with app.proxy.
	TrustProxy bool
	// FormMaxBody bounds URL-encoded bodies (strapi::body formLimit); MaxBody when zero.
	FormMaxBody int64
	// Upstream, when set, is the Strapi server beside Quarry (--upstream): it gets the
	// routes that run the project's code Quarry does not run (Routes says which), the
	// providers' /api/connect routes and every request Quarry's router does not serve.
	// Without it those answer 501 or 404.
	Upstream http.Handler
	// Webhooks, when set, fires the strapi_webhooks rows on the writes Quarry serves.
	Webhooks *webhook.Dispatcher
	// Lifecycles are the project's lifecycle hooks, run by every write (planner/write).
	Lifecycles write.Lifecycles
	// Listeners are the project's strapi.eventHub listeners, run by every write the entity
	// service would announce (planner/write).
	Listeners write.Listeners

	// writes is the write path (WriteService).
	writes *write.Service

	// i18n serves the i18n plugin's routes (built by Handler), which the single types'
	// localization route shares.
	i18n *i18n.Routes
	// inline receives the files sent with entries (built by Handler when Upload is set).
	inline *upload.Inline
	// router is Handler's router below the REST prefix, where the native answer at the end
	// of a project chain is served (NativeRoute).
	router http.Handler
	// Cache, when set, answers content types' GET requests from memory while the database
	// has not changed (transport/respcache).
	Cache *respcache.Cache
	// Code runs the project's own code for the routes that declare it (Routes says which):
	// controllers, services, policies, middlewares. Nil refuses those routes.
	Code *projectcode.Runtime
	// DocsUI serves a Swagger UI page for the OpenAPI document where Strapi's documentation
	// plugin serves its own (/documentation/v1.0.0), when the project installs that plugin.
	DocsUI bool
	// Environment is the running environment (production, development, ...), which GET /
	// shows as Strapi's welcome page does.
	Environment string
}

// Handler returns the HTTP handler.
func (s *Server) Handler() http.Handler {
	if s.Now == nil {
		s.Now = time.Now
	}
	if s.MaxBody == 0 {
		s.MaxBody = 1 << 20
	}
	if s.Writer != nil {
		s.Writer.Compile() // the attribute rules, once per schema at start-up rather than on the first write
	}
	if s.Auth == nil {
		s.Auth = userspermissions.NewService(s.DB, s.Schema, userspermissions.DefaultConfig(), s.TokenSalt, s.Log)
		if s.Writer != nil {
			s.Auth.Entries = s.Writer
		}
	}
	host := pluginHost{s}
	up := &userspermissions.Routes{Host: host, Auth: s.Auth, DB: s.DB}
	if s.Auth.UserJSON == nil {
		s.Auth.UserJSON = up.UserJSON
	}
	s.localizer()
	s.WriteService()
	if s.Auth.Events == nil {
		s.Auth.Events = s.writes
	}
	if s.Code != nil && s.Code.Services == nil {
		s.Code.Services = map[string]projectcode.PluginService{
			"users-permissions.jwt":  userspermissions.JWTService{JWT: s.Auth.JWT, Now: s.Now},
			"users-permissions.role": userspermissions.RoleService{Auth: s.Auth},
			"users-permissions.user": userspermissions.UserService{Auth: s.Auth},
		}
		if !s.EmailOff {
			s.Code.Services["email.email"] = email.ProjectService{Mailer: s.Mailer, Log: s.Log}
		}
		if s.Upload != nil {
			hooked := ""
			if s.Routes != nil {
				hooked = s.Routes.UploadHooked
			}
			s.Code.Services["upload.upload"] = upload.ProjectService{Upload: s.Upload, Read: s.files, Write: s.fileWrite, Hooked: hooked,
				// s.inline is made with the routes, below.
				AfterCommit: func(ctx context.Context, fn func(context.Context) error) error { return s.inline.AfterCommit(ctx, fn) }}
		}
	}
	if s.Code != nil && s.Routes != nil && s.Routes.AuthUser && s.Auth.FetchUser == nil {
		// The project's register() replaced fetchAuthenticatedUser: the plugin's
		// authentication runs it for each JWT's user.
		s.Auth.FetchUser = s.Code.FetchAuthenticatedUser
	}
	if s.Code != nil && s.Routes != nil && s.Auth.ProjectAuth == nil {
		s.Auth.ProjectAuth = s.projectAuth
	}
	if s.Code != nil && s.Code.Localize == nil {
		s.Code.Localize = s.Localize
	}
	if s.Code != nil && s.Code.Writes == nil {
		if ws := s.WriteService(); ws != nil { // a nil *write.Service must stay a nil interface
			s.Code.Writes = ws
		}
	}
	r := chi.NewRouter()
	if len(s.Observers) > 0 {
		observed := observe.Middleware(s.Now, s.Observers...)
		r.Use(func(next http.Handler) http.Handler {
			obs := observed(next)
			return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				if native, _ := req.Context().Value(nativeKey{}).(bool); native || req.Context().Value(appDoneKey{}) != nil {
					next.ServeHTTP(w, req) // part of the client's request, logged once
					return
				}
				obs.ServeHTTP(w, req)
			})
		})
	}
	r.Use(s.appChain)
	r.Use(headAsGet)
	r.Use(s.routeFirst)
	r.Use(s.recoverer)
	r.Use(s.writeDeadline)
	if s.DB != nil && s.DB.HasReplicas() {
		// Each request's reads may go to a read replica that has caught up with the primary.
		r.Use(func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				next.ServeHTTP(w, r.WithContext(database.WithReadRoute(r.Context())))
			})
		})
	}
	if s.DebugStatements {
		r.Use(StatementHeader)
	}
	r.Use(s.httpMiddleware) // security headers and CORS on every response
	r.Use(s.serverRoutes)
	// Strapi answers its health check on every method, with its own header, which some
	// load balancers' checks look for.
	r.HandleFunc("/_health", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Strapi", "You are so French!")
		w.WriteHeader(http.StatusNoContent)
	})
	r.Get("/", s.welcome)
	r.Get("/index.html", s.welcome)
	r.Get("/_ready", s.ready)
	if s.OpenAPI != nil {
		r.Get(openapi.Path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.Write(s.OpenAPI)
		})
		if s.DocsUI {
			r.Get(path.Dir(openapi.Path), s.docsUI)
		}
	}
	r.Head("/_ready", s.ready)
	if s.GraphQL != nil {
		path := s.GraphQLPath
		if path == "" {
			path = "/graphql"
		}
		gql := s.GraphQL
		r.Handle(path, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			// The auth resolvers share the REST routes' rate limit, keyed by client.
			ctx := plugins.WithResponseHeader(plugins.WithClientIP(r.Context(), s.clientIP(r)), w.Header())
			gql.ServeHTTP(w, r.WithContext(ctx))
		}))
	}
	// The plugins' routes, then the content types'.
	s.i18n = &i18n.Routes{Host: host, Service: s.I18n, Localize: s.Localize, Writes: s.writes, Schema: s.Schema, DB: s.DB}
	if !s.I18nOff {
		s.i18n.Mount(r)
	}
	if !s.UsersPermissionsOff {
		up.Mount(r)
	}
	if !s.EmailOff {
		(&email.Routes{Host: host, Mailer: s.Mailer, Log: s.Log}).Mount(r)
	}
	if s.Upload != nil {
		s.Upload.Events = s.writes
		(&upload.Routes{Host: host, Upload: s.Upload, DB: s.DB, Log: s.Log}).Mount(r)
		s.inline = &upload.Inline{Host: host, Upload: s.Upload, DB: s.DB, Schema: s.Schema}
	}
	r.HandleFunc("/api/{name}", s.route)
	r.HandleFunc("/api/{name}/{id}", s.route)
	if s.Routes != nil && s.Routes.Files {
		// Prefixed core routers and custom routes have paths of any length.
		r.HandleFunc("/api/*", s.routeFiles)
	}
	r.NotFound(s.notFound)
	s.router = r
	if s.Upstream != nil && s.NotServed == nil {
		s.NotServed = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.toUpstream(w, r, "the project's code") })
	}
	if s.Upstream != nil {
		r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) { s.toUpstream(w, r, "method not served by Quarry") })
	} else {
		r.MethodNotAllowed(func(w http.ResponseWriter, req *http.Request) {
			envelope.MethodNotAllowed(w, req, pluginAllowed(r, req.URL.Path)...)
		})
	}
	return withoutTrailingSlash(withRESTPrefix(s.RESTPrefix, r))
}

// docsUI is a page that shows the OpenAPI document with Swagger UI, loaded from a CDN at a
// pinned version (Quarry ships no JavaScript: the Go module that embeds swagger-ui-dist,
// github.com/swaggo/files/v2, embeds its whole dist folder with source maps, 11 MB more
// binary, at a Swagger UI release of 2024).
func (s *Server) docsUI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	// The page runs the CDN's script: allow it here, as nowhere else.
	w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'self' 'unsafe-inline' https://unpkg.com; style-src 'self' 'unsafe-inline' https://unpkg.com; img-src 'self' data: https:")
	fmt.Fprintf(w, `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>API documentation</title>
<link rel="stylesheet" href="https://unpkg.com/swagger-ui-dist@5.17.14/swagger-ui.css"></head>
<body><div id="docs"></div>
<script src="https://unpkg.com/swagger-ui-dist@5.17.14/swagger-ui-bundle.js"></script>
<script>SwaggerUIBundle({url: %q, dom_id: "#docs"});</script>
</body>
</html>
`, openapi.Path)
}

// welcome answers GET / as Strapi's public middleware does by default: a 200 HTML page
// saying the server runs (in its environment, at its time), rather than a bare 404 that reads
// as a broken deployment. Beside Strapi, Strapi's page is the answer.
func (s *Server) welcome(w http.ResponseWriter, r *http.Request) {
	if s.Upstream != nil {
		s.toUpstream(w, r, "Strapi's welcome page")
		return
	}
	env := s.Environment
	if env == "" {
		env = "development"
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	fmt.Fprintf(w, "<!doctype html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><meta name=\"robots\" content=\"noindex, nofollow\"><title>Quarry</title></head>\n"+
		"<body><h1>The server is running.</h1><p>Environment: %s</p><p>%s</p><p>The content API is under <code>%s</code>.</p></body>\n</html>\n",
		html.EscapeString(env), s.Now().UTC().Format(http.TimeFormat), html.EscapeString(cmp.Or(s.RESTPrefix, "/api")))
}

// withoutTrailingSlash routes a path ending in one slash as the path without it: Strapi's
// router (koa-router, not strict) matches every route with an optional trailing slash, and
// real front-ends send `/api/product-reviews/?...`. Only one slash goes, as there.
func withoutTrailingSlash(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if len(p) > 1 && p[len(p)-1] == '/' && p[len(p)-2] != '/' {
			r2 := r.Clone(r.Context())
			r2.URL.Path = p[:len(p)-1]
			if raw := r.URL.RawPath; raw != "" && raw[len(raw)-1] == '/' {
				r2.URL.RawPath = raw[:len(raw)-1]
			}
			next.ServeHTTP(w, r2)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// publicURLKey holds, in a request's context, the URL the client sent before withRESTPrefix
// rewrote its prefix to /api.
type publicURLKey struct{}

// withRESTPrefix serves the routes written under /api at another prefix: a request under the
// prefix is routed as if under /api, and /api itself then answers 404 as in Strapi.
func withRESTPrefix(prefix string, next http.Handler) http.Handler {
	if prefix == "" || prefix == "/api" {
		return next
	}
	under := func(p, pre string) (string, bool) {
		if p == pre {
			return "", true
		}
		if rest, ok := strings.CutPrefix(p, pre); ok && strings.HasPrefix(rest, "/") {
			return rest, true
		}
		return "", false
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rest, ok := under(r.URL.Path, prefix); ok {
			r2 := r.Clone(context.WithValue(r.Context(), publicURLKey{}, r.URL))
			r2.URL.Path = "/api" + rest
			if r.URL.RawPath != "" {
				if raw, ok := under(r.URL.RawPath, prefix); ok {
					r2.URL.RawPath = "/api" + raw
				}
			}
			next.ServeHTTP(w, r2)
			return
		}
		if _, ok := under(r.URL.Path, "/api"); ok {
			envelope.WriteAPIError(w, apierror.NotFound())
			return
		}
		next.ServeHTTP(w, r)
	})
}

// routeFirst answers, before Quarry's middleware and routes see the request, what runs code
// of the project's that Quarry does not run outside the content types' routes (RouteTable's
// Refused): Strapi answers it when it runs beside Quarry, else a 501. The providers' routes
// go to Strapi too.
func (s *Server) routeFirst(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if native, _ := req.Context().Value(nativeKey{}).(bool); native {
			next.ServeHTTP(w, req) // the end of a project chain that has run
			return
		}
		if pr, params := s.Routes.PluginProject(req.Method, req.URL.Path); pr != nil {
			if s.Code == nil {
				envelope.WriteAPIError(w, &apierror.Error{Status: http.StatusNotImplemented, Name: "NotImplementedError", Message: "This route runs the project's own code, which this server does not run: " + pr.Handler})
				return
			}
			s.serveProject(w, req, Resolved{Kind: RouteProject, Project: pr, Params: params})
			return
		}
		if code := s.Routes.Refused(req.Method, req.URL.Path); code != nil {
			if s.Upstream != nil {
				s.toUpstream(w, req, "the project's code: "+code[0].String())
				return
			}
			envelope.WriteAPIError(w, NotImplemented(code))
			return
		}
		if s.Upstream == nil {
			next.ServeHTTP(w, req)
			return
		}
		if strings.HasPrefix(req.URL.Path, "/api/connect/") {
			s.toUpstream(w, req, "plugin route Quarry lacks (users-permissions providers)")
			return
		}
		if !s.Log.Enabled(req.Context(), slog.LevelDebug) {
			next.ServeHTTP(w, req)
			return
		}
		rw := &routedWriter{ResponseWriter: w}
		next.ServeHTTP(rw, req)
		if !rw.upstream {
			s.Log.Debug("route", "method", req.Method, "path", req.URL.Path, "to", "quarry")
		}
	})
}

// serverRoutes serves the routes src/index gives strapi.server.routes, after Strapi's own
// middlewares (their headers) and before the content API's routes, as Strapi's root router
// has them.
func (s *Server) serverRoutes(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if native, _ := req.Context().Value(nativeKey{}).(bool); !native {
			if sr, params := s.Routes.ServerRoute(req.Method, req.URL.Path); sr != nil {
				s.serveServerRoute(w, req, sr, params)
				return
			}
		}
		next.ServeHTTP(w, req)
	})
}

// routedWriter tells the per-request debug log that Quarry's router handed the request on.
type routedWriter struct {
	http.ResponseWriter
	upstream bool
}

func (w *routedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// notFound answers a request Quarry does not serve: Strapi's when it runs beside Quarry,
// else a 404. Strapi's public middleware routes GET (and so HEAD) of every path: another
// method on a path nothing serves is koa-router's 405 (OPTIONS its 200), allowing those two.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	if s.Upstream != nil {
		s.toUpstream(w, r, "not served by Quarry")
		return
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		envelope.WriteAPIError(w, apierror.NotFound())
	default:
		s.methodNotAllowed(w, r)
	}
}

// pluginAllowed are the methods the plugins' routes (mounted on mux) serve at path.
func pluginAllowed(mux *chi.Mux, path string) []string {
	var out []string
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch} {
		if mux.Match(chi.NewRouteContext(), m, path) {
			out = append(out, m)
		}
	}
	return out
}

// methodNotAllowed is koa-router's answer to a method the path is not routed for, naming
// the methods routed there.
func (s *Server) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	envelope.MethodNotAllowed(w, r, s.allowed(r)...)
}

// allowed lists the methods the project's routes below /api serve at r's path.
func (s *Server) allowed(r *http.Request) []string {
	if p, ok := strings.CutPrefix(r.URL.Path, "/api/"); ok && s.Schema != nil {
		return s.Routes.Allowed(s.Schema, "/"+p)
	}
	return nil
}

// toUpstream forwards the request to Strapi. Headers Quarry's middleware already set are
// dropped: Strapi's response brings its own.
func (s *Server) toUpstream(w http.ResponseWriter, r *http.Request, reason string) {
	if s.Log.Enabled(r.Context(), slog.LevelDebug) {
		s.Log.Debug("route", "method", r.Method, "path", r.URL.Path, "to", "upstream", "reason", reason)
	}
	clear(w.Header())
	if rw, ok := w.(*routedWriter); ok {
		rw.upstream = true
	}
	// An upload through Strapi (its admin panel's) streams to Strapi, which processes it
	// in its own time.
	plugins.ReceivingBody(r.Context())
	if u, ok := r.Context().Value(publicURLKey{}).(*url.URL); ok {
		// Strapi serves the content API under the same prefix: forward the path the client
		// sent, not the /api path Quarry routes internally.
		r = r.Clone(r.Context())
		r.URL = u
	}
	s.Upstream.ServeHTTP(w, r)
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
	default:
		// A write through Strapi (its admin panel: roles, tokens, locales, webhooks, settings)
		// shows in Quarry's next request, without waiting for its caches' second, on this
		// instance and the others.
		s.ForgetSettings()
		if s.DB != nil {
			s.DB.SettingsChanged(r.Context())
		}
	}
}

// ForgetSettings drops what Quarry caches of the settings Strapi's admin panel edits.
func (s *Server) ForgetSettings() {
	if s.Auth != nil {
		s.Auth.Forget()
	}
	if s.I18n != nil {
		s.I18n.Forget()
	}
	s.Webhooks.Forget()
	s.Cache.Purge() // its entries were computed with the old settings
}

// UpstreamError answers a request Strapi could not be reached for: 502 in Strapi's envelope.
func UpstreamError(w http.ResponseWriter, r *http.Request, err error) {
	envelope.WriteAPIError(w, &apierror.Error{Status: http.StatusBadGateway, Name: "BadGatewayError", Message: "Bad Gateway"})
}

// ready is the readiness probe: 204 while the database answers, 503 with Retry-After
// while it cannot be reached (/_health stays 204 as long as the process runs, as Strapi's).
func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	if err := s.DB.Ready(r.Context()); err != nil {
		ae := s.DB.Unavailable(s.Log, err)
		if ae == nil {
			s.Log.Error("readiness probe", "err", err)
			ae = apierror.ServiceUnavailable(1)
		}
		envelope.WriteAPIError(w, ae)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// recoverer turns a panic into a 500 envelope; the stack goes to the log, never the client.
func (s *Server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.Log.Error("panic", "method", r.Method, "path", r.URL.Path, "panic", v)
				envelope.WriteAPIError(w, &apierror.Error{Status: 500, Name: "InternalServerError", Message: "Internal Server Error", NoDetails: true})
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// routeFiles answers /api/... as the project's route files route it.
func (s *Server) routeFiles(w http.ResponseWriter, r *http.Request) {
	res := s.Routes.Resolve(s.Schema, r.Method, strings.TrimPrefix(r.URL.Path, "/api"))
	switch res.Kind {
	case RouteCustom, RouteRefused:
		s.notServed(w, r, res.Code)
	case RouteProject:
		s.serveProject(w, r, res)
	case RouteMethod:
		s.methodNotAllowed(w, r)
	case RouteCore:
		var who *ir.Caller
		if res.Public {
			// config.auth: false: Strapi neither authenticates nor checks a permission, and
			// without credentials its sanitizers let no relation through. A write's own
			// action is allowed (the write path checks it; reads check none).
			who = &ir.Caller{Kind: ir.PublicCaller, Actions: map[string]bool{}}
			switch res.Action {
			case "create", "update", "delete":
				who = who.Granting(res.Model.UID + "." + res.Action)
			}
		} else {
			var err error
			if who, err = s.authorize(r, res.Model, res.Action); err != nil {
				s.writeError(w, r, err)
				return
			}
		}
		if res.Query != nil {
			// Strapi runs route middlewares after authentication and the permission check.
			params := map[string]string{}
			if res.ID != "" {
				params["id"] = res.ID
			}
			q, err := res.Query.Rewrite(r.Context(), r.URL.RawQuery, params)
			if err != nil {
				// Strapi answers a throwing middleware with a 500; the query it got is the
				// cause, and what the script said stays in the log.
				s.Log.Warn("route middleware failed", "method", r.Method, "path", r.URL.Path, "error", err)
				s.writeError(w, r, apierror.Validation("Invalid query: the route's middleware rejected it"))
				return
			}
			r2 := *r
			u := *r.URL
			u.RawQuery = q
			r2.URL = &u
			r = &r2
		}
		s.dispatch(w, r, res.Model, res.Action, res.ID, who)
	default:
		s.notFound(w, r)
	}
}

// route dispatches /api/{name}[/{id}] to the content type's action.
func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	name := chi.URLParam(r, "name")
	if s.Routes != nil && s.Routes.Files {
		if st, ok := s.Schema.BySingular(name); !ok || chi.URLParam(r, "id") != "localizations" || !st.Localized {
			s.routeFiles(w, r)
			return
		}
	}
	id := chi.URLParam(r, "id")
	var m *schemas.Model
	var action string
	if ct, ok := s.Schema.ByPlural(name); ok {
		m = ct
		if id == "" {
			switch r.Method {
			case http.MethodGet:
				action = "find"
			case http.MethodPost:
				action = "create"
			}
		} else {
			switch r.Method {
			case http.MethodGet:
				action = "findOne"
			case http.MethodPut:
				action = "update"
			case http.MethodDelete:
				action = "delete"
			}
		}
	} else if st, ok := s.Schema.BySingular(name); ok && id == "localizations" && st.Localized && s.I18n != nil {
		if r.Method != http.MethodPost {
			envelope.MethodNotAllowed(w, r, http.MethodPost) // i18n's createLocalization
			return
		}
		if code := s.Routes.CoreCode(st.UID, "createLocalization"); len(code) > 0 {
			s.notServed(w, r, code)
			return
		}
		if err := s.i18n.CreateLocalization(r.Context(), w, r, st, ""); err != nil {
			s.writeError(w, r, err)
		}
		return
	} else if st, ok := s.Schema.BySingular(name); ok && id == "" {
		m = st
		switch r.Method {
		case http.MethodGet:
			action = "find"
		case http.MethodPut:
			action = "update"
		case http.MethodDelete:
			action = "delete"
		}
	} else {
		s.notFound(w, r)
		return
	}
	if action == "" {
		if s.Upstream != nil {
			s.toUpstream(w, r, "method not served by Quarry")
			return
		}
		s.methodNotAllowed(w, r)
		return
	}
	if pr := s.Routes.CoreProject(m.UID, action); pr != nil {
		params := map[string]string{}
		if id != "" {
			params["id"] = id
		}
		s.serveProject(w, r, Resolved{Kind: RouteProject, Model: m, Action: action, ID: id, Project: pr, Params: params})
		return
	}
	if code := s.Routes.CoreCode(m.UID, action); len(code) > 0 {
		s.notServed(w, r, code)
		return
	}
	who, err := s.authorize(r, m, action)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.dispatch(w, r, m, action, id, who)
}

// dispatch runs a content type's core action for an authorized caller.
func (s *Server) dispatch(w http.ResponseWriter, r *http.Request, m *schemas.Model, action, id string, who *ir.Caller) {
	if s.Cache != nil && r.Method == http.MethodGet && (action == "find" || action == "findOne") {
		key := respcache.Key("rest", r.URL.Path, r.URL.RawQuery, respcache.CallerKey(who))
		s.Cache.Serve(w, r, key, r.Header.Get("Authorization") != "", func(w http.ResponseWriter, r *http.Request) {
			s.dispatchNow(w, r, m, action, id, who)
		})
		return
	}
	s.dispatchNow(w, r, m, action, id, who)
}

func (s *Server) dispatchNow(w http.ResponseWriter, r *http.Request, m *schemas.Model, action, id string, who *ir.Caller) {
	var err error
	ctx := r.Context()
	switch {
	case m.Kind == schemas.SingleType:
		err = s.single(ctx, w, r, m, action, who)
	case action == "find":
		err = s.find(ctx, w, r, m, who)
	case action == "findOne":
		err = s.findOne(ctx, w, r, m, id, who)
	case action == "create":
		err = s.write(ctx, w, r, m, ir.Create, "", who)
	case action == "update":
		err = s.write(ctx, w, r, m, ir.Update, id, who)
	case action == "delete":
		err = s.write(ctx, w, r, m, ir.Delete, id, who)
	}
	if err != nil {
		s.writeError(w, r, err)
	}
}

// writeDeadline bounds every write request (the plugins' and the project's code's too) by
// RequestTimeout, from its start: their JSON bodies are small. Reads are bounded where their
// statements run (run), so a slow client downloading a file is not cut. A multipart
// request's deadline pauses while the upload plugin receives its body, which may take long
// to arrive, and starts again, whole, once it is in (plugins.WithBodyDeadline): the files'
// processing and the rows are bounded like any write.
func (s *Server) writeDeadline(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.RequestTimeout <= 0 || r.Method == http.MethodGet || r.Method == http.MethodHead || r.Method == http.MethodOptions {
			next.ServeHTTP(w, r)
			return
		}
		var ctx context.Context
		var cancel context.CancelFunc
		if strings.HasPrefix(strings.ToLower(r.Header.Get("Content-Type")), "multipart/") {
			ctx, cancel = plugins.WithBodyDeadline(r.Context(), s.RequestTimeout)
		} else {
			ctx, cancel = context.WithTimeout(r.Context(), s.RequestTimeout)
		}
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// deadline bounds a request's database work by RequestTimeout.
func (s *Server) deadline(ctx context.Context) (context.Context, context.CancelFunc) {
	if s.RequestTimeout <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, s.RequestTimeout)
}

// Authenticate identifies the caller (see userspermissions.Service.Authenticate): no credentials is the
// public role, a bearer token a user's JWT or an API token; an *apierror.Error refuses it.
func (s *Server) Authenticate(r *http.Request) (*ir.Caller, error) {
	c, err := s.Auth.Authenticate(r.Context(), r.Header.Get("Authorization"))
	if err == nil {
		projectcode.RecordCaller(r.Context(), c) // for the app-level middlewares after next()
	}
	return c, err
}

// authorize authenticates the request and checks the route's action.
func (s *Server) authorize(r *http.Request, m *schemas.Model, action string) (*ir.Caller, error) {
	c, err := s.Authenticate(r)
	if err != nil {
		return nil, err
	}
	if !c.Can(m.UID + "." + action) {
		return nil, apierror.Forbidden()
	}
	return c, nil
}

// headAsGet serves a HEAD as the GET of the same path, as koa-router answers HEAD with a GET
// route: the same checks and headers (Content-Length included), and no body — net/http eats
// the body of a response to a HEAD, which it knows from the client's request. The app-level
// middlewares, before it, still see HEAD.
func headAsGet(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			r = r.Clone(r.Context())
			r.Method = http.MethodGet
		}
		next.ServeHTTP(w, r)
	})
}
