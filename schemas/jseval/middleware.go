package jseval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// Middleware is a Strapi route middleware file (module.exports = (config, { strapi }) =>
// async (ctx, next) => { … }) whose factory ran once; Query runs the function it returned on
// a request's query. Only what a query-rewriting middleware reads is on ctx: query,
// request.query, params and state; strapi is an inert stub.
type Middleware struct {
	mu      sync.Mutex // one goja runtime is not safe for concurrent use
	s       *sandbox
	fn      goja.Value
	timeout time.Duration
}

// queryGlue converts between the Go side (JSON) and ctx.query, and writes ctx.query back in
// qs's bracket notation, in the object's own key order (populate order is response order).
const queryGlue = `(function () {
  function enc(s) { return encodeURIComponent(s); }
  function walk(prefix, v, out) {
    if (v === undefined || typeof v === 'function') return;
    if (v === null) { if (prefix !== '') out.push(enc(prefix)); return; }
    if (Array.isArray(v)) {
      for (var i = 0; i < v.length; i++) walk(prefix + '[' + i + ']', v[i], out);
      return;
    }
    if (v instanceof Date) { out.push(enc(prefix) + '=' + enc(v.toISOString())); return; }
    if (typeof v === 'object') {
      var keys = Object.keys(v);
      for (var j = 0; j < keys.length; j++) walk(prefix === '' ? keys[j] : prefix + '[' + keys[j] + ']', v[keys[j]], out);
      return;
    }
    out.push(enc(prefix) + '=' + enc(String(v)));
  }
  return {
    serialize: function (q) {
      var out = [];
      if (q !== null && typeof q === 'object') walk('', q, out);
      return out.join('&');
    },
    run: function (fn, queryJSON, paramsJSON) {
      var query = JSON.parse(queryJSON);
      var ctx = { query: query, params: JSON.parse(paramsJSON), request: { query: query }, state: {} };
      var p = Promise.resolve(fn(ctx, function () { return Promise.resolve(); }));
      var box = { state: 'pending' };
      p.then(function () { box.state = 'done'; box.query = ctx.query; },
             function (e) { box.state = 'error'; box.error = (e && e.message) ? String(e.message) : String(e); });
      return box;
    }
  };
})()`

// LoadMiddleware evaluates a middleware file and calls its factory with (config, { strapi }).
func LoadMiddleware(path string, config any, opts Options, log *slog.Logger) (*Middleware, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, &Error{File: path, Err: err}
	}
	s, err := newSandbox(context.Background(), opts)
	if err != nil {
		return nil, &Error{File: path, Err: err}
	}
	defer s.stop() // the load's time limit; each request sets its own
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	console := s.rt.NewObject()
	for _, k := range []string{"log", "info", "warn", "error", "debug"} {
		console.Set(k, func(c goja.FunctionCall) goja.Value {
			args := make([]any, 0, len(c.Arguments))
			for _, a := range c.Arguments {
				args = append(args, a.String())
			}
			log.Debug("middleware console."+k, "file", path, "args", fmt.Sprint(args...))
			return goja.Undefined()
		})
	}
	s.rt.Set("console", console)
	v, err := s.require(abs)
	if err != nil {
		return nil, &Error{File: path, Err: jsError(err)}
	}
	factory, ok := goja.AssertFunction(importDefault(v))
	if !ok {
		return nil, &Error{File: path, Err: errors.New("a middleware file must export a function (config, { strapi })")}
	}
	stub, err := s.stub()
	if err != nil {
		return nil, &Error{File: path, Err: err}
	}
	deps := s.rt.NewObject()
	deps.Set("strapi", stub)
	if config == nil {
		config = map[string]any{}
	}
	mw, err := factory(goja.Undefined(), s.rt.ToValue(config), deps)
	if err != nil {
		return nil, &Error{File: path, Err: jsError(err)}
	}
	if _, ok := goja.AssertFunction(mw); !ok {
		return nil, &Error{File: path, Err: errors.New("the middleware factory must return a function (ctx, next)")}
	}
	glue, err := s.rt.RunString(queryGlue)
	if err != nil {
		return nil, &Error{File: path, Err: err}
	}
	s.cache["\x00glue"] = glue
	return &Middleware{s: s, fn: mw, timeout: opts.Timeout}, nil
}

// Query runs the middleware on a query (queryJSON, the request's query as qs parsed it, as
// JSON) and route parameters, and returns ctx.query afterwards in qs bracket notation.
func (m *Middleware) Query(ctx context.Context, queryJSON string, params map[string]string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	rt := m.s.rt
	rt.ClearInterrupt()
	timeout := m.timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	t := time.AfterFunc(timeout, func() { rt.Interrupt(ErrTimeout) })
	defer t.Stop()
	stop := context.AfterFunc(ctx, func() { rt.Interrupt(ctx.Err()) })
	defer stop()
	glue := m.s.cache["\x00glue"].ToObject(rt)
	run, _ := goja.AssertFunction(glue.Get("run"))
	serialize, _ := goja.AssertFunction(glue.Get("serialize"))
	if params == nil {
		params = map[string]string{}
	}
	pj, _ := jsonString(params)
	// goja runs the promise jobs when the outermost call returns, so box is settled then
	// unless the middleware waits on something that never comes.
	box, err := run(goja.Undefined(), m.fn, rt.ToValue(queryJSON), rt.ToValue(pj))
	if err != nil {
		return "", jsError(err)
	}
	b := box.ToObject(rt)
	switch b.Get("state").String() {
	case "error":
		return "", errors.New(b.Get("error").String())
	case "pending":
		return "", errors.New("the middleware did not finish")
	}
	out, err := serialize(goja.Undefined(), b.Get("query"))
	if err != nil {
		return "", jsError(err)
	}
	return out.String(), nil
}

func jsonString(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}
