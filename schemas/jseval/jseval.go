// Package jseval evaluates a Strapi project's CommonJS and TypeScript files (config/*.js,
// src/api/*/routes/*.js, …) in-process, in a sandbox: an embedded pure-Go engine (goja),
// Strapi's `env` helper, `require` limited to the modules the sandbox provides (modules.go:
// lodash, uuid, bcrypt, jsonwebtoken, dayjs, Node's path, crypto, util, events, url, …),
// Strapi's factories and the project's own files, Node's everyday globals (timers, Buffer,
// URL; modules/globals.js), no file system or network API, and a time limit. Values come back as JSON-like Go
// values (map[string]any, []any, string, float64, bool, nil), converted as JSON.stringify
// converts them, since that is what a config value means once it leaves Node.
package jseval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/dop251/goja"
	"github.com/evanw/esbuild/pkg/api"
)

// DefaultTimeout bounds one file's evaluation (including the call of an exported function):
// a config file is a few object literals, so a second means a loop that will not end.
const DefaultTimeout = 2 * time.Second

// Options configure an evaluation.
type Options struct {
	// Root is the project folder: relative requires may not leave it, and it is
	// process.cwd(), as Strapi runs with the project as its working directory.
	Root string
	// LookupEnv reads the environment Strapi's `env` helper and process.env see.
	LookupEnv func(key string) (string, bool)
	// EnvKeys lists the variables known to exist, for enumerating process.env.
	EnvKeys []string
	// Timeout bounds the evaluation; DefaultTimeout when zero.
	Timeout time.Duration
	// Modules are extra modules `require` resolves by name, as JavaScript sources whose
	// module.exports is the module. `path`, `@strapi/utils` (its env) and `@strapi/strapi`
	// (its factories, recording) are always there.
	Modules map[string]string
	// Strict makes requiring an npm module the sandbox does not provide an error naming it
	// (for code that runs requests); otherwise it is an inert stub (for reading files).
	Strict bool
	// LazyFrom names the files (src/index.*) under whose load a strict sandbox gives a module
	// it does not provide as a value that answers NotImplementedError naming it where it is
	// used, rather than an error at require: src/index's register() runs although the file
	// requires fs at its top for bootstrap()'s first-run seed. The files that load loads are
	// kept apart from the same files loaded for anything else, which stay strict: a lifecycle
	// or controller requiring a module Quarry lacks still fails to load.
	LazyFrom func(file string) bool
	// StubNodeModules makes Node's modules that reach files, processes or the network
	// (fs, child_process, …) inert stubs noted among the unresolved modules, as npm modules
	// are, where they are otherwise an error: for reading what project code declares, where a
	// seeding bootstrap() requires fs at the top of its file (Strapi's own templates) and the
	// routes of a file lacking a module are refused for it. Strict wins.
	StubNodeModules bool
	// ContentTypes are the project's content types as createCoreRouter's routes see them
	// while route files are read: a router's routes getter builds Strapi's core routes of its
	// uid from them. A uid not among them has no routes (reading them throws, as Strapi fails
	// to start on it).
	ContentTypes map[string]ContentType
}

// ContentType is what Strapi's core routes of a content type are made of.
type ContentType struct {
	Kind         string `json:"kind"` // collectionType or singleType
	SingularName string `json:"singularName"`
	PluralName   string `json:"pluralName"`
}

// Result is one evaluated file.
type Result struct {
	// Value is module.exports (its default export for an ES module), called with
	// `{ env }` when it is a function, as Strapi's config loader does, converted to JSON-like
	// Go values. Nil when the file exports undefined.
	Value any
	// Keys are the own enumerable keys of the exported object (functions included, which
	// Value drops), in order; nil when the export is not an object.
	Keys []string
	// FactoryKeys are, for a file exporting a function it is not asked to call (a controller
	// written as `({ strapi }) => ({ … })`), the keys of the object that function makes.
	FactoryKeys []string
	// Shape is the exported object's keys, functions included, with nested plain objects
	// (three levels): names Value drops because their values are functions.
	Shape map[string]any
	// Unresolved lists the bare module names the file required that the sandbox does not
	// provide; they evaluate to an empty object.
	Unresolved []string
}

// Error is an evaluation failure, naming the file.
type Error struct {
	File string
	Err  error
}

func (e *Error) Error() string { return e.File + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// ErrTimeout is wrapped by the error of an evaluation that ran out of time.
var ErrTimeout = errors.New("evaluation took too long")

// EvalFile evaluates the .js, .cjs or .ts file at path (which must be under opts.Root), calling
// an exported function with `{ env }`.
func EvalFile(ctx context.Context, path string, opts Options) (*Result, error) {
	return evalFile(ctx, path, opts, true)
}

// EvalModule evaluates a file and returns its export without calling it (route and
// controller files export factories' results or plain objects).
func EvalModule(ctx context.Context, path string, opts Options) (*Result, error) {
	return evalFile(ctx, path, opts, false)
}

func evalFile(ctx context.Context, path string, opts Options, call bool) (*Result, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, &Error{File: path, Err: err}
	}
	s, err := newSandbox(ctx, opts)
	if err != nil {
		return nil, &Error{File: path, Err: err}
	}
	defer s.stop()
	res, err := s.run(abs, call)
	if err != nil {
		return nil, &Error{File: path, Err: err}
	}
	return res, nil
}

// Transpile turns TypeScript (or an ES module) into CommonJS that goja runs. esbuild's
// Transform is pure Go and needs no Node or tsc; it strips types only, as `strapi build` does
// for config files, and lowers syntax goja may lack.
func Transpile(src []byte, file string) (string, error) {
	loader := api.LoaderTS
	switch strings.ToLower(filepath.Ext(file)) {
	case ".js", ".cjs", ".mjs":
		loader = api.LoaderJS
	}
	r := api.Transform(string(src), api.TransformOptions{
		Loader:     loader,
		Format:     api.FormatCommonJS,
		Target:     api.ES2017,
		Sourcefile: file,
	})
	if len(r.Errors) > 0 {
		m := r.Errors[0]
		if m.Location != nil {
			return "", fmt.Errorf("line %d: %s", m.Location.Line, m.Text)
		}
		return "", errors.New(m.Text)
	}
	return string(r.Code), nil
}

type sandbox struct {
	rt    *goja.Runtime
	opts  Options
	root  string
	cache map[string]goja.Value
	// loading holds the module object of each project file being run, by path: a require
	// cycle back to one gets its module.exports as it stands, as Node's does.
	loading    map[string]*goja.Object
	unresolved []string
	lazy       bool   // loading a LazyFrom file's modules
	requiring  string // the project file whose require call is running
	ready      bool   // the file evaluated has loaded (see loaded)
	timer      *time.Timer
	stopCtx    func() bool
	// ctx and deadline bound the run under way, for the Go loops of the natives (bcrypt's
	// rounds) that goja's interrupt cannot reach.
	ctx      context.Context
	deadline time.Time
}

func newSandbox(ctx context.Context, opts Options) (*sandbox, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.LookupEnv == nil {
		opts.LookupEnv = func(string) (string, bool) { return "", false }
	}
	root := opts.Root
	if root == "" {
		root = "."
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	rt := goja.New()
	rt.SetMaxCallStackSize(2000)
	s := &sandbox{rt: rt, opts: opts, root: root, cache: map[string]goja.Value{}, loading: map[string]*goja.Object{},
		ctx: ctx, deadline: time.Now().Add(opts.Timeout)}
	s.timer = time.AfterFunc(opts.Timeout, func() { rt.Interrupt(ErrTimeout) })
	s.stopCtx = context.AfterFunc(ctx, func() { rt.Interrupt(ctx.Err()) })
	if err := s.setupGlobals(); err != nil {
		s.stop()
		return nil, err
	}
	return s, nil
}

func (s *sandbox) stop() {
	s.timer.Stop()
	s.stopCtx()
}

// processEnv is process.env: reads go to LookupEnv; writes stay in this sandbox.
type processEnv struct {
	rt    *goja.Runtime
	opts  Options
	local map[string]*string
}

func (p *processEnv) lookup(k string) (string, bool) {
	if v, ok := p.local[k]; ok {
		if v == nil {
			return "", false
		}
		return *v, true
	}
	return p.opts.LookupEnv(k)
}

func (p *processEnv) Get(k string) goja.Value {
	if v, ok := p.lookup(k); ok {
		return p.rt.ToValue(v)
	}
	return nil
}

func (p *processEnv) Set(k string, v goja.Value) bool {
	str := v.String() // Node stores process.env values as strings
	p.local[k] = &str
	return true
}

func (p *processEnv) Has(k string) bool { _, ok := p.lookup(k); return ok }

func (p *processEnv) Delete(k string) bool { p.local[k] = nil; return true }

func (p *processEnv) Keys() []string {
	var out []string
	seen := map[string]bool{}
	for _, k := range p.opts.EnvKeys {
		if !seen[k] && p.Has(k) {
			seen[k] = true
			out = append(out, k)
		}
	}
	for k, v := range p.local {
		if v != nil && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// envHelper is Strapi 4.26's @strapi/utils env helper, in JavaScript so that parseInt,
// parseFloat, JSON.parse and new Date parse exactly as they do under Node.
const envHelper = `(function (process) {
  function has(key) { return Object.prototype.hasOwnProperty.call(process.env, key); }
  function getKey(key) { var v = process.env[key]; return v === undefined || v === null ? '' : v; }
  function trimChars(s, chars) {
    var start = 0, end = s.length;
    while (start < end && chars.indexOf(s[start]) >= 0) start++;
    while (end > start && chars.indexOf(s[end - 1]) >= 0) end--;
    return s.substring(start, end);
  }
  function env(key, defaultValue) { return has(key) ? process.env[key] : defaultValue; }
  env.int = function (key, defaultValue) { return has(key) ? parseInt(getKey(key), 10) : defaultValue; };
  env.float = function (key, defaultValue) { return has(key) ? parseFloat(getKey(key)) : defaultValue; };
  env.bool = function (key, defaultValue) { return has(key) ? getKey(key) === 'true' : defaultValue; };
  env.json = function (key, defaultValue) {
    if (!has(key)) return defaultValue;
    try { return JSON.parse(getKey(key)); } catch (error) {
      if (error instanceof Error) throw new Error('Invalid json environment variable ' + key + ': ' + error.message);
      throw error;
    }
  };
  env.array = function (key, defaultValue) {
    if (!has(key)) return defaultValue;
    var value = getKey(key);
    if (value.startsWith('[') && value.endsWith(']')) value = value.substring(1, value.length - 1);
    return value.split(',').map(function (v) { return trimChars(trimChars(v, ' '), '"'); });
  };
  env.date = function (key, defaultValue) { return has(key) ? new Date(getKey(key)) : defaultValue; };
  env.oneOf = function (key, expectedValues, defaultValue) {
    if (!expectedValues) throw new Error('env.oneOf requires expectedValues');
    if (defaultValue && !expectedValues.includes(defaultValue)) throw new Error('env.oneOf requires defaultValue to be included in expectedValues');
    var rawValue = env(key, defaultValue);
    return expectedValues.includes(rawValue) ? rawValue : defaultValue;
  };
  return env;
})`

func (s *sandbox) setupGlobals() error {
	rt := s.rt
	pe := &processEnv{rt: rt, opts: s.opts, local: map[string]*string{}}
	process := rt.NewObject()
	process.Set("env", rt.NewDynamicObject(pe))
	process.Set("cwd", func() string { return s.root })
	process.Set("platform", "linux")
	process.Set("versions", map[string]any{"node": "20.0.0"})
	if err := rt.Set("process", process); err != nil {
		return err
	}
	console := rt.NewObject()
	for _, k := range []string{"log", "info", "warn", "error", "debug"} {
		console.Set(k, func(goja.FunctionCall) goja.Value { return goja.Undefined() })
	}
	rt.Set("console", console)
	mk, err := rt.RunString(envHelper)
	if err != nil {
		return err
	}
	fn, _ := goja.AssertFunction(mk)
	env, err := fn(goja.Undefined(), process)
	if err != nil {
		return err
	}
	s.cache["\x00env"] = env
	s.cache["path"] = s.pathModule()
	native := s.nativeModule()
	s.cache[nativeKey] = native
	prog, err := globalsProgram()
	if err != nil {
		return err
	}
	mkGlobals, err := rt.RunProgram(prog)
	if err != nil {
		return err
	}
	fn, _ = goja.AssertFunction(mkGlobals)
	timers, err := fn(goja.Undefined(), rt.GlobalObject(), native, process)
	if err != nil {
		return err
	}
	s.cache["\x00timers"] = timers
	s.cache["\x00Buffer"] = rt.Get("Buffer")
	mkURL, err := rt.RunProgram(globalsOnce.url)
	if err != nil {
		return err
	}
	fn, _ = goja.AssertFunction(mkURL)
	notProvided := func(c goja.FunctionCall) goja.Value {
		return s.notImplemented(c.Argument(0).String() + " is not provided by Quarry's sandbox")
	}
	url, err := fn(goja.Undefined(), rt.GlobalObject(), native, rt.ToValue(notProvided))
	if err != nil {
		return err
	}
	s.cache["url"] = url
	mkUtils, err := rt.RunString(utilsSource)
	if err != nil {
		return err
	}
	fn, _ = goja.AssertFunction(mkUtils)
	utils, err := fn(goja.Undefined(), rt.ToValue(s.strapiYup))
	if err != nil {
		return err
	}
	utils.ToObject(rt).Set("env", env)
	s.cache["@strapi/utils"] = utils
	return nil
}

const stubSource = `(function () {
  var stub = new Proxy(function () {}, {
    // __esModule is undefined, so that an ES module's import of it (esbuild's __toESM) takes
    // the stub as its default export rather than an object without one.
    get: function (t, k) { return k === Symbol.toPrimitive ? function () { return ''; } : k === '__esModule' ? undefined : stub; },
    apply: function () { return stub; },
    construct: function () { return stub; }
  });
  return stub;
})()`

// lazyMissingSource makes the value a lazy sandbox gives for a module it does not have:
// reading it gives more of the same (destructuring at the top of a file works), and calling
// or constructing any of it throws NotImplementedError naming the module and the use.
const lazyMissingSource = `(function (fail) {
  function missing(mod, forbidden, path) {
    return new Proxy(function () {}, {
      get: function (t, k) {
        if (typeof k === 'symbol' || k === 'then' || k === '__esModule' || k === 'toJSON') return undefined;
        if (k === 'prototype') return t.prototype;
        return missing(mod, forbidden, path + '.' + String(k));
      },
      apply: function () { throw fail(mod, forbidden, path + '()'); },
      construct: function () { throw fail(mod, forbidden, 'new ' + path + '()'); }
    });
  }
  return missing;
})`

// notProvided is a strict sandbox's answer to a module it does not have: the error, or under
// a LazyFrom file's load a value that answers NotImplementedError where it is used.
func (s *sandbox) notProvided(np *NotProvidedError) (goja.Value, error) {
	// Lazy under a LazyFrom file's load, or when such a file itself requires the module
	// (a plugin extension's factory requiring a service file when it runs).
	if !s.lazy && (s.opts.LazyFrom == nil || s.requiring == "" || !s.opts.LazyFrom(s.requiring)) {
		return nil, np
	}
	mk, ok := s.cache["\x00missing"]
	if !ok {
		v, err := s.rt.RunString(lazyMissingSource)
		if err != nil {
			return nil, err
		}
		build, _ := goja.AssertFunction(v)
		fail := s.rt.ToValue(func(c goja.FunctionCall) goja.Value {
			e := &NotProvidedError{Module: c.Argument(0).String(), Forbidden: c.Argument(1).ToBoolean()}
			return s.notImplemented(e.Error() + " (" + c.Argument(2).String() + ")")
		})
		if mk, err = build(goja.Undefined(), fail); err != nil {
			return nil, err
		}
		s.cache["\x00missing"] = mk
	}
	missing, _ := goja.AssertFunction(mk)
	return missing(goja.Undefined(), s.rt.ToValue(np.Module), s.rt.ToValue(np.Forbidden), s.rt.ToValue(np.Module))
}

func (s *sandbox) stub() (goja.Value, error) {
	if v, ok := s.cache["\x00stub"]; ok {
		return v, nil
	}
	v, err := s.rt.RunString(stubSource)
	if err != nil {
		return nil, err
	}
	s.cache["\x00stub"] = v
	return v, nil
}

// loaded tells the @strapi/strapi stand-in, once the file evaluated has loaded, that Strapi
// has registered the content types: its routers' routes can be read.
func (s *sandbox) loaded() {
	s.ready = true
	if m, ok := s.cache["@strapi/strapi"].(*goja.Object); ok {
		if f, ok := goja.AssertFunction(m.Get("__loaded")); ok {
			f(goja.Undefined())
		}
	}
}

// Env returns Strapi's env helper of this sandbox.
func (s *sandbox) env() goja.Value { return s.cache["\x00env"] }

func (s *sandbox) run(abs string, call bool) (*Result, error) {
	v, err := s.require(abs)
	if err != nil {
		return nil, err
	}
	s.loaded()
	v = importDefault(v)
	if fn, ok := goja.AssertFunction(v); ok && call {
		arg := s.rt.NewObject()
		arg.Set("env", s.env())
		v, err = fn(goja.Undefined(), arg)
		if err != nil {
			return nil, jsError(err)
		}
	}
	out, err := s.export(v)
	if err != nil {
		return nil, err
	}
	res := &Result{Value: out, Unresolved: s.unresolved}
	if o, ok := v.(*goja.Object); ok && o.ClassName() == "Object" {
		res.Keys = o.Keys()
		res.Shape = shape(o, 4) // a local plugin's contentTypes.<ct>.lifecycles.<hook>
	}
	if fn, ok := goja.AssertFunction(v); ok && !call {
		res.FactoryKeys = s.factoryKeys(fn)
	}
	return res, nil
}

// factoryKeys are the keys of what a factory export (`({ strapi }) => ({ … })`, a controller
// or service as Strapi takes it) makes when called with an inert strapi: nil when it throws
// or makes no plain object.
func (s *sandbox) factoryKeys(fn goja.Callable) []string {
	stub, err := s.stub()
	if err != nil {
		return nil
	}
	arg := s.rt.NewObject()
	arg.Set("strapi", stub)
	v, err := fn(goja.Undefined(), arg)
	if err != nil {
		return nil
	}
	if o, ok := v.(*goja.Object); ok && o.ClassName() == "Object" {
		return o.Keys()
	}
	return nil
}

// shape lists an object's own enumerable keys, functions included, with nested plain objects
// down to depth levels: what a plugin's export declares (controllers, services, policies).
func shape(o *goja.Object, depth int) map[string]any {
	out := map[string]any{}
	for _, k := range o.Keys() {
		v, ok := getSafely(o, k)
		if !ok {
			out[k] = true // a getter that throws (a router's routes of an unknown type)
			continue
		}
		if c, ok := v.(*goja.Object); ok && depth > 1 && c.ClassName() == "Object" {
			out[k] = shape(c, depth-1)
			continue
		}
		out[k] = true
	}
	return out
}

// getSafely reads a property whose getter may throw.
func getSafely(o *goja.Object, k string) (v goja.Value, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, isJS := r.(*goja.Exception); !isJS {
				panic(r)
			}
			v, ok = nil, false
		}
	}()
	return o.Get(k), true
}

// importDefault is @strapi/utils importDefault: an ES module's default export.
func importDefault(v goja.Value) goja.Value {
	if o, ok := v.(*goja.Object); ok {
		if m := o.Get("__esModule"); m != nil && m.ToBoolean() {
			if d := o.Get("default"); d != nil {
				return d
			}
		}
	}
	return v
}

// export converts a value as JSON.stringify would (Dates as ISO strings, functions and
// undefined dropped, NaN as null), then decodes it into JSON-like Go values.
func (s *sandbox) export(v goja.Value) (any, error) {
	if v == nil || goja.IsUndefined(v) {
		return nil, nil
	}
	stringify, _ := goja.AssertFunction(s.rt.Get("JSON").ToObject(s.rt).Get("stringify"))
	js, err := stringify(goja.Undefined(), v)
	if err != nil {
		return nil, jsError(err)
	}
	if js == nil || goja.IsUndefined(js) {
		return nil, nil
	}
	var out any
	if err := json.Unmarshal([]byte(js.String()), &out); err != nil {
		return nil, err
	}
	return out, nil
}

func jsError(err error) error {
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		if e, ok := ie.Value().(error); ok {
			return e
		}
		return ErrTimeout
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		if o, ok := ex.Value().(*goja.Object); ok {
			if m := o.Get("message"); m != nil && !goja.IsUndefined(m) {
				return errors.New(m.String())
			}
		}
		return errors.New(ex.Value().String())
	}
	return err
}

// require resolves a module: a built-in or extra module by name, or a project file by path.
func (s *sandbox) require(name string) (goja.Value, error) {
	if v, ok := s.cache[name]; ok {
		return v, nil
	}
	src, ok := s.opts.Modules[name]
	if !ok && name == "@strapi/strapi" {
		types, err := json.Marshal(s.opts.ContentTypes)
		if err != nil {
			return nil, err
		}
		src, ok = fmt.Sprintf("var contentTypes = %s, loaded = %t;\n%s", types, s.ready, strapiModule), true
	}
	if ok {
		v, err := s.runSource(name, "/"+name, src, "/"+name)
		if err != nil {
			return nil, err
		}
		s.cache[name] = v
		return v, nil
	}
	if !filepath.IsAbs(name) {
		if v, ok, err := s.builtin(name); ok {
			if err != nil {
				return nil, err
			}
			s.cache[name] = v
			return v, nil
		}
	}
	if forbiddenModules[strings.TrimPrefix(name, "node:")] && (s.opts.Strict || !s.opts.StubNodeModules) {
		return s.notProvided(&NotProvidedError{Module: name, Forbidden: true})
	}
	if !filepath.IsAbs(name) && s.opts.Strict {
		return s.notProvided(&NotProvidedError{Module: name})
	}
	if !filepath.IsAbs(name) {
		// A bare module the sandbox does not have (an npm package's helper, or Node's fs
		// that a seeding bootstrap() requires at the top): a stub, noted, rather than a
		// failure, since most only run inside handlers or on a first run, and the file's
		// routes are then refused or forwarded for the module it lacks. Every property of the
		// stub is the stub, and calling it gives it, so top-level uses (`_.merge(…)`) do not
		// throw; JSON drops it (it is a function).
		s.unresolved = append(s.unresolved, name)
		return s.stub()
	}
	file, err := s.resolveFile(name)
	if err != nil {
		return nil, err
	}
	if !s.lazy && s.opts.LazyFrom != nil && s.opts.LazyFrom(file) {
		s.lazy = true
		defer func() { s.lazy = false }()
	}
	key := file
	if s.lazy {
		key = "\x00lazy:" + file // the lazy load's modules, apart from the strict ones
	}
	if v, ok := s.cache[key]; ok {
		return v, nil
	}
	if mod, ok := s.loading[file]; ok {
		// A cycle: Node hands back the module's exports as filled so far (its module object
		// is cached before it runs), whatever the module later does with module.exports.
		return mod.Get("exports"), nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var v goja.Value
	if strings.EqualFold(filepath.Ext(file), ".json") {
		var parsed any
		if err := json.Unmarshal(data, &parsed); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		v = s.rt.ToValue(parsed)
	} else {
		src := string(data)
		if ext := strings.ToLower(filepath.Ext(file)); ext == ".ts" || ext == ".mts" || ext == ".cts" || needsTranspile(src) {
			if src, err = Transpile(data, file); err != nil {
				return nil, err
			}
		}
		prog, err := compileModule(file, src)
		if err != nil {
			return nil, err
		}
		if v, err = s.loadModule(prog, file); err != nil {
			return nil, err
		}
	}
	s.cache[key] = v
	return v, nil
}

// loadModule runs a project file's compiled module, its module object held as loading while
// it runs (a require cycle back to it gets its exports so far).
func (s *sandbox) loadModule(prog *goja.Program, file string) (goja.Value, error) {
	mod := s.newModule()
	s.loading[file] = mod
	defer delete(s.loading, file)
	return s.runModuleIn(prog, mod, file, s.runtimeName(file))
}

// NotProvidedError is a strict sandbox's refusal of an npm module it does not provide, or of
// one of Node's modules that reach files, processes or the network (Forbidden).
type NotProvidedError struct {
	Module    string
	Forbidden bool
}

func (e *NotProvidedError) Error() string {
	if e.Forbidden {
		return fmt.Sprintf("require('%s'): files, processes and the network are not available to project files under Quarry", e.Module)
	}
	return fmt.Sprintf("require('%s'): the module is not provided by Quarry's sandbox", e.Module)
}

// forbiddenModules are Node's modules that reach files, processes or the network.
var forbiddenModules = map[string]bool{"fs": true, "fs/promises": true, "child_process": true, "net": true,
	"http": true, "https": true, "http2": true, "dgram": true, "dns": true, "tls": true, "worker_threads": true,
	"cluster": true, "vm": true, "fs-extra": true}

// needsTranspile reports whether a .js file is written as an ES module (`export default`,
// `import x from`), which Node would refuse but a TypeScript project's tooling accepts.
func needsTranspile(src string) bool {
	for line := range strings.SplitSeq(src, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "export ") || (strings.HasPrefix(t, "import ") && strings.Contains(t, " from ")) {
			return true
		}
	}
	return false
}

// resolveFile finds a project file as Node's require does (exact, then .js, .ts, .json, then
// index files), refusing anything outside the project folder.
func (s *sandbox) resolveFile(p string) (string, error) {
	p = filepath.Clean(p)
	if rel, err := filepath.Rel(s.root, p); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", fmt.Errorf("require %s: outside the project folder", p)
	}
	cands := []string{p}
	for _, ext := range []string{".js", ".cjs", ".ts", ".json"} {
		cands = append(cands, p+ext)
	}
	for _, ext := range []string{".js", ".ts", ".json"} {
		cands = append(cands, filepath.Join(p, "index"+ext))
	}
	for _, c := range cands {
		if st, err := os.Stat(c); err == nil && st.Mode().IsRegular() {
			return c, nil
		}
	}
	return "", fmt.Errorf("cannot find module %s", p)
}

// runtimeName is the __filename a file has when Strapi runs it: a TypeScript project runs
// its compiled copy under dist/, so config/database.ts is dist/config/database.js there (and
// its `path.join(__dirname, '..', '..', …)` reaches the project folder).
func (s *sandbox) runtimeName(file string) string {
	ext := filepath.Ext(file)
	if ext != ".ts" {
		return file
	}
	rel, err := filepath.Rel(s.root, file)
	if err != nil || strings.HasPrefix(rel, "..") {
		return file
	}
	return filepath.Join(s.root, "dist", strings.TrimSuffix(rel, ext)+".js")
}

// runSource runs CommonJS source as Node's module wrapper does and returns module.exports.
// Relative requires resolve from file; __filename and __dirname are runtimeFile's.
func (s *sandbox) runSource(name, file, src, runtimeFile string) (goja.Value, error) {
	prog, err := compileModule(name, src)
	if err != nil {
		return nil, err
	}
	return s.runModule(prog, file, runtimeFile)
}

// compileModule compiles a CommonJS module's source inside Node's module wrapper.
func compileModule(name, src string) (*goja.Program, error) {
	return goja.Compile(name, "(function (exports, require, module, __filename, __dirname) {"+src+"\n})", false)
}

// runModule runs a compiled module (compileModule) with file's directory for its relative
// requires, and returns its module.exports.
func (s *sandbox) runModule(prog *goja.Program, file, runtimeFile string) (goja.Value, error) {
	return s.runModuleIn(prog, s.newModule(), file, runtimeFile)
}

// newModule is a module object, { exports: {} }, before its module runs.
func (s *sandbox) newModule() *goja.Object {
	module := s.rt.NewObject()
	module.Set("exports", s.rt.NewObject())
	return module
}

// runModuleIn is runModule with the module object the module fills (cached as loading
// before it runs, for require cycles).
func (s *sandbox) runModuleIn(prog *goja.Program, module *goja.Object, file, runtimeFile string) (goja.Value, error) {
	rt := s.rt
	wrapper, err := rt.RunProgram(prog)
	if err != nil {
		return nil, jsError(err)
	}
	fn, _ := goja.AssertFunction(wrapper)
	exports := module.Get("exports")
	dir := filepath.Dir(file)
	req := func(call goja.FunctionCall) goja.Value {
		n := call.Argument(0).String()
		target := n
		if strings.HasPrefix(n, "./") || strings.HasPrefix(n, "../") || n == "." || n == ".." {
			target = filepath.Join(dir, n)
		} else if strings.HasPrefix(n, "node:") {
			target = strings.TrimPrefix(n, "node:")
		}
		prev := s.requiring
		s.requiring = file
		defer func() { s.requiring = prev }()
		return s.requireOrThrow(target)
	}
	if _, err := fn(goja.Undefined(), exports, rt.ToValue(req), module, rt.ToValue(runtimeFile), rt.ToValue(filepath.Dir(runtimeFile))); err != nil {
		return nil, jsError(err)
	}
	return module.Get("exports"), nil
}

// utilsSource is the part of @strapi/utils that project files reach for at load time and in
// their hooks: the error classes (`const { ApplicationError } = require('@strapi/utils').errors`),
// and yup with its helpers (loaded when first read: a module that builds a schema at its top
// level loads while routes are recorded). Their names are what Strapi's error middleware maps
// to statuses (see ErrorStatus).
const utilsSource = `(function (strapiYup) {
  function make(name, parent, defaultMessage) {
    var def = defaultMessage === undefined ? parent.defaultMessage : defaultMessage;
    var C = function (message, details) {
      var e = new Error(message === undefined ? def : message);
      Object.setPrototypeOf(e, C.prototype);
      e.name = name;
      e.details = details === undefined ? {} : details;
      return e;
    };
    C.prototype = Object.create(parent.prototype, { constructor: { value: C, writable: true, configurable: true } });
    C.defaultMessage = def;
    Object.defineProperty(C, 'name', { value: name });
    return C;
  }
  var ApplicationError = make('ApplicationError', Error, 'An application error occured');
  var errors = { ApplicationError: ApplicationError };
  errors.ValidationError = make('ValidationError', ApplicationError);
  errors.YupValidationError = function YupValidationError(yupError, message) { return new (strapiYup().YupValidationError)(yupError, message); };
  errors.YupValidationError.prototype = errors.ValidationError.prototype;
  errors.PaginationError = make('PaginationError', ApplicationError, 'Invalid pagination');
  errors.NotFoundError = make('NotFoundError', ApplicationError, 'Entity not found');
  errors.ForbiddenError = make('ForbiddenError', ApplicationError, 'Forbidden access');
  errors.UnauthorizedError = make('UnauthorizedError', ApplicationError, 'Unauthorized');
  errors.RateLimitError = make('RateLimitError', ApplicationError, 'Too many requests, please try again later.');
  errors.PayloadTooLargeError = make('PayloadTooLargeError', ApplicationError, 'Entity too large');
  errors.PolicyError = make('PolicyError', errors.ForbiddenError, 'Policy Failed');
  errors.NotImplementedError = make('NotImplementedError', ApplicationError, 'This feature is not implemented yet');
  var utils = { errors: errors };
  ['yup', 'validateYupSchema', 'validateYupSchemaSync', 'handleYupError'].forEach(function (k) {
    Object.defineProperty(utils, k, { enumerable: true, configurable: true, get: function () { return strapiYup()[k]; } });
  });
  return utils;
})`

// strapiModule is what `require('@strapi/strapi')` gives route, controller and service files:
// factories that record what they were asked for instead of building Koa handlers.
// createCoreRouter answers Strapi's router ({ type, prefix, routes }, routes a getter making
// the core routes of the uid once, from contentTypes: { method, path, handler: uid.action,
// config }, config[action] assigned on each, except then only applied as lodash's omit and
// pick do), which a file may wrap or spread into a router of its own; exported as it is, it
// becomes {__quarry: "coreRouter", uid, config}. A core controller becomes
// {__quarry: "coreController", uid, actions: [the names its extension defines]}.
const strapiModule = `
var stub = new Proxy(function () {}, {
  get: function (t, k) { return k === Symbol.toPrimitive ? function () { return ''; } : stub; },
  apply: function () { return stub; }
});
function keysOf(ext) {
  var obj = ext;
  if (typeof ext === 'function') obj = ext({ strapi: stub });
  return obj && typeof obj === 'object' ? Object.keys(obj) : [];
}
// Strapi requires every file of the project's apis before it registers their content types:
// a router's routes read while its file loads (loaded, set by the sandbox, still false) fail
// to find them, and Strapi does not start.
function coreRoutes(uid, cfg) {
  if (!loaded) {
    throw new TypeError("createCoreRouter('" + uid + "').routes is read while the file loads, before Strapi has registered the content types: Strapi fails to start on it (Cannot read properties of undefined (reading 'kind'))");
  }
  var ct = contentTypes && Object.prototype.hasOwnProperty.call(contentTypes, uid) ? contentTypes[uid] : undefined;
  if (!ct) {
    throw new TypeError("createCoreRouter('" + uid + "'): the project has no content type " + uid + ", whose core routes the router lists");
  }
  var name = ct.kind === 'singleType' ? ct.singularName : ct.pluralName;
  var actions = ct.kind === 'singleType'
    ? [['find', 'GET', ''], ['update', 'PUT', ''], ['delete', 'DELETE', '']]
    : [['find', 'GET', ''], ['findOne', 'GET', '/:id'], ['create', 'POST', ''], ['update', 'PUT', '/:id'], ['delete', 'DELETE', '/:id']];
  var config = cfg.config || {};
  var all = {};
  actions.forEach(function (a) {
    var route = { method: a[1], path: '/' + name + a[2], handler: uid + '.' + a[0], config: {} };
    Object.assign(route.config, config[a[0]] || {});
    all[a[0]] = route;
  });
  var keys = Object.keys(all);
  if (cfg.except) {
    var except = [].concat(cfg.except).map(String);
    keys = keys.filter(function (k) { return except.indexOf(k) < 0; });
  }
  if (cfg.only) {
    // lodash's pick: in the order only names them.
    keys = [].concat(cfg.only).map(String).filter(function (k, i, list) { return keys.indexOf(k) >= 0 && list.indexOf(k) === i; });
  }
  return keys.map(function (k) { return all[k]; });
}
module.exports = {
  factories: {
    createCoreRouter: function (uid, cfg) {
      var c = cfg === undefined || cfg === null ? {} : cfg;
      var routes;
      var router = {
        type: c.type === undefined ? 'content-api' : c.type,
        prefix: c.prefix,
        get routes() {
          if (!routes) routes = coreRoutes(uid, c);
          return routes;
        }
      };
      Object.defineProperty(router, 'toJSON', { value: function () { return { __quarry: 'coreRouter', uid: uid, config: cfg || {} }; } });
      return router;
    },
    createCoreController: function (uid, ext) { return { __quarry: 'coreController', uid: uid, actions: keysOf(ext) }; },
    createCoreService: function (uid, ext) { return { __quarry: 'coreService', uid: uid, actions: keysOf(ext) }; }
  }
};
Object.defineProperty(module.exports, '__loaded', { value: function () { loaded = true; } });
`

// Template evaluates s as a JavaScript template literal with `process` in scope, as
// @strapi/utils templateConfiguration does for the strings of JSON config files.
func Template(ctx context.Context, s string, opts Options) (string, error) {
	sb, err := newSandbox(ctx, opts)
	if err != nil {
		return "", err
	}
	defer sb.stop()
	v, err := sb.rt.RunString("`" + s + "`")
	if err != nil {
		return "", jsError(err)
	}
	return v.String(), nil
}
