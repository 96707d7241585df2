// Package routes reads a Strapi v4 project's route and controller files
// (src/api/<api>/routes/*.{js,ts}, src/api/<api>/controllers/*.{js,ts}) into a model the
// server consults: which core actions each content type exposes, under which router prefix,
// which of them are public (config.auth: false), which custom routes the project declares,
// and which core actions its controllers override.
//
// The files are evaluated by jseval: `require('@strapi/strapi').factories` records what
// createCoreRouter and createCoreController were given instead of building handlers.
//
// How to read the model (for the server):
//   - Files is false when the project has no route file at all (Quarry's own examples):
//     every content type then exposes all its core actions, as before.
//   - Otherwise a content type exposes core routes only if some routes file calls
//     createCoreRouter for it (Core[uid]), as in Strapi; CoreRouter.Enabled applies
//     only/except, CoreRouter.Public says config[action].auth === false.
//   - Custom lists every route of `{ routes: [...] }` files in Strapi's registration order
//     (api folders, then files, in name order; core and custom interleaved as files come),
//     with the handler made fully qualified (api::article.article.featured).
//   - Overridden lists fully qualified core actions (api::article.article.find) a
//     controller defines itself.
//   - LoadCode adds the rest of the project's code (services, lifecycles, src/index.*,
//     plugin extensions, local plugins, app-level middlewares); CoreCode, PluginCode and
//     CustomCode say what code a route runs that Quarry does not, so that the server never
//     answers such a route with a core action alone (code.go).
package routes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/quarrycms/quarry/schemas/jseval"
)

// CoreActions are the core controller actions.
var CoreActions = []string{"find", "findOne", "create", "update", "delete"}

// RouteConfig is a route's (or a core action's) `config`.
type RouteConfig struct {
	// Auth is config.auth: false makes the route public; nil or an object is the default.
	Auth        *bool
	Policies    []any
	Middlewares []any
	// Prefix is config.prefix when the route declares one (nil otherwise).
	Prefix *string
}

// Public reports config.auth === false.
func (c RouteConfig) Public() bool { return c.Auth != nil && !*c.Auth }

// CoreRouter is one createCoreRouter call.
type CoreRouter struct {
	UID    string
	File   string // relative to the project folder
	Order  int    // position among all routers, in Strapi's registration order
	Prefix string // the router's prefix ("" when none), inserted after the REST prefix
	Only   []string
	Except []string
	// Config is config[action] for the actions that have one.
	Config map[string]RouteConfig
	// Pos is each routed action's position in its file's list of routes, which decides
	// between it and a custom route of the same file that matches the same request (the
	// first registered wins).
	Pos map[string]int
	// listed are the routes of a `{ routes }` file this router was read from, which are
	// custom routes again when a createCoreRouter file for the type comes after it.
	listed []Route
}

// Enabled applies only/except as Strapi does (except first, then only).
func (r *CoreRouter) Enabled(action string) bool {
	if r.Except != nil && slices.Contains(r.Except, action) {
		return false
	}
	if r.Only != nil && !slices.Contains(r.Only, action) {
		return false
	}
	return true
}

// Public reports whether config[action].auth is false.
func (r *CoreRouter) Public(action string) bool { return r.Config[action].Public() }

// Route is one custom route.
type Route struct {
	API     string // the api folder
	Plugin  string // the local plugin (src/plugins/<name>) whose route it is
	File    string
	Order   int    // position of its file among all routers
	Pos     int    // position in its file's list of routes
	Prefix  string // the file's router prefix ("" when none)
	Method  string // upper case
	Path    string // as declared, e.g. /articles/featured
	Handler string // fully qualified: api::article.article.featured
	Config  RouteConfig
	// Extension is the plugin extension (src/extensions/<p>/strapi-server.*) that adds the
	// route to plugin ExtPlugin for an action of its own, which the route runs.
	Extension, ExtPlugin string
}

// Model is the project's routes and controllers.
type Model struct {
	// Files is true when the project has at least one route file.
	Files bool
	// Core are the core routers by content type uid.
	Core map[string]*CoreRouter
	// Custom are the custom routes, in registration order.
	Custom []Route
	// Overridden are the core actions controllers define themselves, sorted.
	Overridden []string
	// Actions are the actions each controller defines (fully qualified controller uid →
	// action names), core or not, in the order of the controller's own keys (Object.keys of
	// the object its file exports, or of createCoreController's extension object).
	Actions map[string][]string
	// UnreadableControllers are the controller uids whose file did not evaluate: their keys,
	// and so their order, are unknown.
	UnreadableControllers map[string]bool
	// Unreadable are the files that did not evaluate (with why), for a start-up warning;
	// the routes they might configure are not served (CoreCode names them).
	Unreadable []string
	// Dir is the project folder and Eval the options its files were evaluated with, for
	// loading route middlewares (LoadChain).
	Dir  string
	Eval jseval.Options

	codeState // what LoadCode reads: services, lifecycles, startup code, plugins (code.go)

	unreadableAPIs map[string]bool
	serviceFile    map[string]string // service uid → its file
	// unprovided lists, per project file (slash path), the npm modules it requires that
	// Quarry's sandbox does not provide: code in it cannot run under Quarry.
	unprovided map[string][]string
	checked    map[string]bool // policy and middleware files read for their modules
	indexFile  string          // src/index.*, whose register() the runtime runs
	// localPlugins are what each readable local plugin's strapi-server export declares, by
	// plugin name: kind (controllers, services, policies, middlewares) → names.
	localPlugins map[string]map[string][]string
	// extAdded are the policies and middlewares plugin extensions add under names of their
	// own ("middlewares plugin::users-permissions.cookieJwt" → the extension's file): the
	// project's code, which config/middlewares and routes may name.
	extAdded   map[string]string
	subscribed map[string]bool // files whose lifecycle subscriptions were recorded
	// AppMiddlewares are the project's own app-level middlewares (config/middlewares), which
	// Quarry runs around every content-API and GraphQL request.
	AppMiddlewares []AppMiddleware
	// ServerRoutes are the routes src/index's register() and bootstrap() (or a local
	// plugin's) give strapi.server.routes as an array.
	ServerRoutes []ServerRoute
	// Subscriptions counts the strapi.db.lifecycles.subscribe calls src/index's register()
	// and bootstrap() make: a sandbox that replays fewer refuses to run the hooks.
	Subscriptions int
	// Cron is true when src/index's register() or bootstrap() adds cron jobs (strapi.cron):
	// Quarry runs bootstrap() at start and schedules them.
	Cron bool
	// EventHub names the start-up code (src/index's or a local plugin's register() and
	// bootstrap()) that uses strapi.eventHub: its listeners see the entity service's writes,
	// so a server that does not run that code (the runtime off, or beside Strapi, which runs
	// it itself) serves no route (every write could reach them).
	EventHub []Code
}

// IsCoreEnabled says whether a content type's core action is routed: always when the project
// has no route files, else when a core router for uid enables it.
func (m *Model) IsCoreEnabled(uid, action string) bool {
	if m == nil || !m.Files {
		return true
	}
	r := m.Core[uid]
	if r == nil {
		api, _, _ := strings.Cut(strings.TrimPrefix(uid, "api::"), ".")
		return m.unreadableAPIs[api]
	}
	return r.Enabled(action)
}

// IsPublic says whether a core action is configured with auth: false.
func (m *Model) IsPublic(uid, action string) bool {
	if m == nil {
		return false
	}
	r := m.Core[uid]
	return r != nil && r.Enabled(action) && r.Public(action)
}

var exts = []string{".js", ".ts"}

// reading is the options the model reads the project's files with: Node's fs and the like
// are stubs noted as modules the file lacks (its routes are refused for them), so that a
// src/index.js whose seeding bootstrap() requires fs does not refuse every route.
func (m *Model) reading() jseval.Options {
	opts := m.Eval
	opts.StubNodeModules = true
	return opts
}

// Load evaluates the project's route and controller files. opts.ContentTypes are the content
// types createCoreRouter lists the core routes of (a file may wrap or spread them); when nil,
// those of the project's src/api/*/content-types/*/schema.json.
func Load(ctx context.Context, dir string, opts jseval.Options) (*Model, error) {
	if opts.ContentTypes == nil {
		types, err := apiContentTypes(dir)
		if err != nil {
			return nil, err
		}
		opts.ContentTypes = types
	}
	m := &Model{Core: map[string]*CoreRouter{}, Actions: map[string][]string{}, UnreadableControllers: map[string]bool{}, unreadableAPIs: map[string]bool{}, Dir: dir, Eval: opts}
	apis, err := os.ReadDir(filepath.Join(dir, "src", "api"))
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read src/api: %w", err)
	}
	order := 0
	for _, api := range apis {
		if !api.IsDir() {
			continue
		}
		name := api.Name()
		files, err := sourceFiles(dir, name, "routes")
		if err != nil {
			return nil, err
		}
		for _, rel := range files {
			m.Files = true
			// A file Strapi would run but the sandbox cannot (a helper doing I/O at load)
			// must not keep the project from being served: it is named in a warning.
			res, err := jseval.EvalModule(ctx, filepath.Join(dir, rel), m.Eval)
			if err == nil {
				err = m.addRouter(name, rel, order, res.Value)
			}
			if err != nil {
				m.Unreadable = append(m.Unreadable, fmt.Sprintf("%s (%v)", rel, unwrap(err)))
				m.unreadableAPIs[name] = true
			}
			order++
		}
		ctrls, err := sourceFiles(dir, name, "controllers")
		if err != nil {
			return nil, err
		}
		for _, rel := range ctrls {
			res, err := jseval.EvalModule(ctx, filepath.Join(dir, rel), m.reading())
			if err != nil {
				// A controller Quarry cannot read may define every core action.
				m.Unreadable = append(m.Unreadable, fmt.Sprintf("%s (%v)", rel, unwrap(err)))
				base := strings.TrimSuffix(filepath.Base(rel), filepath.Ext(rel))
				m.UnreadableControllers["api::"+name+"."+base] = true
				for _, a := range CoreActions {
					m.Overridden = append(m.Overridden, "api::"+name+"."+base+"."+a)
				}
				continue
			}
			m.noteUnprovided(rel, res.Unresolved)
			m.addController(name, rel, res)
		}
	}
	sort.Strings(m.Overridden)
	return m, nil
}

func unwrap(err error) error {
	var je *jseval.Error
	if errors.As(err, &je) {
		return je.Err
	}
	return err
}

// sourceFiles lists src/api/<api>/<kind>/*.{js,ts} in name order, as Strapi's loader reads them.
func sourceFiles(dir, api, kind string) ([]string, error) {
	rel := filepath.Join("src", "api", api, kind)
	entries, err := os.ReadDir(filepath.Join(dir, rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		if e.Type().IsRegular() && slices.Contains(exts, filepath.Ext(n)) && !strings.HasSuffix(n, ".d.ts") {
			out = append(out, filepath.ToSlash(filepath.Join(rel, n)))
		}
	}
	sort.Strings(out)
	return out, nil
}

func (m *Model) addRouter(api, rel string, order int, v any) error {
	obj, _ := v.(map[string]any)
	if obj == nil {
		return fmt.Errorf("a routes file must export a router (createCoreRouter) or { routes: [...] }")
	}
	if obj["__quarry"] == "coreRouter" {
		uid, _ := obj["uid"].(string)
		cfg, _ := obj["config"].(map[string]any)
		r := &CoreRouter{UID: uid, File: rel, Order: order, Config: map[string]RouteConfig{}}
		r.Prefix, _ = cfg["prefix"].(string)
		var err error
		if r.Only, err = stringList(cfg["only"], "only"); err != nil {
			return err
		}
		if r.Except, err = stringList(cfg["except"], "except"); err != nil {
			return err
		}
		if actions, ok := cfg["config"].(map[string]any); ok {
			for action, c := range actions {
				r.Config[action] = routeConfig(c)
			}
		}
		r.Pos = corePositions(m.Eval.ContentTypes[uid], r)
		if prev := m.Core[uid]; prev != nil && prev.listed != nil {
			// An earlier file listed core routes of the type: they stay that file's (custom
			// routes, registered before this router's), this router is the type's.
			m.Custom = append(m.Custom, prev.listed...)
			sort.SliceStable(m.Custom, func(i, j int) bool {
				a, b := m.Custom[i], m.Custom[j]
				return a.Order < b.Order || a.Order == b.Order && a.Pos < b.Pos
			})
		}
		m.Core[uid] = r
		return nil
	}
	list, ok := obj["routes"].([]any)
	if !ok {
		return fmt.Errorf("a routes file must export a router (createCoreRouter) or { routes: [...] }")
	}
	prefix, _ := obj["prefix"].(string)
	var routes []Route
	for i, x := range list {
		rt, _ := x.(map[string]any)
		method, _ := rt["method"].(string)
		path, _ := rt["path"].(string)
		handler, _ := rt["handler"].(string)
		if rt == nil || method == "" || path == "" {
			return fmt.Errorf("routes[%d] needs a method and a path", i)
		}
		routes = append(routes, Route{API: api, File: rel, Order: order, Pos: i, Prefix: prefix, Method: strings.ToUpper(method), Path: path,
			Handler: qualify(api, handler), Config: routeConfig(rt["config"])})
	}
	// The routes that are a content type's core routes (createCoreRouter's, wrapped or
	// spread into this list, or written out as Strapi makes them) are that type's core
	// router in this file: its core actions are served as a createCoreRouter file's, with
	// each route's config. The others are custom routes.
	own := map[string]*CoreRouter{}
	for _, r := range routes {
		if uid, action := m.coreRoute(r); uid != "" && (m.Core[uid] == nil || own[uid] != nil) {
			cr := own[uid]
			if cr == nil {
				cr = &CoreRouter{UID: uid, File: rel, Order: order, Prefix: prefix, Only: []string{}, Config: map[string]RouteConfig{}, Pos: map[string]int{}}
				own[uid], m.Core[uid] = cr, cr
			}
			if !slices.Contains(cr.Only, action) {
				cr.Only = append(cr.Only, action)
				cr.Config[action] = r.Config
				cr.Pos[action] = r.Pos
				cr.listed = append(cr.listed, r)
				continue
			}
		}
		m.Custom = append(m.Custom, r)
	}
	return nil
}

// coreRoute says which content type's core route r is (uid and action), "" when none: its
// handler is uid.action, and its method and path are those Strapi's core router gives that
// action. A route with a config.prefix of its own is registered beside its router, and so
// stays a custom route.
func (m *Model) coreRoute(r Route) (uid, action string) {
	i := strings.LastIndexByte(r.Handler, '.')
	if i < 0 || r.Config.Prefix != nil {
		return "", ""
	}
	uid, action = r.Handler[:i], r.Handler[i+1:]
	ct, ok := m.Eval.ContentTypes[uid]
	if !ok {
		return "", ""
	}
	for _, c := range coreRoutesOf(ct) {
		if c.action == action && c.method == r.Method && c.path == r.Path {
			return uid, action
		}
	}
	return "", ""
}

type coreRouteDef struct{ action, method, path string }

// coreRoutesOf are Strapi's core routes of a content type, in its core router's order.
func coreRoutesOf(ct jseval.ContentType) []coreRouteDef {
	if ct.Kind == "singleType" {
		p := "/" + ct.SingularName
		return []coreRouteDef{{"find", "GET", p}, {"update", "PUT", p}, {"delete", "DELETE", p}}
	}
	p := "/" + ct.PluralName
	return []coreRouteDef{{"find", "GET", p}, {"findOne", "GET", p + "/:id"}, {"create", "POST", p},
		{"update", "PUT", p + "/:id"}, {"delete", "DELETE", p + "/:id"}}
}

// corePositions are the positions of a createCoreRouter's routes in its list, as Strapi
// makes it: the core router's order, less except, or the order only names them in (lodash's
// pick).
func corePositions(ct jseval.ContentType, r *CoreRouter) map[string]int {
	var names []string
	for _, c := range coreRoutesOf(ct) {
		if r.Except == nil || !slices.Contains(r.Except, c.action) {
			names = append(names, c.action)
		}
	}
	if r.Only != nil {
		var picked []string
		for _, a := range r.Only {
			if slices.Contains(names, a) && !slices.Contains(picked, a) {
				picked = append(picked, a)
			}
		}
		names = picked
	}
	pos := map[string]int{}
	for i, a := range names {
		pos[a] = i
	}
	return pos
}

// apiContentTypes reads the kind and names of the project's content types
// (src/api/<api>/content-types/<name>/schema.json, uid api::<api>.<name>).
func apiContentTypes(dir string) (map[string]jseval.ContentType, error) {
	files, err := filepath.Glob(filepath.Join(dir, "src", "api", "*", "content-types", "*", "schema.json"))
	if err != nil {
		return nil, err
	}
	out := map[string]jseval.ContentType{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var s struct {
			Kind string `json:"kind"`
			Info struct {
				SingularName string `json:"singularName"`
				PluralName   string `json:"pluralName"`
			} `json:"info"`
		}
		if json.Unmarshal(data, &s) != nil {
			continue // the schema loader says what is wrong with it
		}
		ctDir := filepath.Dir(f)
		api := filepath.Base(filepath.Dir(filepath.Dir(ctDir)))
		out["api::"+api+"."+filepath.Base(ctDir)] = jseval.ContentType{Kind: s.Kind, SingularName: s.Info.SingularName, PluralName: s.Info.PluralName}
	}
	return out, nil
}

// qualify is Strapi's route scope: a handler "article.featured" of api "article" is
// api::article.article.featured; a handler already under api::article. is kept.
func qualify(api, handler string) string {
	if handler == "" {
		return ""
	}
	prefix := "api::" + api + "."
	if strings.HasPrefix(handler, prefix) || strings.Contains(handler, "::") {
		return handler
	}
	return prefix + handler
}

func routeConfig(v any) RouteConfig {
	var c RouteConfig
	m, _ := v.(map[string]any)
	if b, ok := m["auth"].(bool); ok {
		c.Auth = &b
	}
	c.Policies, _ = m["policies"].([]any)
	c.Middlewares, _ = m["middlewares"].([]any)
	if p, ok := m["prefix"].(string); ok {
		c.Prefix = &p
	}
	return c
}

func stringList(v any, key string) ([]string, error) {
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("createCoreRouter %s must be a list of action names", key)
	}
	out := []string{}
	for _, x := range list {
		s, ok := x.(string)
		if !ok {
			return nil, fmt.Errorf("createCoreRouter %s must be a list of action names", key)
		}
		out = append(out, s)
	}
	return out, nil
}

func (m *Model) addController(api, rel string, res *jseval.Result) {
	obj, _ := res.Value.(map[string]any)
	var uid string
	var actions []string
	if obj != nil && obj["__quarry"] == "coreController" {
		uid, _ = obj["uid"].(string)
		for _, a := range asList(obj["actions"]) {
			if s, ok := a.(string); ok {
				actions = append(actions, s)
			}
		}
		for _, a := range actions {
			if slices.Contains(CoreActions, a) {
				m.Overridden = append(m.Overridden, uid+"."+a)
			}
		}
	} else {
		// A plain controller object: its actions are its keys (functions are not values).
		base := strings.TrimSuffix(filepath.Base(rel), filepath.Ext(rel))
		uid = "api::" + api + "." + base
		actions = res.Keys
		if actions == nil {
			// A factory, ({ strapi }) => ({ … }), which Strapi's controller registry calls.
			actions = res.FactoryKeys
		}
		for _, a := range actions {
			if slices.Contains(CoreActions, a) {
				m.Overridden = append(m.Overridden, uid+"."+a)
			}
		}
	}
	if uid != "" && len(actions) > 0 {
		m.Actions[uid] = actions
	}
}

func asList(v any) []any { l, _ := v.([]any); return l }
