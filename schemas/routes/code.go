package routes

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/quarrycms/quarry/schemas/jseval"
)

// Code is a piece of the project's own code that Strapi runs for a route: a controller or
// service that replaces a core action, a policy, a middleware, a lifecycle hook, or a
// function whose effect Quarry could not learn. The server never answers a route with a core
// action alone while the route has Code that Quarry does not run (see Model.CoreCode).
type Code struct {
	File string // relative to the project folder; "" for code named in configuration only
	What string // what it is and does, e.g. "overrides find", "policy global::is-owner"
	// Runnable is set for code Quarry's runtime for project code runs (transport/projectcode):
	// the project's controllers and services, and route policies and middlewares that are
	// files of the project, and lifecycle hooks of writes (which the write path runs).
	Runnable bool
	// Lifecycle marks lifecycle hooks: Quarry runs them inside every write, whatever route
	// or resolver makes it, so they need no chain of their own.
	Lifecycle bool
}

func (c Code) String() string {
	if c.File == "" {
		return c.What
	}
	return c.File + ": " + c.What
}

// Lifecycles are the lifecycle hooks declared for one model: its lifecycles.* file's and
// strapi.db.lifecycles.subscribe's.
type Lifecycles struct {
	Code []Code
	// Hooks are the hooks' names (beforeCreate, afterFindMany, …); "*" stands for every
	// hook (a subscriber function, or a file Quarry could not read).
	Hooks []string
	// hooksOf are the hooks of each Code, in order.
	hooksOf [][]string
}

// runs says whether one of hooks runs on one of the events, whether every one that does is
// a hook the write path runs, and whether every one that does is a read hook.
func runs(hooks, events []string) (match, writeOnly, readOnly, known bool) {
	writeOnly, readOnly, known = true, true, true
	reads := true // every event is a read's
	for _, e := range events {
		reads = reads && slices.Contains(readHooks, "before"+e)
	}
	for _, h := range hooks {
		hit := h == "*"
		for _, e := range events {
			hit = hit || e == "*" || h == "before"+e || h == "after"+e
		}
		if hit {
			match = true
			writeOnly = writeOnly && slices.Contains(writeHooks, h)
			// A function subscriber ("*") sees every event: on a read's events, only reads.
			readOnly = readOnly && (slices.Contains(readHooks, h) || (h == "*" && reads))
			known = known && (h == "*" || slices.Contains(writeHooks, h) || slices.Contains(readHooks, h))
		}
	}
	return match, writeOnly, readOnly, known
}

// writeHooks are the lifecycle hooks the write path runs (planner/write.Lifecycles); a file
// with others (the read hooks, the *Many ones) is not run there.
var writeHooks = []string{"beforeCreate", "afterCreate", "beforeUpdate", "afterUpdate", "beforeDelete", "afterDelete"}

// readHooks are the lifecycle hooks of the query engine's reads, which the runtime for project
// code runs around the reads a core find or findOne makes through Strapi's controller steps
// (and around the project's own strapi.entityService and strapi.db.query reads), and around
// the GraphQL generated resolvers' entity-service calls (GraphQLQueryHooks,
// GraphQLMutationHooks). Native answers (plugin routes) do not run them, so there they
// still refuse.
var readHooks = []string{"beforeFindMany", "afterFindMany", "beforeFindOne", "afterFindOne", "beforeCount", "afterCount"}

// Events are the database events an entity-service call fires, whose lifecycle hooks
// (before<Event>, after<Event>) run: a create, update or delete reads its entry too.
func Events(action string) []string {
	switch action {
	case "find":
		return []string{"FindMany", "Count"}
	case "findOne":
		return []string{"FindOne"}
	case "create":
		return []string{"Create", "FindOne"}
	case "update":
		return []string{"Update", "FindOne"}
	case "delete":
		return []string{"Delete", "FindOne"}
	case "createLocalization":
		return []string{"Create", "Update", "FindOne", "FindMany"}
	}
	return []string{"*"}
}

// Runs says whether a hook runs on one of the events.
func (l *Lifecycles) Runs(events []string) bool {
	if l == nil {
		return false
	}
	for _, h := range l.Hooks {
		if h == "*" {
			return true
		}
		for _, e := range events {
			if e == "*" || h == "before"+e || h == "after"+e {
				return true
			}
		}
	}
	return false
}

// CodeInput is what LoadCode needs besides the files.
type CodeInput struct {
	// Middlewares is config/middlewares (the app-level middleware list), nil for Strapi's
	// default list.
	Middlewares []any
	// ContentTypes and Config are what register() and bootstrap() see of the project
	// (strapi.contentTypes, strapi.config.get).
	ContentTypes map[string]any
	Config       map[string]any
	// Plugins says which plugins are on (their routes are listed to register()).
	Plugins func(name string) bool
}

// codeState is what LoadCode adds to the model.
type codeState struct {
	// Services are the core methods a service defines itself, by service uid
	// (api::article.article → [find]).
	Services map[string][]string
	// Lifecycles by model uid.
	Lifecycles map[string]*Lifecycles
	// Global is code Strapi runs for every request (app-level middlewares), or code whose
	// effect on routes Quarry could not learn (register() using an API the recorder does not
	// model): no route is served while it is set.
	Global []Code
	// Plugin is code a plugin's route runs, by "plugin handler" ("users-permissions user.find").
	Plugin map[string][]Code
	// UnsetProperties are the properties local plugins' register() or bootstrap(), or
	// src/index's bootstrap(), hang on strapi (strapi.cloudinary), which the request
	// sandboxes do not run, by name: what set it. The sandboxes give them as values answering
	// NotImplementedError when used.
	UnsetProperties map[string]string
	// RegisterProperties are the properties src/index's register() hangs on strapi
	// (strapi.bots): a request sandbox runs register() when one is first read.
	RegisterProperties []string
	// PluginAll is code every route of a plugin runs (an extension replacing its services, or
	// one Quarry could not read), by plugin.
	PluginAll map[string][]Code
	// PluginRoutes are the plugins' content-API routes after register() ran (with the
	// middlewares and policies it added), and LocalRoutes the routes of the project's local
	// plugins (src/plugins), which run their own controllers.
	PluginRoutes []PluginRoute
	LocalRoutes  []Route
	// LocalPrefixes are the paths of local plugins whose routes could not be read: all of
	// /api/<name>/… and /<name>/….
	LocalPrefixes []LocalPrefix
	// GraphQL is code that changes the GraphQL schema or its resolvers in ways Quarry does
	// not run (extension service use()); Shadow are the Shadow CRUD calls it does run.
	GraphQL []Code
	Shadow  []jseval.ShadowCall
	// AuthUser is src/index's register() replacing the users-permissions user service's
	// fetchAuthenticatedUser, which the plugin's authentication calls for every request with
	// a user's JWT: Quarry's runtime runs it there (the sandboxes run that register()), and
	// without the runtime every route is refused.
	AuthUser *Code
	// RegisterServices is set when src/index's register() assigns methods of plugin
	// services: each sandbox runs that register() before the project's code reaches a
	// plugin's service, so a method of its own is there to call.
	RegisterServices bool
	// NotRun is code Strapi runs at start whose effects are on data, not on what routes check
	// (bootstrap() seeding content): named in a start-up warning.
	NotRun []Code
}

// LocalPrefix is the path of a local plugin whose routes could not be read.
type LocalPrefix struct {
	Path string
	Code Code
}

// builtinMiddlewares are Strapi's app-level middlewares that Quarry honours or that change
// nothing a route checks.
var builtinMiddlewares = map[string]bool{
	"strapi::logger": true, "strapi::errors": true, "strapi::security": true, "strapi::cors": true,
	"strapi::poweredBy": true, "strapi::query": true, "strapi::body": true, "strapi::session": true,
	"strapi::favicon": true, "strapi::public": true, "strapi::compression": true, "strapi::responseTime": true,
	"strapi::responses": true,
}

// LoadCode reads the rest of the project's code: services, lifecycles, src/index.*
// (register and bootstrap, recorded, not run), plugin extensions, local plugins and the
// app-level middlewares.
func (m *Model) LoadCode(ctx context.Context, in CodeInput) error {
	m.Services = map[string][]string{}
	m.Lifecycles = map[string]*Lifecycles{}
	m.Plugin = map[string][]Code{}
	m.PluginAll = map[string][]Code{}
	on := in.Plugins
	if on == nil {
		on = func(string) bool { return true }
	}
	for _, r := range PluginRoutes() {
		if on(r.Plugin) {
			m.PluginRoutes = append(m.PluginRoutes, r)
		}
	}
	apis, err := os.ReadDir(filepath.Join(m.Dir, "src", "api"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read src/api: %w", err)
	}
	for _, api := range apis {
		if !api.IsDir() {
			continue
		}
		if err := m.loadServices(ctx, api.Name()); err != nil {
			return err
		}
		if err := m.loadLifecycles(ctx, api.Name()); err != nil {
			return err
		}
	}
	if err := m.loadExtensions(ctx, in); err != nil {
		return err
	}
	if err := m.loadLocalPlugins(ctx, in); err != nil {
		return err
	}
	// After the extensions and local plugins: config/middlewares may name their middlewares.
	m.globalMiddlewares(in.Middlewares)
	if f := firstSource(m.Dir, filepath.Join("src", "index")); f != "" {
		m.indexFile = f
		m.recordStartup(ctx, f, in, "")
	}
	return nil
}

// firstSource is base.js or base.ts (relative to dir) when one exists.
func firstSource(dir, base string) string {
	for _, ext := range exts {
		if st, err := os.Stat(filepath.Join(dir, base+ext)); err == nil && st.Mode().IsRegular() {
			return filepath.ToSlash(base + ext)
		}
	}
	return ""
}

func (m *Model) globalMiddlewares(list []any) {
	for _, e := range list {
		name, _ := e.(string)
		var cfg map[string]any
		if o, ok := e.(map[string]any); ok {
			name, _ = o["name"].(string)
			if r, ok := o["resolve"].(string); ok && name == "" {
				name = r
			}
			cfg, _ = o["config"].(map[string]any)
		}
		if file, ok := m.appMiddleware(name); ok {
			m.addAppMiddleware(AppMiddleware{Name: "global::" + file, Config: cfg, File: filepath.ToSlash(filepath.Join("src", "middlewares", file))})
			continue
		}
		if file, ok := m.pluginMiddleware(name); ok {
			m.addAppMiddleware(AppMiddleware{Name: name, Config: cfg, File: file})
			continue
		}
		switch {
		case builtinMiddlewares[name]:
		case name == "strapi::ip" && len(cfg) == 0:
		default:
			what := "app-level middleware " + name
			if name == "" {
				what = "an app-level middleware given as a function"
			}
			m.Global = append(m.Global, Code{File: "config/middlewares", What: what})
		}
	}
}

// addAppMiddleware adds one of the project's middlewares to the app-level chain; one whose
// file requires a module Quarry does not provide (koa2-ratelimit) runs on every request, so
// every request is Strapi's (forwarded) or refused.
func (m *Model) addAppMiddleware(a AppMiddleware) {
	m.AppMiddlewares = append(m.AppMiddlewares, a)
	if a.File != "" && !m.provided(m.checkModules(a.File)) {
		m.Global = append(m.Global, Code{File: a.File, What: "app-level middleware " + a.Name + m.unprovidedNote(a.File)})
	}
}

// AppMiddleware is one of the project's own middlewares config/middlewares lists for every
// request (global::<name>, or resolve: './src/middlewares/<name>'), with its config: Quarry
// runs them, in order, around every content-API and GraphQL request.
type AppMiddleware struct {
	Name   string         `json:"name"`
	Config map[string]any `json:"config,omitempty"`
	File   string         `json:"-"`
	// Server is set for a middleware src/index's register() or bootstrap() gives
	// strapi.server.use ("register" or "bootstrap"): the Index-th function it gives, which
	// each sandbox takes from its own run of that function.
	Server string `json:"server,omitempty"`
	Index  int    `json:"index,omitempty"`
}

// BootstrapUses counts the middlewares src/index's bootstrap() gives strapi.server.use and
// the routes it gives strapi.server.routes: each sandbox runs bootstrap() (up to its first
// use of data) to take them.
func (m *Model) BootstrapUses() int {
	n := 0
	for _, a := range m.AppMiddlewares {
		if a.Server == "bootstrap" {
			n++
		}
	}
	for _, r := range m.ServerRoutes {
		if r.From == "bootstrap" && r.Refused == "" {
			n++
		}
	}
	return n
}

// pluginMiddleware finds the project's file behind a plugin::<plugin>.<name> middleware: an
// enabled local plugin's own (its strapi-server declares it), or one a plugin extension adds
// under a name of its own (the cookie-to-Authorization middleware real projects put on
// users-permissions). A plugin's own middlewares from npm are not the project's: not found.
func (m *Model) pluginMiddleware(name string) (string, bool) {
	rest, ok := strings.CutPrefix(name, "plugin::")
	if !ok {
		return "", false
	}
	p, mw, ok := strings.Cut(rest, ".")
	if !ok || mw == "" {
		return "", false
	}
	if decl, ok := m.localPlugins[p]; ok && slices.Contains(decl["middlewares"], mw) {
		file := firstSource(m.Dir, filepath.Join("src", "plugins", p, "strapi-server"))
		return file, file != "" && m.provided(file)
	}
	if file, ok := m.extAdded["middlewares "+name]; ok {
		return file, m.provided(file)
	}
	return "", false
}

// pluginOwn are the content-API policies and middlewares Strapi's own plugins register: an
// extension assigning one replaces what the plugin's routes run; any other name it assigns is
// an addition of the project's.
var pluginOwn = map[string]map[string][]string{
	"users-permissions": {"middlewares": {"rateLimit"}},
	"upload":            {"middlewares": {"upload"}},
	"i18n":              {"middlewares": {"validateLocaleCreation"}},
}

// appMiddleware finds the src/middlewares file an app-level middleware entry names.
func (m *Model) appMiddleware(name string) (string, bool) {
	base, ok := strings.CutPrefix(name, "global::")
	if !ok {
		p := filepath.ToSlash(filepath.Clean(name))
		if base, ok = strings.CutPrefix(p, "src/middlewares/"); !ok {
			return "", false
		}
		base = strings.TrimSuffix(base, filepath.Ext(base))
	}
	if base == "" || strings.ContainsAny(base, "/\\") {
		return "", false
	}
	if firstSource(m.Dir, filepath.Join("src", "middlewares", base)) == "" {
		return "", false
	}
	return base, true
}

func (m *Model) loadServices(ctx context.Context, api string) error {
	files, err := sourceFiles(m.Dir, api, "services")
	if err != nil {
		return err
	}
	for _, rel := range files {
		base := strings.TrimSuffix(filepath.Base(rel), filepath.Ext(rel))
		uid := "api::" + api + "." + base
		res, err := jseval.EvalModule(ctx, filepath.Join(m.Dir, rel), m.reading())
		if err != nil {
			// A service Quarry cannot read may replace every core method.
			m.Unreadable = append(m.Unreadable, fmt.Sprintf("%s (%v)", rel, unwrap(err)))
			m.Services[uid] = append(m.Services[uid], CoreActions...)
			m.serviceFiles(uid, rel)
			continue
		}
		m.noteUnprovided(rel, res.Unresolved)
		var actions []string
		if obj, _ := res.Value.(map[string]any); obj != nil && obj["__quarry"] == "coreService" {
			if u, _ := obj["uid"].(string); u != "" {
				uid = u
			}
			for _, a := range asList(obj["actions"]) {
				if s, ok := a.(string); ok {
					actions = append(actions, s)
				}
			}
		} else {
			actions = res.Keys
		}
		for _, a := range actions {
			if slices.Contains(CoreActions, a) {
				m.Services[uid] = append(m.Services[uid], a)
			}
		}
		m.serviceFiles(uid, rel)
	}
	return nil
}

// serviceFiles remembers which file defines a service, for naming it.
func (m *Model) serviceFiles(uid, rel string) {
	if m.serviceFile == nil {
		m.serviceFile = map[string]string{}
	}
	m.serviceFile[uid] = rel
}

func (m *Model) loadLifecycles(ctx context.Context, api string) error {
	return m.loadLifecyclesIn(ctx, filepath.Join("src", "api", api, "content-types"), "api::"+api+".")
}

// loadLifecyclesIn reads the lifecycles.* files of the content types under dir (relative to
// the project), whose uids are prefix + the folder's name. A content type whose index.*
// names lifecycles without such a file declares them in code Quarry does not read: its
// reads and writes are refused, never run without them.
func (m *Model) loadLifecyclesIn(ctx context.Context, relDir, prefix string) error {
	dir := filepath.Join(m.Dir, relDir)
	cts, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", dir, err)
	}
	for _, ct := range cts {
		if !ct.IsDir() {
			continue
		}
		uid := prefix + ct.Name()
		rel := firstSource(m.Dir, filepath.Join(relDir, ct.Name(), "lifecycles"))
		if rel == "" {
			continue
		}
		res, err := jseval.EvalModule(ctx, filepath.Join(m.Dir, rel), m.reading())
		if err != nil {
			m.addHooks(uid, Code{File: rel, What: fmt.Sprintf("lifecycle hooks Quarry could not read (%v)", unwrap(err))}, []string{"*"})
			continue
		}
		m.noteUnprovided(rel, res.Unresolved)
		if len(res.Keys) > 0 {
			// Runnable where the route's events reach only write hooks (Hooks decides per route).
			m.addHooks(uid, Code{File: rel, What: "lifecycle hooks " + strings.Join(res.Keys, ", ") + m.unprovidedNote(rel), Runnable: m.provided(rel), Lifecycle: true}, res.Keys)
		}
	}
	return nil
}

func (m *Model) addHooks(uid string, c Code, hooks []string) {
	l := m.Lifecycles[uid]
	if l == nil {
		l = &Lifecycles{}
		m.Lifecycles[uid] = l
	}
	l.Code = append(l.Code, c)
	l.hooksOf = append(l.hooksOf, hooks)
	for _, h := range hooks {
		if !slices.Contains(l.Hooks, h) {
			l.Hooks = append(l.Hooks, h)
		}
	}
}

// recordInput is what register(), bootstrap() and extensions are given to record against.
func (m *Model) recordInput(in CodeInput, export, plugin string) jseval.RecordInput {
	routes := map[string][]map[string]any{}
	for _, r := range m.PluginRoutes {
		routes[r.Plugin] = append(routes[r.Plugin], r.Object())
	}
	return jseval.RecordInput{Export: export, Plugin: plugin, PluginRoutes: routes, ContentTypes: in.ContentTypes, Config: in.Config}
}

// subscribeUse finds strapi.db.lifecycles.subscribe in a source, for a subscription the
// recording could not reach (behind a branch on data it does not return).
var subscribeUse = regexp.MustCompile(`lifecycles\s*\.\s*subscribe\s*\(`)

// serverUse finds strapi.server.use and strapi.server.routes in a source, for a call the
// recording could not reach.
var serverUse = regexp.MustCompile(`\bserver\s*\.\s*(use|routes)\s*\(`)

// blockComment and lineComment find JavaScript comments (a // after a colon or in quotes is
// taken for a URL's, and kept): a call named in a comment is not one the recording missed.
var (
	blockComment = regexp.MustCompile(`(?s)/\*.*?\*/`)
	lineComment  = regexp.MustCompile(`(?m)(^|[^:'"\\])//.*$`)
)

func withoutComments(src []byte) []byte {
	return lineComment.ReplaceAll(blockComment.ReplaceAll(src, nil), []byte("$1"))
}

// ServerRoute is a route src/index's register() or bootstrap() gives strapi.server.routes
// as an array: Strapi's own router serves it, after every app-level middleware and before
// the content API's routes, at its path as given, without a permission of its own (config.auth
// false makes it public; otherwise no strategy authenticates it and it answers 401).
type ServerRoute struct {
	From   string // "register" or "bootstrap"
	Index  int    // its place among the routes From gives
	Method string // upper case; ALL is any method
	Path   string
	Open   bool // config.auth === false
	File   string
	// Policies and Middlewares are its config's (functions as nil: the sandbox has them).
	Policies, Middlewares []any
	// Refused says what of it Quarry does not run ("" when Quarry runs it).
	Refused string
}

// Name is how listings and refusals name the route's code.
func (r ServerRoute) Name() string {
	return fmt.Sprintf("strapi.server.routes #%d in %s()", r.Index+1, r.From)
}

// serverRoute takes a route register() or bootstrap() gives strapi.server.routes.
func (m *Model) serverRoute(rel, export, plugin string, i int, r jseval.ServerRoute) {
	sr := ServerRoute{From: export, Index: i, Method: r.Method, Path: r.Path, Open: r.Open, File: rel, Policies: r.Policies, Middlewares: r.Middlewares}
	switch {
	case plugin != "":
		sr.Refused = "a local plugin's strapi.server.routes, which Quarry runs only from src/index"
	case !slices.Contains([]string{"GET", "POST", "PUT", "PATCH", "DELETE", "ALL"}, r.Method):
		sr.Refused = fmt.Sprintf("the method %q, which Strapi refuses", r.Method)
	case !serverPath(r.Path):
		sr.Refused = fmt.Sprintf("the path %q, whose pattern Quarry does not match (only literal segments, :params and a trailing (.*))", r.Path)
	case r.Handler != "function":
		sr.Refused = r.Handler + ", which Quarry runs only as functions"
	case r.Strategies:
		sr.Refused = "config.auth.strategies, which Quarry does not run"
	case !m.runnableConfig("", withoutFunctions(RouteConfig{Policies: r.Policies, Middlewares: r.Middlewares})):
		sr.Refused = "policies or middlewares that are not the project's own files"
	}
	m.ServerRoutes = append(m.ServerRoutes, sr)
}

// serverPath says whether a koa-router path is one Quarry matches: literal segments,
// :params (optional with ?) and a last segment (.*).
func serverPath(p string) bool {
	if !strings.HasPrefix(p, "/") {
		return false
	}
	segs := strings.Split(strings.Trim(p, "/"), "/")
	for i, seg := range segs {
		switch {
		case seg == "(.*)" && i == len(segs)-1:
		case strings.HasPrefix(seg, ":"):
			name := strings.TrimSuffix(seg[1:], "?")
			if name == "" || strings.ContainsAny(name, "()*+?:") || (strings.HasSuffix(seg, "?") && i != len(segs)-1) {
				return false
			}
		case strings.ContainsAny(seg, "()*+?:"):
			return false
		}
	}
	return true
}

// serverUses takes the middlewares register() or bootstrap() gives strapi.server.use, which
// Quarry's app-level chain runs where Strapi's koa app has them: Strapi runs register() before
// it mounts config/middlewares' stack (so register()'s come first, before strapi::errors and
// strapi::body), and bootstrap() after it, before the router is mounted (so bootstrap()'s
// come last, right before the route). Each sandbox runs src/index's register() and bootstrap()
// (up to its first use of data) and takes them from there; a local plugin's are not run.
func (m *Model) serverUses(rel, export, plugin string, n int) {
	if plugin != "" {
		m.Global = append(m.Global, Code{File: rel, What: fmt.Sprintf("%s() of the local plugin %s gives strapi.server.use middlewares, which Quarry runs only from src/index", export, plugin)})
		return
	}
	add := make([]AppMiddleware, n)
	for i := range add {
		add[i] = AppMiddleware{Name: fmt.Sprintf("strapi.server.use #%d in %s()", i+1, export), Server: export, Index: i, File: rel}
	}
	if export == "register" {
		m.AppMiddlewares = append(add, m.AppMiddlewares...)
		return
	}
	m.AppMiddlewares = append(m.AppMiddlewares, add...)
}

// recordStartup records register() and bootstrap() of src/index.* or of a local plugin
// (plugin set): what they add to routes, lifecycles and GraphQL becomes the routes' code.
func (m *Model) recordStartup(ctx context.Context, rel string, in CodeInput, plugin string) {
	abs := filepath.Join(m.Dir, rel)
	uses := 0 // the strapi.server.use calls recorded, whatever they were given
	for _, export := range []string{"register", "bootstrap"} {
		rec, err := jseval.Record(ctx, abs, m.reading(), m.recordInput(in, export, ""))
		what := export + "()"
		if err != nil {
			m.Global = append(m.Global, Code{File: rel, What: fmt.Sprintf("%s could not be read (%v)", what, unwrap(err))})
			return
		}
		m.noteUnprovided(rel, rec.Unresolved)
		if !rec.Called || !rec.Touched && rec.Threw == "" {
			continue
		}
		m.applyRecording(rel, what, rec, plugin == "")
		m.Cron = m.Cron || rec.Cron
		if rec.ServerUses > 0 {
			m.serverUses(rel, export, plugin, rec.ServerUses)
		}
		for i, r := range rec.ServerRoutes {
			m.serverRoute(rel, export, plugin, i, r)
		}
		uses += rec.ServerUseCalls
		for _, p := range rec.OwnProperties {
			// What src/index's register() hangs on strapi, the request sandboxes set by running
			// it when the property is first read. A local plugin's register() and bootstrap(),
			// and src/index's bootstrap(), run once at start, not in the requests' sandboxes:
			// what they set is there as a value that answers NotImplementedError naming it,
			// wherever the project uses it.
			if plugin == "" && export == "register" {
				m.RegisterProperties = append(m.RegisterProperties, p)
				continue
			}
			if m.UnsetProperties == nil {
				m.UnsetProperties = map[string]string{}
			}
			by := fmt.Sprintf("%s() of %s", export, rel)
			if plugin != "" {
				by = fmt.Sprintf("%s() of the local plugin %s (%s)", export, plugin, rel)
			}
			m.UnsetProperties[p] = by
		}
		if rec.EventHub {
			m.EventHub = append(m.EventHub, Code{File: rel, What: what + " uses strapi.eventHub, whose listeners Quarry runs only when it runs bootstrap()", Runnable: true})
		}
		switch {
		case export == "register" && len(rec.Unsupported) > 0:
			m.Global = append(m.Global, Code{File: rel, What: what + " uses " + strings.Join(rec.Unsupported, ", ") + ", which Quarry does not provide"})
		case export == "register" && len(adminUses(rec.Data)) > 0:
			// register() runs in every sandbox; the admin panel's services are not there.
			m.Global = append(m.Global, Code{File: rel, What: what + " uses " + strings.Join(adminUses(rec.Data), ", ") + ", which Quarry does not provide"})
		case export == "register" && rec.Threw != "":
			m.Global = append(m.Global, Code{File: rel, What: what + " failed under Quarry: " + rec.Threw})
		case export == "bootstrap" && len(rec.Unsupported) > 0:
			// bootstrap() reaching past data (strapi.server, …) may change what routes do.
			m.Global = append(m.Global, Code{File: rel, What: what + " uses " + strings.Join(rec.Unsupported, ", ") + ", which Quarry does not provide"})
		case export == "bootstrap" && rec.Threw != "":
			m.NotRun = append(m.NotRun, Code{File: rel, What: what + " is not run by Quarry (it failed without Strapi's data APIs: " + rec.Threw + ")"})
		case export == "bootstrap" && len(rec.Data) > 0:
			m.NotRun = append(m.NotRun, Code{File: rel, What: what + " is not run by Quarry (it uses " + strings.Join(firstN(rec.Data, 3), ", ") + ")"})
		}
	}
	if src, err := os.ReadFile(abs); err == nil && len(serverUse.FindAllIndex(withoutComments(src), -1)) > uses {
		// A strapi.server.use the recording did not reach (behind a branch on data it does
		// not return, after an error): a middleware of every request Quarry would not run.
		m.Global = append(m.Global, Code{File: rel, What: "strapi.server.use or strapi.server.routes is called where Quarry could not follow it (behind a condition, or after an error or a use of data)"})
	}
	if src, err := os.ReadFile(abs); err == nil && subscribeUse.Match(withoutComments(src)) && !m.subscribed[rel] {
		// A subscription the recording did not reach: every model's writes and reads.
		m.addSubscription(rel, jseval.Subscription{}, false)
	}
}

// adminUses are the uses of the admin panel's services (strapi.admin) among a recording's
// data uses.
func adminUses(data []string) []string {
	var out []string
	for _, d := range data {
		if d == "strapi.admin" || strings.HasPrefix(d, "strapi.admin.") {
			out = append(out, d)
		}
	}
	return out
}

func firstN(list []string, n int) []string {
	if len(list) > n {
		return append(list[:n:n], "…")
	}
	return list
}

// applyRecording takes what a recorded call declared: lifecycle subscriptions, plugin route
// changes and GraphQL extensions.
func (m *Model) applyRecording(rel, what string, rec *jseval.Recording, index bool) {
	for _, s := range rec.Subscriptions {
		// The runtime runs the write hooks of src/index's subscriptions (made in register()
		// or in bootstrap() before its first use of data, which every sandbox replays).
		// (Hooks decides per route: where the route's events reach only write hooks.)
		// A function subscriber (no Hooks) sees every event: it runs where every event a
		// route reaches is one the runtime runs (Hooks decides: a core find or findOne).
		runnable := index && m.provided(rel)
		if index {
			m.Subscriptions++
		}
		m.addSubscription(rel, s, runnable)
	}
	m.diffPluginRoutes(rel, what, rec.Routes)
	m.serviceMethods(rel, what, rec.ServiceMethods)
	m.Shadow = append(m.Shadow, rec.Shadow...)
	for _, u := range rec.GraphQLUses {
		m.GraphQL = append(m.GraphQL, Code{File: rel, What: what + " extends the GraphQL schema (" + u + ")"})
	}
}

func (m *Model) addSubscription(rel string, s jseval.Subscription, runnable bool) {
	if m.subscribed == nil {
		m.subscribed = map[string]bool{}
	}
	m.subscribed[rel] = true
	hooks := s.Hooks
	if hooks == nil {
		hooks = []string{"*"}
	}
	if len(hooks) == 0 {
		return
	}
	c := Code{File: rel, What: "strapi.db.lifecycles.subscribe: " + strings.Join(hooks, ", "), Runnable: runnable, Lifecycle: runnable}
	if s.Models == nil {
		m.addHooks("*", c, hooks)
		return
	}
	for _, uid := range s.Models {
		m.addHooks(uid, c, hooks)
	}
}

// diffPluginRoutes compares the plugins' routes after a recorded call with before, route by
// route as Strapi's router tells them apart: by method and path (under its prefix), the first
// route of the list that has them being the one a request reaches. A route of before whose
// first match after has another handler is changed to that handler; one whose policies,
// middlewares or auth changed runs the project's code; one no route after has is removed;
// a route after whose method and path no route before has is added, wherever the call put it
// (unshift, splice, push). Routes later in the list than one with the same method and path,
// or than one whose path takes every request of theirs (a push of GET /users/stats after
// GET /users/:id), are never reached, and change nothing.
func (m *Model) diffPluginRoutes(rel, what string, after map[string][]map[string]any) {
	before := map[string][]int{} // plugin → its routes' indexes in m.PluginRoutes
	for i, r := range m.PluginRoutes {
		before[r.Plugin] = append(before[r.Plugin], i)
	}
	plugins := make([]string, 0, len(after))
	for p := range after {
		plugins = append(plugins, p)
	}
	sort.Strings(plugins)
	for _, p := range plugins {
		list := after[p]
		first := map[string]int{} // method and URL → the first route after that has them
		for i, r := range list {
			k := routeKey(p, r)
			if _, ok := first[k]; !ok {
				first[k] = i
			}
		}
		had := map[string]bool{}
		for _, bi := range before[p] {
			pr := &m.PluginRoutes[bi]
			old := pr.Object()
			k := routeKey(p, old)
			had[k] = true
			j, ok := first[k]
			if !ok {
				m.Plugin[p+" "+pr.Handler] = append(m.Plugin[p+" "+pr.Handler], Code{File: rel, What: fmt.Sprintf("%s removes the route %s %s (%s)", what, pr.Method, pr.Path, pr.Handler)})
				continue
			}
			r := list[j]
			handler, _ := r["handler"].(string)
			if handler != pr.Handler {
				desc := handler
				if _, isString := r["handler"].(string); !isString {
					desc = "a handler given as a function"
				}
				m.Plugin[p+" "+pr.Handler] = append(m.Plugin[p+" "+pr.Handler], Code{File: rel, What: fmt.Sprintf("%s changes the handler of %s %s (%s) to %s", what, pr.Method, pr.Path, pr.Handler, desc)})
				continue
			}
			oc, _ := old["config"].(map[string]any)
			nc, _ := r["config"].(map[string]any)
			for _, key := range []string{"policies", "middlewares"} {
				if added := addedEntries(asList(oc[key]), asList(nc[key])); len(added) > 0 {
					raw := addedRaw(asList(oc[key]), asList(nc[key]))
					var cfg RouteConfig
					if key == "policies" {
						pr.AddedPolicies = append(pr.AddedPolicies, raw...)
						cfg.Policies = raw
					} else {
						pr.AddedMiddlewares = append(pr.AddedMiddlewares, raw...)
						cfg.Middlewares = raw
					}
					// Entries naming the project's own policy and middleware files run in
					// Quarry's runtime, and so do inline functions src/index's register()
					// adds (the runtime runs that register() itself); a plugin's or an npm
					// module's do not.
					runnable := m.runnableConfig("", cfg)
					if !runnable && rel == m.indexFile && what == "register()" && m.runnableConfig("", withoutFunctions(cfg)) {
						runnable, pr.Live = true, true
					}
					m.Plugin[p+" "+handler] = append(m.Plugin[p+" "+handler], Code{File: rel, What: fmt.Sprintf("%s adds %s %s to %s", what, key, strings.Join(added, ", "), handler),
						Runnable: runnable})
				}
			}
			if a, ok := nc["auth"]; ok && a != oc["auth"] {
				m.Plugin[p+" "+handler] = append(m.Plugin[p+" "+handler], Code{File: rel, What: what + " changes the auth config of " + handler})
			}
		}
		for i, r := range list {
			k := routeKey(p, r)
			if had[k] || first[k] != i || shadowed(p, list[:i], r) {
				continue
			}
			handler, _ := r["handler"].(string)
			method, _ := r["method"].(string)
			path, _ := r["path"].(string)
			m.Plugin[p+" "+handler] = append(m.Plugin[p+" "+handler], Code{File: rel, What: fmt.Sprintf("%s adds the route %s %s (%s)", what, strings.ToUpper(method), path, handler)})
			m.LocalRoutes = append(m.LocalRoutes, Route{File: rel, Method: strings.ToUpper(method), Path: pluginURL(p, path, r["config"]), Handler: "plugin::" + p + "." + handler})
		}
	}
}

// shadowed says whether a route of earlier, with r's method, takes every request r's path
// matches: r's path is plain (no parameters) and the earlier route's path matches it, as
// koa-router matches (named parameters, (.*) for the rest).
func shadowed(plugin string, earlier []map[string]any, r map[string]any) bool {
	method, _ := r["method"].(string)
	path, _ := r["path"].(string)
	segs := strings.Split(strings.Trim(pluginURL(plugin, path, r["config"]), "/"), "/")
	for _, s := range segs {
		if strings.ContainsAny(s, ":*()?") {
			return false
		}
	}
	for _, e := range earlier {
		m, _ := e["method"].(string)
		if !strings.EqualFold(m, method) && !strings.EqualFold(m, "ALL") {
			continue
		}
		ep, _ := e["path"].(string)
		if patternTakes(strings.Split(strings.Trim(pluginURL(plugin, ep, e["config"]), "/"), "/"), segs) {
			return true
		}
	}
	return false
}

// patternTakes matches a koa-router path's segments against a plain path's.
func patternTakes(pattern, segs []string) bool {
	for i, p := range pattern {
		if p == "(.*)" || p == "*" {
			return true
		}
		if i >= len(segs) {
			return false
		}
		if strings.HasPrefix(p, ":") && !strings.ContainsAny(p, "()?") {
			continue
		}
		if !strings.EqualFold(p, segs[i]) {
			return false
		}
	}
	return len(pattern) == len(segs)
}

// routeKey is what tells a plugin's routes apart: the method and the URL.
func routeKey(plugin string, r map[string]any) string {
	method, _ := r["method"].(string)
	path, _ := r["path"].(string)
	return strings.ToUpper(method) + " " + strings.TrimSuffix(pluginURL(plugin, path, r["config"]), "/")
}

func pluginURL(plugin, path string, config any) string {
	prefix := "/" + plugin
	if c, ok := config.(map[string]any); ok {
		if p, ok := c["prefix"].(string); ok {
			prefix = p
		}
	}
	return "/api" + strings.TrimSuffix(prefix, "/") + path
}

// addedEntries names the entries of after that before lacks (policies and middlewares are
// names or {name, config} objects).
func addedEntries(before, after []any) []string {
	name := func(v any) string {
		switch x := v.(type) {
		case string:
			return x
		case map[string]any:
			if n, ok := x["name"].(string); ok {
				return n
			}
			return "an inline object"
		case nil:
			return "a function"
		}
		return fmt.Sprint(v)
	}
	var have []string
	for _, b := range before {
		have = append(have, name(b))
	}
	var out []string
	for _, a := range after {
		if n := name(a); !slices.Contains(have, n) {
			out = append(out, n)
		}
	}
	return out
}

// addedRaw is addedEntries' entries themselves: those of after whose name before lacks.
func addedRaw(before, after []any) []any {
	names := addedEntries(before, after)
	var out []any
	for _, a := range after {
		if n := addedEntries(nil, []any{a}); len(n) == 1 && slices.Contains(names, n[0]) {
			out = append(out, a)
		}
	}
	return out
}

// loadExtensions records src/extensions/<plugin>/strapi-server.*: what it replaces on the
// plugin object (controllers, services, policies) and the routes it changes.
func (m *Model) loadExtensions(ctx context.Context, in CodeInput) error {
	dirs, err := os.ReadDir(filepath.Join(m.Dir, "src", "extensions"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read src/extensions: %w", err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		p := d.Name()
		rel := firstSource(m.Dir, filepath.Join("src", "extensions", p, "strapi-server"))
		if rel == "" {
			continue
		}
		rec, err := jseval.Record(ctx, filepath.Join(m.Dir, rel), m.reading(), m.recordInput(in, "", p))
		if err != nil {
			m.PluginAll[p] = append(m.PluginAll[p], Code{File: rel, What: fmt.Sprintf("a plugin extension Quarry could not read (%v)", unwrap(err))})
			continue
		}
		if rec.Threw != "" {
			m.PluginAll[p] = append(m.PluginAll[p], Code{File: rel, What: "a plugin extension that failed under Quarry: " + rec.Threw})
			continue
		}
		m.noteUnprovided(rel, rec.Unresolved)
		m.serviceMethods(rel, "the extension", rec.ServiceMethods)
		var replaced []string
		for kind, names := range map[string][]string{"policies": rec.Policies, "middlewares": rec.Middlewares} {
			var own []string
			for _, n := range names {
				if slices.Contains(pluginOwn[p][kind], n) || strings.Contains(n, ".") {
					own = append(own, n)
					continue
				}
				if m.extAdded == nil {
					m.extAdded = map[string]string{}
				}
				from := rel
				if f := rec.AddedFrom[kind+" "+n]; f != "" {
					// The function's own file, read for the modules it needs: the
					// extension's other requires (a replaced service's) do not refuse it.
					dir, _ := filepath.Abs(m.Dir)
					if r, err := filepath.Rel(dir, f); err == nil && !strings.HasPrefix(r, "..") {
						from = m.checkModules(filepath.ToSlash(r))
					}
				}
				m.extAdded[kind+" plugin::"+p+"."+n] = from
			}
			if len(own) > 0 {
				replaced = append(replaced, kind+" "+strings.Join(own, ", "))
			}
		}
		if len(replaced) > 0 {
			sort.Strings(replaced)
			m.PluginAll[p] = append(m.PluginAll[p], Code{File: rel, What: "replaces " + strings.Join(replaced, "; ")})
		}
		for _, c := range rec.Controllers {
			ctrl, action, whole := strings.Cut(c, ".")
			whole = !whole
			for i := range m.PluginRoutes {
				r := &m.PluginRoutes[i]
				rc, ra, _ := strings.Cut(r.Handler, ".")
				if r.Plugin == p && rc == ctrl && (whole || ra == action) {
					// The action replaced, alone or with its whole controller (often
					// wrapping or spreading the plugin's own actions, which Quarry answers
					// natively), runs in Quarry's runtime.
					runnable := len(rec.Unsupported) == 0 && m.provided(rel)
					if runnable {
						r.Extension = rel
					}
					code := Code{File: rel, What: "replaces the controller " + c, Runnable: runnable}
					// One note per action, however many routes reach it (auth.callback has two).
					if !slices.Contains(m.Plugin[p+" "+r.Handler], code) {
						m.Plugin[p+" "+r.Handler] = append(m.Plugin[p+" "+r.Handler], code)
					}
				}
			}
		}
		added := len(m.LocalRoutes)
		m.diffPluginRoutes(rel, "the extension", rec.Routes)
		for i := added; i < len(m.LocalRoutes); i++ {
			// A route the extension adds to an action it adds (or to a controller it
			// replaces whole) runs that action in Quarry's runtime, as Strapi would.
			r := &m.LocalRoutes[i]
			h := strings.TrimPrefix(r.Handler, "plugin::"+p+".")
			ctrl, _, _ := strings.Cut(h, ".")
			if h != r.Handler && (slices.Contains(rec.Controllers, h) || slices.Contains(rec.Controllers, ctrl)) && len(rec.Unsupported) == 0 {
				r.Extension, r.ExtPlugin = rel, p
				for _, o := range rec.Routes[p] {
					if h2, _ := o["handler"].(string); h2 == h && pluginURL(p, fmt.Sprint(o["path"]), o["config"]) == r.Path {
						r.Config = routeConfig(o["config"])
					}
				}
				for j, c := range m.Plugin[p+" "+h] {
					if c.File == rel && strings.Contains(c.What, "adds the route") {
						m.Plugin[p+" "+h][j].Runnable = m.provided(rel)
					}
				}
			}
		}
		if len(rec.Unsupported) > 0 {
			m.PluginAll[p] = append(m.PluginAll[p], Code{File: rel, What: "uses " + strings.Join(rec.Unsupported, ", ") + ", which Quarry does not provide"})
		}
	}
	return nil
}

// loadLocalPlugins reads src/plugins/<name>: its content-API routes run its own controllers,
// and its register() and bootstrap() are recorded as src/index's are.
func (m *Model) loadLocalPlugins(ctx context.Context, in CodeInput) error {
	dirs, err := os.ReadDir(filepath.Join(m.Dir, "src", "plugins"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read src/plugins: %w", err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		name := d.Name()
		rel := firstSource(m.Dir, filepath.Join("src", "plugins", name, "strapi-server"))
		if rel == "" {
			continue
		}
		code := Code{File: rel, What: "the local plugin " + name}
		// strapi-server exports the plugin object, or a function of { env } making it.
		res, err := jseval.EvalFile(ctx, filepath.Join(m.Dir, rel), m.reading())
		if err != nil {
			code.What += fmt.Sprintf(", which Quarry could not read (%v)", unwrap(err))
			m.LocalPrefixes = append(m.LocalPrefixes, LocalPrefix{Path: "/api/" + name, Code: code}, LocalPrefix{Path: "/" + name, Code: code})
			continue
		}
		m.noteUnprovided(rel, res.Unresolved)
		decl := map[string][]string{}
		for _, kind := range []string{"controllers", "services", "policies", "middlewares"} {
			if names, ok := res.Shape[kind].(map[string]any); ok {
				for n := range names {
					decl[kind] = append(decl[kind], n)
				}
			}
		}
		if m.localPlugins == nil {
			m.localPlugins = map[string]map[string][]string{}
		}
		// Strapi loads a local plugin only when config/plugins declares it enabled.
		if localPluginEnabled(in.Config, name) {
			m.localPlugins[name] = decl
		}
		obj, _ := res.Value.(map[string]any)
		for typ, list := range localPluginRoutes(obj) {
			for _, x := range list {
				r, _ := x.(map[string]any)
				method, _ := r["method"].(string)
				path, _ := r["path"].(string)
				handler, _ := r["handler"].(string)
				if method == "" || path == "" {
					continue
				}
				url := "/" + name + path
				if typ == "content-api" {
					url = pluginURL(name, path, r["config"])
				} else if c, ok := r["config"].(map[string]any); ok {
					if p, ok := c["prefix"].(string); ok {
						url = strings.TrimSuffix(p, "/") + path
					}
				}
				m.LocalRoutes = append(m.LocalRoutes, Route{File: rel, Plugin: name, Method: strings.ToUpper(method), Path: url,
					Handler: "plugin::" + name + "." + handler, Config: routeConfig(r["config"])})
			}
		}
		m.recordStartup(ctx, rel, in, name)
		if localPluginEnabled(in.Config, name) {
			m.localPluginLifecycles(rel, name, res)
		}
	}
	return nil
}

// localPluginLifecycles takes the lifecycle hooks a local plugin's contentTypes export
// declares ({ <ct>: { schema, lifecycles } }), which Strapi registers for plugin::<name>.<ct>;
// hooks Quarry cannot name (lifecycles that are not an object of functions) stand for every
// event, so the model's routes are never served without them.
func (m *Model) localPluginLifecycles(rel, name string, res *jseval.Result) {
	cts, _ := res.Shape["contentTypes"].(map[string]any)
	for ct, v := range cts {
		def, _ := v.(map[string]any)
		lc, ok := def["lifecycles"]
		if !ok {
			continue
		}
		uid := "plugin::" + name + "." + ct
		hooks, _ := lc.(map[string]any)
		if len(hooks) == 0 {
			m.addHooks(uid, Code{File: rel, What: "lifecycle hooks of " + uid + " Quarry could not read"}, []string{"*"})
			continue
		}
		keys := make([]string, 0, len(hooks))
		for k := range hooks {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		m.addHooks(uid, Code{File: rel, What: "lifecycle hooks " + strings.Join(keys, ", ") + " of " + uid + m.unprovidedNote(rel), Runnable: m.provided(rel), Lifecycle: true}, keys)
	}
}

// PluginLifecycles are the local plugins' content types with lifecycles (their contentTypes
// export declares them), which every write of them runs.
func (m *Model) PluginLifecycles() []string {
	var out []string
	for uid, l := range m.Lifecycles {
		// Those Quarry cannot run too: the sandbox then fails to load them and refuses the
		// write (501), as for an API's lifecycles file, never writing without them.
		if strings.HasPrefix(uid, "plugin::") && len(l.Code) > 0 {
			out = append(out, uid)
		}
	}
	slices.Sort(out)
	return out
}

// localPluginRoutes reads a local plugin's routes export: a list (admin routes), or
// {<type>: {type, routes}} by router.
func localPluginRoutes(obj map[string]any) map[string][]any {
	out := map[string][]any{}
	switch rs := obj["routes"].(type) {
	case []any:
		out["admin"] = rs
	case map[string]any:
		for k, v := range rs {
			router, _ := v.(map[string]any)
			typ, _ := router["type"].(string)
			if typ == "" {
				typ = k
			}
			out[typ] = append(out[typ], asList(router["routes"])...)
		}
	}
	return out
}

// CoreCode is the code the project declares for a content type's core route that Quarry
// does not run: a controller or service of its own for the action, the route's policies
// and middlewares (but those that only rewrite the query, which Quarry runs), lifecycle
// hooks, and code that applies to every route.
func (m *Model) CoreCode(uid, action string) []Code {
	if m == nil {
		return nil
	}
	out := slices.Clone(m.Global)
	api, _, _ := strings.Cut(strings.TrimPrefix(uid, "api::"), ".")
	if m.unreadableAPIs[api] {
		out = append(out, Code{File: filepath.ToSlash(filepath.Join("src", "api", api, "routes")), What: "route files Quarry could not read"})
	}
	if slices.Contains(m.Overridden, uid+"."+action) {
		f := m.controllerFile(uid)
		out = append(out, Code{File: f, What: "the controller defines " + action + m.unprovidedNote(f), Runnable: m.provided(f)})
	}
	if slices.Contains(m.Services[uid], action) {
		f := m.serviceFile[uid]
		out = append(out, Code{File: f, What: "the service defines " + action + m.unprovidedNote(f), Runnable: m.provided(f)})
	}
	if r := m.Core[uid]; r != nil {
		c := r.Config[action]
		if (len(c.Policies) > 0 || len(c.Middlewares) > 0) && !QueryOnly(m.Dir, c) {
			out = append(out, Code{File: r.File, What: describeHooks(action, c), Runnable: m.runnableConfig(api, c)})
		}
	}
	events := Events(action)
	if action == "find" {
		// A single type's find reads with findOne (Strapi's entity service does).
		events = append(events, "FindOne")
	}
	out = append(out, m.hooks(uid, events, action)...)
	return out
}

// ReadHookModels are the models with read lifecycle hooks (or a function subscriber, "*"),
// sorted.
func (m *Model) ReadHookModels() []string {
	if m == nil {
		return nil
	}
	var out []string
	for uid, l := range m.Lifecycles {
		for _, h := range l.Hooks {
			if h == "*" || slices.Contains(readHooks, h) {
				out = append(out, uid)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// ReadHooks says whether a core action of the model reaches read lifecycle hooks, which
// the runtime runs only through Strapi's controller steps (never the native action): any
// read hook for a find or findOne, and for a create, update or delete the findOne ones
// (Strapi's query engine reads the entry it writes through findOne). A function subscriber
// sees them all.
func (m *Model) ReadHooks(uid, action string) bool {
	if m == nil {
		return false
	}
	var hooked func(h string) bool
	switch action {
	case "find", "findOne":
		hooked = func(h string) bool { return h == "*" || slices.Contains(readHooks, h) }
	case "create", "update", "delete":
		hooked = func(h string) bool { return h == "*" || h == "beforeFindOne" || h == "afterFindOne" }
	default:
		return false
	}
	for _, key := range []string{uid, "*"} {
		l := m.Lifecycles[key]
		if l == nil {
			continue
		}
		if slices.ContainsFunc(l.Hooks, hooked) {
			return true
		}
	}
	return false
}

// ReadEvents says whether a read of the model fires hooks on one of events (FindMany,
// FindOne, Count): a hook of the event's, or a function subscriber (which sees them all).
func (m *Model) ReadEvents(uid string, events ...string) bool {
	if m == nil {
		return false
	}
	for _, key := range []string{uid, "*"} {
		l := m.Lifecycles[key]
		if l == nil {
			continue
		}
		for _, h := range l.Hooks {
			if h == "*" {
				return true
			}
			for _, e := range events {
				if h == "before"+e || h == "after"+e {
					return true
				}
			}
		}
	}
	return false
}

// GraphQLQueryHooks is the lifecycle code a generated GraphQL query reaches (events: the
// entity service's reads, see Events): the runtime runs its read hooks (and a function
// subscriber's, which sees only reads there) around the entity service's reads, so those are
// runnable lifecycle code; any other stays code Quarry does not run.
func (m *Model) GraphQLQueryHooks(uid string, events []string) []Code {
	return m.reached(uid, events, func(readOnly, _ bool) bool { return readOnly })
}

// GraphQLMutationHooks is the lifecycle code a generated GraphQL mutation (create, update,
// delete) reaches. Of a model whose findOne hooks the write's read-back fires (ReadHooks),
// the mutation runs in the sandbox through the entity service, as Strapi's resolver does:
// every hook it knows (the write's, the reads') is runnable lifecycle code there; others the
// write path runs as for any mutation (Hooks).
func (m *Model) GraphQLMutationHooks(uid, action string) []Code {
	if !m.ReadHooks(uid, action) {
		return m.Hooks(uid, Events(action))
	}
	return m.reached(uid, Events(action), func(_, known bool) bool { return known })
}

// reached is the lifecycle code of uid's model (and of every model's, "*") whose hooks meet
// events, each runnable lifecycle code where the runtime runs it (runsThere, told whether
// the hooks met are all read hooks and whether all are hooks it knows), and code Quarry does
// not run otherwise.
func (m *Model) reached(uid string, events []string, runsThere func(readOnly, known bool) bool) []Code {
	return m.eachHook(uid, events, func(c *Code, _, readOnly, known bool) {
		there := runsThere(readOnly, known)
		c.Lifecycle = there && c.Runnable
		if !there {
			c.Runnable = false
		}
	})
}

// eachHook is the lifecycle code of uid's model (and of every model's, "*") whose hooks meet
// events, each as mark leaves it, told what the hooks met are (see runs).
func (m *Model) eachHook(uid string, events []string, mark func(c *Code, writeOnly, readOnly, known bool)) []Code {
	if m == nil {
		return nil
	}
	var out []Code
	for _, key := range []string{uid, "*"} {
		l := m.Lifecycles[key]
		if l == nil {
			continue
		}
		for i, c := range l.Code {
			match, writeOnly, readOnly, known := runs(l.hooksOf[i], events)
			if !match {
				continue
			}
			mark(&c, writeOnly, readOnly, known)
			out = append(out, c)
		}
	}
	return out
}

// Hooks is the lifecycle code that runs on a model's events (see Events).
func (m *Model) Hooks(uid string, events []string) []Code {
	return m.hooks(uid, events, "")
}

// hooks is Hooks for the core action of a REST route ("" for none), which the runtime runs
// through Strapi's steps where read hooks apply: for a find or findOne its read hooks,
// for a create, update or delete its write hooks with the findOne read hooks of the
// entry's read-back, are runnable code of the route, though not of every write.
func (m *Model) hooks(uid string, events []string, action string) []Code {
	reads := action == "find" || action == "findOne"
	writes := action == "create" || action == "update" || action == "delete"
	return m.eachHook(uid, events, func(c *Code, writeOnly, readOnly, known bool) {
		switch {
		case writeOnly:
			c.Lifecycle = c.Lifecycle && c.Runnable
		case reads && readOnly, writes && known:
			// The route's own chain runs them: it is project code of the route.
			c.Lifecycle = false
		default:
			c.Runnable, c.Lifecycle = false, false
		}
	})
}

// PluginCode is the code a plugin's route runs that Quarry does not: what the project's
// register() and plugin extensions changed, lifecycle hooks of the model it writes (user
// for users-permissions' user routes), and code that applies to every route.
func (m *Model) PluginCode(plugin, handler string, model string, events []string) []Code {
	if m == nil {
		return nil
	}
	out := slices.Clone(m.Global)
	out = append(out, m.PluginAll[plugin]...)
	out = append(out, m.Plugin[plugin+" "+handler]...)
	if plugin == "upload" {
		return append(out, m.UploadHooks(events)...)
	}
	if model != "" {
		out = append(out, m.Hooks(model, events)...)
	}
	return out
}

// RefusePluginHandlers makes the routes of a plugin's handlers run code Quarry does not run
// (c): they are forwarded with --upstream, otherwise refused (an upload provider Quarry does
// not have refuses the handlers that store or delete files).
func (m *Model) RefusePluginHandlers(plugin string, handlers []string, c Code) {
	if m.Plugin == nil {
		m.Plugin = map[string][]Code{}
	}
	for _, h := range handlers {
		m.Plugin[plugin+" "+h] = append(m.Plugin[plugin+" "+h], c)
	}
}

// UploadHooks are the lifecycle hooks of the upload plugin's file model (a subscription
// naming plugin::upload.file, or one seeing every model) that a route of the plugin fires:
// Quarry's upload plugin writes and reads its files itself, without them, so each one makes
// the route refused rather than skipped.
func (m *Model) UploadHooks(events []string) []Code {
	hooks := m.Hooks(UploadFileUID, events)
	for i := range hooks {
		hooks[i].Runnable, hooks[i].Lifecycle = false, false
		hooks[i].What += " (the upload plugin's own writes and reads of its files do not run the file model's lifecycle hooks under Quarry)"
	}
	return hooks
}

// UploadFileUID is the upload plugin's file model.
const UploadFileUID = "plugin::upload.file"

func (m *Model) controllerFile(uid string) string {
	api, name, _ := strings.Cut(strings.TrimPrefix(uid, "api::"), ".")
	if f := firstSource(m.Dir, filepath.Join("src", "api", api, "controllers", name)); f != "" {
		return f
	}
	return filepath.ToSlash(filepath.Join("src", "api", api, "controllers"))
}

func describeHooks(action string, c RouteConfig) string {
	var parts []string
	if len(c.Policies) > 0 {
		parts = append(parts, "policies "+strings.Join(addedEntries(nil, c.Policies), ", "))
	}
	if len(c.Middlewares) > 0 {
		parts = append(parts, "middlewares "+strings.Join(addedEntries(nil, c.Middlewares), ", "))
	}
	return "the " + action + " route declares " + strings.Join(parts, " and ")
}

// CustomCode is the code a custom route runs: its controller action, its policies and
// middlewares, and code that applies to every route.
func (m *Model) CustomCode(r Route) []Code {
	out := slices.Clone(m.Global)
	what := "the route's handler " + r.Handler
	if r.Handler == "" {
		what = "a route handler given as a function"
	}
	api, _, _ := strings.Cut(strings.TrimPrefix(r.Handler, "api::"), ".")
	ctrl, action := r.Handler, ""
	if i := strings.LastIndexByte(r.Handler, '.'); i >= 0 {
		ctrl, action = r.Handler[:i], r.Handler[i+1:]
	}
	if r.Plugin != "" {
		return m.localPluginCode(r)
	}
	if r.Extension != "" {
		out = append(out, Code{File: r.Extension, What: "the extension's own action " + r.Handler + m.unprovidedNote(r.Extension), Runnable: m.provided(r.Extension)})
		if len(r.Config.Policies) > 0 || len(r.Config.Middlewares) > 0 {
			out = append(out, Code{File: r.Extension, What: describeHooks(r.Method+" "+r.Path, r.Config), Runnable: m.runnableConfig("", r.Config)})
		}
		return out
	}
	defined := slices.Contains(m.Actions[ctrl], action) || slices.Contains(CoreActions, action)
	if r.Handler != "" && !defined {
		what += ", which no controller of the project defines (Strapi refuses to start)"
	}
	ctrlFile := ""
	if slices.Contains(m.Actions[ctrl], action) {
		ctrlFile = m.controllerFile(ctrl)
		what += m.unprovidedNote(ctrlFile)
	}
	out = append(out, Code{File: r.File, What: what, Runnable: r.API != "" && strings.HasPrefix(r.Handler, "api::") && defined && m.provided(ctrlFile)})
	if len(r.Config.Policies) > 0 || len(r.Config.Middlewares) > 0 {
		out = append(out, Code{File: r.File, What: describeHooks(r.Method+" "+r.Path, r.Config), Runnable: r.API != "" && m.runnableConfig(api, r.Config)})
	}
	return out
}

// runnableConfig says whether every policy and middleware of a route is a file of the
// project (global::name, api::api.name, or a bare name in the route's api), which Quarry's
// runtime loads; plugins' and inline ones are not.
func (m *Model) runnableConfig(api string, c RouteConfig) bool {
	for kind, list := range map[string][]any{"policies": c.Policies, "middlewares": c.Middlewares} {
		for _, e := range list {
			name, _ := e.(string)
			if o, ok := e.(map[string]any); ok {
				name, _ = o["name"].(string)
			}
			var base string
			switch {
			case m.extAdded[kind+" "+name] != "":
				if !m.provided(m.extAdded[kind+" "+name]) {
					return false
				}
				continue
			case strings.HasPrefix(name, "global::"):
				base = filepath.Join("src", kind, strings.TrimPrefix(name, "global::"))
			case strings.HasPrefix(name, "api::"):
				a, n, ok := strings.Cut(strings.TrimPrefix(name, "api::"), ".")
				if !ok {
					return false
				}
				base = filepath.Join("src", "api", a, kind, n)
			case name != "" && !strings.Contains(name, "::") && api != "":
				base = filepath.Join("src", "api", api, kind, name)
			default:
				return false
			}
			if strings.Contains(base, "..") {
				return false
			}
			f := firstSource(m.Dir, base)
			if f == "" || !m.provided(m.checkModules(f)) {
				return false
			}
		}
	}
	return true
}

// noteUnprovided remembers the npm modules a project file requires that the sandbox lacks.
func (m *Model) noteUnprovided(rel string, modules []string) {
	if len(modules) == 0 {
		return
	}
	if m.unprovided == nil {
		m.unprovided = map[string][]string{}
	}
	key := filepath.ToSlash(rel)
	for _, mod := range modules {
		if !slices.Contains(m.unprovided[key], mod) {
			m.unprovided[key] = append(m.unprovided[key], mod)
		}
	}
}

// provided says whether every npm module file requires is provided by Quarry's sandbox.
func (m *Model) provided(file string) bool { return len(m.unprovided[file]) == 0 }

// unprovidedNote names the modules a file requires that Quarry's sandbox lacks.
func (m *Model) unprovidedNote(file string) string {
	mods := m.unprovided[file]
	if len(mods) == 0 {
		return ""
	}
	return fmt.Sprintf(" (it requires %s, which Quarry does not provide)", strings.Join(quoted(mods), ", "))
}

func quoted(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = "'" + s + "'"
	}
	return out
}

// checkModules reads a policy's or middleware's file once for the modules it requires; the
// file is returned for chaining.
func (m *Model) checkModules(rel string) string {
	if m.checked == nil {
		m.checked = map[string]bool{}
	}
	if !m.checked[rel] {
		m.checked[rel] = true
		if res, err := jseval.EvalModule(context.Background(), filepath.Join(m.Dir, rel), m.reading()); err == nil {
			m.noteUnprovided(rel, res.Unresolved)
		}
	}
	return rel
}

// localPluginCode is the code a local plugin's route runs: its controller action (a
// controller the plugin declares, whose actions Quarry's runtime finds when it runs), its
// policies and middlewares (the plugin's own, or the project's files), and code that
// applies to every route.
func (m *Model) localPluginCode(r Route) []Code {
	out := slices.Clone(m.Global)
	decl := m.localPlugins[r.Plugin]
	ctrl, _, _ := strings.Cut(strings.TrimPrefix(r.Handler, "plugin::"+r.Plugin+"."), ".")
	what := "the local plugin " + r.Plugin + "'s route handler " + r.Handler
	defined := strings.HasPrefix(r.Handler, "plugin::"+r.Plugin+".") && slices.Contains(decl["controllers"], ctrl)
	switch {
	case decl == nil:
		what += " (config/plugins does not enable the plugin)"
	case !defined:
		what += ", which the plugin's controllers do not define (Strapi refuses to start)"
	}
	what += m.unprovidedNote(r.File)
	out = append(out, Code{File: r.File, What: what, Runnable: defined && m.provided(r.File)})
	if len(r.Config.Policies) > 0 || len(r.Config.Middlewares) > 0 {
		ok := true
		for kind, list := range map[string][]any{"policies": r.Config.Policies, "middlewares": r.Config.Middlewares} {
			for _, e := range list {
				name, _ := e.(string)
				if o, isObj := e.(map[string]any); isObj {
					name, _ = o["name"].(string)
				}
				own := strings.TrimPrefix(name, "plugin::"+r.Plugin+".")
				switch {
				case !strings.Contains(own, "::") && own != "" && slices.Contains(decl[kind], own):
				case strings.HasPrefix(name, "global::") || strings.HasPrefix(name, "api::"):
					ok = ok && m.runnableConfig("", RouteConfig{Policies: policiesIf(kind, e), Middlewares: middlewaresIf(kind, e)})
				default:
					ok = false
				}
			}
		}
		out = append(out, Code{File: r.File, What: describeHooks(r.Method+" "+r.Path, r.Config), Runnable: ok})
	}
	return out
}

func policiesIf(kind string, e any) []any {
	if kind == "policies" {
		return []any{e}
	}
	return nil
}

func middlewaresIf(kind string, e any) []any {
	if kind == "middlewares" {
		return []any{e}
	}
	return nil
}

// localPluginEnabled reads config/plugins' declaration of a local plugin: Strapi loads it
// when it is declared with enabled: true.
func localPluginEnabled(config map[string]any, name string) bool {
	plugins, _ := config["plugins"].(map[string]any)
	decl, _ := plugins[name].(map[string]any)
	on, _ := decl["enabled"].(bool)
	return on
}

// withoutFunctions is a route config without its inline functions (JSON null once recorded).
func withoutFunctions(c RouteConfig) RouteConfig {
	keep := func(list []any) []any {
		var out []any
		for _, e := range list {
			if e != nil {
				out = append(out, e)
			}
		}
		return out
	}
	return RouteConfig{Policies: keep(c.Policies), Middlewares: keep(c.Middlewares)}
}

// upServiceCallers are, for each method of the users-permissions plugin's services, the
// plugin's content-API actions that call it (read from the plugin's controllers and
// services, 4.26.2); "*" is every request, through the plugin's authentication strategy
// (a user's JWT is verified and its user fetched with them).
var upServiceCallers = map[string][]string{
	"user.fetchAuthenticatedUser": {"*"},
	"user.validatePassword":       {"auth.callback", "auth.changePassword"},
	"user.edit": {"user.update", "auth.changePassword", "auth.resetPassword", "auth.forgotPassword",
		"auth.emailConfirmation", "auth.sendEmailConfirmation", "auth.register"},
	"user.add":                   {"user.create", "auth.register", "auth.callback"},
	"user.fetch":                 {"user.update", "user.findOne", "user.me"},
	"user.fetchAll":              {"user.find", "auth.emailConfirmation"},
	"user.count":                 {"user.count"},
	"user.remove":                {"user.destroy"},
	"user.sendConfirmationEmail": {"auth.register", "auth.sendEmailConfirmation"},
	"jwt.issue": {"auth.callback", "auth.register", "auth.changePassword", "auth.resetPassword",
		"auth.emailConfirmation"},
	"jwt.getToken":               {"*"},
	"jwt.verify":                 {"*"},
	"role.find":                  {"role.find"},
	"role.findOne":               {"role.findOne"},
	"role.createRole":            {"role.createRole"},
	"role.updateRole":            {"role.updateRole"},
	"role.deleteRole":            {"role.deleteRole"},
	"user.ensureHashedPasswords": {}, // run at start only
	// The third-party providers: connecting (the grant redirect) and their callback.
	"providers.connect":          {"auth.callback"},
	"providers.buildRedirectUri": {"auth.connect"},
	"providers-registry.getAll":  {"auth.connect", "auth.callback"},
	"providers-registry.get":     {"auth.connect", "auth.callback"},
	"providers-registry.add":     {"auth.connect", "auth.callback"},
	"providers-registry.remove":  {"auth.connect", "auth.callback"},
	"providers-registry.run":     {"auth.callback"},
}

// upServiceMethods are the methods of the plugin's services as Strapi defines them: a method
// of one of these services not listed is new, and no action of the plugin calls it.
var upServiceMethods = map[string][]string{
	"user": {"count", "add", "edit", "fetch", "fetchAuthenticatedUser", "fetchAll", "remove",
		"validatePassword", "sendConfirmationEmail", "ensureHashedPasswords"},
	"jwt":                {"getToken", "issue", "verify"},
	"role":               {"createRole", "findOne", "find", "updateRole", "deleteRole"},
	"providers":          {"connect", "buildRedirectUri"},
	"providers-registry": {"getAll", "get", "add", "remove", "run"},
}

// serviceMethods weighs the plugin service methods a recorded call assigned: a method some
// action of the plugin calls refuses the routes of those actions (or every route, where the
// plugin's authentication calls it), as Quarry answers them with its own service; a method
// no action calls (a new one the project's own code calls) changes no route.
func (m *Model) serviceMethods(rel, what string, methods []string) {
	for _, full := range methods {
		if uid, method, ok := strings.Cut(full, ".."); ok && strings.Contains(uid, "::") {
			// An api's service (strapi.service('api::a.b').find = …): the sandboxes that
			// serve requests build the service from its file, without what register()
			// or bootstrap() assigned.
			m.Global = append(m.Global, Code{File: rel, What: fmt.Sprintf("%s replaces the service method %s.%s, which Quarry's sandboxes do not apply", what, uid, method)})
			continue
		}
		p, rest, _ := strings.Cut(full, ".")
		svc, method, _ := strings.Cut(rest, ".")
		c := Code{File: rel, What: fmt.Sprintf("%s replaces the %s service method %s.%s, which Quarry's plugin does not call", what, p, svc, method)}
		switch {
		case p == "graphql":
			m.GraphQL = append(m.GraphQL, c)
			continue
		case firstSource(m.Dir, filepath.Join("src", "plugins", p, "strapi-server")) != "" || firstSource(m.Dir, filepath.Join("src", "plugins", p, "server", "index")) != "":
			// A local plugin's service: its controllers, which the sandboxes run, would
			// not see it.
			m.Global = append(m.Global, Code{File: rel, What: fmt.Sprintf("%s replaces the local plugin %s's service method %s.%s, which Quarry's sandboxes do not apply", what, p, svc, method)})
			continue
		case p != "users-permissions":
			m.PluginAll[p] = append(m.PluginAll[p], c)
			continue
		}
		known, ok := upServiceMethods[svc]
		if !ok {
			// permission, providers, users-permissions: their methods reach the
			// authentication of every request and the plugin's other actions.
			m.Global = append(m.Global, Code{File: rel, What: fmt.Sprintf("%s replaces the users-permissions service method %s.%s, which Quarry's plugin does not call", what, svc, method)})
			continue
		}
		var callers []string
		if method == "*" {
			for _, k := range known {
				callers = append(callers, upServiceCallers[svc+"."+k]...)
			}
		} else if slices.Contains(known, method) {
			callers = upServiceCallers[svc+"."+method]
			if callers == nil {
				callers = []string{"*"}
			}
		}
		// The runtime runs the method register() assigns on the service it builds; a
		// service register() sets anew it does not build.
		whole := slices.Contains(methods, p+"."+svc+".=")
		if what == "register()" && rel == m.indexFile && !whole {
			m.RegisterServices = true
		}
		if svc+"."+method == "user.fetchAuthenticatedUser" && what == "register()" && rel == m.indexFile && m.provided(rel) && !whole {
			m.AuthUser = &Code{File: rel, What: what + " replaces the users-permissions service method user.fetchAuthenticatedUser, which authenticates every request with a user's JWT", Runnable: true}
			continue
		}
		for _, h := range callers {
			if h == "*" {
				m.Global = append(m.Global, Code{File: rel, What: fmt.Sprintf("%s replaces the users-permissions service method %s.%s, which authenticates every request with a user's JWT and which Quarry's plugin does not call", what, svc, method)})
				break
			}
			m.Plugin[p+" "+h] = append(m.Plugin[p+" "+h], Code{File: rel, What: fmt.Sprintf("%s replaces the users-permissions service method %s.%s, which %s calls and Quarry's plugin does not", what, svc, method, h)})
		}
	}
}
