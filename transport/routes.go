package transport

import (
	"context"
	"net/http"
	"strings"

	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/transport/envelope"
)

// RouteTable is what the project's route files (src/api/*/routes) say about the content API:
// which core actions each content type's router exposes and under which prefix, which are
// public (config.auth: false), and which custom routes the project declares. Quarry runs the
// core actions only; Resolve is the one place that decides whether Quarry serves a request
// or leaves it to NotServed.
type RouteTable struct {
	// Files is false when the project has no route file: every content type's core routes
	// are served at /api/<name>, as when Quarry did not read route files.
	Files bool
	// Core are the core routers by content-type uid.
	Core map[string]*CoreRoutes
	// Custom are the custom routes in Strapi's registration order.
	Custom []CustomRoute
}

// CoreRoutes is one createCoreRouter call.
type CoreRoutes struct {
	Order  int             // position among the project's routers
	Prefix string          // the router's prefix ("/v2"), inserted after /api
	Action map[string]bool // the core actions only/except leave
	Public map[string]bool // actions with config.auth: false
	// Query are the route middlewares Quarry runs itself, by action: they rewrite the
	// query before the core action reads it (see schemas/routes.QueryOnly).
	Query map[string]QueryRewriter
}

// QueryRewriter is a core route's middleware chain that only rewrites ctx.query: given the
// raw query string and the route's parameters, the raw query string the action reads.
type QueryRewriter interface {
	Rewrite(ctx context.Context, rawQuery string, params map[string]string) (string, error)
}

// CustomRoute is one route of a `{ routes: [...] }` file.
type CustomRoute struct {
	Order   int
	Method  string // upper case
	Path    string // under /api, with the file's prefix: /articles/featured, /articles/:id/like
	Handler string // api::article.article.featured
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
}

// Resolve decides how method and path (below /api, e.g. /articles/1) are answered, in
// Strapi's order: the first of the project's routers, in registration order, whose route
// matches wins.
func (t *RouteTable) Resolve(s *schemas.Schema, method, path string) Resolved {
	segs := splitPath(path)
	core, coreOrder := t.core(s, method, segs)
	for i := range t.Custom {
		c := &t.Custom[i]
		if c.Method != method || !matchPattern(c.Path, segs) {
			continue
		}
		if core.Kind == RouteCore && coreOrder < c.Order {
			break
		}
		return Resolved{Kind: RouteCustom, Custom: c}
	}
	return core
}

// core matches segs against the content types' core routes.
func (t *RouteTable) core(s *schemas.Schema, method string, segs []string) (Resolved, int) {
	best := Resolved{Kind: RouteNone}
	order := 0
	for _, m := range s.Models {
		if !m.IsContentType() {
			continue
		}
		prefix, name := "", m.PluralName
		if m.Kind == schemas.SingleType {
			name = m.SingularName
		}
		var r *CoreRoutes
		if t != nil && t.Files {
			if r = t.Core[m.UID]; r == nil {
				continue // no router: Strapi routes nothing of this type
			}
			prefix = r.Prefix
		}
		rest, ok := cutSegments(segs, splitPath(prefix+"/"+name))
		if !ok || len(rest) > 1 || m.Kind == schemas.SingleType && len(rest) > 0 {
			continue
		}
		id := ""
		if len(rest) == 1 {
			id = rest[0]
		}
		action := coreAction(m, method, id != "")
		enabled := func(a string) bool { return r == nil || r.Action[a] }
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
			order = r.Order
		}
		return res, order
	}
	return best, order
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

// notServed answers a route the project declares but Quarry does not run: 404 in Strapi's
// envelope, or s.NotServed (an upstream Strapi, for example) when set.
func (s *Server) notServed(w http.ResponseWriter, r *http.Request) {
	if s.NotServed != nil {
		s.NotServed.ServeHTTP(w, r)
		return
	}
	envelope.WriteAPIError(w, apierror.NotFound())
}
