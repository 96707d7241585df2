// Package projectcode runs a Strapi project's own code — controllers, services, policies,
// route middlewares — for the routes that declare it, in pooled sandboxes (schemas/jseval),
// against a `strapi` object backed by Quarry: strapi.entityService and strapi.db.query lower
// into ir.Query (parser/jsquery) and run through the planner; a core action the project does
// not replace is Quarry's native one. The JavaScript half (strapi.js) holds Strapi's
// factories, core controllers and services, response transform and Koa context.
//
// Each sandbox serves one request at a time; the pool holds as many as there are cores, so
// requests through project code run in parallel without a process-wide lock. Every call has
// a time limit; a script that runs out of it, throws something that is not an error, or
// reaches for files, processes or the network fails its request cleanly (the server lives).
package projectcode

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/planner/localize"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/schemas/jseval"
	"github.com/quarrycms/quarry/schemas/routes"
	"github.com/quarrycms/quarry/sqlgen/database"
	"github.com/quarrycms/quarry/transport/envelope"
)

//go:embed strapi.js
var strapiSource string

// Host is what the project's code reaches of the server beyond reads: the native core
// actions, and the authenticated user.
type Host interface {
	// Native runs a content type's core action for who as Quarry serves it, with the query
	// (raw, qs notation) and JSON body the project's code left; it returns the status and
	// the JSON body of the answer (a string: it goes into the sandbox as it is).
	Native(ctx context.Context, m *schemas.Model, action, id, rawQuery string, body []byte, who *ir.Caller) (int, string)
	// NativeRoute answers a request's own route as Quarry serves it without the project's
	// chain (a plugin's action), with the query (raw, qs notation) and JSON body the chain
	// left: its status and JSON body.
	NativeRoute(ctx context.Context, method, path, rawQuery string, body []byte) (int, string)
	// AppNext serves a request whose app-level middlewares have run, as the router serves
	// it (its route's own chain included), with the query and JSON body they left: its
	// status, body and headers.
	// header is the request's headers as the middlewares left them (lower-case names, first
	// values): an Authorization a middleware made from a cookie authenticates the request.
	AppNext(ctx context.Context, method, path, rawQuery string, body []byte, header map[string]string) (int, string, http.Header)
	// User is the users-permissions user with its role, as Strapi puts it in ctx.state.user
	// (flat JSON, without password and tokens); nil when there is none.
	User(ctx context.Context, id int64) ([]byte, error)
	// CoreStore runs strapi.store's get, set or delete (op) on the row of Strapi's core store
	// e names (key, environment, tag; value and type for a set) and answers the row (JSON,
	// null when there is none); a set or delete tells the server's settings caches.
	CoreStore(ctx context.Context, op string, e database.StoreEntry) ([]byte, error)
}

// Runtime runs one project's code.
type Runtime struct {
	Dir    string
	Schema *schemas.Schema
	Eval   jseval.Options
	Host   Host
	// Writes is the one write path the project's writes go through (entity service, query
	// engine); nil refuses them.
	Writes Writer
	// Planner, Runner, DB and Localize serve the entity service's and query engine's reads.
	Planner  *planner.Planner
	Runner   *exec.Runner
	DB       exec.Queryer
	Localize *localize.Service
	Log      *slog.Logger
	// Config is the project's configuration by name (strapi.config.get).
	Config map[string]any
	// Services are the plugins' services the project's code may call, by "plugin.service"
	// (strapi.plugin('users-permissions').service('jwt')).
	Services map[string]PluginService
	// FetchAllow are the hosts the project's code may fetch (config/quarry's fetch.allow).
	FetchAllow []string
	// PluginsOff are the plugins the project has but Strapi would not load (declared
	// enabled: false): strapi.plugin(name) is undefined for them, as in Strapi, so code
	// calling their services fails there as it fails in Strapi.
	PluginsOff []string
	// Subscriptions counts the lifecycle subscriptions src/index's register() and bootstrap()
	// make (routes.Model.Subscriptions): each sandbox replays them before running hooks.
	Subscriptions int
	// BootstrapUses counts the middlewares src/index's bootstrap() gives strapi.server.use
	// (routes.Model.BootstrapUses): each sandbox runs bootstrap() up to its first use of data
	// to take them.
	BootstrapUses int
	// RegisterServices: src/index's register() assigns methods of plugin services
	// (routes.Model.RegisterServices); each sandbox runs it before handing out one.
	RegisterServices bool
	// UnsetProperties are properties of strapi that local plugins set and the sandboxes do
	// not (routes.Model.UnsetProperties): name → what sets it.
	UnsetProperties map[string]string
	// RegisterProperties are what src/index's register() hangs on strapi
	// (routes.Model.RegisterProperties).
	RegisterProperties []string
	// ReadHooked are the models with read lifecycle hooks ("*" for every model) as the
	// start-up recording found them (routes.Model.ReadHookModels): a read of one in a sandbox
	// that does not reach all of src/index's subscriptions is refused, never run without them.
	ReadHooked []string
	// ServerConfigFiles are config/server's files in merge order (absolute paths): bootstrap()'s
	// sandbox reads cron.tasks' functions from them.
	ServerConfigFiles []string
	// PluginLifecycles are the local plugins' content types whose contentTypes export
	// declares lifecycles (routes.Model.PluginLifecycles).
	PluginLifecycles []string
	// EventHub: the start-up code uses strapi.eventHub (routes.Model.EventHub); the writes its
	// listeners would see are refused while they cannot run (bootstrap() failed, or a run of
	// the kept sandbox was stopped).
	EventHub bool
	// Timeout bounds one request's run of the project's code (default 10 s).
	Timeout time.Duration
	// Size is the number of sandboxes (default GOMAXPROCS).
	Size int
	// MaxHeap stops the project's code that is running when the process's heap passes it
	// (default 1 GiB): a script growing an array or string step by step.
	MaxHeap uint64

	once   sync.Once
	heap   heapWatch
	pool   chan *vm
	nested chan *vm                     // sandboxes for lifecycle hooks of writes made by a script
	files  map[string]map[string]string // kind → name → absolute path
	setup  string                       // the JSON the sandboxes' strapi.js is built with
	kept   *keptState                   // the sandbox that ran bootstrap(), kept for the cron jobs and listeners
	hub    hubState                     // what the eventHub listeners wait for
	hits   hitStore                     // koa2-ratelimit's memory store, shared by the sandboxes
	err    error
}

type vm struct {
	js          *jseval.VM
	serve       goja.Callable
	hook        goja.Callable
	boot        goja.Callable // bootstrap
	cronList    goja.Callable
	cronRun     goja.Callable
	hubDispatch goja.Callable
	hubFire     goja.Callable
	hubListened goja.Callable
	hubIdle     goja.Callable
	graphql     goja.Callable // resolveGraphQL
	gqlMw       goja.Callable // middlewareGraphQL
	exts        goja.Callable // graphqlExtensions
	genGQL      goja.Callable // generatedGraphQL
	auth        goja.Callable // authUser
	cur         *call         // the request being served
	status      int           // the status of the last native call
	headers     []string      // the headers of the last nativeRoute call, as name, value pairs
}

// call is one request's state while the project's code runs.
type call struct {
	ctx          context.Context
	who          *ir.Caller
	route        string
	method, path string // the request's, for a chain ending in its native route
	// graphqlNext runs the rest of a GraphQL resolver's chain for a resolversConfig
	// middleware, with the args (JSON) it passes; nil outside one.
	graphqlNext func(args string) string
	// txEnd closes the strapi.db.transaction the script opened (ctx carries it), txOuter
	// is the context it was opened from; a run that ends with it open rolls it back.
	txEnd   func(ctx context.Context, commit bool) error
	txOuter context.Context
	// routeCaller is the caller the route after the app-level middlewares authenticated
	// (RecordCaller), nil before or without one.
	routeCaller *ir.Caller
	// resHeader is the response's header as the middlewares before the route left it (CORS'
	// Vary: Origin, X-Powered-By): what Koa's ctx.response has before the route's code runs,
	// read by the sandbox only when its code reads a header it did not set (preHeader).
	resHeader http.Header
}

// closeTx rolls back the strapi.db.transaction a run left open (its script failed, ran out
// of time, or never committed): a transaction never outlives its run.
func (rt *Runtime) closeTx(c *call) {
	if c.txEnd == nil {
		return
	}
	rt.Log.Warn("project code left a strapi.db.transaction open: rolled back", "route", c.route)
	if err := c.endTx(false); err != nil {
		rt.Log.Error("project code: rolling back an open transaction", "route", c.route, "error", err)
	}
}

// endTx closes the script's open transaction, if any, and returns to the context it was
// opened from.
func (c *call) endTx(commit bool) error {
	if c.txEnd == nil {
		return nil
	}
	end := c.txEnd
	c.ctx, c.txEnd, c.txOuter = c.txOuter, nil, nil
	return end(c.ctx, commit)
}

// New makes a runtime for the project whose code m describes.
func New(m *routes.Model, s *schemas.Schema) *Runtime {
	return &Runtime{Dir: m.Dir, Schema: s, Eval: m.Eval}
}

func (rt *Runtime) init() {
	rt.once.Do(func() {
		if rt.Log == nil {
			rt.Log = slog.New(slog.DiscardHandler)
		}
		if rt.Timeout <= 0 {
			rt.Timeout = 10 * time.Second
		}
		if rt.Size <= 0 {
			rt.Size = runtime.GOMAXPROCS(0)
		}
		if rt.MaxHeap == 0 {
			rt.MaxHeap = 1 << 30
		}
		rt.heap.max = rt.MaxHeap
		// The sandbox requires project files by absolute path (--app . is relative).
		if abs, err := filepath.Abs(rt.Dir); err == nil {
			rt.Dir = abs
		}
		rt.files = projectFiles(rt.Dir)
		for _, uid := range rt.PluginLifecycles {
			// Declared in the plugin's contentTypes export, which strapi.js reads them from.
			rt.files["lifecycles"][uid] = "plugin"
		}
		rt.setup, rt.err = rt.setupJSON()
		rt.pool = make(chan *vm, rt.Size)
		for range rt.Size {
			rt.pool <- nil // made on first use
		}
		rt.nested = make(chan *vm, rt.Size)
	})
}

// get takes a sandbox from the pool (making it the first time), waiting while all are busy.
func (rt *Runtime) get(ctx context.Context) (*vm, error) {
	rt.init()
	if rt.err != nil {
		return nil, rt.err
	}
	select {
	case v := <-rt.pool:
		if v != nil {
			return v, nil
		}
		v, err := rt.newVM()
		if err != nil {
			rt.pool <- nil
			return nil, err
		}
		return v, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (rt *Runtime) put(v *vm) { v.cur = nil; rt.pool <- v }

// discard replaces a sandbox whose script was interrupted (its state is unknown).
func (rt *Runtime) discard() { rt.pool <- nil }

// getFor is get for a hook: inside a script's call (ctx carries its sandbox) the hook runs
// in a sandbox of the nested pool, made when none is free, so that a script waiting on its
// write never waits for a sandbox the pool may not have.
func (rt *Runtime) getFor(ctx context.Context) (*vm, error) {
	if ctx.Value(vmKey{}) == nil {
		return rt.get(ctx)
	}
	rt.init()
	select {
	case v := <-rt.nested:
		return v, nil
	default:
		return rt.newVM()
	}
}

func (rt *Runtime) putFor(ctx context.Context, v *vm) {
	if ctx.Value(vmKey{}) == nil {
		rt.put(v)
		return
	}
	v.cur = nil
	select {
	case rt.nested <- v:
	default: // the nested pool is full: this one goes
	}
}

func (rt *Runtime) discardFor(ctx context.Context) {
	if ctx.Value(vmKey{}) == nil {
		rt.discard()
	}
}

// run makes one call into the project's code (a request's chain, a lifecycle hook, a GraphQL
// resolver) in a sandbox from the pool (the nested one when a running script makes the
// call), under the time limit and the heap watch. start calls into the script and returns the
// box it settles; read takes what it needs of the box before the sandbox goes back. A script
// that was interrupted leaves its sandbox in an unknown state: a new one replaces it.
func (rt *Runtime) run(ctx context.Context, c *call, start func(v *vm, r *goja.Runtime) (goja.Value, error), read func(box *goja.Object)) error {
	v, err := rt.getFor(ctx)
	if err != nil {
		return err
	}
	c.ctx = context.WithValue(ctx, vmKey{}, v)
	v.cur = c
	var box *goja.Object
	rt.heap.enter(v)
	err = v.js.Run(ctx, rt.Timeout, func() error {
		r := v.js.Runtime()
		b, err := start(v, r)
		if err != nil {
			return err
		}
		box = b.ToObject(r)
		// A script waiting on a timer (await new Promise(r => setTimeout(r, 50))) settles
		// when its timers have run.
		return v.js.Settle(ctx, func() bool {
			st := box.Get("state")
			return st == nil || st.String() != "pending"
		})
	})
	rt.heap.leave(v)
	rt.closeTx(c)
	if err != nil {
		rt.discardFor(ctx)
		return err
	}
	read(box)
	rt.putFor(ctx, v)
	return nil
}

// newVM makes a request sandbox: a module Quarry does not provide stops only the code that
// uses it while src/index loads (jseval.Options.LazyFrom).
func (rt *Runtime) newVM() (*vm, error) { return rt.newVMWith(true) }

// newVMWith makes a sandbox; lazy as newVM. Bootstrap's is not lazy: start-up code reaching
// for fs (a first-run seed) does not start, rather than run halfway.
func (rt *Runtime) newVMWith(lazy bool) (*vm, error) {
	opts := rt.Eval
	opts.Strict = true
	if lazy {
		// src/index and the plugin extensions: what they require for code Quarry refuses
		// anyway (a seed, a replaced service) must not keep the rest of them from loading.
		index := indexFile(rt.Dir)
		if abs, err := filepath.Abs(index); err == nil && index != "" {
			index = abs
		}
		ext, _ := filepath.Abs(filepath.Join(rt.Dir, "src", "extensions"))
		opts.LazyFrom = func(f string) bool {
			if abs, err := filepath.Abs(f); err == nil {
				f = abs
			}
			if f == index && index != "" {
				return true
			}
			// An extension's own code, not its content types' lifecycles, which stay strict
			// (a write whose hooks lack a module is refused when they load).
			rel, err := filepath.Rel(ext, f)
			return err == nil && !strings.HasPrefix(rel, "..") && !strings.Contains(filepath.ToSlash(rel), "/content-types/")
		}
	}
	opts.Modules = map[string]string{"@strapi/strapi": "module.exports = { factories: globalThis.__quarry.factories };"}
	js, err := jseval.NewVM(opts)
	if err != nil {
		return nil, err
	}
	v := &vm{js: js}
	r := js.Runtime()
	host := r.NewObject()
	// Parsed by the sandbox's own JSON.parse: its objects keep their keys' order (a model's
	// attributes' is Strapi's), where a Go map's would not.
	var setup map[string]json.RawMessage
	if err := json.Unmarshal([]byte(rt.setup), &setup); err != nil {
		return nil, err
	}
	parse, ok := goja.AssertFunction(r.Get("JSON").ToObject(r).Get("parse"))
	if !ok {
		return nil, errors.New("the sandbox has no JSON.parse")
	}
	for k, raw := range setup {
		val, err := parse(goja.Undefined(), r.ToValue(string(raw)))
		if err != nil {
			return nil, fmt.Errorf("setup %s: %w", k, err)
		}
		host.Set(k, val)
	}
	host.Set("graphqlNext", func(c goja.FunctionCall) goja.Value {
		if v.cur == nil || v.cur.graphqlNext == nil {
			panic(r.NewTypeError("resolve is called outside its GraphQL middleware"))
		}
		return r.ToValue(v.cur.graphqlNext(c.Argument(0).String()))
	})
	host.Set("call", func(c goja.FunctionCall) goja.Value {
		out := rt.hostCall(v, c.Argument(0).String(), c.Argument(1).String())
		return r.ToValue(string(out))
	})
	// native answers the body of a core action Quarry runs (its status next, from
	// nativeStatus), as text: it goes back to the client as it is unless the script reads it.
	host.Set("native", func(c goja.FunctionCall) goja.Value {
		var id *string
		if a := c.Argument(2); !goja.IsUndefined(a) && !goja.IsNull(a) {
			s := a.String()
			id = &s
		}
		status, body, err := rt.native(v.cur, optString(c.Argument(0)), optString(c.Argument(1)), id, jsonArg(c.Argument(3)), jsonArg(c.Argument(4)))
		if err != nil {
			ae, ok := err.(*apierror.Error)
			if !ok {
				rt.Log.Error("project code: core action failed", "error", err)
				ae = &apierror.Error{Status: 500, Name: "InternalServerError", Message: "Internal Server Error"}
			}
			var b envelope.Buf
			b.WriteString(`{"data":null,"error":`)
			eb, _ := json.Marshal(map[string]any{"status": ae.Status, "name": ae.Name, "message": ae.Message, "details": map[string]any{}})
			b.Write(eb)
			b.WriteByte('}')
			status, body = ae.Status, b.String()
		}
		v.status = status
		return r.ToValue(body)
	})
	host.Set("nativeRoute", func(c goja.FunctionCall) goja.Value {
		state := ""
		if a := c.Argument(4); !goja.IsUndefined(a) && !goja.IsNull(a) {
			state = a.String()
		}
		status, body, hdr := rt.nativeRoute(v.cur, jsonArg(c.Argument(0)), jsonArg(c.Argument(1)), c.Argument(2).ToBoolean(), jsonArg(c.Argument(3)), state)
		v.status = status
		v.headers = v.headers[:0]
		for k, vals := range hdr {
			if len(vals) == 0 || k == "Content-Length" {
				continue
			}
			if k != "Set-Cookie" {
				vals = vals[:1]
			}
			// Set-Cookie's lines come one pair each; strapi.js gathers them. A value the inner
			// answer wrote as Latin-1 bytes (as Node writes headers) is read back as its text.
			for _, val := range vals {
				v.headers = append(v.headers, strings.ToLower(k), fromLatin1(val))
			}
		}
		return r.ToValue(body)
	})
	// nativeHeaders are the last nativeRoute answer's headers, as [name, value, …].
	host.Set("nativeHeaders", func(goja.FunctionCall) goja.Value {
		out := make([]any, len(v.headers))
		for i, s := range v.headers {
			out[i] = s
		}
		return r.NewArray(out...)
	})
	// hidden defines a request's internals on ctx and its parts as
	// Object.defineProperty(o, k, { value: v, writable: true }) does.
	host.Set("hidden", func(c goja.FunctionCall) goja.Value {
		o, ok := c.Argument(0).(*goja.Object)
		if !ok {
			panic(r.NewTypeError("Object.defineProperty called on non-object"))
		}
		if err := o.DefineDataProperty(c.Argument(1).String(), c.Argument(2), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
			panic(err)
		}
		return goja.Undefined()
	})
	host.Set("nativeStatus", func(goja.FunctionCall) goja.Value { return r.ToValue(v.status) })
	// preHeader is a header the middlewares before the route set (lower-case name), as Koa's
	// response has it; undefined when there is none.
	host.Set("preHeader", func(c goja.FunctionCall) goja.Value {
		if v.cur == nil || v.cur.resHeader == nil {
			return goja.Undefined()
		}
		vals := v.cur.resHeader.Values(c.Argument(0).String())
		switch {
		case len(vals) == 0:
			return goja.Undefined()
		case strings.EqualFold(c.Argument(0).String(), "set-cookie"):
			out := make([]any, len(vals))
			for i, s := range vals {
				out[i] = s
			}
			return r.NewArray(out...)
		}
		return r.ToValue(strings.Join(vals, ", "))
	})
	// nativeCaller is the caller the app-level chain's route authenticated, as putCaller puts
	// one on a request (authKind, authId, authType), or null.
	host.Set("nativeCaller", func(goja.FunctionCall) goja.Value {
		if v.cur == nil || v.cur.routeCaller == nil {
			return goja.Null()
		}
		o := r.NewObject()
		putCaller(r, o, v.cur.routeCaller)
		return o
	})
	// serviceMethods lists a plugin service's methods ("null" when Quarry has none); read at
	// call time, as the server sets the services after the sandboxes may have been made.
	host.Set("serviceMethods", func(name string) string {
		svc := rt.Services[name]
		if svc == nil {
			return "null"
		}
		b, _ := json.Marshal(svc.Methods())
		return string(b)
	})
	host.Set("log", func(c goja.FunctionCall) goja.Value {
		level := c.Argument(0).String()
		msg := c.Argument(1).String()
		rt.Log.Log(context.Background(), logLevel(level), "project code: "+msg)
		return goja.Undefined()
	})
	// console.* goes to Quarry's log, naming the route it ran for.
	console := r.NewObject()
	for _, k := range []string{"log", "info", "warn", "error", "debug", "trace"} {
		level := map[string]string{"log": "info", "trace": "debug"}[k]
		if level == "" {
			level = k
		}
		console.Set(k, func(c goja.FunctionCall) goja.Value {
			parts := make([]string, len(c.Arguments))
			for i, a := range c.Arguments {
				parts[i] = a.String()
			}
			route := ""
			if v.cur != nil {
				route = v.cur.route
			}
			rt.Log.Log(context.Background(), logLevel(level), "project code: console."+k, "route", route, "message", strings.Join(parts, " "))
			return goja.Undefined()
		})
	}
	r.Set("console", console)
	mk, err := r.RunString(strapiSource)
	if err != nil {
		return nil, fmt.Errorf("strapi.js: %w", err)
	}
	build, _ := goja.AssertFunction(mk)
	api, err := build(goja.Undefined(), host, r.ToValue(js.RequireFunc()))
	if err != nil {
		return nil, fmt.Errorf("strapi.js: %w", jseval.JSError(err))
	}
	apiObj := api.ToObject(r)
	r.Set("__quarry", apiObj)
	r.Set("strapi", apiObj.Get("strapi"))
	v.serve, _ = goja.AssertFunction(apiObj.Get("serve"))
	v.hook, _ = goja.AssertFunction(apiObj.Get("hook"))
	v.boot, _ = goja.AssertFunction(apiObj.Get("bootstrap"))
	v.cronList, _ = goja.AssertFunction(apiObj.Get("cronList"))
	v.cronRun, _ = goja.AssertFunction(apiObj.Get("cronRun"))
	v.hubDispatch, _ = goja.AssertFunction(apiObj.Get("hubDispatch"))
	v.hubFire, _ = goja.AssertFunction(apiObj.Get("hubFire"))
	v.hubListened, _ = goja.AssertFunction(apiObj.Get("hubListened"))
	v.hubIdle, _ = goja.AssertFunction(apiObj.Get("hubIdle"))
	v.graphql, _ = goja.AssertFunction(apiObj.Get("resolveGraphQL"))
	v.gqlMw, _ = goja.AssertFunction(apiObj.Get("middlewareGraphQL"))
	v.exts, _ = goja.AssertFunction(apiObj.Get("graphqlExtensions"))
	v.genGQL, _ = goja.AssertFunction(apiObj.Get("generatedGraphQL"))
	v.auth, _ = goja.AssertFunction(apiObj.Get("authUser"))
	return v, nil
}

// jsonArg is what JSON.stringify gave as an argument: nil for undefined (a value it leaves
// out, as it leaves out such a key of an object) and for null (no JSON made).
func jsonArg(v goja.Value) []byte {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return nil
	}
	return []byte(v.String())
}

// optString is a string argument: "" for undefined and null, as a key JSON.stringify left
// out (or wrote null) decodes to.
func optString(v goja.Value) string {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return ""
	}
	return v.String()
}

func logLevel(s string) slog.Level {
	switch s {
	case "error":
		return slog.LevelError
	case "warn":
		return slog.LevelWarn
	case "debug":
		return slog.LevelDebug
	}
	return slog.LevelInfo
}

// projectFiles finds the project's controllers, services, policies and middlewares by the
// names Strapi registers them under.
func projectFiles(dir string) map[string]map[string]string {
	out := map[string]map[string]string{"controllers": {}, "services": {}, "policies": {}, "middlewares": {}, "lifecycles": {}, "plugins": {}, "extensions": {}}
	add := func(kind, prefix, folder string) {
		for _, ext := range []string{".js", ".ts"} {
			matches, _ := filepath.Glob(filepath.Join(folder, "*"+ext))
			for _, f := range matches {
				if strings.HasSuffix(f, ".d.ts") {
					continue
				}
				name := strings.TrimSuffix(filepath.Base(f), ext)
				if _, ok := out[kind][prefix+name]; !ok {
					out[kind][prefix+name] = f
				}
			}
		}
	}
	apis, _ := filepath.Glob(filepath.Join(dir, "src", "api", "*"))
	for _, a := range apis {
		api := filepath.Base(a)
		for _, kind := range []string{"controllers", "services", "policies", "middlewares"} {
			add(kind, "api::"+api+".", filepath.Join(a, kind))
		}
	}
	for _, ext := range []string{".js", ".ts"} {
		matches, _ := filepath.Glob(filepath.Join(dir, "src", "api", "*", "content-types", "*", "lifecycles"+ext))
		for _, f := range matches {
			ctDir := filepath.Dir(f)
			uid := "api::" + filepath.Base(filepath.Dir(filepath.Dir(ctDir))) + "." + filepath.Base(ctDir)
			if _, ok := out["lifecycles"][uid]; !ok {
				out["lifecycles"][uid] = f
			}
		}
	}
	// Local plugins (src/plugins/<name>/strapi-server.*: their export declares controllers,
	// services, policies and middlewares under plugin::<name>) and plugin extensions
	// (src/extensions/<plugin>/strapi-server.*), by name.
	for _, kind := range []string{"plugins", "extensions"} {
		for _, ext := range []string{".js", ".ts"} {
			matches, _ := filepath.Glob(filepath.Join(dir, "src", kind, "*", "strapi-server"+ext))
			for _, f := range matches {
				name := filepath.Base(filepath.Dir(f))
				if _, ok := out[kind][name]; !ok {
					out[kind][name] = f
				}
			}
		}
	}
	add("policies", "global::", filepath.Join(dir, "src", "policies"))
	add("middlewares", "global::", filepath.Join(dir, "src", "middlewares"))
	return out
}

// setupJSON is what every sandbox's strapi.js knows of the project: its models (as
// strapi.contentTypes and strapi.components show them), its files, its configuration and
// HTTP's reason phrases.
func (rt *Runtime) setupJSON() (string, error) {
	cts, comps := map[string]any{}, map[string]any{}
	for _, m := range rt.Schema.Models {
		// A model's attributes keep their order (ordered): Strapi keeps the schema's, and its
		// entity service follows it (the entity validator's reads, an update's component loads).
		attrs := &ordered{}
		for _, a := range m.Attributes {
			attr := map[string]any{"type": attrType(a)}
			if a.Type == schemas.Relation && a.TargetUID != "" {
				attr["target"] = a.TargetUID
			}
			if a.Relation != "" {
				attr["relation"] = string(a.Relation)
			}
			if a.Unique {
				attr["unique"] = true
			}
			if len(a.Components) > 0 {
				attr["component"] = a.Components[0].UID
				if a.Type == schemas.DynamicZone {
					list := make([]string, len(a.Components))
					for i, c := range a.Components {
						list[i] = c.UID
					}
					attr["components"] = list
				}
			}
			if a.Private {
				attr["private"] = true
			}
			if a.Name == "publishedAt" && m.DraftAndPublish && m.IsContentType() {
				attr["configurable"], attr["writable"], attr["visible"] = false, true, false
			}
			attrs.keys, attrs.vals = append(attrs.keys, a.Name), append(attrs.vals, attr)
		}
		if m.IsContentType() {
			// The admin's creator fields Strapi adds to every content type, after the others,
			// which @strapi/utils' contentTypes helpers read (getCreatorFields, …).
			for _, n := range []string{"createdBy", "updatedBy"} {
				if !slices.Contains(attrs.keys, n) {
					attrs.keys = append(attrs.keys, n)
					attrs.vals = append(attrs.vals, map[string]any{"type": "relation", "relation": "oneToOne", "target": "admin::user",
						"configurable": false, "writable": false, "visible": false, "useJoinTable": false, "private": true})
				}
			}
		}
		obj := map[string]any{"uid": m.UID, "collectionName": m.Table, "attributes": attrs,
			"info":    map[string]any{"singularName": m.SingularName, "pluralName": m.PluralName, "displayName": m.DisplayName},
			"options": map[string]any{"draftAndPublish": m.DraftAndPublish}}
		if m.Localized {
			obj["pluginOptions"] = map[string]any{"i18n": map[string]any{"localized": true}}
		}
		if m.IsContentType() {
			obj["kind"] = "collectionType"
			if m.Kind == schemas.SingleType {
				obj["kind"] = "singleType"
			}
			obj["modelName"] = m.SingularName
			cts[m.UID] = obj
		} else {
			obj["category"] = m.Category
			comps[m.UID] = obj
		}
	}
	statuses := map[string]string{}
	for code := 100; code < 600; code++ {
		if t := http.StatusText(code); t != "" {
			statuses[fmt.Sprint(code)] = t
		}
	}
	cfg := rt.Config
	if cfg == nil {
		cfg = map[string]any{}
	}
	b, err := json.Marshal(map[string]any{"contentTypes": cts, "components": comps, "files": rt.files, "config": cfg,
		"statuses": statuses, "root": rt.Dir, "maxLength": maxLength,
		"pluginRoutes": pluginRouteObjects(), "indexFile": indexFile(rt.Dir), "subscriptions": rt.Subscriptions, "bootstrapUses": rt.BootstrapUses, "registerServices": rt.RegisterServices, "readHooked": orNone(rt.ReadHooked), "unsetProperties": rt.UnsetProperties, "registerProperties": orNone(rt.RegisterProperties),
		"pluginsOff": orNone(rt.PluginsOff), "serverConfigFiles": orNone(rt.ServerConfigFiles), "deferredBody": DeferredBody})
	return string(b), err
}

func attrType(a *schemas.Attribute) string {
	switch a.Type {
	case schemas.Relation:
		return "relation"
	case schemas.Media:
		return "media"
	case schemas.ComponentT:
		return "component"
	case schemas.DynamicZone:
		return "dynamiczone"
	}
	return string(a.Type)
}

// errorJSON is how the host answers a call with an error the script may catch.
func errorJSON(ae *apierror.Error) []byte {
	details := ae.Details
	if details == nil {
		details = struct{}{}
	}
	b, _ := json.Marshal(struct {
		Error any `json:"$error"`
	}{struct {
		Status  int    `json:"status"`
		Name    string `json:"name"`
		Message string `json:"message"`
		Details any    `json:"details"`
	}{ae.Status, ae.Name, ae.Message, details}})
	return b
}

// maxLength caps the elements one built-in call may make (a string's characters, an array's
// elements, a buffer's bytes): 16 Mi, far past what a controller's answer holds.
const maxLength = 16 << 20

// PluginService is a plugin's service as the project's code calls it: its methods, and a
// call with the JSON arguments, answering a JSON value.
type PluginService interface {
	Methods() []string
	Call(ctx context.Context, who *ir.Caller, method string, args []json.RawMessage) (any, error)
}

// pluginRouteObjects are the plugins' content-API routes as register() sees them, by plugin.
func pluginRouteObjects() map[string][]map[string]any {
	out := map[string][]map[string]any{}
	for _, r := range routes.PluginRoutes() {
		out[r.Plugin] = append(out[r.Plugin], r.Object())
	}
	return out
}

// indexFile is src/index.* (absolute), whose register() the sandboxes run for the plugin
// routes it changes; "" when there is none.
func indexFile(dir string) string {
	for _, ext := range []string{".js", ".ts"} {
		f := filepath.Join(dir, "src", "index"+ext)
		if _, err := os.Stat(f); err == nil {
			return f
		}
	}
	return ""
}

func orNone(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}

// FetchAuthenticatedUser runs the users-permissions user service's fetchAuthenticatedUser
// as the project's register() replaced it, for the user id of a verified JWT, as the
// plugin's authentication does: its answer as JSON ("null" for none). An error is what the
// method threw (the plugin's authentication then fails).
func (rt *Runtime) FetchAuthenticatedUser(ctx context.Context, id int64) ([]byte, error) {
	const name = "users-permissions fetchAuthenticatedUser"
	var res boxResult
	var value string
	err := rt.run(ctx, &call{who: ir.System, route: name}, func(v *vm, js *goja.Runtime) (goja.Value, error) {
		return v.auth(goja.Undefined(), js.ToValue(id))
	}, func(box *goja.Object) { res, value = readBox(box), boxString(box, "value") })
	if err != nil {
		return nil, rt.failed(&Route{Key: name}, err)
	}
	switch {
	case res.state != "done":
		return nil, fmt.Errorf("%s did not finish", name)
	case res.internal != "":
		return nil, fmt.Errorf("%s failed: %s", name, res.internal)
	case res.json != "":
		return nil, boxError(res)
	}
	if value == "" {
		return []byte("null"), nil
	}
	return []byte(value), nil
}
