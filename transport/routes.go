package transport

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/schemas/routes"
	"github.com/quarrycms/quarry/transport/envelope"
	"github.com/quarrycms/quarry/transport/projectcode"
)

// RouteTable is what the project's route files (src/api/*/routes) and code say about the
// content API: which core actions each content type's router exposes and under which prefix,
// which are public (config.auth: false), which custom routes the project declares, and which
// routes run code of the project's that Quarry does not run. Resolve (content types' routes)
// and Refused (every other route) are the places that decide whether Quarry serves a request,
// forwards it to Strapi or refuses it: a route is never answered by a core action without
// the code the project declares for it.
type RouteTable struct {
	// Files is false when the project has no route file: every content type's core routes
	// are served at /api/<name>, as when Quarry did not read route files.
	Files bool
	// Core are the core routers by content-type uid.
	Core map[string]*CoreRoutes
	// Custom are the custom routes in Strapi's registration order.
	Custom []CustomRoute
	// Plugin are the plugins' routes (Quarry's own and the project's local plugins') with
	// the code each runs that Quarry does not; Prefixes are paths under which every request
	// runs such code (a local plugin whose routes could not be read).
	Plugin   []PluginRoute
	Prefixes []PrefixRoute
	// AuthUser is set when the project's register() replaces the users-permissions user
	// service's fetchAuthenticatedUser: the runtime for project code fetches each JWT's user.
	AuthUser bool
	// UploadHooked names the upload plugin's file model's create hooks, which its own
	// insert does not run: the project's calls of the upload service's upload are refused.
	UploadHooked string
	// Global is code that runs on every request (an app-level middleware of the project's):
	// while it is set, nothing is served but health checks.
	Global []routes.Code
	// App are the project's own app-level middlewares Quarry runs around every content-API
	// and GraphQL request (Server.appChain).
	App []routes.AppMiddleware
	// GraphQL is code that changes the GraphQL endpoint as a whole (the extension service's
	// use() in register()).
	GraphQL []routes.Code
	// Server are the routes src/index gives strapi.server.routes, in Strapi's order (register()'s
	// before bootstrap()'s): Strapi's own router matches them before the content API's.
	Server []ServerRoute
}

// ServerRoute is a route given to strapi.server.routes, at its full path.
type ServerRoute struct {
	Method string // upper case; ALL is any method
	Path   string
	Open   bool // config.auth === false; otherwise Strapi answers 401 (no strategy for it)
	// Project is its chain in Quarry's runtime; Code, when Project is nil, what refuses it.
	Project *projectcode.Route
	Code    []routes.Code
}

// ServerRoute is the strapi.server.routes route a request reaches, with its params (nil when
// none): the first whose method and path match, as koa-router's (GET routes answer HEAD too).
func (t *RouteTable) ServerRoute(method, path string) (*ServerRoute, map[string]string) {
	if t == nil || len(t.Global) > 0 {
		return nil, nil // every route is refused
	}
	segs := splitPath(path)
	for i := range t.Server {
		r := &t.Server[i]
		if r.Method != "ALL" && r.Method != method && !(method == http.MethodHead && r.Method == http.MethodGet) {
			continue
		}
		if matchPattern(r.Path, segs) {
			return r, patternParams(r.Path, segs)
		}
	}
	return nil, nil
}

// serverPath says whether a path is one of a strapi.server.routes route's, for any method.
func (t *RouteTable) serverPath(path string) bool {
	if t == nil {
		return false
	}
	segs := splitPath(path)
	for _, r := range t.Server {
		if matchPattern(r.Path, segs) {
			return true
		}
	}
	return false
}

// PluginRoute is one plugin route, with the code it runs that Quarry does not.
type PluginRoute struct {
	Method string // upper case
	Path   string // the full path as served, /api/users/:id
	Name   string // plugin and handler, for listings: users-permissions user.find
	Code   []routes.Code
	// Project is the route's chain when Quarry's runtime runs all of Code (policies and
	// middlewares the project's register() added), ending in the plugin's own action.
	Project *projectcode.Route
	listed  bool // a content type's route, which List shows with the type's
}

// PrefixRoute refuses every request under a path.
type PrefixRoute struct {
	Path string
	Code routes.Code
}

// CoreRoutes is one createCoreRouter call.
type CoreRoutes struct {
	Order  int             // position among the project's routers
	Pos    map[string]int  // each action's position in its file's routes
	Prefix string          // the router's prefix ("/v2"), inserted after /api
	Action map[string]bool // the core actions only/except leave
	Public map[string]bool // actions with config.auth: false
	// Query are the route middlewares Quarry runs itself, by action: they rewrite the
	// query before the core action reads it (see schemas/routes.QueryOnly).
	Query map[string]QueryRewriter
	// Code is the project's code each action runs that Quarry does not (its own controller
	// or service, policies, middlewares, lifecycle hooks): such an action is refused.
	Code map[string][]routes.Code
	// Project are the actions whose code Quarry's runtime for project code runs
	// (transport/projectcode): their chain of policies, middlewares and controller.
	Project map[string]*projectcode.Route
}

// QueryRewriter is a core route's middleware chain that only rewrites ctx.query: given the
// raw query string and the route's parameters, the raw query string the action reads.
type QueryRewriter interface {
	Rewrite(ctx context.Context, rawQuery string, params map[string]string) (string, error)
}

// CustomRoute is one route of a `{ routes: [...] }` file.
type CustomRoute struct {
	Order   int
	Pos     int    // position in its file's routes
	Method  string // upper case
	Path    string // under /api, with the file's prefix: /articles/featured, /articles/:id/like
	Handler string // api::article.article.featured
	// Outside is set when the route's config.prefix puts it outside /api; Path is then the
	// full path.
	Outside bool
	Code    []routes.Code
	// Project, when set, is the route's chain, run by Quarry's runtime for project code.
	Project *projectcode.Route
}

// RouteKind is how a request is answered.
type RouteKind int

const (
	// RouteNone: no route of the project has this path: 404.
	RouteNone RouteKind = iota
	// RouteCore: a core action Quarry serves.
	RouteCore
	// RouteMethod: the path is a core route's, but not for this method: 405.
	RouteMethod
	// RouteCustom: a custom route Quarry does not run (NotServed answers it).
	RouteCustom
	// RouteRefused: a core route that runs code of the project's that Quarry does not.
	RouteRefused
	// RouteProject: a route whose chain runs the project's code in Quarry's runtime.
	RouteProject
)

// Resolved is what Resolve decided.
type Resolved struct {
	Kind   RouteKind
	Model  *schemas.Model
	Action string // find, findOne, create, update, delete
	ID     string
	Public bool // config.auth: false: no authentication and no permission
	Custom *CustomRoute
	Query  QueryRewriter // the route's query-rewriting middlewares, when it has some
	// Code is what a refused route (RouteRefused, RouteCustom) runs that Quarry does not.
	Code []routes.Code
	// Project is the chain of a RouteProject route, Params its path parameters.
	Project *projectcode.Route
	Params  map[string]string
}

// Resolve decides how method and path (below /api, e.g. /articles/1) are answered, in
// Strapi's order: the first of the project's routers, in registration order, whose route
// matches wins.
func (t *RouteTable) Resolve(s *schemas.Schema, method, path string) Resolved {
	segs := splitPath(path)
	core, coreOrder, corePos := t.core(s, method, segs)
	for i := range t.Custom {
		c := &t.Custom[i]
		if c.Method != method || !matchPattern(c.Path, segs) {
			continue
		}
		if core.Model != nil && (coreOrder < c.Order || coreOrder == c.Order && corePos < c.Pos) {
			break
		}
		if c.Outside {
			continue
		}
		if c.Project != nil {
			return Resolved{Kind: RouteProject, Custom: c, Project: c.Project, Params: patternParams(c.Path, segs)}
		}
		return Resolved{Kind: RouteCustom, Custom: c, Code: c.Code}
	}
	return core
}

// core matches segs against the content types' core routes: the route, its router's order
// and its position in its file.
func (t *RouteTable) core(s *schemas.Schema, method string, segs []string) (Resolved, int, int) {
	best := Resolved{Kind: RouteNone}
	order, pos := 0, 0
	for _, m := range s.Models {
		r, id, ok := t.coreMatch(m, segs)
		if !ok {
			continue
		}
		action := coreAction(m, method, id != "")
		enabled := func(a string) bool { return r == nil || r.Action == nil || r.Action[a] }
		if action == "" || !enabled(action) {
			// Another method of this path may still be routed: 405 then, as koa-router.
			for _, other := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete} {
				if a := coreAction(m, other, id != ""); a != "" && enabled(a) && best.Kind == RouteNone {
					best = Resolved{Kind: RouteMethod}
				}
			}
			continue
		}
		res := Resolved{Kind: RouteCore, Model: m, Action: action, ID: id}
		if r != nil {
			res.Public = r.Public[action]
			res.Query = r.Query[action]
			order, pos = r.Order, r.Pos[action]
			if p := r.Project[action]; p != nil {
				res.Kind, res.Project = RouteProject, p
				if id != "" {
					res.Params = map[string]string{"id": id}
				}
			} else if code := r.Code[action]; len(code) > 0 {
				res.Kind, res.Code = RouteRefused, code
			}
		}
		return res, order, pos
	}
	return best, order, pos
}

// coreMatch says whether segs is a path of m's core router: its routes (nil when the
// project has no route files) and the path's id ("" for the type's own path).
func (t *RouteTable) coreMatch(m *schemas.Model, segs []string) (r *CoreRoutes, id string, ok bool) {
	if !m.IsContentType() || m.IsAdmin() { // the admin panel's users have no content-API route
		return nil, "", false
	}
	prefix, name := "", m.PluralName
	if m.Kind == schemas.SingleType {
		name = m.SingularName
	}
	if t != nil {
		r = t.Core[m.UID]
	}
	if t != nil && t.Files {
		if r == nil {
			return nil, "", false // no router: Strapi routes nothing of this type
		}
		prefix = r.Prefix
	}
	rest, ok := cutSegments(segs, splitPath(prefix+"/"+name))
	if !ok || len(rest) > 1 || m.Kind == schemas.SingleType && len(rest) > 0 {
		return nil, "", false
	}
	if len(rest) == 1 {
		id = rest[0]
	}
	return r, id, true
}

// Allowed are the methods of the project's routes that match a path (below /api), in the
// order they were registered: what koa-router's 405 and OPTIONS answers name.
func (t *RouteTable) Allowed(s *schemas.Schema, path string) []string {
	segs := splitPath(path)
	type routed struct {
		order, pos int
		method     string
	}
	var list []routed
	if t != nil {
		for _, c := range t.Custom {
			if !c.Outside && matchPattern(c.Path, segs) {
				list = append(list, routed{c.Order, c.Pos, c.Method})
			}
		}
	}
	for _, m := range s.Models {
		r, id, ok := t.coreMatch(m, segs)
		if !ok {
			continue
		}
		order := 0
		if r != nil {
			order = r.Order
		}
		// The core router's order: find, findOne, create, update, delete (or as its file
		// lists them).
		for _, method := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete} {
			if a := coreAction(m, method, id != ""); a != "" && (r == nil || r.Action == nil || r.Action[a]) {
				pos := 0
				if r != nil {
					pos = r.Pos[a]
				}
				list = append(list, routed{order, pos, method})
			}
		}
	}
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].order != list[j].order {
			return list[i].order < list[j].order
		}
		return list[i].pos < list[j].pos
	})
	out := make([]string, len(list))
	for i, x := range list {
		out[i] = x.method
	}
	return out
}

// coreAction is the core action a method runs on a content type's route (with or without
// an id); "" when none.
func coreAction(m *schemas.Model, method string, withID bool) string {
	if m.Kind == schemas.SingleType {
		switch method {
		case http.MethodGet:
			return "find"
		case http.MethodPut:
			return "update"
		case http.MethodDelete:
			return "delete"
		}
		return ""
	}
	switch {
	case !withID && method == http.MethodGet:
		return "find"
	case !withID && method == http.MethodPost:
		return "create"
	case withID && method == http.MethodGet:
		return "findOne"
	case withID && method == http.MethodPut:
		return "update"
	case withID && method == http.MethodDelete:
		return "delete"
	}
	return ""
}

func splitPath(p string) []string {
	var out []string
	for _, s := range strings.Split(p, "/") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// cutSegments removes prefix from segs.
func cutSegments(segs, prefix []string) ([]string, bool) {
	if len(segs) < len(prefix) {
		return nil, false
	}
	for i, p := range prefix {
		if !strings.EqualFold(segs[i], p) {
			return nil, false
		}
	}
	return segs[len(prefix):], true
}

// matchPattern matches a koa-router path such as /articles/:id/like (named parameters, an
// optional `:name?` last segment, `(.*)` or `*` for the rest) against path segments.
func matchPattern(pattern string, segs []string) bool {
	pat := splitPath(pattern)
	for i, p := range pat {
		if p == "(.*)" || p == "*" || strings.HasSuffix(p, "(.*)") {
			return true
		}
		if i >= len(segs) {
			return i == len(pat)-1 && strings.HasPrefix(p, ":") && strings.HasSuffix(p, "?")
		}
		if strings.HasPrefix(p, ":") {
			continue
		}
		if !strings.EqualFold(p, segs[i]) {
			return false
		}
	}
	return len(pat) == len(segs)
}

// CoreCode is the code a content type's core action runs that Quarry does not; nil also
// when Quarry runs it (CoreProject).
func (t *RouteTable) CoreCode(uid, action string) []routes.Code {
	if t == nil {
		return nil
	}
	if r := t.Core[uid]; r != nil {
		if r.Project[action] != nil {
			return nil
		}
		return r.Code[action]
	}
	return t.Global
}

// CoreProject is the chain of a content type's core action when it runs the project's code.
func (t *RouteTable) CoreProject(uid, action string) *projectcode.Route {
	if t == nil || t.Core[uid] == nil {
		return nil
	}
	return t.Core[uid].Project[action]
}

// patternParams reads a koa-router path's named parameters from path segments.
func patternParams(pattern string, segs []string) map[string]string {
	out := map[string]string{}
	for i, p := range splitPath(pattern) {
		if i >= len(segs) {
			break
		}
		if name, ok := strings.CutPrefix(p, ":"); ok {
			name = strings.TrimSuffix(name, "?")
			if j := strings.IndexByte(name, '('); j >= 0 {
				name = name[:j]
			}
			out[name] = segs[i]
		}
	}
	return out
}

// Refused says whether a request (its full path) reaches code of the project's that Quarry
// does not run outside the content types' routes: code that runs on every request, a
// plugin route the project changed, a local plugin's route, a custom route outside /api.
func (t *RouteTable) Refused(method, path string) []routes.Code {
	if t == nil {
		return nil
	}
	segs := splitPath(path)
	if len(t.Global) > 0 && !(len(segs) == 1 && (segs[0] == "_health" || segs[0] == "_ready")) {
		return t.Global
	}
	for _, p := range t.Prefixes {
		if _, ok := cutSegments(segs, splitPath(p.Path)); ok {
			return []routes.Code{p.Code}
		}
	}
	for _, p := range t.Plugin {
		if len(p.Code) > 0 && p.Project == nil && p.Method == method && matchPattern(p.Path, segs) {
			return p.Code
		}
	}
	for _, c := range t.Custom {
		if c.Outside && c.Method == method && matchPattern(c.Path, segs) {
			return c.Code
		}
	}
	return nil
}

// ServeGraphQL stops refusing the GraphQL endpoint at path for the project's GraphQL
// extension code, once Quarry's runtime has taken that code over.
func (t *RouteTable) ServeGraphQL(path string) {
	if t == nil {
		return
	}
	keep := t.Prefixes[:0]
	for _, p := range t.Prefixes {
		if p.Path != path || !slices.Contains(t.GraphQL, p.Code) {
			keep = append(keep, p)
		}
	}
	t.Prefixes = keep
	t.GraphQL = nil
}

// RefuseGraphQL puts first, among the reasons the GraphQL endpoint at path is refused, what
// of the project's extension Quarry found it cannot run (c), which a request is answered with.
func (t *RouteTable) RefuseGraphQL(path string, c routes.Code) {
	if t == nil {
		return
	}
	t.Prefixes = append([]PrefixRoute{{Path: path, Code: c}}, t.Prefixes...)
}

// PluginProject is the chain of a plugin route whose added policies and middlewares Quarry's
// runtime runs (nil when there is none), with the request's path parameters.
func (t *RouteTable) PluginProject(method, path string) (*projectcode.Route, map[string]string) {
	if t == nil {
		return nil, nil
	}
	segs := splitPath(path)
	for _, p := range t.Plugin {
		if p.Project != nil && p.Method == method && matchPattern(p.Path, segs) {
			return p.Project, patternParams(p.Path, segs)
		}
	}
	return nil, nil
}

// notServed answers a route the project declares but Quarry does not run: Strapi beside
// Quarry answers it when there is one (NotServed), else 501 NotImplementedError naming the
// code.
func (s *Server) notServed(w http.ResponseWriter, r *http.Request, code []routes.Code) {
	if s.NotServed != nil {
		s.NotServed.ServeHTTP(w, r)
		return
	}
	envelope.WriteAPIError(w, NotImplemented(code))
}

// NotImplemented is the answer to a request whose route runs code of the project's that
// Quarry does not: Strapi's NotImplementedError (501), naming the code.
func NotImplemented(code []routes.Code) *apierror.Error {
	parts := make([]string, 0, len(code))
	for _, c := range code {
		parts = append(parts, c.String())
	}
	return &apierror.Error{Status: http.StatusNotImplemented, Name: "NotImplementedError",
		Message: fmt.Sprintf("This route runs the project's own code, which Quarry does not run: %s. Serve it beside Strapi (quarry serve --upstream).", strings.Join(parts, "; "))}
}
