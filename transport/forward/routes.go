// Package forward decides which requests Quarry serves itself and which go to the Strapi
// server beside it (`quarry serve --upstream URL`), and forwards those. Quarry serves the
// content API it knows; a project's own code — custom routes, overridden core controllers,
// lifecycle hooks — and everything Quarry lacks (the admin panel and its API, other
// plugins) stay with Strapi.
package forward

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/schemas/jseval"
	"github.com/quarrycms/quarry/schemas/routes"
)

// Policy says what happens to a request Quarry could serve but the project customizes.
type Policy string

const (
	Forward Policy = "forward"
	Serve   Policy = "serve"
)

// ParsePolicy reads "forward" or "serve"; empty is def.
func ParsePolicy(s string, def Policy) (Policy, error) {
	switch Policy(strings.ToLower(strings.TrimSpace(s))) {
	case "":
		return def, nil
	case Forward:
		return Forward, nil
	case Serve:
		return Serve, nil
	}
	return "", fmt.Errorf("%q: want forward or serve", s)
}

// Options configure the decisions.
type Options struct {
	// Overrides is what happens to a core action whose controller the project overrides
	// (src/api/<api>/controllers/<name>.js with the action in createCoreController's
	// extension); default Forward.
	Overrides Policy
	// Lifecycles is what happens to writes to a content type that has
	// content-types/<name>/lifecycles.js, which Quarry cannot run; default Forward.
	Lifecycles Policy
	// LookupEnv is the environment the project's files see.
	LookupEnv func(string) (string, bool)
}

// Route is one decided route, for the start-up listing.
type Route struct {
	Method, Path string
	Upstream     bool
	Reason       string
}

// Routes holds the decisions for one app.
type Routes struct {
	rules  []rule // checked in order before Quarry's router
	listed []Route
}

type rule struct {
	method  string // "" any
	pattern []string
	prefix  bool // pattern matches the path's start (a trailing *)
	reason  string
}

// Decide says whether the request goes upstream, and why. A request no rule forwards is
// Quarry's; the ones Quarry's router does not know are forwarded too (see Server).
func (rs *Routes) Decide(r *http.Request) (upstream bool, reason string) {
	if rs == nil {
		return false, ""
	}
	segs := splitPath(r.URL.Path)
	for _, ru := range rs.rules {
		if ru.method != "" && ru.method != r.Method {
			continue
		}
		if ru.matches(segs) {
			return true, ru.reason
		}
	}
	return false, ""
}

// List is every route with its decision, for printing at start.
func (rs *Routes) List() []Route { return rs.listed }

func splitPath(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

func (ru rule) matches(segs []string) bool {
	if len(segs) < len(ru.pattern) || (!ru.prefix && len(segs) != len(ru.pattern)) {
		return false
	}
	for i, p := range ru.pattern {
		if strings.HasPrefix(p, ":") {
			if segs[i] == "" {
				return false
			}
			continue
		}
		if p != segs[i] {
			return false
		}
	}
	return true
}

func (rs *Routes) add(method, path, reason string) {
	ru := rule{method: strings.ToUpper(method), reason: reason}
	p := path
	if strings.HasSuffix(p, "/*") || strings.HasSuffix(p, "(.*)") {
		ru.prefix = true
		p = strings.TrimSuffix(strings.TrimSuffix(p, "/*"), "(.*)")
	}
	for _, s := range splitPath(p) {
		// koa-router's parameters (":id", ":id(\\d+)") match one segment.
		if strings.HasPrefix(s, ":") {
			s = ":"
		}
		ru.pattern = append(ru.pattern, s)
	}
	rs.rules = append(rs.rules, ru)
	m := ru.method
	if m == "" {
		m = "*"
	}
	rs.listed = append(rs.listed, Route{Method: m, Path: path, Upstream: true, Reason: reason})
}

// Load reads the project's routes, controllers and lifecycles under appDir/src/api and
// decides each of the content API's routes.
func Load(ctx context.Context, appDir string, s *schemas.Schema, opts Options) (*Routes, error) {
	if opts.Overrides == "" {
		opts.Overrides = Forward
	}
	if opts.Lifecycles == "" {
		opts.Lifecycles = Forward
	}
	rs := &Routes{}
	jo := jseval.Options{Root: appDir, LookupEnv: opts.LookupEnv}
	apis, _ := filepath.Glob(filepath.Join(appDir, "src", "api", "*"))
	sort.Strings(apis)
	overridden := map[string][]string{}      // uid → actions
	custom := map[string]map[string]string{} // uid → action → why its core route is the project's
	for _, api := range apis {
		for _, f := range jsFiles(filepath.Join(api, "routes")) {
			res, err := jseval.EvalModule(ctx, f, jo)
			if err != nil {
				return nil, fmt.Errorf("routes: %w", err)
			}
			rel, _ := filepath.Rel(appDir, f)
			for _, r := range customRoutes(res.Value) {
				rs.add(r.Method, r.Path, "custom route ("+rel+")")
			}
			if uid, why := coreRouterCustomizations(appDir, res.Value); uid != "" {
				custom[uid] = why
			}
		}
		for _, f := range jsFiles(filepath.Join(api, "controllers")) {
			res, err := jseval.EvalModule(ctx, f, jo)
			if err != nil {
				return nil, fmt.Errorf("controllers: %w", err)
			}
			if m, ok := res.Value.(map[string]any); ok && m["__quarry"] == "coreController" {
				uid, _ := m["uid"].(string)
				for _, a := range asStrings(m["actions"]) {
					overridden[uid] = append(overridden[uid], a)
				}
			}
		}
	}
	for _, m := range s.ContentTypes {
		if !strings.HasPrefix(m.UID, "api::") {
			continue
		}
		api, name, _ := strings.Cut(strings.TrimPrefix(m.UID, "api::"), ".")
		lifecycles := len(jsFiles(filepath.Join(appDir, "src", "api", api, "content-types", name), "lifecycles")) > 0
		for _, cr := range coreRoutes(m) {
			switch {
			case opts.Overrides == Forward && contains(overridden[m.UID], cr.action):
				rs.add(cr.method, cr.path, "controller overrides "+cr.action)
			case opts.Overrides == Forward && custom[m.UID][cr.action] != "":
				rs.add(cr.method, cr.path, custom[m.UID][cr.action])
			case opts.Lifecycles == Forward && lifecycles && cr.method != http.MethodGet:
				rs.add(cr.method, cr.path, "content type has lifecycles.js")
			default:
				rs.listed = append(rs.listed, Route{Method: cr.method, Path: cr.path, Reason: "core " + cr.action})
			}
		}
	}
	rs.add("", "/api/connect/*", "plugin route Quarry lacks (users-permissions providers)")
	rs.listed = append(rs.listed, Route{Method: "*", Path: "(any other path: /admin, /content-manager, /i18n, /upload, …)", Upstream: true, Reason: "not served by Quarry"})
	return rs, nil
}

type coreRoute struct{ method, path, action string }

func coreRoutes(m *schemas.Model) []coreRoute {
	if m.Kind == schemas.SingleType {
		p := "/api/" + m.SingularName
		out := []coreRoute{{"GET", p, "find"}, {"PUT", p, "update"}, {"DELETE", p, "delete"}}
		if m.Localized {
			out = append(out, coreRoute{"POST", p + "/localizations", "createLocalization"})
		}
		return out
	}
	p := "/api/" + m.PluralName
	out := []coreRoute{{"GET", p, "find"}, {"GET", p + "/:id", "findOne"}, {"POST", p, "create"},
		{"PUT", p + "/:id", "update"}, {"DELETE", p + "/:id", "delete"}}
	if m.Localized {
		out = append(out, coreRoute{"POST", p + "/:id/localizations", "createLocalization"})
	}
	return out
}

// coreRouterCustomizations reads createCoreRouter(uid, {only, except, config}): the actions
// it leaves out (Strapi answers 404 there) and those with policies or middlewares Quarry
// cannot run are Strapi's; middlewares that only rewrite the query Quarry runs itself.
func coreRouterCustomizations(appDir string, v any) (string, map[string]string) {
	m, ok := v.(map[string]any)
	if !ok || m["__quarry"] != "coreRouter" {
		return "", nil
	}
	uid, _ := m["uid"].(string)
	cfg, _ := m["config"].(map[string]any)
	why := map[string]string{}
	all := []string{"find", "findOne", "create", "update", "delete"}
	if only := asStrings(cfg["only"]); cfg["only"] != nil {
		for _, a := range all {
			if !contains(only, a) {
				why[a] = "core router leaves " + a + " out"
			}
		}
	}
	for _, a := range asStrings(cfg["except"]) {
		why[a] = "core router leaves " + a + " out"
	}
	actions, _ := cfg["config"].(map[string]any)
	for a, c := range actions {
		ac, _ := c.(map[string]any)
		rc := routes.RouteConfig{Policies: asAny(ac["policies"]), Middlewares: asAny(ac["middlewares"])}
		if (len(rc.Policies) > 0 || len(rc.Middlewares) > 0) && !routes.QueryOnly(appDir, rc) {
			why[a] = "core route " + a + " has policies or middlewares"
		}
	}
	return uid, why
}

func asAny(v any) []any {
	list, _ := v.([]any)
	return list
}

type customRoute struct{ Method, Path string }

// customRoutes reads a routes file's export: `{ routes: [{ method, path, handler, config }] }`
// (a core router's export is Quarry's own routes). Strapi prefixes content-API routes with
// /api unless the route's config.prefix says otherwise.
func customRoutes(v any) []customRoute {
	m, ok := v.(map[string]any)
	if !ok || m["__quarry"] != nil {
		return nil
	}
	list, _ := m["routes"].([]any)
	var out []customRoute
	for _, it := range list {
		r, ok := it.(map[string]any)
		if !ok {
			continue
		}
		method, _ := r["method"].(string)
		path, _ := r["path"].(string)
		if method == "" || path == "" {
			continue
		}
		prefix := "/api"
		if cfg, ok := r["config"].(map[string]any); ok {
			if p, ok := cfg["prefix"].(string); ok {
				prefix = p
			}
		}
		out = append(out, customRoute{strings.ToUpper(method), strings.TrimSuffix(prefix, "/") + path})
	}
	return out
}

// jsFiles lists dir's .js/.ts files (named base, when given), sorted.
func jsFiles(dir string, base ...string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		ext := filepath.Ext(n)
		if e.IsDir() || (ext != ".js" && ext != ".ts" && ext != ".cjs") || strings.HasSuffix(n, ".d.ts") {
			continue
		}
		if len(base) > 0 && strings.TrimSuffix(n, ext) != base[0] {
			continue
		}
		out = append(out, filepath.Join(dir, n))
	}
	sort.Strings(out)
	return out
}

func asStrings(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
