package jseval

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dop251/goja"
)

// RecordInput is what the recording `strapi` object knows of the project when Record calls
// one of its functions.
type RecordInput struct {
	// Export names the function to call: "register" or "bootstrap" of src/index.* or a
	// local plugin's strapi-server.*, called with ({ strapi }); "" calls the module's
	// export itself with the plugin object (a plugin extension, src/extensions/<p>/strapi-server.*).
	Export string
	// Plugin is the plugin whose object an extension receives.
	Plugin string
	// PluginRoutes are the plugins' content-API routes ({method, path, handler, config}) by
	// plugin name, as strapi.plugin(name).routes['content-api'].routes shows them.
	PluginRoutes map[string][]map[string]any
	// ContentTypes are strapi.contentTypes (uid → {uid, kind, collectionName, info, attributes}).
	ContentTypes map[string]any
	// Config is the project's configuration by file name, for strapi.config.get.
	Config map[string]any
}

// Recording is what a call did to the recording `strapi` object: the parts of Strapi's API
// Quarry models are recorded as data, anything else as an unsupported use.
type Recording struct {
	// Called is false when the module exports no such function.
	Called bool
	// Touched is false when the function used nothing of strapi (the generated empty
	// register() and bootstrap()).
	Touched bool
	// Unsupported lists uses of APIs the recorder does not model (strapi.server.use, …),
	// in order, each once.
	Unsupported []string
	// Data lists uses of the data APIs (entityService, db.query, query, services): their
	// effects are on content, and the recorder does not perform them.
	Data []string
	// Subscriptions are strapi.db.lifecycles.subscribe calls.
	Subscriptions []Subscription
	// Routes are the plugins' content-API routes after the call.
	Routes map[string][]map[string]any
	// Shadow are the GraphQL extension service's Shadow CRUD calls, in order.
	Shadow []ShadowCall
	// Cron is true when the call adds or removes cron jobs (strapi.cron).
	Cron bool
	// ServerUses counts the functions the call gave strapi.server.use (middlewares of the
	// whole server, which Quarry's app-level chain runs); anything else given to it, and the
	// rest of strapi.server, is an unsupported use.
	ServerUses int
	// ServerUseCalls counts every strapi.server.use and strapi.server.routes call, whatever
	// it was given.
	ServerUseCalls int
	// ServerRoutes are the routes strapi.server.routes was given as an array (Strapi's own
	// router, outside the content API), in order.
	ServerRoutes []ServerRoute
	// EventHub is true when the call uses strapi.eventHub (adds or removes listeners, emits).
	EventHub bool
	// GraphQLUses describes each use() of the GraphQL extension service.
	GraphQLUses []string
	// Controllers and Services name what an extension replaced on the plugin object
	// ("user" for a whole controller, "user.me" for one action).
	Controllers, Services []string
	// ServiceMethods name the plugin service methods the call assigned, as
	// "plugin.service.method" ("plugin.service.*" for a whole service whose methods could not
	// be told, and "plugin.service.=" beside its methods for a service set anew), whether
	// through the extension's plugin object or strapi in register().
	ServiceMethods []string
	// Policies and Middlewares name what an extension added to the plugin object.
	Policies, Middlewares []string
	// Threw is what the call threw (or rejected with), "" when it finished.
	Threw string
	// OwnProperties are the properties the call hung on strapi that are none of Strapi's
	// (strapi.bots = {}), which the request sandboxes' strapi takes as Strapi's does.
	OwnProperties []string
	// AddedFrom names, for a policy or middleware an extension added to the plugin object
	// ("middlewares jwt"), the project file whose module exports that function (directly or
	// as a property), when it is another file than the extension's: what the function needs
	// is that file's modules, not every module the extension requires.
	AddedFrom map[string]string
	// Unresolved lists the modules the file and the call required that the sandbox does
	// not provide (npm packages, Node's fs), which the recording stubbed.
	Unresolved []string
}

// Subscription is one strapi.db.lifecycles.subscribe call: the models it names (nil: every
// model) and its hooks (nil: every hook, a function subscriber).
type Subscription struct {
	Models []string `json:"models"`
	Hooks  []string `json:"hooks"`
}

// ServerRoute is one route given to strapi.server.routes([...]): the router runs its
// handler (functions of the project's) after every middleware, with its config's auth,
// policies and middlewares (functions recorded as null).
type ServerRoute struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	// Handler is "function" for a function or an array of functions, else what it is.
	Handler string `json:"handler"`
	// Open is config.auth === false; Strategies is set when config.auth names strategies.
	Open        bool  `json:"open"`
	Strategies  bool  `json:"strategies,omitempty"`
	Policies    []any `json:"policies,omitempty"`
	Middlewares []any `json:"middlewares,omitempty"`
}

// ShadowCall is one Shadow CRUD call of the GraphQL extension service:
// shadowCRUD(uid).<method>(args...), or .field(name).<method>() with Field set.
type ShadowCall struct {
	UID    string `json:"uid"`
	Field  string `json:"field,omitempty"`
	Method string `json:"method"`
	Args   []any  `json:"args,omitempty"`
}

// recorderSource builds the recording strapi object. Every API it does not model is a
// Proxy that notes the path it was reached by; `then` is undefined on it so that awaiting it
// does not hang.
const recorderSource = `(function (init) {
  var rec = { touched: false, unsupported: [], data: [], subs: [], shadow: [], uses: [], own: [],
              controllers: [], services: [], policies: [], middlewares: [], methods: [], serverUses: 0, serverCalls: 0, serverRoutes: [] };
  function note(list, p) { if (list.indexOf(p) < 0) list.push(p); }
  function trap(path, list) {
    return new Proxy(function () {}, {
      get: function (t, k) {
        if (k === Symbol.toPrimitive) return function () { return ''; };
        if (typeof k === 'symbol' || k === 'then' || k === 'toJSON') return undefined;
        note(list, path + '.' + String(k));
        return trap(path + '.' + String(k), list);
      },
      set: function (t, k) { note(list, path + '.' + String(k) + ' ='); return true; },
      apply: function () { note(list, path + '()'); return trap(path + '()', list); },
      construct: function () { note(list, 'new ' + path); return trap(path, list); }
    });
  }
  function data(path) { return trap(path, rec.data); }
  // A plugin's service as register(), bootstrap() or an extension reaches it: calling its
  // methods is a use of data; assigning one replaces (or adds) that method, noted as
  // "plugin.service.method" for Quarry to weigh against the plugin's own actions.
  function serviceTrap(p, s, named) {
    var path = named || 'strapi.plugin(' + p + ').service(' + s + ')';
    return new Proxy(function () {}, {
      get: function (t, k) {
        if (typeof k === 'symbol' || k === 'then' || k === 'toJSON') return undefined;
        note(rec.data, path + '.' + String(k));
        return trap(path + '.' + String(k), rec.data);
      },
      set: function (t, k) { note(rec.methods, (s ? p + '.' + s : p + '.') + '.' + String(k)); return true; },
      apply: function () { note(rec.data, path + '()'); return trap(path + '()', rec.data); }
    });
  }
  // replaced notes a whole service set anew: the keys of the object (or of what its factory
  // answers), or every method ("*") when they cannot be told.
  function replaced(p, s, v) {
    note(rec.methods, p + '.' + s + '.='); // the service itself set anew
    var obj = v;
    if (typeof v === 'function') {
      try { obj = v({ strapi: strapi }); } catch (e) { obj = undefined; }
    }
    if (!obj || typeof obj !== 'object' || (typeof obj.then === 'function')) { note(rec.methods, p + '.' + s + '.*'); return; }
    Object.keys(obj).forEach(function (k) { note(rec.methods, p + '.' + s + '.' + k); });
  }
  // A service by uid: a plugin's as strapi.plugin(p).service(s); an api's noted under its
  // uid ("api::a.b" as the plugin, "" as the service).
  function uidService(uid) {
    // strapi.service('plugin::graphql.extension') is the extension service itself: its use()
    // and Shadow CRUD calls are recorded, never passed over as data.
    if (String(uid) === 'plugin::graphql.extension') return extension;
    var m = pluginUID(uid);
    if (m) return serviceTrap(m[1], m[2]);
    if (/^(api|global)::/.test(uid)) return serviceTrap(uid, '', 'strapi.service(' + uid + ')');
    return data('strapi.service(' + uid + ')');
  }
  function pluginUID(uid) {
    var m = /^plugin::([^.]+)\.(.+)$/.exec(String(uid));
    return m && m[1] !== 'graphql' ? m : null;
  }
  function unsupported(path) { return trap(path, rec.unsupported); }
  var routes = init.routes || {};
  function shadowHandle(uid) {
    function call(method, args, field) {
      var c = { uid: uid, method: method, args: Array.prototype.slice.call(args) };
      if (field) c.field = field;
      rec.shadow.push(c);
    }
    var h = {};
    ['disable', 'disableQueries', 'disableMutations', 'disableAction', 'disableActions'].forEach(function (m) {
      h[m] = function () { call(m, arguments); return h; };
    });
    ['isEnabled', 'isDisabled', 'areQueriesEnabled', 'areQueriesDisabled', 'areMutationsEnabled',
     'areMutationsDisabled', 'isActionEnabled', 'isActionDisabled'].forEach(function (m) {
      h[m] = function () { note(rec.unsupported, 'graphql extension shadowCRUD(' + uid + ').' + m); return true; };
    });
    h.field = function (name) {
      var f = {};
      ['disable', 'disableOutput', 'disableInput', 'disableFilters'].forEach(function (m) {
        f[m] = function () { call(m, arguments, name); return f; };
      });
      return f;
    };
    return h;
  }
  // nexus builds GraphQL types: inert markers here, as the types are the GraphQL extension's
  // to build or refuse (Quarry's runtime), not a concern of every route.
  var nexus = new Proxy({}, { get: function (t, k) {
    if (typeof k === 'symbol' || k === 'then' || k === 'toJSON') return undefined;
    return function (config) { return { __nexus: String(k), config: config }; };
  } });
  function nexusNames(types) {
    return [].concat(types).map(function (x) {
      var c = x && x.config;
      return x && x.__nexus ? x.__nexus + (c && (c.type || c.name) ? ' ' + (c.type || c.name) : '') : 'a type';
    }).join(', ');
  }
  var strapi;
  var extension = {
    shadowCRUD: function (uid) { return shadowHandle(String(uid)); },
    use: function (ext) {
      if (typeof ext === 'function') ext = ext({ nexus: nexus, strapi: strapi });
      var parts = [];
      if (ext && ext.typeDefs) parts.push('typeDefs');
      if (ext && ext.types) parts.push('nexus types: ' + nexusNames(ext.types));
      if (ext && ext.resolvers) parts.push('resolvers ' + Object.keys(ext.resolvers).map(function (t) {
        return Object.keys(ext.resolvers[t] || {}).map(function (f) { return t + '.' + f; }).join(', ');
      }).join(', '));
      if (ext && ext.resolversConfig) parts.push('resolversConfig ' + Object.keys(ext.resolversConfig).join(', '));
      if (ext && ext.plugins) parts.push('plugins');
      rec.uses.push(parts.join('; ') || 'an empty extension');
      return extension;
    }
  };
  var plugins = {};
  function plugin(name) {
    if (plugins[name]) return plugins[name];
    var p = {
      routes: { 'content-api': { type: 'content-api', routes: routes[name] || [] }, admin: unsupported('strapi.plugin(' + name + ').routes.admin') },
      service: function (s) {
        if (name === 'graphql' && s === 'extension') return extension;
        return serviceTrap(name, String(s));
      },
      services: new Proxy({}, {
        get: function (t, k) { return typeof k === 'string' && k !== 'then' ? serviceTrap(name, k) : undefined; },
        set: function (t, k, v) { replaced(name, String(k), v); return true; }
      }),
      controller: function (c) { return unsupported('strapi.plugin(' + name + ').controller(' + c + ')'); },
      controllers: unsupported('strapi.plugin(' + name + ').controllers'),
      contentType: function (c) { return (init.contentTypes || {})['plugin::' + name + '.' + c]; },
      config: function (k, d) { var c = ((init.config.plugins || {})[name] || {}).config || {}; return get(c, k, d); },
      policies: unsupported('strapi.plugin(' + name + ').policies'),
      middlewares: unsupported('strapi.plugin(' + name + ').middlewares')
    };
    plugins[name] = p;
    return p;
  }
  function get(obj, path, def) {
    var keys = Array.isArray(path) ? path : String(path).split('.');
    var v = obj;
    for (var i = 0; i < keys.length; i++) {
      if (v === null || typeof v !== 'object' || !(keys[i] in v)) return def;
      v = v[keys[i]];
    }
    return v === undefined ? def : v;
  }
  var pluginsProxy = new Proxy({}, { get: function (t, k) { return typeof k === 'string' ? plugin(k) : undefined; } });
  function silent() {}
  var log = { info: silent, warn: silent, error: silent, debug: silent, trace: silent, fatal: silent };
  var lifecycles = { subscribe: function (s) {
    if (typeof s === 'function') { rec.subs.push({ models: null, hooks: null }); return; }
    if (!s || typeof s !== 'object') return;
    var hooks = Object.keys(s).filter(function (k) { return k !== 'models' && typeof s[k] === 'function'; });
    rec.subs.push({ models: Array.isArray(s.models) ? s.models.map(String) : null, hooks: hooks });
  } };
  var known = {
    plugin: plugin, plugins: pluginsProxy,
    config: Object.assign({}, init.config || {}, { get: function (p, d) {
      var keys = Array.isArray(p) ? p.slice() : String(p).split('.');
      if (keys[0] === 'plugin' && keys.length > 1) { keys = ['plugins', keys[1], 'config'].concat(keys.slice(2)); }
      return get(init.config || {}, keys, d);
    }, has: function (p) { return this.get(p) !== undefined; } }),
    log: log,
    contentTypes: init.contentTypes || {},
    contentType: function (uid) { return (init.contentTypes || {})[uid]; },
    getModel: function (uid) { return (init.contentTypes || {})[uid]; },
    customFields: { register: silent },
    // Strapi's event hub: its listeners are run by Quarry in the sandbox that ran
    // bootstrap(); noted, for the routes to know the writes reach them.
    eventHub: (function () {
      var h = {};
      ['on', 'once', 'addListener', 'subscribe'].forEach(function (k) { h[k] = function () { rec.eventHub = true; return function () {}; }; });
      ['off', 'removeListener', 'unsubscribe'].forEach(function (k) { h[k] = function () { rec.eventHub = true; }; });
      ['destroy', 'removeAllListeners'].forEach(function (k) { h[k] = function () { rec.eventHub = true; return h; }; });
      h.emit = function () { rec.eventHub = true; return Promise.resolve(); };
      return h;
    })(),
    cron: (function () {
      var c = { jobs: [] };
      ['add', 'remove', 'start', 'stop', 'destroy'].forEach(function (k) { c[k] = function () { rec.cron = true; return c; }; });
      return c;
    })(),
    db: new Proxy({ lifecycles: lifecycles }, { get: function (t, k) {
      if (k === 'lifecycles') return lifecycles;
      if (typeof k === 'symbol' || k === 'then') return undefined;
      return data('strapi.db.' + String(k));
    } }),
    // The admin panel's services (seeding a super admin from the environment): data, whose
    // effects are on the admin panel's tables, not on what content-API routes check.
    admin: data('strapi.admin'),
    entityService: data('strapi.entityService'),
    query: function (uid) { return data('strapi.query(' + uid + ')'); },
    service: function (uid) { return uidService(String(uid)); },
    services: new Proxy({}, { get: function (t, k) {
      if (typeof k !== 'string' || k === 'then') return undefined;
      return uidService(k);
    } }),
    store: data('strapi.store'),
    // strapi.server.use(fn) adds a middleware to the whole server: counted, as Quarry's
    // app-level chain runs it; strapi.server.routes([...]) adds routes to Strapi's own router,
    // recorded. The rest of the server (app, router, …) is unsupported.
    server: (function () {
      var s = {
        use: function (fn) {
          rec.serverCalls++;
          if (typeof fn === 'function') rec.serverUses++;
          else note(rec.unsupported, 'strapi.server.use(' + (fn === null ? 'null' : 'a ' + typeof fn) + ')');
          return server;
        },
        routes: function (r) {
          rec.serverCalls++;
          if (!Array.isArray(r)) {
            note(rec.unsupported, 'strapi.server.routes(' + (r && typeof r === 'object' && r.type ? '{ type: ' + JSON.stringify(String(r.type)) + ' }' : r === null ? 'null' : 'a ' + typeof r) + ')');
            return server;
          }
          r.forEach(function (x) {
            x = x || {};
            var c = x.config || {};
            var h = x.handler;
            var fns = typeof h === 'function' || (Array.isArray(h) && h.length > 0 && h.every(function (f) { return typeof f === 'function'; }));
            function names(list) {
              return Array.isArray(list) ? list.map(function (e) { return typeof e === 'function' ? null : e; }) : undefined;
            }
            rec.serverRoutes.push({ method: String(x.method || '').toUpperCase(), path: String(x.path || ''),
              handler: fns ? 'function' : typeof h === 'string' ? 'the handler ' + h : 'a handler that is not a function',
              open: c.auth === false, strategies: !!(c.auth && c.auth.strategies),
              policies: names(c.policies), middlewares: names(c.middlewares) });
          });
          return server;
        }
      };
      var server = new Proxy(s, {
        get: function (t, k) {
          if (typeof k === 'symbol' || k === 'then' || k === 'toJSON') return undefined;
          if (Object.prototype.hasOwnProperty.call(t, k)) return t[k];
          note(rec.unsupported, 'strapi.server.' + String(k));
          return unsupported('strapi.server.' + String(k));
        },
        set: function (t, k) { note(rec.unsupported, 'strapi.server.' + String(k) + ' ='); return true; }
      });
      return server;
    })(),
    dirs: { app: { root: '.', src: './src' }, dist: { root: '.', src: './src' } }
  };
  // Properties the project hangs on strapi (strapi.bots = {} in register()): Strapi's object
  // takes them, and so does the request sandboxes' (which run register()); replacing one of
  // Strapi's own APIs is unsupported.
  var own = {};
  var STRAPI_API = ['app', 'router', 'fs', 'container', 'telemetry', 'webhookRunner', 'webhookStore', 'customFields',
    'reload', 'requestContext', 'entityValidator', 'sanitizers', 'validators', 'auth', 'contentAPI', 'isLoaded',
    'features', 'ee', 'EE', 'api', 'apis', 'middlewares', 'policies', 'hooks', 'startupLogger', 'destroy', 'load',
    'start', 'stop', 'listen', 'openAdmin', 'postListen', 'license', 'config', 'log', 'components', 'contentTypes',
    'registry', 'modules', 'plugins', 'services', 'controllers', 'admin', 'db', 'entityService', 'store', 'server',
    'eventHub', 'cron', 'dirs', 'i18n', 'documentation', 'migrations', 'getModel'];
  strapi = new Proxy(known, {
    get: function (t, k) {
      if (typeof k === 'symbol' || k === 'then') return undefined;
      rec.touched = true;
      if (Object.prototype.hasOwnProperty.call(t, k)) return t[k];
      if (Object.prototype.hasOwnProperty.call(own, k)) return own[k];
      note(rec.unsupported, 'strapi.' + String(k));
      return unsupported('strapi.' + String(k));
    },
    set: function (t, k, v) {
      rec.touched = true;
      if (typeof k === 'string' && !Object.prototype.hasOwnProperty.call(t, k) && STRAPI_API.indexOf(k) < 0) {
        own[k] = v;
        note(rec.own, k);
        return true;
      }
      note(rec.unsupported, 'strapi.' + String(k) + ' =');
      return true;
    }
  });
  // The plugin object a plugin extension (src/extensions/<name>/strapi-server.js) receives,
  // by plugin name: its routes are read back from it, whether the extension changed the
  // list in place or set it anew.
  var extensions = {};
  function extensionObject(name) {
    function table(kind, list) {
      return new Proxy({}, {
        get: function (t, k) {
          if (typeof k === 'symbol' || k === 'then') return undefined;
          if (k in t) return t[k];
          return new Proxy(function () {}, {
            get: function (t2, a) {
              if (typeof a === 'symbol' || a === 'then') return undefined;
              return function () { return data('plugin.' + kind + '.' + String(k) + '.' + String(a) + '()'); };
            },
            set: function (t2, a) { note(list, String(k) + '.' + String(a)); return true; }
          });
        },
        set: function (t, k, v) { note(list, String(k)); t[k] = v; return true; }
      });
    }
    // The plugin's services are factories ({ strapi }) => service, as Strapi keeps them
    // until it loads the plugin: a method assigned on one is the factory's own property and
    // changes nothing (Strapi ignores it), while calling it gives the service.
    var factories = {};
    function factory(k) {
      if (!factories[k]) factories[k] = function () { return serviceTrap(name, k); };
      return factories[k];
    }
    var services = new Proxy({}, {
      get: function (t, k) {
        if (typeof k === 'symbol' || k === 'then') return undefined;
        if (k in t) return t[k];
        return factory(String(k));
      },
      set: function (t, k, v) { note(rec.services, String(k)); replaced(name, String(k), v); t[k] = v; return true; }
    });
    return extensions[name] = {
      routes: { 'content-api': { type: 'content-api', routes: routes[name] || [] }, admin: { type: 'admin', routes: [] } },
      controllers: table('controllers', rec.controllers),
      services: services,
      policies: table('policies', rec.policies),
      middlewares: table('middlewares', rec.middlewares),
      contentTypes: new Proxy({}, { get: function (t, k) {
        if (typeof k === 'symbol' || k === 'then') return undefined;
        var ct = (init.contentTypes || {})['plugin::' + name + '.' + String(k)];
        return ct ? { schema: ct } : undefined;
      } }),
      config: {},
      register: undefined, bootstrap: undefined, destroy: undefined
    };
  }
  return {
    strapi: strapi,
    extensionObject: extensionObject,
    // What the extension returned is the plugin object Strapi keeps (a copy of its own, often).
    extensionReturned: function (name, obj) {
      if (obj && typeof obj === 'object' && obj !== extensions[name] && obj.routes) extensions[name] = obj;
    },
    result: function () {
      var out = {};
      Object.keys(routes).forEach(function (k) { out[k] = routes[k]; });
      Object.keys(plugins).forEach(function (k) { out[k] = plugins[k].routes['content-api'].routes; });
      Object.keys(extensions).forEach(function (k) {
        var r = extensions[k].routes, api = r && r['content-api'];
        out[k] = api && Array.isArray(api.routes) ? api.routes : [];
      });
      return { touched: rec.touched, unsupported: rec.unsupported, data: rec.data, subs: rec.subs,
               routes: out, shadow: rec.shadow, uses: rec.uses, controllers: rec.controllers,
               services: rec.services, policies: rec.policies, middlewares: rec.middlewares, methods: rec.methods, cron: !!rec.cron,
               serverUses: rec.serverUses, serverCalls: rec.serverCalls, serverRoutes: rec.serverRoutes, eventHub: !!rec.eventHub, own: rec.own };
    }
  };
})`

// Record evaluates the file at path and calls what in.Export names with a recording `strapi`
// object (or, for a plugin extension, the recording plugin object), and reports what the call
// did. Nothing the call reaches performs anything: this is how Quarry learns what a project's
// register(), bootstrap() and plugin extensions declare (route policies and middlewares,
// lifecycle subscriptions, GraphQL Shadow CRUD) without running them against its data.
func Record(ctx context.Context, path string, opts Options, in RecordInput) (rec *Recording, err error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, &Error{File: path, Err: err}
	}
	s, err := newSandbox(ctx, opts)
	if err != nil {
		return nil, &Error{File: path, Err: err}
	}
	defer s.stop()
	defer func() {
		if rec != nil {
			rec.Unresolved = s.unresolved
		}
	}()
	mod, err := s.require(abs)
	if err != nil {
		return nil, &Error{File: path, Err: jsError(err)}
	}
	s.loaded()
	mod = importDefault(mod)
	initJSON, err := json.Marshal(map[string]any{"routes": in.PluginRoutes, "contentTypes": in.ContentTypes, "config": orEmpty(in.Config)})
	if err != nil {
		return nil, &Error{File: path, Err: err}
	}
	mk, err := s.rt.RunString(recorderSource)
	if err != nil {
		return nil, &Error{File: path, Err: err}
	}
	build, _ := goja.AssertFunction(mk)
	parsed, err := s.rt.RunString("(" + string(initJSON) + ")")
	if err != nil {
		return nil, &Error{File: path, Err: err}
	}
	recV, err := build(goja.Undefined(), parsed)
	if err != nil {
		return nil, &Error{File: path, Err: jsError(err)}
	}
	recObj := recV.ToObject(s.rt)
	out := &Recording{}
	var fn goja.Callable
	var args []goja.Value
	var extObj *goja.Object // the plugin object an extension is given
	if in.Export == "" {
		f, ok := goja.AssertFunction(mod)
		if !ok {
			return out, nil // an extension exporting an object changes nothing
		}
		mkExt, _ := goja.AssertFunction(recObj.Get("extensionObject"))
		obj, err := mkExt(goja.Undefined(), s.rt.ToValue(in.Plugin))
		if err != nil {
			return nil, &Error{File: path, Err: jsError(err)}
		}
		fn, args = f, []goja.Value{obj}
		extObj = obj.ToObject(s.rt)
	} else {
		o, ok := mod.(*goja.Object)
		if !ok {
			return out, nil
		}
		target := o
		if f, ok := goja.AssertFunction(o); ok && o.Get(in.Export) == nil {
			// A local plugin's strapi-server exporting a function returns the plugin object.
			v, err := f(goja.Undefined())
			if err != nil {
				return nil, &Error{File: path, Err: jsError(err)}
			}
			if target, ok = v.(*goja.Object); !ok {
				return out, nil
			}
		}
		f, ok := goja.AssertFunction(target.Get(in.Export))
		if !ok {
			return out, nil
		}
		arg := s.rt.NewObject()
		arg.Set("strapi", recObj.Get("strapi"))
		fn, args = f, []goja.Value{arg}
		mod = target
	}
	out.Called = true
	threw := ""
	// Strapi sets global.strapi before it loads any of the project's files: code that reads
	// the global (a vendored plugin's helpers) sees the one the call is given.
	if err := s.rt.Set("strapi", recObj.Get("strapi")); err != nil {
		return nil, &Error{File: path, Err: err}
	}
	v, err := fn(mod, args...)
	if err != nil {
		if errors.Is(jsError(err), ErrTimeout) || errors.Is(err, context.Canceled) {
			return nil, &Error{File: path, Err: jsError(err)}
		}
		threw = jsError(err).Error()
	} else {
		returned := v
		if p, ok := v.Export().(*goja.Promise); ok {
			// goja ran the promise's jobs when the call returned: an async function that
			// only awaited the recorder has settled.
			returned = p.Result()
			switch p.State() {
			case goja.PromiseStateRejected:
				threw = describeRejection(p.Result())
			case goja.PromiseStatePending:
				threw = "its promise did not settle"
			}
		}
		if in.Export == "" && threw == "" {
			// Strapi keeps what an extension returns (awaited) as the plugin object.
			f, _ := goja.AssertFunction(recObj.Get("extensionReturned"))
			if _, err := f(goja.Undefined(), s.rt.ToValue(in.Plugin), returned); err != nil {
				return nil, &Error{File: path, Err: jsError(err)}
			}
		}
	}
	resultFn, _ := goja.AssertFunction(recObj.Get("result"))
	res, err := resultFn(goja.Undefined())
	if err != nil {
		return nil, &Error{File: path, Err: jsError(err)}
	}
	exported, err := s.export(res)
	if err != nil {
		return nil, &Error{File: path, Err: err}
	}
	b, _ := json.Marshal(exported)
	var raw struct {
		Touched     bool                        `json:"touched"`
		Unsupported []string                    `json:"unsupported"`
		Data        []string                    `json:"data"`
		Subs        []Subscription              `json:"subs"`
		Routes      map[string][]map[string]any `json:"routes"`
		Shadow      []ShadowCall                `json:"shadow"`
		Uses        []string                    `json:"uses"`
		Controllers []string                    `json:"controllers"`
		Services    []string                    `json:"services"`
		Policies    []string                    `json:"policies"`
		Middlewares []string                    `json:"middlewares"`
		Methods     []string                    `json:"methods"`
		Cron        bool                        `json:"cron"`
		ServerUses  int                         `json:"serverUses"`
		ServerCalls int                         `json:"serverCalls"`
		ServerRts   []ServerRoute               `json:"serverRoutes"`
		EventHub    bool                        `json:"eventHub"`
		Own         []string                    `json:"own"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, &Error{File: path, Err: fmt.Errorf("recording: %w", err)}
	}
	out.Touched, out.Unsupported, out.Data, out.Subscriptions = raw.Touched, raw.Unsupported, raw.Data, raw.Subs
	out.Routes, out.Shadow, out.GraphQLUses = raw.Routes, raw.Shadow, raw.Uses
	out.Controllers, out.Services, out.Policies, out.Middlewares = raw.Controllers, raw.Services, raw.Policies, raw.Middlewares
	out.ServiceMethods = raw.Methods
	out.Threw = threw
	out.Cron = raw.Cron
	out.ServerUses, out.ServerUseCalls, out.ServerRoutes = raw.ServerUses, raw.ServerCalls, raw.ServerRts
	out.EventHub = raw.EventHub
	out.OwnProperties = raw.Own
	if extObj != nil {
		out.AddedFrom = s.exportingFiles(extObj, map[string][]string{"middlewares": out.Middlewares, "policies": out.Policies}, path)
	}
	if in.Export == "" && (len(out.Controllers) > 0 || len(out.Services) > 0 || len(out.ServiceMethods) > 0 || len(out.Policies) > 0 || len(out.Middlewares) > 0) {
		out.Touched = true
	}
	return out, nil
}

func describeRejection(v goja.Value) string {
	if o, ok := v.(*goja.Object); ok {
		if m := o.Get("message"); m != nil && !goja.IsUndefined(m) {
			return m.String()
		}
	}
	if v == nil {
		return "undefined"
	}
	return v.String()
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// exportingFiles finds, for each function the extension object's tables hold under the
// names given, the project file whose module exports it (the module itself, else one of its
// properties), other than the extension's own file.
func (s *sandbox) exportingFiles(ext *goja.Object, names map[string][]string, self string) map[string]string {
	self, _ = filepath.Abs(self)
	var files []string
	for key := range s.cache {
		if f := strings.TrimPrefix(key, "\x00lazy:"); filepath.IsAbs(f) && f != self {
			files = append(files, key)
		}
	}
	sort.Strings(files)
	out := map[string]string{}
	for kind, list := range names {
		tbl, ok := ext.Get(kind).(*goja.Object)
		if !ok {
			continue
		}
		for _, name := range list {
			fn := tbl.Get(name)
			if _, ok := goja.AssertFunction(fn); !ok {
				continue
			}
			direct, property := "", ""
			for _, key := range files {
				mod := s.cache[key]
				if mod.StrictEquals(fn) && direct == "" {
					direct = key
				} else if o, ok := mod.(*goja.Object); ok && property == "" {
					for _, k := range o.Keys() {
						if o.Get(k).StrictEquals(fn) {
							property = key
							break
						}
					}
				}
			}
			if f := cmp.Or(direct, property); f != "" {
				out[kind+" "+name] = strings.TrimPrefix(f, "\x00lazy:")
			}
		}
	}
	return out
}
