package main

import (
	"log/slog"
	"strings"

	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/schemas/routes"
	"github.com/quarrycms/quarry/transport"
)

// routeTable turns what the project's route files say (app.Routes) into the server's route
// table; nil when the project has no route file, so that every core route is served.
// A core route whose middlewares only rewrite the query gets them loaded, to run before the
// core action; one that does not load is served without them, with a warning.
func routeTable(m *routes.Model, s *schemas.Schema, log *slog.Logger) *transport.RouteTable {
	if m == nil || !m.Files {
		return nil
	}
	t := &transport.RouteTable{Files: true, Core: map[string]*transport.CoreRoutes{}}
	for _, ct := range s.Models {
		if !ct.IsContentType() || !strings.HasPrefix(ct.UID, "api::") {
			continue
		}
		r := m.Core[ct.UID]
		if r == nil && !m.IsCoreEnabled(ct.UID, "find") {
			continue // no router: Strapi routes nothing of this type
		}
		cr := &transport.CoreRoutes{Action: map[string]bool{}, Public: map[string]bool{}, Query: map[string]transport.QueryRewriter{}}
		if r != nil {
			cr.Order, cr.Prefix = r.Order, r.Prefix
			for action, c := range r.Config {
				if !r.Enabled(action) || !routes.QueryOnly(m.Dir, c) {
					continue
				}
				ch, err := transport.LoadMiddlewareChain(m.Dir, c, m.Eval, log)
				if err != nil {
					log.Warn("route middleware did not load; the core action is served without it", "route", ct.UID+"."+action, "error", err)
					continue
				}
				cr.Query[action] = ch
			}
		}
		for _, a := range routes.CoreActions {
			cr.Action[a] = r == nil || r.Enabled(a)
			cr.Public[a] = r != nil && r.Public(a)
		}
		t.Core[ct.UID] = cr
	}
	for _, c := range m.Custom {
		path := c.Path
		if c.Config.Prefix == nil {
			// A route with its own config.prefix is registered beside the file's router,
			// not under its prefix, as Strapi's route manager does.
			path = c.Prefix + c.Path
		}
		t.Custom = append(t.Custom, transport.CustomRoute{Order: c.Order, Method: c.Method, Path: path, Handler: c.Handler})
	}
	return t
}
