// The `strapi` a project's code sees under Quarry, and Strapi's factories, core controllers,
// core services, response transform and Koa context, written for Quarry's sandbox. Every
// database and HTTP effect is a call to the Go host (`host.call(op, json)`), which answers
// JSON, or {"$error": {status, name, message, details}} for an error it raises.
//
// The semantics follow Strapi 4.26: createCoreController/createCoreService put the core
// actions under the project's object (so `super.find(ctx)` and `this.sanitizeOutput` work),
// a route runs [policies, ...middlewares, returnBody, action] as Koa composes them, ctx
// helpers (badRequest, …) set an error body without throwing, and errors thrown are
// formatted as Strapi's error middleware formats them.
(function (host, projectRequire) {
  'use strict';
  guardAllocations(host.maxLength);
  var utils = projectRequire('@strapi/utils');
  var errors = utils.errors;
  // @strapi/utils' content-API sanitizing, as project code calls it with a model (the
  // sanitizeUser of users-permissions recipes): the controllers' own steps, for the request's
  // caller (Quarry's call carries it; the auth option names the same one).
  utils.sanitize = { contentAPI: {
    output: function (data, schema) { return async(function () { return call('sanitize.output', { uid: schema && schema.uid, data: data === undefined ? null : data }); })(); },
    input: function (data, schema) { return async(function () { return call('sanitize.input', { uid: schema && schema.uid, data: data }); })(); }
  } };
  utils.validate = { contentAPI: {
    query: function (query, schema) { return async(function () { call('validate.query', { uid: schema && schema.uid, query: query }); })(); }
  } };

  plainUtils(utils, projectRequire('lodash'));

  var registering = false; // src/index's register() is running (liveRoutes)
  // dry: bootstrap() runs only up to its first use of data, in every sandbox, for the
  // lifecycle subscriptions it makes there (Quarry runs it for real once, at start).
  var dry = false;
  var DRY = { dry: true };
  function call(op, args) {
    if (registering) throw new errors.NotImplementedError('register() reaches ' + op + ', which Strapi does not offer before bootstrap');
    if (dry) throw DRY;
    var out = host.call(op, JSON.stringify(args === undefined ? null : args));
    if (out === undefined || out === null || out === '') return undefined;
    var v = JSON.parse(out);
    if (v && typeof v === 'object' && v.$error) throw toError(v.$error);
    return v;
  }
  function toError(e) {
    var C = {
      ValidationError: errors.ValidationError, NotFoundError: errors.NotFoundError,
      ForbiddenError: errors.ForbiddenError, UnauthorizedError: errors.UnauthorizedError,
      PolicyError: errors.PolicyError, PayloadTooLargeError: errors.PayloadTooLargeError,
      RateLimitError: errors.RateLimitError, NotImplementedError: errors.NotImplementedError,
      PaginationError: errors.PaginationError, ApplicationError: errors.ApplicationError
    }[e.name];
    if (C) return new C(e.message, e.details);
    var h = httpError(e.status || 500, e.message);
    h.details = e.details || {};
    if (e.name) h.name = e.name;
    h.quarry = e.quarry;
    return h;
  }
  function async(fn) {
    return function () {
      try { return Promise.resolve(fn.apply(this, arguments)); } catch (e) {
        if (e === DRY) return new Promise(function () {}); // the dry bootstrap stops here
        return Promise.reject(e);
      }
    };
  }

  // ---- HTTP errors as koa's ctx.throw and Strapi's ctx helpers make them (http-errors) ----
  var statusText = host.statuses; // code → reason phrase
  function errorName(code) {
    var text = statusText[code] || 'Error';
    var n = text.split(/[^A-Za-z0-9]+/).map(function (w) { return w ? w.charAt(0).toUpperCase() + w.slice(1) : ''; }).join('');
    return /Error$/.test(n) ? n : n + 'Error';
  }
  function httpError(status, message, props) {
    if (typeof status !== 'number' || status < 400 || status >= 600) status = 500;
    var e = new Error(message === undefined || message === null ? (statusText[status] || 'Error') : String(message));
    e.name = errorName(status);
    e.status = e.statusCode = status;
    e.expose = status < 500;
    if (props && typeof props === 'object') Object.keys(props).forEach(function (k) { e[k] = props[k]; });
    return e;
  }
  function camel(s) {
    var words = String(s).split(/[^A-Za-z0-9]+/).filter(Boolean);
    return words.map(function (w, i) { w = w.toLowerCase(); return i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1); }).join('');
  }

  // ---- fetch: the hosts config/quarry lists under fetch.allow (Quarry fetches, in Go) ----
  function responseOf(out) {
    var hdrs = out.headers || {};
    var text = out.body || '';
    var used = false;
    function read() { if (used) return Promise.reject(new TypeError('Body is unusable')); used = true; return Promise.resolve(text); }
    return {
      ok: out.status >= 200 && out.status < 300, status: out.status, statusText: out.statusText || '', url: out.url, redirected: !!out.redirected,
      headers: {
        get: function (n) { var v = hdrs[String(n).toLowerCase()]; return v === undefined ? null : v; },
        has: function (n) { return hdrs[String(n).toLowerCase()] !== undefined; },
        forEach: function (fn) { Object.keys(hdrs).forEach(function (k) { fn(hdrs[k], k); }); }
      },
      text: read,
      json: function () { return read().then(function (t) { return JSON.parse(t); }); }
    };
  }
  function quarryFetch(input, init) {
    if (dry) return new Promise(function () {});
    init = init || {};
    return new Promise(function (resolve) {
      var headers = {};
      var h = init.headers || {};
      if (Array.isArray(h)) h.forEach(function (p) { headers[String(p[0])] = String(p[1]); });
      else if (typeof h.forEach === 'function') h.forEach(function (v, k) { headers[String(k)] = String(v); });
      else Object.keys(h).forEach(function (k) { headers[k] = String(h[k]); });
      var url = input && typeof input === 'object' && input.url ? input.url : input;
      var body = init.body === undefined || init.body === null ? null : String(init.body);
      resolve(responseOf(call('net.fetch', { url: String(url), method: String(init.method || 'GET').toUpperCase(), headers: headers, body: body })));
    });
  }
  globalThis.fetch = quarryFetch;
  globalThis.__quarryFetch = quarryFetch;
  // koa2-ratelimit's memory store, kept by the host for every sandbox.
  globalThis.__quarryHits = function (key, interval, weight, undo) {
    return call('ratelimit.incr', { key: String(key), interval: Number(interval) || 0, weight: Number(weight) || 0, undo: !!undo });
  };

  // ---- models ----
  var contentTypes = host.contentTypes; // uid → {uid, kind, info, options, attributes}
  var components = host.components;     // uid → {uid, attributes}
  function model(uid) { return contentTypes[uid] || components[uid]; }

  // ---- the entity service and the query engine, over the host ----
  var entityService = {};
  ['findMany', 'findOne', 'findPage', 'findWithRelationCounts', 'count', 'create', 'update', 'delete', 'load'].forEach(function (op) {
    entityService[op] = async(function (uid) {
      var args = Array.prototype.slice.call(arguments, 1);
      var params, id;
      if (op === 'findOne' || op === 'update' || op === 'delete') { id = args[0]; params = args[1]; }
      else if (op === 'load') {
        // The query engine's load is a findOne of the entry (select id, populate the field):
        // it fires the model's findOne hooks, never the target's.
        var lu = String(uid), largs = args;
        if (dry || registering) return call('es.load', { uid: lu, entity: largs[0], field: largs[1], params: largs[2] || {} });
        return withReadHooks(lu, ['FindOne'], function (hooked) {
          if (!hooked) return call('es.load', { uid: lu, entity: largs[0], field: largs[1], params: largs[2] || {} });
          return hookedLoad(lu, largs[0], largs[1], largs[2] || {});
        });
      }
      else params = args[0];
      if (ES_READS[op] && !dry && !registering) {
        var u = String(uid);
        return sealUsers(u, op, (params || {}).fields, withReadHooks(u, esReadNames(u, op), function (hooked) {
          if (!hooked) return call('es.' + op, { uid: u, id: id === undefined ? null : id, params: params || {} });
          return entityRead(u, op, id, params || {});
        }));
      }
      if (WRITES[op] && !dry && !registering) {
        var w = String(uid);
        return withReadHooks(w, ['FindOne'], function (hooked) {
          if (!hooked) return call('es.' + op, { uid: w, id: id === undefined ? null : id, params: params || {} });
          return entityWrite(w, op, id, params || {});
        });
      }
      return call('es.' + op, { uid: String(uid), id: id === undefined ? null : id, params: params || {} });
    });
  });
  // A user's password, as the project's code reads a user: Strapi answers the bcrypt hash,
  // which code compares with the user service's validatePassword. Quarry answers a sealed
  // value standing for the user's stored hash instead, which validatePassword accepts and
  // which holds nothing to leak: JSON.stringify (the response, a log line, a write's data)
  // leaves it out, as toJSON answers undefined.
  var sealedUsers = new WeakMap();
  function sealPassword(e) {
    if (!e || typeof e !== 'object' || e.id === undefined || e.id === null || 'password' in e) return;
    var v = Object.freeze({ toJSON: function () { return undefined; }, toString: function () { return ''; } });
    sealedUsers.set(v, e.id);
    e.password = v;
  }
  function sealUsers(uid, op, fields, r) {
    if (uid !== userUID || op === 'count') return r;
    if (fields !== undefined && fields !== null && [].concat(fields).indexOf('password') < 0) return r;
    var seal = function (v) {
      if (Array.isArray(v)) {
        if (op === 'findWithCount') (v[0] || []).forEach(sealPassword); else v.forEach(sealPassword);
      } else if (v && (op === 'findPage') && Array.isArray(v.results)) v.results.forEach(sealPassword);
      else sealPassword(v);
      return v;
    };
    return r && typeof r.then === 'function' ? r.then(seal) : seal(r);
  }
  // passwordHashArg is validatePassword's hash as the host takes it: a sealed password names
  // its user; anything else only its type (a string is a hash the code holds itself).
  function passwordHashArg(h) {
    var id = h && typeof h === 'object' ? sealedUsers.get(h) : undefined;
    if (id !== undefined) return { sealedUser: id };
    return typeof h === 'string' ? h : { type: h === null ? 'object' : typeof h };
  }
  function query(uid) {
    var q = {};
    ['findOne', 'findMany', 'findWithCount', 'findPage', 'count', 'create', 'createMany', 'update', 'updateMany',
     'delete', 'deleteMany', 'load', 'populate'].forEach(function (op) {
      q[op] = async(function (params) {
        var extra = Array.prototype.slice.call(arguments, 1);
        var many = MANY[op];
        if (many && !dry && !registering) {
          var mu = String(uid);
          return withReadHooks(mu, [many], function (hooked) {
            var margs = { uid: mu, params: params || {}, extra: extra };
            if (!hooked) return call('db.' + op, margs);
            return manyWrite(mu, op, many, margs);
          });
        }
        if (DB_READS[op] && !dry && !registering) {
          var u = String(uid);
          return sealUsers(u, op, (params || {}).select, withReadHooks(u, DB_READS[op], function (hooked) {
            if (!hooked) return selected(op, params, call('db.' + op, { uid: u, params: params || {}, extra: extra }));
            return hookedRead(u, op, params || {});
          }));
        }
        if (WRITES[op] && !dry && !registering) {
          var w = String(uid);
          return withReadHooks(w, ['FindOne'], function (hooked) {
            var args = { uid: w, params: params || {}, extra: extra };
            // The query engine reads the entry it wrote (or is deleting) through findOne,
            // with the call's select and populate: its read hooks run there.
            if (hooked) args.readBack = { select: (params || {}).select, populate: (params || {}).populate };
            return call('db.' + op, args);
          });
        }
        return call('db.' + op, { uid: String(uid), params: params || {}, extra: extra });
      });
    });
    return q;
  }
  // strapi.db.lifecycles.subscribe: run after the model's lifecycles file, in the order made,
  // as Strapi's lifecycles provider runs its subscribers.
  var subscribers = [];
  var db = { query: query, lifecycles: { subscribe: function (s) {
    if (s === null || (typeof s !== 'object' && typeof s !== 'function')) throw new Error('Lifecycle subscriber must be an object or a function');
    subscribers.push(s);
    return function () { var i = subscribers.indexOf(s); if (i >= 0) subscribers.splice(i, 1); };
  } }, transaction: transaction, connection: notProvided('strapi.db.connection (knex, raw SQL)') };
  // What the project's code may reach for and Quarry does not provide: a use answers
  // NotImplementedError naming it (a 501), where undefined would be a TypeError (a 500).
  function notProvided(what) {
    function missing() { throw new errors.NotImplementedError(what + ' is not provided by Quarry'); }
    return new Proxy(function () {}, {
      get: function (t, k) { if (typeof k === 'symbol' || k === 'then') return undefined; return missing(); },
      apply: missing, construct: missing
    });
  }
  // strapi.db.transaction(cb) as @strapi/database 4.26 runs it: the entity service's and the
  // query engine's reads and writes until it ends join one transaction (Strapi's async
  // context; here, the script's calls while it is open), committed when cb resolves (its
  // onCommit callbacks then) and rolled back when it throws (onRollback); commit() and
  // rollback() end it early; nested, it is the outer one, which decides. Without cb it is
  // { commit, rollback, get } and nothing joins it, as in Strapi, where only knex queries
  // given its trx would. trx, the knex transaction itself, is not provided. Writes'
  // after hooks and webhooks come once it commits.
  var txOpen = null;
  var trxStub = notProvided("strapi.db.transaction's trx (a knex transaction)");
  function txFinish(t, commit) {
    if (t.done) return;
    t.done = true;
    if (txOpen === t) txOpen = null;
    call('db.transaction.end', { commit: commit });
    var cbs = commit ? t.commitCbs : t.rollbackCbs;
    t.commitCbs = []; t.rollbackCbs = [];
    cbs.forEach(function (f) { f(); });
  }
  function transaction(cb) {
    return async(function () {
      // Without cb nothing runs in Strapi's async context of the transaction: the queries
      // that follow are not in it, and only the knex transaction (get()) would be.
      if (!cb) {
        var none = function () { return async(function () {})(); };
        return { commit: none, rollback: none, get: function () { return trxStub; } };
      }
      // One left open by an earlier run of this sandbox was rolled back when that run ended.
      if (txOpen && !call('db.transaction.open')) txOpen = null;
      var outer = txOpen, t = outer;
      if (!outer) {
        call('db.transaction.begin');
        t = txOpen = { commitCbs: [], rollbackCbs: [], done: false };
      }
      var commit = function () { return async(function () { if (!outer) txFinish(t, true); })(); };
      var rollback = function () { return async(function () { if (!outer) txFinish(t, false); })(); };
      var params = { trx: trxStub, commit: commit, rollback: rollback,
        onCommit: function (f) { if (!t.done) t.commitCbs.push(f); },
        onRollback: function (f) { if (!t.done) t.rollbackCbs.push(f); } };
      return Promise.resolve().then(function () { return cb(params); }).then(
        function (res) { return commit().then(function () { return res; }); },
        function (e) { return rollback().then(function () { throw e; }); });
    })();
  }

  // ---- registries: the project's controllers, services, policies, middlewares ----
  var files = host.files; // kind → name → file path
  var instances = { controllers: {}, services: {} };
  // Local plugins: strapi-server's export (called with { env } when a function, as Strapi's
  // loader does), whose controllers, services, policies and middlewares are plugin::<name>.*.
  var localPlugins = {};
  function localPlugin(name) {
    if (Object.prototype.hasOwnProperty.call(localPlugins, name)) return localPlugins[name];
    var f = files.plugins && files.plugins[name];
    var mod;
    if (f) {
      mod = projectRequire(f);
      if (mod && mod.__esModule && mod.default !== undefined) mod = mod.default;
      if (typeof mod === 'function') mod = mod({ env: projectRequire('@strapi/utils').env });
    }
    localPlugins[name] = mod && typeof mod === 'object' ? mod : undefined;
    return localPlugins[name];
  }
  function factoryOf(kind, name) {
    if (name.indexOf('plugin::') === 0) {
      var rest = name.slice('plugin::'.length), dot = rest.indexOf('.');
      var lp = dot > 0 ? localPlugin(rest.slice(0, dot)) : undefined;
      var reg = lp && lp[kind];
      // A policy or middleware the project's extension adds to a plugin (the plugin's own
      // ones Quarry does not run: an extension replacing one refuses its routes at start).
      if (!lp && dot > 0 && (kind === 'middlewares' || kind === 'policies') && files.extensions && files.extensions[rest.slice(0, dot)]) {
        reg = extendedPlugin(rest.slice(0, dot))[kind];
      }
      return reg && Object.prototype.hasOwnProperty.call(reg, rest.slice(dot + 1)) ? reg[rest.slice(dot + 1)] : undefined;
    }
    var f = files[kind] && files[kind][name];
    if (!f) return undefined;
    var mod = projectRequire(f);
    return mod && mod.__esModule && mod.default !== undefined ? mod.default : mod;
  }
  function instance(kind, uid) {
    if (instances[kind][uid]) return instances[kind][uid];
    var f = factoryOf(kind, uid);
    var obj;
    if (f === undefined && kind === 'services' && String(uid).indexOf('plugin::') === 0) {
      // strapi.service('plugin::graphql.format') is strapi.plugin('graphql').service('format').
      var rest = String(uid).slice('plugin::'.length), dot = rest.indexOf('.');
      if (dot > 0 && !localPlugin(rest.slice(0, dot))) {
        if ((host.pluginsOff || []).indexOf(rest.slice(0, dot)) >= 0) return undefined; // as strapi.plugin(name)
        return pluginService(rest.slice(0, dot), rest.slice(dot + 1));
      }
    }
    if (f === undefined) {
      if (!contentTypes[uid] || uid.indexOf('api::') !== 0) return undefined;
      f = kind === 'controllers' ? createCoreController(uid) : createCoreService(uid);
    }
    obj = typeof f === 'function' ? f({ strapi: strapi }) : f;
    instances[kind][uid] = obj;
    return obj;
  }
  function policy(name) {
    var f = factoryOf('policies', name);
    if (f === undefined) throw new Error('Policy ' + name + ' not found.');
    return f;
  }
  function middleware(name) {
    var f = factoryOf('middlewares', name);
    if (f === undefined) throw new Error('Middleware ' + name + ' not found.');
    return f;
  }
  // The plugins' routes as register() sees and changes them, one copy per sandbox.
  var pluginRoutes = {};
  function routesOf(name) {
    if (!pluginRoutes[name]) {
      var list = JSON.parse(JSON.stringify((host.pluginRoutes || {})[name] || []));
      pluginRoutes[name] = { 'content-api': { type: 'content-api', routes: list } };
    }
    return pluginRoutes[name];
  }
  // byName is a registry as an object (strapi.services, strapi.plugins[p].services, …): a
  // property read is a lookup.
  function byName(get) {
    // then and toJSON are not names: a promise check and JSON.stringify look for them.
    return new Proxy({}, { get: function (t, k) { return typeof k === 'string' && k !== 'then' && k !== 'toJSON' ? get(k) : undefined; } });
  }
  function plugin(name) {
    if ((host.pluginsOff || []).indexOf(name) >= 0) return undefined;
    var p = {
      get routes() { return routesOf(name); },
      service: function (s) { return localPlugin(name) ? instance('services', 'plugin::' + name + '.' + s) : pluginService(name, s); },
      controller: function (c) {
        if (localPlugin(name)) return instance('controllers', 'plugin::' + name + '.' + c);
        throw new errors.NotImplementedError('strapi.plugin(\'' + name + '\').controller(\'' + c + '\') is not provided by Quarry');
      },
      policy: function (p) { return policy('plugin::' + name + '.' + p); },
      config: function (k, d) { return getPath(((host.config.plugins || {})[name] || {}).config || {}, k, d); },
      contentType: function (c) { return contentTypes['plugin::' + name + '.' + c]; }
    };
    // A plugin's provider (the upload plugin's, whose delete and upload projects call by
    // hand; the email plugin's) is Quarry's own: reaching it is refused, naming it.
    Object.defineProperty(p, 'provider', {
      enumerable: false,
      get: function () { throw new errors.NotImplementedError('strapi.plugin(\'' + name + '\').provider is not provided by Quarry'); }
    });
    // strapi.plugins[name].services.jwt, as v3-style code still reads them.
    p.services = byName(function (s) { return p.service(s); });
    p.controllers = byName(function (c) { return p.controller(c); });
    return p;
  }
  var userUID = 'plugin::users-permissions.user';
  var fileUID = 'plugin::upload.file';
  // Services of plugins written over the entity service, as the plugins write them.
  var scriptServices = {
    'users-permissions.user': {
      fetch: function (id, params) { return entityService.findOne(userUID, id, params); },
      fetchAll: function (params) { return entityService.findMany(userUID, params); },
      fetchAuthenticatedUser: function (id) { return entityService.findOne(userUID, id, { populate: ['role'] }); },
      count: function (params) { return entityService.count(userUID, params); },
      // Writes go through the one write path (validation, the password hashed, events).
      add: function (values) { return entityService.create(userUID, { data: values, populate: ['role'] }); },
      edit: function (id, params) { return entityService.update(userUID, id, { data: params || {}, populate: ['role'] }); },
      remove: function (params) { return query(userUID).delete({ where: params }); },
      // bcryptjs' compare: false for a wrong password, an error for arguments not strings.
      validatePassword: async(function (password, hash) {
        return call('plugin.users-permissions.user.validatePassword', [typeof password === 'string' ? password : { type: password === null ? 'object' : typeof password }, passwordHashArg(hash)]);
      })
    },
    // i18n's locales service (reads; the locale writes are the admin's) and its content-types
    // service's checks, as 4.26 has them: the query engine on plugin::i18n.locale and the
    // plugin's core store (default_locale).
    'i18n.locales': {
      find: function (params) { return query('plugin::i18n.locale').findMany({ where: params === undefined ? {} : params }); },
      findById: function (id) { return query('plugin::i18n.locale').findOne({ where: { id: id } }); },
      findByCode: function (code) { return query('plugin::i18n.locale').findOne({ where: { code: code } }); },
      count: function (params) { return query('plugin::i18n.locale').count({ where: params === undefined ? {} : params }); },
      getDefaultLocale: function () { return strapi.store({ type: 'plugin', name: 'i18n' }).get({ key: 'default_locale' }); },
      setIsDefault: async(function (locales) {
        if (locales === null || locales === undefined) return locales;
        return strapi.store({ type: 'plugin', name: 'i18n' }).get({ key: 'default_locale' }).then(function (def) {
          if (Array.isArray(locales)) return locales.map(function (l) { return Object.assign({}, l, { isDefault: def === l.code }); });
          return Object.assign({}, locales, { isDefault: def === locales.code });
        });
      }),
      create: notProvided("strapi.plugin('i18n').service('locales').create"),
      update: notProvided("strapi.plugin('i18n').service('locales').update"),
      delete: notProvided("strapi.plugin('i18n').service('locales').delete"),
      setDefaultLocale: notProvided("strapi.plugin('i18n').service('locales').setDefaultLocale")
    },
    'i18n.content-types': {
      isLocalizedContentType: function (model) { return !!(model && model.pluginOptions && model.pluginOptions.i18n && model.pluginOptions.i18n.localized === true); },
      getValidLocale: async(function (locale) {
        var svc = pluginService('i18n', 'locales');
        if (locale === null || locale === undefined) return svc.getDefaultLocale();
        return svc.findByCode(locale).then(function (found) {
          if (!found) throw new errors.ApplicationError('Locale not found');
          return locale;
        });
      })
    },
    // The upload service's reads are the entity service's, as the plugin writes them.
    'upload.upload': {
      findOne: function (id, populate) { return entityService.findOne(fileUID, id, { populate: populate }); },
      findMany: function (query) { return entityService.findMany(fileUID, query); },
      findPage: function (query) { return entityService.findPage(fileUID, query); }
    },
    'email.email': {
      getProviderSettings: function () { return strapi.config.get('plugin.email'); },
      sendTemplatedEmail: async(function (emailOptions, emailTemplate, data) {
        var sent = Object.assign({}, emailOptions || {}, renderEmailTemplate(emailTemplate || {}, data));
        return pluginService('email', 'email').send(sent);
      })
    }
  };
  // renderEmailTemplate is the email service's sendTemplatedEmail rendering: subject, text
  // and html must all be keys of the template; each is a lodash template whose only
  // interpolation is <%= name %> of a key path of data (keysDeep), which renders as the
  // value's text ('' for null and undefined). Lodash would also run <% code %> and
  // <%- escaped %> blocks as JavaScript: a template holding one is refused, never run.
  function renderEmailTemplate(tpl, data) {
    var attrs = ['subject', 'text', 'html'];
    var missing = attrs.filter(function (a) { return Object.keys(tpl).indexOf(a) < 0; });
    if (missing.length) throw new Error('Following attributes are missing from your email template : ' + missing.join(', '));
    var keysDeep = function (o, path) {
      if (o === null || (typeof o !== 'object' && typeof o !== 'function')) return [path.join('.')];
      return Object.keys(o).reduce(function (acc, k) { return acc.concat(keysDeep(o[k], path.concat([k]))); }, []);
    };
    var allowed = keysDeep(data, []);
    var interpolate = new RegExp('<%=\\s*(' + allowed.join('|') + ')\\s*%>', 'g');
    var out = {};
    attrs.forEach(function (a) {
      if (!tpl[a]) return;
      var text = String(tpl[a]).replace(interpolate, function (m, name) {
        var v = data;
        String(name).split('.').forEach(function (k) { v = v === null || v === undefined ? undefined : v[k]; });
        return v === null || v === undefined ? '' : String(v);
      });
      if (text.indexOf('<%') >= 0) {
        throw new errors.NotImplementedError('sendTemplatedEmail: the template\'s ' + a + ' holds a lodash block other than <%= %> of a key of data, which Quarry does not run');
      }
      out[a] = text;
    });
    return out;
  }
  // What register() calls on the GraphQL extension service (shadowCRUD, ...) is Quarry's
  // already (read from the project at start): a no-op while the sandbox runs register().
  var inert = new Proxy(function () {}, {
    get: function (t, k) { return k === 'then' || typeof k !== 'string' ? undefined : inert; },
    apply: function () { return inert; }
  });
  // use() of the GraphQL extension service, captured while register() runs: Quarry builds
  // its schema with them (graphqlExtensions) and calls their resolvers and policies here.
  var graphqlUses = [];
  var extensionService = new Proxy({ use: function (x) { graphqlUses.push(x); return extensionService; } }, {
    get: function (t, k) { return Object.prototype.hasOwnProperty.call(t, k) ? t[k] : inert[k]; }
  });
  var syncMethods = { 'users-permissions.jwt': ['issue'] };
  // Methods that answer nothing (undefined, where the host's JSON has null).
  var voidMethods = { 'users-permissions.role': ['createRole', 'updateRole', 'deleteRole'] };
  // The GraphQL plugin's format service: what its generated resolvers answer and an
  // extension's resolvers return for Quarry to resolve as the generated types' (a
  // <Type>EntityResponse from {value}, a collection from {nodes}).
  var graphqlFormat = { returnTypes: {
    toEntityResponse: function (value, info) {
      info = info || {};
      return { value: value, info: { args: info.args === undefined ? {} : info.args, resourceUID: info.resourceUID } };
    },
    toEntityResponseCollection: function (nodes, info) {
      info = info || {};
      return { nodes: nodes, info: { args: info.args === undefined ? {} : info.args, resourceUID: info.resourceUID } };
    }
  } };
  // A plugin's services, one object each per sandbox: what the project's extension assigns
  // to one (a method of its own, often) is what the project's code then calls.
  var pluginServices = {};
  function pluginService(p, s) {
    if (p === 'graphql' && s === 'format') return graphqlFormat;
    if (registering && p === 'graphql') return s === 'extension' ? extensionService : inert;
    if (files.extensions && files.extensions[p] && !extending[p] && !Object.prototype.hasOwnProperty.call(extendedPlugins, p)) extendedPlugin(p);
    // register() assigns methods of its own on plugin services: what it assigns before its
    // first await is there once it has run (each sandbox runs it once).
    if (host.registerServices && !registered && !registering && !dry) ensureRegister().catch(function () {});
    var key = p + '.' + s;
    if (!Object.prototype.hasOwnProperty.call(pluginServices, key)) pluginServices[key] = ownService(p, s);
    return pluginServices[key];
  }
  function ownService(p, s) {
    var svc = JSON.parse(host.serviceMethods(p + '.' + s));
    var own = scriptServices[p + '.' + s];
    if (!svc && !own) throw new errors.NotImplementedError('strapi.plugin(\'' + p + '\').service(\'' + s + '\') is not provided by Quarry');
    var out = {};
    (svc || []).forEach(function (m) {
      var none = (voidMethods[p + '.' + s] || []).indexOf(m) >= 0;
      var run = function () {
        var v = call('plugin.' + p + '.' + s + '.' + m, Array.prototype.slice.call(arguments));
        return none ? undefined : v;
      };
      // The plugins' synchronous methods stay synchronous (jwt.issue returns the token).
      out[m] = (syncMethods[p + '.' + s] || []).indexOf(m) >= 0 ? run : async(run);
    });
    if (own) Object.keys(own).forEach(function (m) { out[m] = own[m]; });
    if (p === 'users-permissions' && s === 'jwt' && out.verify) {
      // getToken reads the Bearer token of ctx's request, as the plugin's jwt service does.
      out.getToken = function (ctx) {
        var h = ctx && ctx.request && ctx.request.header && ctx.request.header.authorization;
        if (!h) return null;
        var parts = String(h).split(/\s+/);
        if (parts[0].toLowerCase() !== 'bearer' || parts.length !== 2) return null;
        return out.verify(parts[1]);
      };
    }
    return new Proxy(out, {
      get: function (t, k) {
        if (typeof k !== 'string' || k in t || k === 'then') return t[k];
        return function () { throw new errors.NotImplementedError('strapi.plugin(\'' + p + '\').service(\'' + s + '\').' + k + ' is not provided by Quarry'); };
      }
    });
  }
  function getPath(obj, path, def) {
    var keys = Array.isArray(path) ? path : String(path).split('.');
    var v = obj;
    for (var i = 0; i < keys.length; i++) {
      if (v === null || typeof v !== 'object' || !(keys[i] in v)) return def;
      v = v[keys[i]];
    }
    return v === undefined ? def : v;
  }
  function logger(level) { return function () { host.log(level, Array.prototype.map.call(arguments, function (a) { return typeof a === 'string' ? a : JSON.stringify(a); }).join(' ')); }; }

  // ---- cron: Strapi's cron service, as bootstrap() and config/server's cron.tasks fill it ----
  // The jobs live in the sandbox that runs bootstrap(), which Quarry keeps to run them (their
  // functions may close over what bootstrap() made); the sandboxes serving requests replay
  // bootstrap() dry, where adding a job does nothing.
  var cronJobs = [];
  var cronListed = [];
  var cron = {
    add: function (tasks) {
      if (dry || registering && !booting) return cron; // replayed: the jobs are the boot sandbox's
      if (!booting) throw new errors.NotImplementedError('strapi.cron.add outside bootstrap(): Quarry schedules the jobs bootstrap() and config/server give');
      tasks = tasks || {};
      Object.keys(tasks).forEach(function (expr) {
        var v = tasks[expr];
        if (typeof v === 'function') cronJobs.push({ fn: v.bind(tasks), options: expr, name: null });
        else if (v && typeof v.task === 'function') cronJobs.push({ fn: v.task.bind(v), options: v.options, name: expr });
        else throw new Error('Could not schedule a cron job for "' + expr + '": no function found.');
      });
      return cron;
    },
    remove: function (name) {
      if (!name) throw new Error('You must provide a name to remove a cron job.');
      cronJobs = cronJobs.filter(function (j) { return j.name !== name; });
      return cron;
    },
    start: function () { return cron; },
    stop: function () { return cron; },
    destroy: function () { cronJobs = []; return cron; }
  };
  Object.defineProperty(cron, 'jobs', { enumerable: true, get: function () { return cronJobs.map(function (j) { return { options: j.options, name: j.name }; }); } });
  // configCronTasks is config/server's cron.tasks as Strapi's config merges them: each file of
  // the name (config/server, then config/env/<env>/server) evaluated here, functions kept.
  function configCronTasks() {
    var tasks = {};
    (host.serverConfigFiles || []).forEach(function (f) {
      var mod = projectRequire(f);
      if (mod && mod.__esModule && mod.default !== undefined) mod = mod.default;
      if (typeof mod === 'function') mod = mod({ env: utils.env });
      var t = mod && mod.cron && mod.cron.tasks;
      if (t && typeof t === 'object') mergeTasks(tasks, t);
    });
    return tasks;
  }
  function mergeTasks(dst, src) {
    Object.keys(src).forEach(function (k) {
      var v = src[k];
      if (isPlain(v) && isPlain(dst[k])) mergeTasks(dst[k], v);
      else if (isPlain(v)) { dst[k] = {}; mergeTasks(dst[k], v); } else dst[k] = v;
    });
  }
  // cronList answers the jobs to schedule, as JSON: each one's rule (node-schedule's cron
  // text), tz, start and end, or what Quarry cannot schedule (a RecurrenceRule object, a Date).
  function cronList() {
    cronListed = cronJobs.slice();
    return JSON.stringify(cronListed.map(function (j, i) {
      var o = j.options, out = { index: i, name: j.name };
      if (typeof o === 'string') out.rule = o;
      else if (isPlain(o) && typeof o.rule === 'string') {
        out.rule = o.rule;
        if (o.tz !== undefined) out.tz = String(o.tz);
        if (o.start !== undefined) out.start = new Date(o.start).toISOString();
        if (o.end !== undefined) out.end = new Date(o.end).toISOString();
      } else out.unsupported = o instanceof Date ? 'a Date' : JSON.stringify(o);
      return out;
    }));
  }
  // cronRun runs one listed job as node-schedule would: fn({ strapi }), awaited.
  function cronRun(i) {
    var box = { state: 'pending' };
    try {
      var job = cronListed[i];
      if (!job) throw new Error('no cron job ' + i);
      Promise.resolve().then(function () { return job.fn({ strapi: strapi }); })
        .then(function () { box.state = 'done'; }, function (e) { box.state = 'done'; box.error = e && e.message ? String(e.message) : String(e); });
    } catch (e) { box.state = 'done'; box.error = e && e.message ? String(e.message) : String(e); }
    return box;
  }

  // ---- strapi.eventHub: Strapi's event hub ----
  // The sandbox that runs bootstrap() holds the real hub, Strapi's (@strapi/strapi's
  // services/event-hub.js): the listeners register() and bootstrap() add live there, and
  // Quarry keeps that sandbox to run them for every event, one event at a time. The pooled
  // sandboxes replay register() and bootstrap() dry, where adding a listener does nothing;
  // their emit hands the event to the kept sandbox through the host and settles as its
  // listeners did. Adding or removing a listener while serving a request is refused: it would
  // live in one pooled sandbox only.
  function createEventHub() {
    var listeners = new Map();
    var defaultSubscriber = async function (eventName) {
      var args = Array.prototype.slice.call(arguments, 1);
      if (listeners.has(eventName)) {
        for (var listener of listeners.get(eventName)) {
          await listener.apply(undefined, args);
        }
      }
    };
    var subscribers = [defaultSubscriber];
    var hub = {
      emit: async function (eventName) {
        var args = Array.prototype.slice.call(arguments, 1);
        for (var subscriber of subscribers) {
          await subscriber.apply(undefined, [eventName].concat(args));
        }
      },
      subscribe: function (subscriber) {
        subscribers.push(subscriber);
        return function () { hub.unsubscribe(subscriber); };
      },
      unsubscribe: function (subscriber) {
        var i = subscribers.indexOf(subscriber);
        if (i >= 0) subscribers.splice(i, 1);
      },
      on: function (eventName, listener) {
        if (!listeners.has(eventName)) listeners.set(eventName, [listener]);
        else listeners.get(eventName).push(listener);
        return function () { hub.off(eventName, listener); };
      },
      off: function (eventName, listener) {
        listeners.get(eventName).splice(listeners.get(eventName).indexOf(listener), 1);
      },
      once: function (eventName, listener) {
        return hub.on(eventName, async function () {
          hub.off(eventName, listener);
          return listener.apply(undefined, arguments);
        });
      },
      destroy: function () { listeners.clear(); subscribers.length = 0; return this; },
      removeListener: function (eventName, listener) { return hub.off(eventName, listener); },
      removeAllListeners: function () { return hub.destroy(); },
      addListener: function (eventName, listener) { return hub.on(eventName, listener); }
    };
    // What Quarry needs to know of the hub: the events some listener waits for, and whether
    // a subscriber other than the listeners' sees every event.
    var listened = function () {
      var names = [];
      listeners.forEach(function (list, name) { if (list.length > 0) names.push(String(name)); });
      return { names: names, all: subscribers.length > 1 || subscribers[0] !== defaultSubscriber };
    };
    return { hub: hub, listened: listened };
  }
  var realHub = createEventHub();
  var hubInflight = 0; // events raised inside the kept sandbox's run, not yet settled
  var eventHub = {};
  ['on', 'once', 'addListener', 'subscribe', 'off', 'removeListener', 'unsubscribe', 'destroy', 'removeAllListeners'].forEach(function (k) {
    eventHub[k] = function () {
      if (booting) return realHub.hub[k].apply(realHub.hub, arguments);
      if (dry || registering) return k === 'destroy' || k === 'removeAllListeners' ? eventHub : function () {}; // the kept sandbox's
      throw new errors.NotImplementedError('strapi.eventHub.' + k + ' while serving a request: Quarry runs the listeners register() and bootstrap() add, in the sandbox that ran bootstrap()');
    };
  });
  eventHub.emit = function (name) {
    if (booting) return realHub.hub.emit.apply(realHub.hub, arguments);
    var args = Array.prototype.slice.call(arguments, 1);
    return async(function () { call('eventHub.emit', { name: String(name), args: hubEncode(args) }); })();
  };
  // hubEncode is an event's arguments as they cross to the kept sandbox: JSON, with Dates
  // kept as Dates; a function in them cannot cross.
  function hubEncode(args) {
    return JSON.stringify(args, function (k, v) {
      var orig = this[k];
      if (orig instanceof Date) return { $quarryDate: isNaN(orig.getTime()) ? null : orig.toISOString() };
      if (typeof orig === 'function' || typeof orig === 'symbol') {
        throw new errors.NotImplementedError('strapi.eventHub.emit with a ' + typeof orig + ' in its arguments: Quarry hands them to the listeners as JSON');
      }
      return v;
    });
  }
  function hubDecode(text) {
    var args = JSON.parse(text, function (k, v) {
      if (v && typeof v === 'object' && !Array.isArray(v) && '$quarryDate' in v && Object.keys(v).length === 1) return new Date(v.$quarryDate === null ? NaN : v.$quarryDate);
      return v;
    });
    return Array.isArray(args) ? args : [];
  }
  function hubFailure(box, e) {
    var f = formatError(e);
    if (f) box.json = JSON.stringify(f.body);
    else box.internal = describe(e);
  }
  // hubDispatch runs the listeners of one event in the kept sandbox, as Strapi's emit does
  // (each listener awaited in turn, then the subscribers); its box settles when they and the
  // events their writes raised have.
  function hubDispatch(name, argsJSON) {
    var box = { done: false };
    Object.defineProperty(box, 'state', { get: function () { return box.done && hubInflight === 0 ? 'done' : 'pending'; } });
    try {
      realHub.hub.emit.apply(realHub.hub, [name].concat(hubDecode(argsJSON)))
        .then(function () { box.done = true; }, function (e) { box.done = true; hubFailure(box, e); });
    } catch (e) { box.done = true; hubFailure(box, e); }
    return box;
  }
  // hubFire starts the listeners of an event a write made inside the kept sandbox's own run
  // raised (a listener's write, bootstrap()'s, a cron job's): not awaited, as Strapi's entity
  // service does not await its emit; a failure is logged, as Node reports a rejection no one
  // handles.
  function hubFire(name, argsJSON) {
    hubInflight++;
    var settled = function () { hubInflight--; };
    var failed = function (e) { settled(); logger('error')('strapi.eventHub listener of ' + name + ' failed: ' + describe(e)); };
    try {
      realHub.hub.emit.apply(realHub.hub, [name].concat(hubDecode(argsJSON))).then(settled, failed);
    } catch (e) { failed(e); }
  }
  function hubListened() { return JSON.stringify(realHub.listened()); }
  // hubIdle: no event raised inside the kept sandbox's run is still running its listeners.
  function hubIdle() { return hubInflight === 0; }

  // ---- strapi.store: Strapi's core store (strapi_core_store_settings) ----
  // Keys are `<type>_<name>_<key>` as Strapi's store spells them (get's type defaults to
  // 'core', set's and delete's to nothing, written "undefined" as Strapi writes it).
  function storeKey(p, defType) {
    var type = p.type === undefined ? defType : p.type;
    return { key: String(type) + (p.name ? '_' + p.name : '') + '_' + p.key,
      environment: p.environment ? String(p.environment) : null, tag: p.tag ? String(p.tag) : null };
  }
  function coreStore(defaults) {
    var merge = function (p) { return Object.assign({}, defaults, p); };
    return {
      get: function (p) { return coreStore.get(merge(p)); },
      set: function (p) { return coreStore.set(merge(p)); },
      delete: function (p) { return coreStore.delete(merge(p)); }
    };
  }
  coreStore.get = async(function (p) {
    var row = call('store.get', storeKey(p || {}, 'core'));
    if (!row) return null;
    if (row.type === 'object' || row.type === 'array' || row.type === 'boolean' || row.type === 'string') {
      try { return JSON.parse(row.value); } catch (e) { return new Date(row.value); }
    }
    if (row.type === 'number') return Number(row.value);
    return null;
  });
  coreStore.set = async(function (p) {
    p = p || {};
    var value = JSON.stringify(p.value);
    if (value === undefined) value = p.value === undefined || p.value === null ? '' : String(p.value);
    var where = storeKey(p);
    where.value = value;
    where.type = typeof p.value;
    return call('store.set', where);
  });
  coreStore.delete = async(function (p) { return call('store.delete', storeKey(p || {})); });

  // strapi.admin: the admin panel's services, which Quarry does not run. A call answers
  // NotImplementedError naming it (after bootstrap()'s dry replay stops there, as at any data).
  function adminTrap(path) {
    return new Proxy(function () {}, {
      get: function (t, k) {
        if (typeof k === 'symbol' || k === 'then' || k === 'toJSON') return undefined;
        return adminTrap(path + '.' + String(k));
      },
      apply: function () {
        return async(function () {
          if (dry) throw DRY;
          throw new errors.NotImplementedError(path + '() is the admin panel\'s, which Quarry does not run');
        })();
      }
    });
  }

  // ---- strapi.server: the middlewares src/index's register() and bootstrap() give use() ----
  // Each sandbox runs register() and bootstrap() (dry, up to its first use of data) and keeps
  // the functions here; the app-level chain (route.app) runs them where Strapi's koa app
  // has them. Outside those runs (a request's code, bootstrap()'s after an await) a use()
  // would change the server while it serves: refused.
  var serverUses = { register: [], bootstrap: [] };
  var serverRoutes = { register: [], bootstrap: [] };
  var server = {
    // strapi.server.routes([...]): routes of Strapi's own router, kept as use()'s middlewares
    // are (Quarry's router finds them by their place; the sandbox runs their handlers).
    routes: function (list) {
      if (!Array.isArray(list)) throw new errors.NotImplementedError('strapi.server.routes with ' + (list && list.type ? 'the ' + list.type + ' API' : 'something else than an array') + ' is not run by Quarry');
      var into = registering ? serverRoutes.register : dry ? serverRoutes.bootstrap : null;
      if (!into && !booting) throw new errors.NotImplementedError('strapi.server.routes outside register() and the start of bootstrap() is not run by Quarry');
      if (into) list.forEach(function (r) { into.push(r); });
      return server;
    },
    use: function (fn) {
      if (typeof fn !== 'function') throw new TypeError('middleware must be a function!');
      if (registering) serverUses.register.push(fn);
      else if (dry) serverUses.bootstrap.push(fn);
      else if (!booting) throw new errors.NotImplementedError('strapi.server.use outside register() and the start of bootstrap() is not run by Quarry');
      return server;
    }
  };

  var strapi = {
    admin: adminTrap('strapi.admin'),
    store: coreStore,
    contentTypes: contentTypes, components: components,
    contentType: function (uid) { return contentTypes[uid]; },
    component: function (uid) { return components[uid]; },
    getModel: model,
    // Strapi's config provider: the configuration's names as properties
    // (strapi.config.environment, strapi.config.server), with get and has.
    config: Object.assign({}, host.config, {
      get: function (p, d) {
        var keys = Array.isArray(p) ? p.slice() : String(p).split('.');
        if (keys[0] === 'plugin' && keys.length > 1) keys = ['plugins', keys[1], 'config'].concat(keys.slice(2));
        return getPath(host.config, keys, d);
      },
      has: function (p) { return strapi.config.get(p) !== undefined; }
    }),
    log: { info: logger('info'), warn: logger('warn'), error: logger('error'), debug: logger('debug'), trace: logger('debug'), fatal: logger('error') },
    entityService: entityService, db: db, query: query,
    service: function (uid) { return instance('services', uid); },
    services: byName(function (uid) { return instance('services', uid); }),
    controllers: byName(function (uid) { return instance('controllers', uid); }),
    controller: function (uid) { return instance('controllers', uid); },
    policy: policy, middleware: middleware, plugin: plugin,
    plugins: new Proxy({}, { get: function (t, k) { return typeof k === 'string' ? plugin(k) : undefined; } }),
    dirs: { app: { root: host.root, src: host.root + '/src' }, dist: { root: host.root, src: host.root + '/src' } },
    cron: cron,
    server: server,
    eventHub: eventHub
  };

  // What local plugins hang on strapi in their register() or bootstrap(), which the sandbox
  // does not run: a value answering NotImplementedError when the project uses it (the code
  // reaching it does not run on without it); src/index's register() may set it anew.
  Object.keys(host.unsetProperties || {}).forEach(function (k) {
    if (Object.prototype.hasOwnProperty.call(strapi, k)) return;
    var trapValue = notProvided('strapi.' + k + ' (set by ' + host.unsetProperties[k] + ', which Quarry does not run)');
    Object.defineProperty(strapi, k, { configurable: true, enumerable: false,
      get: function () { return trapValue; },
      set: function (v) { ownValue(k, v); } });
  });
  // A property set on strapi becomes a plain one, as on Strapi's object.
  function ownValue(k, v) { Object.defineProperty(strapi, k, { value: v, writable: true, configurable: true, enumerable: true }); }

  // What src/index's register() hangs on strapi (strapi.bots = {}): the first read runs
  // register() in this sandbox (its synchronous part sets it), as Strapi ran it at start.
  (host.registerProperties || []).forEach(function (k) {
    if (Object.prototype.hasOwnProperty.call(strapi, k)) return;
    Object.defineProperty(strapi, k, { configurable: true, enumerable: false,
      get: function () {
        if (!registering) ensureRegister().catch(function () {});
        var d = Object.getOwnPropertyDescriptor(strapi, k);
        return d && 'value' in d ? d.value : undefined;
      },
      set: function (v) { ownValue(k, v); } });
  });

  // ---- response transform (Strapi's transformResponse) ----
  function isPlain(v) { return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date); }
  function isEntry(v) { return v === null || isPlain(v) || Array.isArray(v); }
  function transformEntry(entry, type) {
    if (entry === null || entry === undefined) return entry;
    if (Array.isArray(entry)) return entry.map(function (e) { return transformEntry(e, type); });
    if (!isPlain(entry)) throw new Error('Entry must be an object');
    var attrs = {};
    Object.keys(entry).forEach(function (key) {
      if (key === 'id') return;
      var v = entry[key];
      var a = type && type.attributes[key];
      if (a && a.type === 'relation' && isEntry(v) && a.target) attrs[key] = { data: transformEntry(v, contentTypes[a.target]) };
      else if (a && a.type === 'component' && isEntry(v)) attrs[key] = transformComponent(v, components[a.component]);
      else if (a && a.type === 'dynamiczone' && Array.isArray(v)) attrs[key] = v.map(function (s) { return transformComponent(s, components[s.__component]); });
      else if (a && a.type === 'media' && isEntry(v)) attrs[key] = { data: transformEntry(v, contentTypes['plugin::upload.file']) };
      else attrs[key] = v;
    });
    return { id: entry.id, attributes: attrs };
  }
  function transformComponent(data, component) {
    if (Array.isArray(data)) return data.map(function (d) { return transformComponent(d, component); });
    var res = transformEntry(data, component);
    if (res === null || res === undefined) return res;
    var out = { id: res.id };
    Object.keys(res.attributes).forEach(function (k) { out[k] = res.attributes[k]; });
    return out;
  }
  function transformResponse(resource, meta, opts) {
    if (resource === null || resource === undefined) return resource;
    return { data: transformEntry(resource, opts && opts.contentType), meta: meta === undefined ? {} : meta };
  }

  // ---- core controllers and services ----
  function authOf(ctx) { return (ctx && ctx.state && ctx.state.auth) || {}; }
  function baseController(uid) {
    var ct = contentTypes[uid];
    var proto = {
      transformResponse: function (data, meta) { return transformResponse(data, meta, { contentType: ct }); },
      sanitizeOutput: async(function (data, ctx) { return call('sanitize.output', { uid: uid, data: data === undefined ? null : data, auth: authOf(ctx) }); }),
      sanitizeInput: async(function (data, ctx) { return call('sanitize.input', { uid: uid, data: data, auth: authOf(ctx) }); }),
      sanitizeQuery: async(function (ctx) { return call('sanitize.query', { uid: uid, query: ctx.query, auth: authOf(ctx) }); }),
      validateQuery: async(function (ctx) { call('validate.query', { uid: uid, query: ctx.query, auth: authOf(ctx) }); }),
      validateInput: async(function (data, ctx) { call('validate.input', { uid: uid, data: data, auth: authOf(ctx) }); })
    };
    // A core action whose service method is Strapi's own is Quarry's native action, which
    // answers exactly as Strapi does; one whose service the project changed runs Strapi's
    // steps around that service.
    function nativeOr(action, steps) {
      // A read of a model with read lifecycle hooks runs Strapi's steps too, so that the
      // hooks see the query Strapi's would and the answer is what they leave.
      // So does a write of a model with findOne read hooks: its entity service reads the
      // entry through the query engine.
      var reads = action === 'findOne' || WRITES[action] ? ['FindOne'] : action === 'find' ? (ct && ct.kind === 'singleType' ? ['FindOne'] : ['FindMany', 'Count']) : null;
      return function (ctx) {
        var self = this;
        var svc = strapi.service(uid);
        if (!svc || !svc.__quarryOwn || !svc.__quarryOwn(serviceMethod(action))) return steps.call(this, ctx, svc);
        if (reads) {
          return Promise.resolve(withReadHooks(uid, reads, function (hooked) {
            return hooked ? steps.call(self, ctx, svc) : native(ctx, uid, action, false);
          }));
        }
        return Promise.resolve(native(ctx, uid, action, false));
      };
    }
    var ctrl;
    if (ct && ct.kind === 'singleType') {
      ctrl = {
        find: nativeOr('find', async function (ctx, svc) {
          await this.validateQuery(ctx);
          var q = await this.sanitizeQuery(ctx);
          var e = await svc.find(q);
          return this.transformResponse(await this.sanitizeOutput(e, ctx));
        }),
        update: nativeOr('update', async function (ctx, svc) {
          noForm(ctx, uid, 'update');
          var body = (ctx.request.body || {});
          if (!isObj(body.data)) throw new errors.ValidationError('Missing "data" payload in the request body');
          var data = await this.sanitizeInput(body.data, ctx);
          var e = await svc.createOrUpdate(Object.assign({}, ctx.request.query, { data: data }));
          return this.transformResponse(await this.sanitizeOutput(e, ctx));
        }),
        delete: nativeOr('delete', async function (ctx, svc) {
          var e = await svc.delete(ctx.query);
          return this.transformResponse(await this.sanitizeOutput(e, ctx));
        })
      };
    } else {
      ctrl = {
        find: nativeOr('find', async function (ctx, svc) {
          await this.validateQuery(ctx);
          var q = await this.sanitizeQuery(ctx);
          var r = await svc.find(q);
          return this.transformResponse(await this.sanitizeOutput(r.results, ctx), { pagination: r.pagination });
        }),
        findOne: nativeOr('findOne', async function (ctx, svc) {
          await this.validateQuery(ctx);
          var q = await this.sanitizeQuery(ctx);
          var e = await svc.findOne(ctx.params.id, q);
          return this.transformResponse(await this.sanitizeOutput(e, ctx));
        }),
        create: nativeOr('create', async function (ctx, svc) {
          await this.validateQuery(ctx);
          var q = await this.sanitizeQuery(ctx);
          noForm(ctx, uid, 'create');
          var body = (ctx.request.body || {});
          if (!isObj(body.data)) throw new errors.ValidationError('Missing "data" payload in the request body');
          var data = await this.sanitizeInput(body.data, ctx);
          var e = await svc.create(Object.assign({}, q, { data: data }));
          return this.transformResponse(await this.sanitizeOutput(e, ctx));
        }),
        update: nativeOr('update', async function (ctx, svc) {
          await this.validateQuery(ctx);
          var q = await this.sanitizeQuery(ctx);
          noForm(ctx, uid, 'update');
          var body = (ctx.request.body || {});
          if (!isObj(body.data)) throw new errors.ValidationError('Missing "data" payload in the request body');
          var data = await this.sanitizeInput(body.data, ctx);
          var e = await svc.update(ctx.params.id, Object.assign({}, q, { data: data }));
          return this.transformResponse(await this.sanitizeOutput(e, ctx));
        }),
        delete: nativeOr('delete', async function (ctx, svc) {
          await this.validateQuery(ctx);
          var q = await this.sanitizeQuery(ctx);
          var e = await svc.delete(ctx.params.id, q);
          return this.transformResponse(await this.sanitizeOutput(e, ctx));
        })
      };
    }
    return Object.assign(Object.create(proto), ctrl);
  }
  // noForm refuses a multipart write reaching Strapi's controller steps in the sandbox (a
  // model whose read hooks run, or whose service the project replaced): Strapi's parseBody
  // reads its JSON data field and hands its files to the entity service, which uploads them
  // and reads the entry again through findOne; Quarry's entity service writes no files.
  function noForm(ctx, uid, action) {
    if (ctx.is && ctx.is('multipart')) {
      throw new errors.NotImplementedError('a multipart/form-data ' + action + ' of ' + uid + ' through Strapi\'s controller steps (its entity service uploads the files) is not run by Quarry; send JSON');
    }
  }
  function serviceMethod(action) {
    return action;
  }
  function isObj(v) { return v !== null && (typeof v === 'object' || typeof v === 'function'); }
  function pagination(params) {
    var cfg = { defaultLimit: Number(strapi.config.get('api.rest.defaultLimit', 25)), maxLimit: Number(strapi.config.get('api.rest.maxLimit')) || null };
    var p = params.pagination;
    var paged = p && ('page' in p || 'pageSize' in p), offset = p && ('start' in p || 'limit' in p);
    if (paged && offset) throw new errors.ValidationError('Invalid pagination parameters. Expected either start/limit or page/pageSize');
    if (!paged && !offset) return { page: 1, pageSize: cfg.defaultLimit };
    if (paged) {
      var size = p.pageSize === undefined ? cfg.defaultLimit : Math.max(1, Number(p.pageSize));
      return { page: Math.max(1, Number(p.page || 1)), pageSize: typeof cfg.maxLimit === 'number' && cfg.maxLimit !== null && size > cfg.maxLimit ? cfg.maxLimit : Math.max(1, size) };
    }
    var limit = p.limit === undefined ? cfg.defaultLimit : Number(p.limit);
    var capped = limit === -1 || (cfg.maxLimit !== null && limit > cfg.maxLimit);
    return { start: Math.max(0, Number(p.start || 0)), limit: capped ? (cfg.maxLimit || -1) : Math.max(1, limit) };
  }
  function shouldCount(params) {
    if (params.pagination && 'withCount' in params.pagination) {
      var w = params.pagination.withCount;
      if (typeof w === 'boolean') return w;
      if (w === undefined) return false;
      if (['true', 't', '1', 1].indexOf(w) >= 0) return true;
      if (['false', 'f', '0', 0].indexOf(w) >= 0) return false;
      throw new errors.ValidationError('Invalid withCount parameter. Expected "t","1","true","false","0","f"');
    }
    return Boolean(strapi.config.get('api.rest.withCount', true));
  }
  function baseService(uid) {
    var ct = contentTypes[uid];
    var dp = ct && ct.options && ct.options.draftAndPublish;
    function fetchParams(params) { return Object.assign({ publicationState: 'live' }, params || {}); }
    if (ct && ct.kind === 'singleType') {
      return {
        getFetchParams: fetchParams,
        find: function (params) { return entityService.findMany(uid, this.getFetchParams(params)); },
        createOrUpdate: async function (arg) {
          arg = arg || { data: {} };
          var data = arg.data, params = Object.assign({}, arg);
          delete params.data;
          var e = await this.find(Object.assign({}, params, { publicationState: 'preview' }));
          if (!e) {
            if (await query(uid).count() >= 1) throw new errors.ValidationError('singleType.alreadyExists');
            if (dp && data && !('publishedAt' in data)) data.publishedAt = new Date();
            return entityService.create(uid, Object.assign({}, params, { data: data }));
          }
          return entityService.update(uid, e.id, Object.assign({}, params, { data: data }));
        },
        delete: async function (params) {
          var e = await this.find(params || {});
          if (!e) return undefined;
          return entityService.delete(uid, e.id);
        }
      };
    }
    return {
      getFetchParams: fetchParams,
      find: async function (params) {
        var fp = this.getFetchParams(params);
        var info = pagination(fp);
        var sl = 'page' in info ? { start: (info.page - 1) * info.pageSize, limit: info.pageSize } : info;
        var results = await entityService.findMany(uid, Object.assign({}, fp, sl));
        if (shouldCount(fp)) {
          var count = await entityService.count(uid, Object.assign({}, fp, info));
          var pg = Object.assign({}, info);
          if ('page' in info) pg.pageCount = Math.ceil(count / info.pageSize);
          pg.total = count;
          return { results: results, pagination: pg };
        }
        return { results: results, pagination: info };
      },
      findOne: function (id, params) { return entityService.findOne(uid, id, this.getFetchParams(params)); },
      create: function (params) {
        params = params || { data: {} };
        if (dp && params.data && !('publishedAt' in params.data)) params.data.publishedAt = new Date();
        return entityService.create(uid, params);
      },
      update: function (id, params) { return entityService.update(uid, id, params || { data: {} }); },
      delete: function (id, params) { return entityService.delete(uid, id, params || {}); }
    };
  }
  function createCoreController(uid, cfg) {
    return function (deps) {
      var base = baseController(uid);
      var user = typeof cfg === 'function' ? cfg(deps) : (cfg || {});
      Object.keys(base).forEach(function (m) { if (user[m] === undefined) user[m] = base[m]; });
      Object.setPrototypeOf(user, base);
      return user;
    };
  }
  function createCoreService(uid, cfg) {
    return function (deps) {
      var base = baseService(uid);
      var user = typeof cfg === 'function' ? cfg(deps) : (cfg || {});
      var own = {};
      Object.keys(base).forEach(function (m) { if (user[m] === undefined) { user[m] = base[m]; own[m] = true; } });
      Object.setPrototypeOf(user, base);
      Object.defineProperty(user, '__quarryOwn', { value: function (m) { return own[m] === true; }, enumerable: false });
      return user;
    };
  }
  // Strapi's router: its routes (a getter, made once) are the core routes of the uid, with
  // config[action] assigned on each, except then only applied as lodash's omit and pick do.
  function createCoreRouter(uid, cfg) {
    var c = cfg === undefined || cfg === null ? {} : cfg;
    var routes;
    return {
      type: c.type === undefined ? 'content-api' : c.type,
      prefix: c.prefix,
      get routes() {
        if (routes) return routes;
        var ct = contentTypes[uid];
        if (!ct) throw new TypeError("Cannot read properties of undefined (reading 'kind')");
        var single = ct.kind === 'singleType';
        var name = '/' + (single ? ct.info.singularName : ct.info.pluralName);
        var defs = single ? [['find', 'GET', ''], ['update', 'PUT', ''], ['delete', 'DELETE', '']]
          : [['find', 'GET', ''], ['findOne', 'GET', '/:id'], ['create', 'POST', ''], ['update', 'PUT', '/:id'], ['delete', 'DELETE', '/:id']];
        var config = c.config || {};
        var all = {};
        defs.forEach(function (d) {
          all[d[0]] = { method: d[1], path: name + d[2], handler: uid + '.' + d[0], config: Object.assign({}, config[d[0]] || {}) };
        });
        var keys = Object.keys(all);
        if (c.except) {
          var except = [].concat(c.except).map(String);
          keys = keys.filter(function (k) { return except.indexOf(k) < 0; });
        }
        if (c.only) {
          keys = [].concat(c.only).map(String).filter(function (k, i, list) { return keys.indexOf(k) >= 0 && list.indexOf(k) === i; });
        }
        routes = keys.map(function (k) { return all[k]; });
        return routes;
      }
    };
  }

  // ---- Koa's context ----
  // ctxProto holds what every request's ctx shares (Koa's delegated methods and Strapi's
  // error helpers); a request's ctx is an object over it with the request's own state.
  var ctxProto = {
    get: function (n) { return this.headers[String(n).toLowerCase()] || ''; },
    is: function (t) { return isType(this.headers['content-type'], t); },
    set: function (n, v) { setHeader(this.__res, n, v); },
    throw: function (status, message, props) {
      if (typeof status === 'string') { props = message; message = status; status = 500; }
      if (status instanceof Error) throw status;
      throw httpError(status, message, props);
    },
    assert: function (v, status, message) { if (!v) this.throw(status, message); },
    send: function (data, status) { this.status = status === undefined ? 200 : status; this.body = data; },
    created: function (data) { this.status = 201; this.body = data; },
    deleted: function (data) { if (data === undefined || data === null) this.status = 204; else { this.status = 200; this.body = data; } }
  };
  Object.keys(statusText).forEach(function (code) {
    code = Number(code);
    if (code < 400 || code >= 600) return;
    ctxProto[camel(statusText[code])] = function (message, details) {
      var e = httpError(code, message);
      this.status = code;
      this.body = { data: null, error: { status: code, name: e.name, message: e.message, details: details === undefined ? {} : details } };
    };
  });
  // What ctx.body is, to the app-level middlewares, for a response Quarry sends itself after
  // them (a media file, as koa-static's stream): a middleware that leaves it sends the file.
  var deferredStream = Object.freeze({ readable: true, pipe: function () { throw new errors.NotImplementedError('Quarry sends media files itself: their stream is not readable by the project\'s middlewares'); } });
  Object.defineProperty(ctxProto, 'query', { get: function () { return this.__req.query; }, set: function (v) { this.__req.query = v; } });
  Object.defineProperty(ctxProto, 'body', {
    get: function () {
      var res = this.__res;
      if (res.raw === host.deferredBody) return deferredStream; // a file Quarry sends itself
      if (res.raw !== null) { res.body = JSON.parse(res.raw); res.raw = null; }
      return res.body;
    },
    set: function (v) { var res = this.__res; res.raw = null; res.body = v; if (res.status === undefined) res.status = (v === null ? 204 : 200); }
  });
  Object.defineProperty(ctxProto, 'status', {
    get: function () { return this.__res.status === undefined ? 404 : this.__res.status; },
    set: function (v) { this.__res.status = v; }
  });
  Object.defineProperty(ctxProto, 'type', {
    get: function () { return this.__res.headers['content-type'] || ''; },
    set: function (v) { setHeader(this.__res, 'content-type', v); }
  });
  var requestProto = {
    get: function (n) { return this.headers[String(n).toLowerCase()] || ''; },
    is: function (t) { return isType(this.headers['content-type'], t); }
  };
  Object.defineProperty(requestProto, 'body', { get: function () { return this.__req.body; }, set: function (v) { this.__req.body = v; } });
  Object.defineProperty(requestProto, 'query', { get: function () { return this.__req.query; }, set: function (v) { this.__req.query = v; } });
  var responseProto = {
    get: function (n) { return resHeader(this.__res, String(n).toLowerCase()); },
    set: function (n, v) { setHeader(this.__res, n, v); }
  };
  Object.defineProperty(responseProto, 'body', { get: function () { return this.__ctx.body; }, set: function (v) { this.__ctx.body = v; } });
  Object.defineProperty(responseProto, 'status', { get: function () { return this.__ctx.status; }, set: function (v) { this.__ctx.status = v; } });
  // ---- Koa's redirect, attachment, append/remove/vary, accepts, href/origin/search ----
  function encodeUrl(url) { // the encodeurl package (1.0)
    return String(url).replace(/([\uD800-\uDBFF][\uDC00-\uDFFF])|[\uD800-\uDFFF]/g, function (m, pair) { return pair || '\uFFFD'; })
      .replace(/(?:[^\x21\x25\x26-\x3B\x3D\x3F-\x5B\x5D\x5F\x61-\x7A\x7E]+|%+(?![0-9A-Fa-f]{2})){1,1024}/g, encodeURI);
  }
  function escapeHtml(s) {
    return String(s).replace(/[&<>"']/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]; });
  }
  var redirectStatuses = { 300: true, 301: true, 302: true, 303: true, 305: true, 307: true, 308: true };
  var shortTypes = { html: 'text/html', text: 'text/plain', json: 'application/json', xml: 'application/xml', urlencoded: 'application/x-www-form-urlencoded', form: 'application/x-www-form-urlencoded', multipart: 'multipart/*' };
  // accepts (negotiator's media types, simplified): with no Accept header every type is;
  // otherwise the type the client weighs most among those asked, false for none.
  function accepts() {
    var types = Array.prototype.concat.apply([], arguments).map(String);
    var header = this.headers.accept;
    var ranges = header ? String(header).split(',').map(function (part) {
      var bits = part.trim().split(';'), q = 1;
      bits.slice(1).forEach(function (b) { var kv = b.trim().split('='); if (kv[0] === 'q') q = parseFloat(kv[1]); });
      var mt = bits[0].trim().toLowerCase().split('/');
      return { type: mt[0], sub: mt[1] || '*', q: isNaN(q) ? 0 : q };
    }).filter(function (r) { return r.type; }) : null;
    if (types.length === 0) return ranges ? ranges.filter(function (r) { return r.q > 0; }).map(function (r) { return r.type + '/' + r.sub; }) : ['*/*'];
    if (!ranges) return types[0];
    var best = false, bestQ = 0;
    types.forEach(function (t) {
      var full = (shortTypes[t] || (t.indexOf('/') < 0 ? 'application/' + t : t)).toLowerCase().split('/');
      var q = -1, spec = -1;
      ranges.forEach(function (r) {
        var s2 = r.type === full[0] && r.sub === full[1] ? 2 : r.type === full[0] && r.sub === '*' ? 1 : r.type === '*' ? 0 : -1;
        if (s2 > spec) { spec = s2; q = r.q; }
      });
      if (q > bestQ) { best = t; bestQ = q; }
    });
    return best;
  }
  var mimeByExt = { '.csv': 'text/csv', '.txt': 'text/plain', '.html': 'text/html', '.htm': 'text/html', '.json': 'application/json',
    '.xml': 'application/xml', '.pdf': 'application/pdf', '.zip': 'application/zip', '.png': 'image/png', '.jpg': 'image/jpeg',
    '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.svg': 'image/svg+xml', '.webp': 'image/webp', '.ics': 'text/calendar',
    '.js': 'application/javascript', '.css': 'text/css', '.md': 'text/markdown', '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' };
  function typeOfExt(name) {
    var m = /(\.[^./\\]+)$/.exec(String(name).toLowerCase());
    var t = m && mimeByExt[m[1]];
    if (!t) return undefined;
    return /^text\/|^application\/(json|javascript|xml)$/.test(t) ? t + '; charset=utf-8' : t;
  }
  // content-disposition (0.5): the base name quoted when it is Latin-1 text, with filename*
  // (UTF-8, percent-encoded) and a Latin-1 fallback ('?' for the rest) when it is not.
  function contentDisposition(filename) {
    if (filename === undefined) return 'attachment';
    var name = String(filename).split(/[\\/]/).pop();
    var quote = function (v) { return '"' + v.replace(/([\\"])/g, '\\$1') + '"'; };
    var isText = /^[\x20-\x7e\x80-\xff]+$/.test(name);
    var fallback = name.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
    var hasFallback = fallback !== name;
    var out = 'attachment';
    if (isText || hasFallback) out += '; filename=' + quote(hasFallback ? fallback : name);
    if (hasFallback || !isText || /%[0-9A-Fa-f]{2}/.test(name)) {
      out += "; filename*=UTF-8''" + encodeURIComponent(name).replace(/[\x00-\x20"'()*,/:;<=>?@[\\\]{}\x7f]/g, function (c) { return '%' + c.charCodeAt(0).toString(16).toUpperCase(); });
    }
    return out;
  }
  // resHeader is a response header as Koa's response has it: set by the code, or else by the
  // middlewares before the route (CORS' Vary: Origin), unless the code removed it.
  function resHeader(res, k) {
    var v = res.headers[k];
    if (v === undefined && !(res.removed && res.removed.indexOf(k) >= 0)) v = host.preHeader(k);
    return v;
  }
  var koaResponse = {
    redirect: function (url, alt) {
      var ctx = this.__ctx || this;
      if (url === 'back') {
        var ref = ctx.request.headers.referrer || ctx.request.headers.referer, back;
        if (ref) { var u = new URL(ref, ctx.href); if (u.host === ctx.host) back = ref; }
        url = back || alt || '/';
      }
      if (/^https?:\/\//i.test(url)) url = new URL(url).toString();
      setHeader(ctx.__res, 'Location', encodeUrl(url));
      if (!redirectStatuses[ctx.__res.status]) ctx.status = 302;
      if (ctx.accepts('html')) {
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = 'Redirecting to ' + escapeHtml(url) + '.';
        return;
      }
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'Redirecting to ' + url + '.';
    },
    attachment: function (filename) {
      var ctx = this.__ctx || this;
      if (filename) { var t = typeOfExt(filename); if (t) setHeader(ctx.__res, 'content-type', t); }
      setHeader(ctx.__res, 'Content-Disposition', contentDisposition(filename));
    },
    append: function (field, val) {
      var res = (this.__ctx || this).__res, prev = resHeader(res, String(field).toLowerCase());
      if (prev) val = Array.isArray(prev) ? prev.concat(val) : [prev].concat(val);
      setHeader(res, field, val);
    },
    remove: function (field) {
      var res = (this.__ctx || this).__res, k = String(field).toLowerCase();
      delete res.headers[k];
      (res.removed || (res.removed = [])).push(k);
    },
    vary: function (field) {
      var res = (this.__ctx || this).__res, cur = resHeader(res, 'vary');
      var list = cur ? String(cur).split(/\s*,\s*/) : [];
      if (list.indexOf('*') >= 0) return;
      String(field).split(/\s*,\s*/).forEach(function (f) {
        if (f === '*') { list = ['*']; return; }
        if (!list.some(function (x) { return x.toLowerCase() === f.toLowerCase(); })) list.push(f);
      });
      res.headers.vary = list.join(', ');
    }
  };
  function origin() { return this.protocol + '://' + this.host; }
  function href() { return /^https?:\/\//i.test(this.originalUrl || '') ? this.originalUrl : this.origin + (this.originalUrl === undefined ? this.url : this.originalUrl); }
  function search() { var q = this.__req.querystring; return q ? '?' + q : ''; }
  Object.keys(koaResponse).forEach(function (k) { ctxProto[k] = koaResponse[k]; responseProto[k] = koaResponse[k]; });
  ctxProto.accepts = function () { return accepts.apply(this.request, arguments); };
  requestProto.accepts = accepts;
  [ctxProto, requestProto].forEach(function (proto) {
    Object.defineProperty(proto, 'origin', { get: origin, configurable: true });
    Object.defineProperty(proto, 'href', { get: href, configurable: true });
    Object.defineProperty(proto, 'search', { get: search, set: ownSetter('search'), configurable: true });
  });
  var userProp = {
    enumerable: true, configurable: true,
    get: function () {
      var id = this.__req.userId;
      if (this.__user === undefined && id) {
        var u = call('auth.user', { id: id }) || null;
        sealPassword(u); // as the plugin's authentication reads the user: with its password
        Object.defineProperty(this, '__user', { value: u, writable: true });
      }
      return this.__user === null ? undefined : this.__user;
    },
    set: function (v) { Object.defineProperty(this, '__user', { value: v, writable: true }); }
  };
  // ctx.state.auth is made when it is first read (most routes never read it) from the caller
  // the host put on the request, as Strapi's auth service leaves it: then, or once assigned,
  // it is the state's own data property.
  function ownData(o, k, v) { Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true }); }
  var authProp = {
    enumerable: true, configurable: true,
    get: function () { var a = authFromReq(this.__req); ownData(this, 'auth', a); return a; },
    set: function (v) { ownData(this, 'auth', v); }
  };
  function authFromReq(req) {
    if (req.authKind === 'user') return { credentials: { id: req.authId }, strategy: { name: 'users-permissions' } };
    if (req.authKind === 'token') return { credentials: { id: req.authId, type: req.authType }, strategy: { name: 'api-token' } };
    return { credentials: null, strategy: { name: 'users-permissions' } };
  }
  // What ctx and ctx.request tell of the request (method, url, headers, …) they read from the
  // request itself, as Koa's delegates do, rather than each request copying them onto both: a
  // value the project's code assigns becomes the object's own property.
  function fromReq(k) { return function () { return this.__req[k]; }; }
  function ownSetter(k) { return function (v) { ownData(this, k, v); }; }
  function hostname() { return (this.__req.headers.host || '').split(':')[0]; }
  [ctxProto, requestProto].forEach(function (proto) {
    ['method', 'url', 'path', 'headers', 'ip'].forEach(function (k) {
      Object.defineProperty(proto, k, { get: fromReq(k), set: ownSetter(k), configurable: true });
    });
    Object.defineProperty(proto, 'header', { get: fromReq('headers'), set: ownSetter('header'), configurable: true });
    Object.defineProperty(proto, 'host', { get: function () { return this.__req.headers.host; }, set: ownSetter('host'), configurable: true });
    Object.defineProperty(proto, 'hostname', { get: hostname, set: ownSetter('hostname'), configurable: true });
  });
  Object.defineProperty(requestProto, 'querystring', { get: fromReq('querystring'), set: ownSetter('querystring'), configurable: true });
  // request.ips is one array per request: made when first read.
  Object.defineProperty(requestProto, 'ips', {
    get: function () { var a = [this.__req.ip]; ownData(this, 'ips', a); return a; },
    set: ownSetter('ips'), configurable: true
  });
  // ctx.cookies is made when first read, as Koa makes it: the cookies package with the app's
  // keys and the request's secure flag.
  Object.defineProperty(ctxProto, 'cookies', {
    get: function () { if (this.__cookies === undefined) hidden(this, '__cookies', new Cookies(this)); return this.__cookies; },
    set: function (v) { if (this.__cookies === undefined) hidden(this, '__cookies', v); else this.__cookies = v; },
    configurable: true
  });
  // ctx.protocol and ctx.secure as Koa's: https over TLS; behind a proxy the app trusts
  // (config/server proxy: true) the first X-Forwarded-Proto; http otherwise.
  function protocol() {
    var req = this.__req;
    if (req.encrypted) return 'https';
    if (!strapi.config.get('server.proxy')) return 'http';
    var p = req.headers['x-forwarded-proto'];
    return p ? String(p).split(/\s*,\s*/, 1)[0] : 'http';
  }
  [ctxProto, requestProto].forEach(function (proto) {
    Object.defineProperty(proto, 'protocol', { get: protocol, set: ownSetter('protocol'), configurable: true });
    Object.defineProperty(proto, 'secure', { get: function () { return this.protocol === 'https'; }, set: ownSetter('secure'), configurable: true });
  });
  Object.defineProperty(responseProto, '__res', { get: function () { return this.__ctx.__res; } });
  // hidden is Object.defineProperty(o, k, { value: v, writable: true }), done by the host
  // without a descriptor object for each of a request's internals.
  var hidden = host.hidden;
  function makeCtx(req) {
    var res = { status: undefined, body: undefined, raw: null, headers: {} };
    if (!req.query) req.query = {};
    var state = { route: req.route };
    if (req.authKind !== undefined) Object.defineProperty(state, 'auth', authProp);
    else state.auth = req.auth;
    hidden(state, '__req', req);
    Object.defineProperty(state, 'user', userProp);
    var request = Object.create(requestProto);
    hidden(request, '__req', req);
    if (req.files) request.files = formFiles(JSON.parse(req.files));
    var ctx = Object.create(ctxProto);
    hidden(ctx, '__res', res);
    hidden(ctx, '__req', req);
    var response = Object.create(responseProto);
    hidden(response, '__ctx', ctx);
    ctx.request = request; ctx.response = response; ctx.state = state; ctx.params = req.params || {};
    ctx.originalUrl = req.url;
    return ctx;
  }
  // ctx.request.files of a multipart request: formidable's File objects (size, path, name,
  // type, hash, lastModifiedDate), which JSON.stringify writes with mtime for the date.
  function formFiles(byField) {
    function file(f) {
      var o = { size: f.size, path: f.path, name: f.name, type: f.type === undefined ? undefined : f.type, hash: null, lastModifiedDate: new Date(f.mtime) };
      hidden(o, 'toJSON', function () { return { size: this.size, path: this.path, name: this.name, type: this.type, mtime: this.lastModifiedDate }; });
      return o;
    }
    Object.keys(byField).forEach(function (k) {
      var v = byField[k];
      byField[k] = Array.isArray(v) ? v.map(file) : file(v);
    });
    return byField;
  }
  // ---- Cookies: the cookies package (0.9) Koa gives every request as ctx.cookies ----
  // get reads the request's Cookie header (as the code left it); with options and the app's
  // keys (config/server app.keys) it checks the value against its .sig cookie (keygrip:
  // HMAC-SHA1, any key; a stale key re-signs with the first, a bad signature clears .sig).
  // set adds a Set-Cookie line (path / and httponly unless told otherwise), and with options
  // and keys a .sig line signing it; a secure cookie over plain http throws, as Koa's does.
  function appKeys() {
    var k = strapi.config.get('server.app.keys');
    if (typeof k === 'string') k = k.split(',');
    return Array.isArray(k) && k.length > 0 ? k.map(String) : null;
  }
  var cookieField = /^[\u0009\u0020-\u007e\u0080-\u00ff]+$/;
  var cookieDomain = /^([.]?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)([.][a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;
  var cookiePath = /^[ -:=-~]*$/, cookiePriority = /^(?:low|medium|high)$/i, cookieSameSite = /^(?:lax|none|strict)$/i;
  function Cookie(name, value, attrs) {
    if (!cookieField.test(name) || /[;=]/.test(name)) throw new TypeError('argument name is invalid');
    if (value && (!cookieField.test(value) || /[;]/.test(value))) throw new TypeError('argument value is invalid');
    this.name = name;
    this.value = value || '';
    for (var k in attrs) this[k] = attrs[k];
    if (!this.value) { this.expires = new Date(0); this.maxAge = null; }
    if (this.path && !cookiePath.test(this.path)) throw new TypeError('option path is invalid');
    if (this.domain && !cookieDomain.test(this.domain)) throw new TypeError('option domain is invalid');
    if (typeof this.maxAge === 'number' ? (isNaN(this.maxAge) || !isFinite(this.maxAge)) : this.maxAge) throw new TypeError('option maxAge is invalid');
    if (this.priority && !cookiePriority.test(this.priority)) throw new TypeError('option priority is invalid');
    if (this.sameSite && this.sameSite !== true && !cookieSameSite.test(this.sameSite)) throw new TypeError('option sameSite is invalid');
  }
  Cookie.prototype.path = '/';
  Cookie.prototype.expires = undefined;
  Cookie.prototype.domain = undefined;
  Cookie.prototype.httpOnly = true;
  Cookie.prototype.partitioned = false;
  Cookie.prototype.priority = undefined;
  Cookie.prototype.sameSite = false;
  Cookie.prototype.secure = false;
  Cookie.prototype.overwrite = false;
  Cookie.prototype.toString = function () { return this.name + '=' + this.value; };
  Cookie.prototype.toHeader = function () {
    var header = this.toString();
    if (this.maxAge) this.expires = new Date(Date.now() + this.maxAge);
    if (this.path) header += '; path=' + this.path;
    if (this.expires) header += '; expires=' + this.expires.toUTCString();
    if (this.domain) header += '; domain=' + this.domain;
    if (this.priority) header += '; priority=' + this.priority.toLowerCase();
    if (this.sameSite) header += '; samesite=' + (this.sameSite === true ? 'strict' : this.sameSite.toLowerCase());
    if (this.secure) header += '; secure';
    if (this.httpOnly) header += '; httponly';
    if (this.partitioned) header += '; partitioned';
    return header;
  };
  function pushCookie(headers, cookie) {
    if (cookie.overwrite) {
      for (var i = headers.length - 1; i >= 0; i--) if (headers[i].indexOf(cookie.name + '=') === 0) headers.splice(i, 1);
    }
    headers.push(cookie.toHeader());
  }
  function cookiePattern(name) { return new RegExp('(?:^|;) *' + name.replace(/[\^$\\.*+?()[\]{}|]/g, '\\$&') + '=([^;]*)'); }
  function Cookies(ctx) { hidden(this, '__ctx', ctx); }
  Cookies.prototype.get = function (name, opts) {
    var keys = appKeys();
    var signed = opts && opts.signed !== undefined ? opts.signed : !!keys;
    var header = this.__ctx.request.headers.cookie;
    if (!header) return undefined;
    var match = String(header).match(cookiePattern(name));
    if (!match) return undefined;
    var value = match[1];
    if (value[0] === '"') value = value.slice(1, -1);
    if (!opts || !signed) return value;
    var remote = this.get(name + '.sig');
    if (!remote) return undefined;
    var data = name + '=' + value;
    if (!keys) throw new Error('.keys required for signed cookies');
    var index = call('cookie.index', { data: data, digest: remote, keys: keys });
    if (index < 0) { this.set(name + '.sig', null, { path: '/', signed: false }); return undefined; }
    if (index) this.set(name + '.sig', call('cookie.sign', { data: data, key: keys[0] }), { signed: false });
    return value;
  };
  Cookies.prototype.set = function (name, value, opts) {
    var res = this.__ctx.__res, keys = appKeys();
    var headers = res.headers['set-cookie'] === undefined ? [] : [].concat(res.headers['set-cookie']);
    var cookie = new Cookie(name, value, opts);
    var signed = opts && opts.signed !== undefined ? opts.signed : !!keys;
    var secure = this.__ctx.secure;
    if (!secure && opts && opts.secure) throw new Error('Cannot send secure cookie over unencrypted connection');
    cookie.secure = opts && opts.secure !== undefined ? opts.secure : secure;
    if (opts && 'secureProxy' in opts) cookie.secure = opts.secureProxy;
    pushCookie(headers, cookie);
    if (opts && signed) {
      if (!keys) throw new Error('.keys required for signed cookies');
      cookie.value = call('cookie.sign', { data: cookie.toString(), key: keys[0] });
      cookie.name += '.sig';
      pushCookie(headers, cookie);
    }
    res.headers['set-cookie'] = headers;
    return this;
  };
  function setHeader(res, n, v) {
    if (n && typeof n === 'object') { Object.keys(n).forEach(function (k) { setHeader(res, k, n[k]); }); return; }
    res.headers[String(n).toLowerCase()] = Array.isArray(v) ? v.map(String) : String(v);
  }
  function isType(ct, t) {
    if (!ct) return false;
    ct = String(ct).split(';')[0].trim().toLowerCase();
    var list = Array.isArray(t) ? t : [t];
    for (var i = 0; i < list.length; i++) {
      var x = String(list[i]).toLowerCase();
      if (x === 'json' && ct === 'application/json') return x;
      if (x === 'multipart' && ct.indexOf('multipart/') === 0) return x;
      if (x === 'urlencoded' && ct === 'application/x-www-form-urlencoded') return x;
      if (x === ct || (x.indexOf('/') < 0 && ct.split('/')[1] === x)) return x;
    }
    return false;
  }

  // The core action Quarry runs itself, for ctx. As a route's own action (keepRaw) its answer
  // becomes ctx's body, kept as the raw JSON until the project's code reads it; called from a
  // controller (super.find(ctx)) it is returned, as Strapi's core action returns it.
  function native(ctx, uid, action, keepRaw) {
    // uid, action and id go as they are, the query and the body as JSON of their own (the host
    // reads the query's without decoding it into a tree); no body is null, with no JSON made.
    var id = ctx.params.id === undefined ? null : String(ctx.params.id);
    var query = JSON.stringify(ctx.query);
    var rb = ctx.request.body;
    var body = host.native(uid, action, id, query, rb === undefined || rb === null ? null : JSON.stringify(rb));
    var status = host.nativeStatus();
    if (status >= 400) {
      var err = JSON.parse(body).error || {};
      throw toError({ status: status, name: err.name, message: err.message, details: err.details, quarry: { status: status, body: body } });
    }
    if (!keepRaw) return JSON.parse(body);
    ctx.__res.status = status;
    ctx.__res.raw = body;
    ctx.__res.body = undefined;
    return undefined;
  }

  // ---- running a route ----
  // compose runs list as koa-compose does. last, when given, is the chain's own end (a step
  // of Quarry's that never calls next): it is called with ctx alone, without a next function
  // made for it.
  function compose(list, last) {
    var n = list.length;
    return function (ctx) {
      var index = -1;
      function dispatch(i) {
        if (i <= index) return Promise.reject(new Error('next() called multiple times'));
        index = i;
        if (i === n && last) {
          try { return Promise.resolve(last(ctx)); } catch (e) { return Promise.reject(e); }
        }
        var fn = list[i];
        if (!fn) return Promise.resolve();
        try { return Promise.resolve(fn(ctx, function () { return dispatch(i + 1); })); } catch (e) { return Promise.reject(e); }
      }
      return dispatch(0);
    };
  }
  var koaOwn = ['request', 'response', 'app', 'req', 'res', 'originalUrl', 'state', 'params', 'captures', '_matchedRoute', '_matchedRouteName', 'routerPath'];
  function resolvePolicy(p, info) {
    var name = p, config = {};
    if (typeof p === 'function') return { handler: p, config: {} };
    if (p && typeof p === 'object') { name = p.name; config = p.config || {}; }
    return { handler: policy(qualify(name, info, 'policy')), config: config };
  }
  function resolveMiddleware(m, info) {
    if (typeof m === 'function') return m;
    var name = m, config = {};
    if (m && typeof m === 'object') { name = m.name; config = m.config || {}; }
    var factory = middleware(qualify(name, info, 'middleware'));
    return factory(config, { strapi: strapi }) || function (ctx, next) { return next(); };
  }
  // A route's policy or middleware name as Strapi resolves it: global::x, api::a.x,
  // plugin::p.x, or a bare name in the route's own api or plugin.
  function qualify(name, info, kind) {
    if (name.indexOf('::') >= 0) return name;
    if (info && info.apiName) return 'api::' + info.apiName + '.' + name;
    if (info && info.pluginName) return 'plugin::' + info.pluginName + '.' + name;
    return 'global::' + name;
  }
  // The request's own route as Quarry serves it natively (a plugin's action), with the query
  // and body the chain left; its answer becomes ctx's body as the raw JSON.
  function nativeRoute(ctx) {
    var body = host.nativeRoute(JSON.stringify(ctx.query), JSON.stringify(ctx.request.body === undefined ? null : ctx.request.body), false);
    ctx.__res.status = host.nativeStatus();
    ctx.__res.raw = body;
    ctx.__res.body = undefined;
    return undefined;
  }
  // The end of the app-level middlewares' chain: the request served as the router serves it
  // (its route's own chain included), with the query and body they left; its answer, headers
  // included, becomes ctx's response.
  function appNext(ctx) {
    var body = host.nativeRoute(JSON.stringify(ctx.query), JSON.stringify(ctx.request.body === undefined ? null : ctx.request.body), true, JSON.stringify(ctx.request.headers), appState(ctx.state));
    ctx.__res.status = host.nativeStatus();
    // The route's authentication sets ctx.state.user and ctx.state.auth on Strapi's one ctx:
    // the middlewares see them after next().
    var who = host.nativeCaller();
    if (who) {
      var req = ctx.__req;
      req.authKind = who.authKind; req.authId = who.authId; req.authType = who.authType;
      if (who.authKind === 'user') req.userId = who.authId;
      ownData(ctx.state, 'auth', authFromReq(req));
    }
    var h = host.nativeHeaders();
    var hdrs = ctx.__res.headers;
    for (var i = 0; i + 1 < h.length; i += 2) {
      if (h[i] !== 'set-cookie') { hdrs[h[i]] = h[i + 1]; continue; }
      // The route's cookies join those the middlewares set before next(), as on one response.
      var list = hdrs['set-cookie'] === undefined ? [] : [].concat(hdrs['set-cookie']);
      list.push(h[i + 1]);
      hdrs['set-cookie'] = list;
    }
    ctx.__res.raw = body;
    ctx.__res.body = undefined;
    return undefined;
  }
  // appState is what the app-level middlewares left in ctx.state, for the route's own ctx
  // (Strapi's koa context is one for the whole request): JSON of { values, refused }, the
  // keys whose values are plain data (objects, arrays, strings, finite numbers, booleans,
  // null) as they are, the others (functions, dates, class instances) named, a read of which
  // the route refuses rather than see something else. null when there is nothing.
  var STATE_OWN = { route: true, auth: true, user: true, isAuthenticated: true };
  function plainData(v, depth) {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
    if (typeof v === 'number') return isFinite(v);
    if (typeof v !== 'object' || depth > 32) return false;
    var proto = Object.getPrototypeOf(v);
    if (Array.isArray(v)) return v.every(function (x) { return x !== undefined && plainData(x, depth + 1); });
    if (proto !== Object.prototype && proto !== null) return false;
    return Object.keys(v).every(function (k) { return v[k] === undefined || plainData(v[k], depth + 1); });
  }
  function appState(state) {
    var values = {}, refused = [], any = false;
    Object.keys(state).forEach(function (k) {
      if (STATE_OWN[k] || state[k] === undefined) return;
      any = true;
      if (plainData(state[k], 0)) values[k] = state[k];
      else refused.push(k);
    });
    return any ? JSON.stringify({ values: values, refused: refused }) : null;
  }
  function takeAppState(ctx, json) {
    var st = JSON.parse(json);
    Object.keys(st.values).forEach(function (k) { ctx.state[k] = st.values[k]; });
    st.refused.forEach(function (k) {
      Object.defineProperty(ctx.state, k, { configurable: true, enumerable: true,
        get: function () { throw new errors.NotImplementedError('ctx.state.' + k + ', which the app-level middlewares set, holds a value Quarry does not hand to the route (not plain data)'); },
        set: function (v) { Object.defineProperty(ctx.state, k, { value: v, writable: true, enumerable: true, configurable: true }); } });
    });
  }
  // A plugin as the project's extension (src/extensions/<plugin>/strapi-server) leaves it:
  // the extension receives the plugin with its controllers' actions, each answering the
  // request's own route as Quarry serves it natively, and its routes as register() sees them.
  var extendedPlugins = {}, extending = {};
  function extendedPlugin(name) {
    if (Object.prototype.hasOwnProperty.call(extendedPlugins, name)) return extendedPlugins[name];
    // The plugin's services as the project's code reaches them (strapi.plugin(name).service);
    // a service the extension sets anew replaces it (a factory is called as Strapi calls it).
    // Each is a factory, as Strapi keeps them until it loads the plugin: a method assigned
    // on one is the factory's own property, which Strapi ignores.
    var replaced = {}, factories = {};
    var services = new Proxy(replaced, {
      get: function (t, k) {
        if (Object.prototype.hasOwnProperty.call(t, k)) return t[k];
        if (typeof k !== 'string' || k === 'then' || k === 'toJSON') return undefined;
        if (!factories[k]) factories[k] = function () { return pluginService(name, k); };
        return factories[k];
      }
    });
    var plugin = { controllers: {}, services: services, policies: {}, middlewares: {}, contentTypes: {}, config: {}, routes: routesOf(name) };
    ((host.pluginRoutes || {})[name] || []).forEach(function (r) {
      var i = r.handler.indexOf('.');
      var c = r.handler.slice(0, i), a = r.handler.slice(i + 1);
      (plugin.controllers[c] = plugin.controllers[c] || {})[a] = function (ctx) { return nativeRoute(ctx); };
    });
    var f = files.extensions && files.extensions[name];
    var mod = f ? projectRequire(f) : undefined;
    if (mod && mod.__esModule && mod.default !== undefined) mod = mod.default;
    var out;
    extending[name] = true;
    try { out = typeof mod === 'function' ? mod(plugin) : plugin; } finally { extending[name] = false; }
    extendedPlugins[name] = out || plugin;
    Object.keys(replaced).forEach(function (k) {
      var v = replaced[k];
      pluginServices[name + '.' + k] = typeof v === 'function' ? v({ strapi: strapi }) : v;
    });
    return extendedPlugins[name];
  }
  function action(route) {
    if (route.extension) {
      var ctrls = extendedPlugin(route.plugin).controllers || {};
      var i = route.pluginHandler.indexOf('.');
      var name = route.pluginHandler.slice(0, i);
      var c = ctrls[name];
      // A controller given as a factory, as Strapi's controller registry takes it.
      if (typeof c === 'function') c = ctrls[name] = c({ strapi: strapi });
      var fn = c && c[route.pluginHandler.slice(i + 1)];
      if (typeof fn !== 'function') throw new errors.NotImplementedError('Handler not found "' + route.handler + '"');
      return function (ctx, next) { return fn.call(c, ctx, next); };
    }
    if (route.nativeRoute) return nativeRoute;
    // The core action's step answers a settled promise, as Promise.resolve(undefined) would
    // be: one made per sandbox, not per request.
    if (route.native) return function (ctx) { native(ctx, route.uid, route.native, true); return settled; };
    var h = route.handler;
    var i = h.lastIndexOf('.');
    var ctrlName = h.slice(0, i), act = h.slice(i + 1);
    var ctrl = strapi.controller(ctrlName);
    if (!ctrl || typeof ctrl[act] !== 'function') throw new errors.NotImplementedError('Handler not found "' + h + '"');
    return function (ctx, next) { return ctrl[act](ctx, next); };
  }
  var settled = Promise.resolve();
  function returnBody(ctx, next) {
    return next().then(function (v) {
      if ((ctx.__res.body === undefined || ctx.__res.body === null) && ctx.__res.raw === null && v !== undefined && v !== null) ctx.body = v;
    });
  }
  var chains = {};
  // src/index's register(), run once per sandbox for the plugin routes it changes with
  // functions of its own; a register() that fails refuses those routes.
  var registered, registerFailed;
  function ensureRegister() {
    if (registered) return registered;
    registered = new Promise(function (resolve) {
      var mod = indexModule();
      var reg = mod && mod.register;
      registering = true;
      try {
        resolve(typeof reg === 'function' ? reg.call(mod, { strapi: strapi }) : undefined);
      } catch (e) {
        registerFailed = e; // known at once, for what cannot wait (the GraphQL extensions)
        throw e;
      } finally { registering = false; }
    }).catch(function (e) {
      throw new errors.NotImplementedError('register() in ' + host.indexFile + ' failed under Quarry: ' + (e && e.message ? e.message : String(e)));
    });
    return registered;
  }
  function indexModule() {
    var mod = host.indexFile ? projectRequire(host.indexFile) : undefined;
    if (mod && mod.__esModule && mod.default !== undefined) mod = mod.default;
    return mod;
  }
  // ensureStartup is register() and the dry bootstrap(): what a sandbox needs of the start-up
  // code before it runs lifecycle subscribers.
  var started;
  function ensureStartup() {
    if (started) return started;
    started = ensureRegister().then(function () {
      var mod = indexModule();
      if (!mod || typeof mod.bootstrap !== 'function' || !host.subscriptions && !host.bootstrapUses) return;
      dry = true;
      try { Promise.resolve(mod.bootstrap.call(mod, { strapi: strapi })).catch(function () {}); } catch (e) { /* stopped at its first use of data */ } finally { dry = false; }
    });
    return started;
  }
  // bootstrap runs the local plugins' and then the project's bootstrap() for real, once at
  // start (in a sandbox of its own, dropped afterwards), as Strapi does after register().
  function bootstrap() {
    var box = { state: 'pending' };
    booting = true;
    try {
      ensureRegister().then(function () {
        var chain = Promise.resolve();
        // Strapi adds config/server's cron.tasks before the bootstrap functions run.
        var cronCfg = (host.config.server || {}).cron || {};
        if (cronCfg.enabled !== false) chain = chain.then(function () { cron.add(configCronTasks()); });
        Object.keys(files.plugins || {}).sort().forEach(function (name) {
          var c = (host.config.plugins || {})[name]; // Strapi loads a local plugin config/plugins declares
          if (!c || c.enabled === false) return;
          var p = localPlugin(name);
          if (p && typeof p.bootstrap === 'function') chain = chain.then(function () { return p.bootstrap({ strapi: strapi }); });
        });
        var mod = indexModule();
        if (mod && typeof mod.bootstrap === 'function') chain = chain.then(function () { return mod.bootstrap.call(mod, { strapi: strapi }); });
        return chain;
      }).then(function () { box.state = 'done'; }, function (e) { box.state = 'done'; box.error = e && e.message ? String(e.message) : String(e); });
    } catch (e) { box.state = 'done'; box.error = e && e.message ? String(e.message) : String(e); }
    return box;
  }
  // A live route's chain: its policies and middlewares as register() left them, without the
  // plugin's own (its action, Quarry's, applies those).
  function liveRoute(route) {
    var find = function (list) {
      for (var i = 0; i < list.length; i++) if (list[i].handler === route.pluginHandler && String(list[i].method).toUpperCase() === route.method) return list[i];
    };
    var live = find(routesOf(route.plugin)['content-api'].routes || []);
    if (!live) throw new errors.NotImplementedError('register() removed the route ' + route.method + ' ' + route.path);
    var orig = find((host.pluginRoutes || {})[route.plugin] || []) || {};
    var own = ((orig.config || {}).middlewares || []).filter(function (m) { return typeof m === 'string'; });
    var cfg = live.config || {};
    return Object.assign({}, route, {
      key: route.key + ' (as register() left it)',
      live: false,
      policies: cfg.policies || [],
      middlewares: (cfg.middlewares || []).filter(function (m) { return !(typeof m === 'string' && own.indexOf(m) >= 0); })
    });
  }
  // A strapi.server.routes route's chain: its handler, policies and middlewares as this
  // sandbox's run of register() or bootstrap() gave them.
  function serverRoute(route) {
    var r = serverRoutes[route.serverRoute][route.index];
    if (!r || String(r.method).toUpperCase() !== route.method || r.path !== route.path) {
      throw new errors.NotImplementedError('strapi.server.routes #' + (route.index + 1) + ' in ' + route.serverRoute + '() is not reached by the sandboxes' +
        (route.serverRoute === 'bootstrap' ? ' (it is called after bootstrap()\'s first use of data)' : ''));
    }
    var cfg = r.config || {};
    return Object.assign({}, route, {
      key: route.key + ' (as ' + route.serverRoute + '() gave it)',
      serverRoute: undefined,
      handlerFns: [].concat(r.handler),
      policies: cfg.policies || [],
      middlewares: cfg.middlewares || []
    });
  }
  function chain(route) {
    var key = route.key;
    if (chains[key]) return chains[key];
    if (route.serverRoute) {
      chains[key] = function (ctx) {
        return (route.serverRoute === 'bootstrap' ? ensureStartup() : ensureRegister()).then(function () {
          var c = chain(serverRoute(route));
          chains[key] = c;
          return c(ctx);
        });
      };
      return chains[key];
    }
    if (route.live) {
      chains[key] = function (ctx) {
        return ensureRegister().then(function () {
          var c = chain(liveRoute(route));
          chains[key] = c;
          return c(ctx);
        });
      };
      return chains[key];
    }
    var info = route.info || {};
    if (route.app) {
      var mws = route.middlewares || [];
      if (!mws.some(function (m) { return m.server; })) {
        chains[key] = compose([stackHeaders].concat(mws.map(function (m) { return resolveMiddleware(m, info); })), appNext);
        return chains[key];
      }
      // Middlewares src/index gives strapi.server.use: this sandbox's run of register() (and
      // of bootstrap(), up to its first use of data) gives them, once.
      chains[key] = function (ctx) {
        return (host.bootstrapUses ? ensureStartup() : ensureRegister()).then(function () {
          var c = serverChain(mws, info);
          chains[key] = c;
          return c(ctx);
        });
      };
      return chains[key];
    }
    var pols = (route.policies || []).map(function (p) { return resolvePolicy(p, info); });
    var policyMw = !pols.length ? null : function (ctx, next) {
      // Strapi's createPolicyContext: Object.assign({ is, type }, ctx), so only koa's own
      // properties of ctx (not the ones it delegates to request and response, such as
      // query) reach the policy.
      var pctx = { is: function (t) { return t === 'koa'; }, get type() { return 'koa'; } };
      koaOwn.forEach(function (k) { if (ctx[k] !== undefined) pctx[k] = ctx[k]; });
      var p = Promise.resolve();
      pols.forEach(function (pl) {
        p = p.then(function () { return pl.handler(pctx, pl.config, { strapi: strapi }); }).then(function (r) {
          if (r !== true && r !== undefined) throw new errors.PolicyError();
        });
      });
      return p.then(function () { return next(); });
    };
    // A route without policies has no policy step: it would only wait a tick before next().
    var list = (policyMw ? [policyMw] : []).concat((route.middlewares || []).map(function (m) { return resolveMiddleware(m, info); }));
    // A strapi.server.routes route's handler is its functions, composed after returnBody as
    // Strapi's endpoint composes them.
    var act = route.handlerFns ? null : action(route);
    // A core action of Quarry's ends the chain without a next of its own, and without
    // returnBody's step (it answers nothing returnBody would use).
    var run = route.native || route.nativeRoute ? compose(list, act) : compose(list.concat([returnBody], route.handlerFns || [act]));
    // Strapi's authorize step wraps the rest of the chain: an UnauthorizedError or
    // ForbiddenError (a PolicyError is one) thrown anywhere in it answers as
    // ctx.unauthorized() or ctx.forbidden() do. serve applies it to what the chain rejects
    // with (authorized), rather than a step of every request's chain doing it.
    chains[key] = function (ctx) { ctx.__res.authorize = true; return run(ctx); };
    return chains[key];
  }
  // serverChain is the app-level chain with the middlewares src/index gives strapi.server.use,
  // in Strapi's order: register()'s first (Strapi mounts them before config/middlewares' stack,
  // so they run before strapi::errors and strapi::body: an error they throw is koa's to answer,
  // and they see no parsed body), then Strapi's stack (strapi::errors answering what is thrown
  // inside it and what nothing answered, the body parsed) with config/middlewares' own, then
  // bootstrap()'s (mounted after the stack, before the router), then the route.
  function serverChain(mws, info) {
    var outer = [], list = [];
    mws.forEach(function (m) {
      if (!m.server) { list.push(resolveMiddleware(m, info)); return; }
      var fn = serverUses[m.server][m.index];
      if (typeof fn !== 'function') {
        throw new errors.NotImplementedError(m.name + (m.server === 'bootstrap'
          ? ' is called in bootstrap() after its first use of data, where Quarry does not reach it'
          : ' is not reached by register() under Quarry'));
      }
      (m.server === 'register' ? outer : list).push(fn);
    });
    if (!outer.length) return compose([stackHeaders].concat(list), appNext);
    return compose([koaErrors].concat(outer, [strapiStack], list), appNext);
  }
  // stackHeaders are the headers Strapi's own middlewares set on every answer before the
  // middlewares after them run (security, CORS, X-Powered-By): an answer given from there on
  // carries them, as the route's own answer does.
  function stackHeaders(ctx, next) {
    var h = ctx.__req.stackHeaders;
    if (!h) return next();
    for (var i = 0; i + 1 < h.length; i += 2) ctx.__res.headers[h[i]] = h[i + 1];
    return next().catch(function (e) { unpowered(ctx); throw e; });
  }
  // unpowered drops X-Powered-By from an answer to an error thrown inside the stack:
  // strapi::poweredBy sets it after its next(), which the error skips.
  function unpowered(ctx) { delete ctx.__res.headers['x-powered-by']; }
  // koaErrors is koa's own error handling (ctx.onerror) for what register()'s middlewares
  // throw outside Strapi's stack: an error with an exposed status answers its message as text,
  // every header unset but the error's own; anything else is an internal error (Quarry's
  // own refusals keep their answer).
  function koaErrors(ctx, next) {
    var req = ctx.__req;
    // Strapi's body parser (strapi::body) has not run yet out here.
    var body = req.body, files = ctx.request.files;
    hidden(ctx, '__body', { body: body, files: files });
    req.body = undefined;
    if (files !== undefined) ctx.request.files = undefined;
    return next().catch(function (e) {
      if (e && e.quarry || e instanceof errors.NotImplementedError) throw e;
      var status = e instanceof Error ? (e.status || e.statusCode) : undefined;
      if (typeof status !== 'number' || !statusText[status] || status >= 500) throw new Error(describe(e));
      var h = ctx.__res.headers;
      Object.keys(h).forEach(function (k) { delete h[k]; });
      if (e.headers && typeof e.headers === 'object') Object.keys(e.headers).forEach(function (k) { ctx.set(k, e.headers[k]); });
      ctx.status = status;
      ctx.body = e.expose ? String(e.message) : statusText[status];
    });
  }
  // strapiStack stands for Strapi's own middlewares (config/middlewares' strapi::*) where
  // register()'s middlewares wrap them: the body parsed, and strapi::errors' answers.
  function strapiStack(ctx, next) {
    var h = ctx.__req.stackHeaders;
    if (h) for (var i = 0; i + 1 < h.length; i += 2) ctx.__res.headers[h[i]] = h[i + 1];
    if (ctx.__req.bodyError) {
      // Strapi's body parser refused the body (thrown): strapi::errors answers, nothing
      // inside runs.
      unpowered(ctx);
      ctx.__res.status = ctx.__req.bodyErrorStatus;
      ctx.__res.raw = ctx.__req.bodyError;
      ctx.__res.body = undefined;
      return settled;
    }
    var kept = ctx.__body;
    if (kept) {
      if (ctx.__req.body === undefined) ctx.__req.body = kept.body;
      if (kept.files !== undefined && ctx.request.files === undefined) ctx.request.files = kept.files;
    }
    return next().then(function () {
      if (ctx.__res.status === undefined && ctx.__res.raw === null) ctx.notFound();
    }, function (e) {
      unpowered(ctx);
      if (e && e.quarry) { ctx.__res.status = e.quarry.status; ctx.__res.raw = e.quarry.body; ctx.__res.body = undefined; return; }
      var f = formatError(e);
      if (!f) {
        strapi.log.error('project code failed: ' + describe(e));
        f = { status: 500, body: { data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error' } } };
      }
      ctx.status = f.status;
      ctx.body = f.body;
    });
  }
  // formatError is Strapi's error middleware.
  function formatError(e) {
    if (e instanceof errors.ApplicationError) {
      var status = { UnauthorizedError: 401, ForbiddenError: 403, PolicyError: 403, NotFoundError: 404, PayloadTooLargeError: 413, RateLimitError: 429, NotImplementedError: 501 }[e.name];
      if (!status) {
        if (e instanceof errors.UnauthorizedError) status = 401;
        else if (e instanceof errors.ForbiddenError) status = 403;
        else if (e instanceof errors.NotFoundError) status = 404;
        else status = 400;
      }
      return { status: status, body: { data: null, error: { status: status, name: e.name, message: e.message, details: e.details } } };
    }
    if (e && typeof e === 'object' && typeof e.status === 'number' && e.expose) {
      return { status: e.status, body: { data: null, error: { status: e.status, name: e.name, message: e.message, details: e.details } } };
    }
    return null; // an internal error: the host answers 500 and logs it
  }
  function describe(e) {
    if (e instanceof Error) return (e.name || 'Error') + ': ' + e.message;
    try { return 'a thrown ' + (e === null ? 'null' : typeof e) + ': ' + JSON.stringify(e); } catch (x) { return 'a thrown value'; }
  }
  // serve runs a route for a request and settles a box the host reads.
  var routes = {};
  // req is the request's object the host built (its body null), bodyJSON the request's JSON
  // body or null.
  function serve(key, routeJSON, req, bodyJSON) {
    var route = routes[key] || (routes[key] = JSON.parse(routeJSON));
    if (bodyJSON !== null) req.body = JSON.parse(bodyJSON);
    var box = { state: 'pending' };
    var ctx;
    try {
      ctx = makeCtx(req);
      if (req.appState) takeAppState(ctx, req.appState);
      // App-level middlewares run before routing: no route yet.
      if (!route.app) ctx.state.route = route.state || (route.state = { method: route.method, path: route.path, handler: route.handler, info: route.info || {}, config: route.config || {} });
      chain(route)(ctx).then(function () { box.state = 'done'; finish(box, ctx); }, function (e) {
        if (ctx.__res.authorize && (e instanceof errors.UnauthorizedError || e instanceof errors.ForbiddenError)) authorized(box, ctx, e);
        else fail(box, ctx, e);
      });
    } catch (e) { fail(box, ctx, e); }
    return box;
  }
  // authorized answers an UnauthorizedError or ForbiddenError a route's chain rejected with
  // as Strapi's authorize step does: the chain ends with what ctx.unauthorized() or
  // ctx.forbidden() answers.
  function authorized(box, ctx, e) {
    var r;
    try { r = e instanceof errors.UnauthorizedError ? ctx.unauthorized() : ctx.forbidden(); } catch (x) { fail(box, ctx, x); return; }
    Promise.resolve(r).then(function () { box.state = 'done'; finish(box, ctx); }, function (x) { fail(box, ctx, x); });
  }
  function fail(box, ctx, e) {
    box.state = 'done';
    if (e && e.quarry) { box.status = e.quarry.status; box.raw = e.quarry.body; box.headers = ctx ? ctx.__res.headers : {}; return; }
    var f = formatError(e);
    if (!f) { box.internal = describe(e); return; }
    box.status = f.status; box.json = JSON.stringify(f.body); box.headers = ctx ? ctx.__res.headers : {};
  }
  function finish(box, ctx) {
    var res = ctx.__res;
    box.headers = res.headers;
    if (res.removed) box.removed = res.removed.join('\n');
    if (res.raw !== null) { box.status = res.status || 200; box.raw = res.raw; return; }
    box.status = ctx.status;
    var b = res.body;
    if (res.status === undefined) {
      // Strapi's error middleware: a request nothing answered is a NotFoundError.
      box.status = 404;
      box.json = JSON.stringify({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
      return;
    }
    if (b === undefined) { box.text = statusText[box.status] || ''; return; }
    if (b === null) { if (res.status === undefined) box.status = 204; return; }
    if (typeof b === 'string') { box.text = b; return; }
    box.json = JSON.stringify(b);
  }

  // guardAllocations caps what one built-in call may allocate: a string or array of more
  // than max elements is a RangeError, as V8 refuses lengths past its own limits. A
  // built-in's loop (repeat, fill, join) cannot be interrupted midway, so the time limit and
  // the heap watchdog alone would let one call take gigabytes.
  // @strapi/utils' plain helpers as 4.26 has them (parseMultipartData, the async helpers,
  // contentTypes' constants and model predicates, …; yup and its helpers come with the
  // sandbox's @strapi/utils). Its other exports — policy, pagination, traverse, webhook, … — are stand-ins that answer
  // NotImplementedError naming them when the project's code uses them, rather than undefined
  // (a TypeError, a 500) or a silent difference.
  function plainUtils(u, _) {
    function async1(f) { return function () { var self = this, args = arguments; return new Promise(function (res) { res(f.apply(self, args)); }); }; }
    u.parseMultipartData = function (ctx) {
      if (!ctx.is('multipart')) return { data: ctx.request.body, files: {} };
      var body = ctx.request.body || {}, files = ctx.request.files || {};
      if (!body.data) return ctx.badRequest("When using multipart/form-data you need to provide your data in a JSON 'data' field.");
      var data;
      try { data = JSON.parse(body.data); } catch (e) { return ctx.badRequest("Invalid 'data' field. 'data' should be a valid JSON."); }
      // A file without the prefix answers 400 into the accumulator, as 4.26's reduce does: the
      // files come out undefined (a second file then fails to be added).
      var out = Object.keys(files).reduce(function (acc, key) {
        var full = _.toPath(key);
        if (full.length <= 1 || full[0] !== 'files') {
          return ctx.badRequest("When using multipart/form-data you need to provide your files by prefixing them with the 'files'.\nFor example, when a media file is named \"avatar\", make sure the form key name is \"files.avatar\"");
        }
        acc[_.tail(full).join('.')] = files[key];
        return acc;
      }, {});
      return { data: data, files: out };
    };
    // p-map: the mapper on every element (index second), at most concurrency at a time,
    // the results in order.
    function pMap(input, mapper, options) {
      var list = Array.from(input), conc = (options && options.concurrency) || Infinity;
      var results = new Array(list.length), next = 0;
      function worker() {
        if (next >= list.length) return Promise.resolve();
        var i = next++;
        return Promise.resolve(list[i]).then(function (v) { return mapper(v, i); }).then(function (r) { results[i] = r; return worker(); });
      }
      var workers = [];
      for (var w = 0; w < Math.min(conc, list.length); w++) workers.push(worker());
      return Promise.all(workers).then(function () { return results; });
    }
    // lodash/fp's curry of p-map (arity 2): mapAsync(list)(mapper) or mapAsync(list, mapper, options).
    u.mapAsync = function mapAsync(input) {
      if (arguments.length < 2) return function (mapper, options) { return arguments.length === 0 ? mapAsync(input) : pMap(input, mapper, options); };
      return pMap(input, arguments[1], arguments[2]);
    };
    u.forEachAsync = async1(function (array, func, options) { return pMap(array, func, options).then(function () {}); });
    u.reduceAsync = function (mixed) {
      return async1(function (iteratee, initial) {
        var acc = Promise.resolve(initial);
        mixed.forEach(function (item, i) {
          acc = acc.then(function (a) { return Promise.resolve(item).then(function (v) { return iteratee(a, v, i); }); });
        });
        return acc;
      });
    };
    u.pipeAsync = function () {
      var fns = Array.prototype.slice.call(arguments);
      return async1(function () {
        var res = Promise.resolve(fns[0].apply(fns[0], arguments));
        fns.slice(1).forEach(function (f) { res = res.then(function (v) { return f(v); }); });
        return res;
      });
    };
    u.removeUndefined = function (o) { return _.pickBy(o, function (v) { return typeof v !== 'undefined'; }); };
    u.keysDeep = function keysDeep(o, path) {
      path = path || [];
      return !_.isObject(o) ? [path.join('.')] : _.reduce(o, function (acc, v, k) { return _.concat(acc, keysDeep(v, path.concat([k]))); }, []);
    };
    u.escapeQuery = function (query, chars, esc) {
      if (esc === undefined) esc = '\\';
      return query.split('').reduce(function (out, c) { return chars.includes(c) ? out + esc + c : out + c; }, '');
    };
    u.stringIncludes = function (arr, val) { return arr.map(String).includes(String(val)); };
    u.stringEquals = function (a, b) { return String(a) === String(b); };
    u.isCamelCase = function (v) { return /^[a-z][a-zA-Z0-9]+$/.test(v); };
    u.isKebabCase = function (v) { return /^([a-z][a-z0-9]*)(-[a-z0-9]+)*$/.test(v); };
    u.startsWithANumber = function (v) { return /^[0-9]/.test(v); };
    u.toKebabCase = function (v) { return _.kebabCase(v); };
    u.getCommonBeginning = function () {
      var strings = Array.prototype.slice.call(arguments);
      var first = String(strings[0]), i = 0;
      while (i < first.length && strings.every(function (s) { return s[i] === first[i]; })) i++;
      return first.slice(0, i);
    };
    u.generateTimestampCode = function (date) { return (date || new Date()).getTime().toString(36); };
    var C = { ID_ATTRIBUTE: 'id', PUBLISHED_AT_ATTRIBUTE: 'publishedAt', CREATED_BY_ATTRIBUTE: 'createdBy', UPDATED_BY_ATTRIBUTE: 'updatedBy',
      CREATED_AT_ATTRIBUTE: 'createdAt', UPDATED_AT_ATTRIBUTE: 'updatedAt', DP_PUB_STATES: ['live', 'preview'], DP_PUB_STATE_LIVE: 'live',
      DP_PUB_STATE_PREVIEW: 'preview', SINGLE_TYPE: 'singleType', COLLECTION_TYPE: 'collectionType' };
    function has(k, o) { return o != null && Object.prototype.hasOwnProperty.call(o, k); }
    function timestamps(m) { return ['createdAt', 'updatedAt'].filter(function (k) { return has(k, m.attributes); }); }
    function nonWritable(m) {
      if (!m) return [];
      return _.uniq(['id'].concat(timestamps(m), _.reduce(m.attributes, function (acc, a, n) { return a.writable === false ? acc.concat(n) : acc; }, [])));
    }
    function nonVisible(m) { return _.uniq(['id'].concat(timestamps(m), _.reduce(m.attributes, function (acc, a, n) { return a.visible === false ? acc.concat(n) : acc; }, []))); }
    function storedPrivate(m) { return _.union(strapi.config.get('api.responses.privateAttributes', []) || [], _.get(m, 'options.privateAttributes', []) || []); }
    function isScalar(a) { return ['media', 'component', 'relation', 'dynamiczone'].indexOf(a && a.type) < 0; }
    function isComponent(a) { return ['component', 'dynamiczone'].indexOf(a && a.type) >= 0; }
    function isRelational(a) { return (a && a.type) === 'relation'; }
    function isSingle(m) { return (m.kind === undefined ? 'collectionType' : m.kind) === 'singleType'; }
    function hasDP(m) { return _.get(m, 'options.draftAndPublish', false) === true; }
    u.contentTypes = {
      constants: C,
      getTimestamps: timestamps,
      getCreatorFields: function (m) { return ['createdBy', 'updatedBy'].filter(function (k) { return has(k, m.attributes); }); },
      getNonWritableAttributes: nonWritable,
      getWritableAttributes: function (m) { return m ? _.difference(Object.keys(m.attributes), nonWritable(m)) : []; },
      isWritableAttribute: function (m, n) { return (m ? _.difference(Object.keys(m.attributes), nonWritable(m)) : []).includes(n); },
      getNonVisibleAttributes: nonVisible,
      getVisibleAttributes: function (m) { return _.difference(_.keys(m.attributes), nonVisible(m)); },
      isVisibleAttribute: function (m, n) { return _.difference(_.keys(m.attributes), nonVisible(m)).includes(n); },
      getOptions: function (m) { return _.assign({ draftAndPublish: false }, _.get(m, 'options', {})); },
      hasDraftAndPublish: hasDP,
      isDraft: function (data, m) { return hasDP(m) && _.get(data, 'publishedAt') === null; },
      isSingleType: isSingle,
      isCollectionType: function (m) { return (m.kind === undefined ? 'collectionType' : m.kind) === 'collectionType'; },
      isKind: function (kind) { return function (m) { return m.kind === kind; }; },
      getPrivateAttributes: function (m) { return _.union(storedPrivate(m), _.keys(_.pickBy(m.attributes, function (a) { return !!a.private; }))); },
      isPrivateAttribute: function (m, n) {
        if (m && m.attributes && m.attributes[n] && m.attributes[n].private === true) return true;
        return storedPrivate(m).includes(n);
      },
      isScalarAttribute: isScalar,
      isMediaAttribute: function (a) { return (a && a.type) === 'media'; },
      isRelationalAttribute: isRelational,
      isComponentAttribute: isComponent,
      isDynamicZoneAttribute: function (a) { return (a && a.type) === 'dynamiczone'; },
      isMorphToRelationalAttribute: function (a) { return isRelational(a) && !!(a.relation && a.relation.startsWith && a.relation.startsWith('morphTo')); },
      getComponentAttributes: function (m) { return _.reduce(m.attributes, function (acc, a, n) { if (isComponent(a)) acc.push(n); return acc; }, []); },
      getScalarAttributes: function (m) { return _.reduce(m.attributes, function (acc, a, n) { if (isScalar(a)) acc.push(n); return acc; }, []); },
      isTypedAttribute: function (a, t) { return _.has(a, 'type') && a.type === t; },
      getContentTypeRoutePrefix: function (m) { return isSingle(m) ? _.kebabCase(m.info.singularName) : _.kebabCase(m.info.pluralName); }
    };
    ['policy', 'pagination', 'relations', 'traverse',
      'traverseEntity', 'webhook', 'hooks', 'template', 'templateConfiguration', 'setCreatorFields', 'providerFactory',
      'convertQueryParams', 'file', 'nameToSlug', 'nameToCollectionName', 'toRegressedEnumValue', 'joinBy', 'getConfigUrls',
      'getAbsoluteAdminUrl', 'getAbsoluteServerUrl', 'isOperator', 'isOperatorOfType', 'parseType', 'getCommonPath'].forEach(function (name) {
      if (name in u) return; // not read: a getter may load a module
      u[name] = notProvided("@strapi/utils' " + name);
    });
  }
  function guardAllocations(max) {
    function check(n) { if (n > max) throw new RangeError('Invalid length: Quarry caps one allocation at ' + max + ' elements'); }
    var repeat = String.prototype.repeat;
    String.prototype.repeat = function (count) { check(String(this).length * Math.max(0, Number(count) || 0)); return repeat.call(this, count); };
    ['padStart', 'padEnd'].forEach(function (m) {
      var orig = String.prototype[m];
      String.prototype[m] = function (len) { check(Number(len) || 0); return orig.apply(this, arguments); };
    });
    ['fill', 'join', 'map', 'forEach', 'reduce', 'reverse', 'sort', 'slice', 'splice', 'concat', 'indexOf', 'includes', 'filter', 'keys', 'values', 'entries', 'flat', 'flatMap', 'copyWithin'].forEach(function (m) {
      var orig = Array.prototype[m];
      if (typeof orig !== 'function') return;
      Array.prototype[m] = function () { check(this.length >>> 0); return orig.apply(this, arguments); };
    });
    var NativeArray = Array;
    var from = Array.from;
    Array.from = function (src) { if (src && typeof src === 'object') check(Number(src.length) || 0); return from.apply(NativeArray, arguments); };
    ['ArrayBuffer', 'SharedArrayBuffer', 'Uint8Array', 'Int8Array', 'Uint8ClampedArray', 'Uint16Array', 'Int16Array', 'Uint32Array',
     'Int32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array', 'DataView'].forEach(function (name) {
      var C = globalThis[name];
      if (typeof C !== 'function') return;
      var W = new Proxy(C, { construct: function (t, args, nt) { if (typeof args[0] === 'number') check(args[0]); return Reflect.construct(t, args, nt); } });
      globalThis[name] = W;
    });
  }

  // hook runs a model's lifecycle hook on Strapi's event object; the box says what the
  // before hooks left in params.data and the state, or the error to answer.
  var lifecycleModules = {};
  function lifecycleModule(uid) {
    var mod = lifecycleModules[uid];
    if (mod === undefined) {
      try { mod = loadLifecycles(uid); } catch (e) {
        // A lifecycles module Quarry cannot load (a module it does not provide): the write
        // is refused, never run without its hooks.
        throw new errors.NotImplementedError('The lifecycles of ' + uid + ' could not be loaded under Quarry: ' + (e && e.message ? e.message : String(e)));
      }
      lifecycleModules[uid] = mod;
    }
    return mod;
  }
  function loadLifecycles(uid) {
    var mod;
    if (uid.indexOf('plugin::') === 0) {
      // A local plugin's content type: the lifecycles its contentTypes export declares
      // ({ schema, lifecycles }), as Strapi registers them.
      var rest = uid.slice('plugin::'.length), dot = rest.indexOf('.');
      var lp = dot > 0 ? localPlugin(rest.slice(0, dot)) : undefined;
      var ct = lp && lp.contentTypes && lp.contentTypes[rest.slice(dot + 1)];
      mod = (ct && ct.lifecycles) || null;
    } else {
      var f = files.lifecycles[uid];
      mod = f ? projectRequire(f) : null;
    }
    if (mod && mod.__esModule && mod.default !== undefined) mod = mod.default;
    return mod;
  }
  // manyWrite is the query engine's createMany, updateMany or deleteMany of a model with
  // hooks for it: before<Name> with the call's params (what it leaves there is what is
  // written), the write, then after<Name> with its answer ({ count }, and createMany's ids),
  // as Strapi's entity manager runs them.
  var MANY = { createMany: 'CreateMany', updateMany: 'UpdateMany', deleteMany: 'DeleteMany' };
  function manyWrite(uid, op, name, args) {
    if (name === 'CreateMany' && Array.isArray(args.params.data)) {
      // Strapi's timestamps subscriber runs first: every entry gets createdAt and updatedAt
      // (one Date) unless it gives them. (Its beforeUpdateMany only touches array data,
      // which updateMany never gets.)
      var now = new Date();
      args.params.data.forEach(function (d) {
        if (!isPlain(d)) return;
        if (d.createdAt === undefined) d.createdAt = now;
        if (d.updatedAt === undefined) d.updatedAt = now;
      });
    }
    return runLifecycle('before' + name, uid, { params: args.params }).then(function (states) {
      var result = call('db.' + op, args);
      return runLifecycle('after' + name, uid, { params: args.params, result: result }, states).then(function () { return result; });
    });
  }
  // ---- read lifecycle hooks ----
  // Strapi's query engine runs before<Op> and after<Op> around every read it makes (findOne,
  // findMany, count; findWithCount and findPage are a findMany and a count), with the db-level
  // params the before hooks may change (event.params is the query's own object) and the result
  // the after hooks may change (event.result is what the caller gets). Quarry runs them here,
  // around the host's read, for a model that has any; the others go to the host directly.
  var WRITES = { create: true, update: true, delete: true };
  var DB_READS = { findOne: ['FindOne'], findMany: ['FindMany'], count: ['Count'], findWithCount: ['FindMany', 'Count'], findPage: ['FindMany', 'Count'] };
  var ES_READS = { findOne: true, findMany: true, count: true, findPage: true, findWithRelationCounts: true };
  function esReadNames(uid, op) {
    var ct = contentTypes[uid];
    if (op === 'findMany') return ct && ct.kind === 'singleType' ? ['FindOne'] : ['FindMany'];
    if (op === 'findPage' || op === 'findWithRelationCounts') return ['FindMany', 'Count'];
    return DB_READS[op];
  }
  var booting = false; // in the sandbox that runs bootstrap() for real: its subscriptions are made
  function subscriberFn(s, uid, action) {
    if (typeof s === 'function') return s;
    if (s && (!s.models || s.models.indexOf(uid) >= 0) && typeof s[action] === 'function') return s[action];
    return undefined;
  }
  function readHooked(uid, names) {
    var list = [lifecycleModule(uid)].concat(subscribers);
    return names.some(function (n) {
      return list.some(function (s) { return !!subscriberFn(s, uid, 'before' + n) || !!subscriberFn(s, uid, 'after' + n); });
    });
  }
  // withReadHooks calls fn(hooked) once the subscriptions are known: the lifecycles file's
  // hooks at once, src/index's subscriptions after the sandbox's start-up code ran.
  function withReadHooks(uid, names, fn) {
    if (booting || !host.subscriptions) return fn(readHooked(uid, names));
    return ensureStartup().then(function () {
      var known = host.readHooked || [];
      if (host.subscriptions > subscribers.length && (known.indexOf(uid) >= 0 || known.indexOf('*') >= 0)) {
        throw new errors.NotImplementedError('strapi.db.lifecycles.subscribe is called in bootstrap() after its first use of data, where Quarry does not reach it');
      }
      return fn(readHooked(uid, names));
    });
  }
  function eventModel(uid) {
    var ct = model(uid) || {};
    return { uid: uid, singularName: ct.info && ct.info.singularName, tableName: ct.collectionName, attributes: ct.attributes };
  }
  // runLifecycle is Strapi's lifecycles.run: each subscriber (the lifecycles file first) with
  // its own state, kept from its before hook to its after hook.
  function runLifecycle(action, uid, props, states) {
    var list = [lifecycleModule(uid)].concat(subscribers);
    states = states || [];
    var run = function (i) {
      for (; i < list.length; i++) {
        var s = list[i], fn = subscriberFn(s, uid, action);
        if (!fn) continue;
        var at = i;
        var event = Object.assign({ action: action, model: eventModel(uid), state: states[at] || {} }, props);
        return Promise.resolve(fn.call(s, event)).then(function () { states[at] = event.state || states[at] || {}; return run(at + 1); });
      }
      return Promise.resolve(states);
    };
    return run(0);
  }
  // hostParams is what the host reads of a query: the params as JSON, with a publication-state
  // filter function (the entity service's) applied as the query builder applies it, to where.
  function hostParams(uid, params, count) {
    var p = {};
    Object.keys(params).forEach(function (k) {
      if (count && k !== 'where' && k !== '_q') return; // Strapi's count reads only these
      if (k !== 'filters') p[k] = params[k];
    });
    if (p.populate === true) p.populate = '*'; // the query engine's "every relation
    else if (isPlain(p.populate)) p.populate = hostPopulate(p.populate);
    if (typeof params.filters === 'function') {
      var ct = model(uid) || {};
      var extra = params.filters({ meta: { uid: uid, attributes: ct.attributes || {} } });
      if (extra) p.where = p.where ? { $and: [p.where, extra] } : extra;
    } else if (params.filters !== undefined && params.filters !== null) {
      p.where = p.where ? { $and: [p.where, params.filters] } : params.filters;
    }
    return p;
  }
  // selected drops the id the host always reads from the entries of a query-engine read whose
  // select leaves it out (and populates nothing): Strapi's query builder selects only those.
  function selected(op, params, result) {
    if (!params || !Array.isArray(params.select) || params.select.indexOf('id') >= 0 || (params.populate !== undefined && params.populate !== null)) return result;
    var strip = function (e) { if (isPlain(e)) delete e.id; };
    if (op === 'findOne') strip(result);
    else if (op === 'findMany') (result || []).forEach(strip);
    else if (op === 'findWithCount') (result[0] || []).forEach(strip);
    else if (op === 'findPage') ((result && result.results) || []).forEach(strip);
    return result;
  }
  function dbRead(uid, op, params) {
    var name = DB_READS[op][0];
    var props = { params: params };
    return runLifecycle('before' + name, uid, props).then(function (states) {
      var result = call('db.' + op, { uid: uid, params: hostParams(uid, params, op === 'count'), extra: [] });
      if (op !== 'count') result = selected(op, params, result);
      return runLifecycle('after' + name, uid, { params: params, result: result }, states).then(function () { return result; });
    });
  }
  // hookedRead is the query engine's read of a model with read hooks.
  function hookedRead(uid, op, params) {
    if (op === 'findWithCount') {
      return Promise.all([dbRead(uid, 'findMany', params), dbRead(uid, 'count', params)]);
    }
    if (op === 'findPage') {
      // The repository's withOffsetLimit: page 1 and 10 a page unless given, as numbers.
      var page = Number(params.page === undefined ? 1 : params.page), size = Number(params.pageSize === undefined ? 10 : params.pageSize);
      var paged = { page: page, pageSize: size };
      Object.keys(params).forEach(function (k) { if (k !== 'page' && k !== 'pageSize') paged[k] = params[k]; });
      delete paged.page; delete paged.pageSize;
      paged.limit = size;
      paged.offset = Math.max(page - 1, 0) * size;
      if (!(size > 0) || size % 1 || !(page > 0) || page % 1) throw new errors.ValidationError('Invalid page or pageSize');
      return Promise.all([dbRead(uid, 'findMany', paged), dbRead(uid, 'count', paged)]).then(function (r) {
        return { results: r[0], pagination: { page: page, pageSize: size, pageCount: Math.ceil(r[1] / size), total: r[1] } };
      });
    }
    return dbRead(uid, op, params);
  }
  // entityRead is the entity service's read of a model with read hooks: its params turned into
  // the query engine's as Strapi's transformParamsToQuery turns them, then the hooked read.
  function entityRead(uid, op, id, params) {
    var ct = contentTypes[uid] || {};
    params = i18nParams(uid, op, params);
    if (op === 'findWithRelationCounts') {
      throw new errors.NotImplementedError('strapi.entityService.findWithRelationCounts(\'' + uid + '\'): its read lifecycle hooks are not run by Quarry');
    }
    if (op === 'findOne') {
      var sel = {};
      if (params.fields !== undefined) sel.fields = params.fields;
      if (params.populate !== undefined) sel.populate = params.populate;
      return hookedRead(uid, 'findOne', Object.assign(toQuery(uid, sel), { where: { id: id } }));
    }
    var q = toQuery(uid, params);
    if (op === 'findMany' && ct.kind === 'singleType') return hookedRead(uid, 'findOne', q);
    return hookedRead(uid, op, q);
  }
  // i18nParams is i18n's entity-service decorator's wrapParams for a localized type: a
  // `locale` parameter becomes a filter ({ $and: [{ locale }, ...filters] }; 'all' none), and
  // without one the default locale's (but for a findOne, whose filters the entity service
  // drops); a single type's findMany with locale 'all' reads with findMany.
  function i18nParams(uid, op, params) {
    var ct = contentTypes[uid] || {};
    if (!(ct.pluginOptions && ct.pluginOptions.i18n && ct.pluginOptions.i18n.localized)) return params;
    if (op === 'findOne') return params;
    var out = {};
    Object.keys(params).forEach(function (k) { if (k !== 'locale') out[k] = params[k]; });
    var locale;
    if (Object.prototype.hasOwnProperty.call(params, 'locale')) {
      if (params.locale === 'all') {
        if (op === 'findMany' && ct.kind === 'singleType') {
          throw new errors.NotImplementedError('strapi.entityService.findMany(\'' + uid + '\') with locale \'all\' of a single type with read lifecycle hooks is not run by Quarry');
        }
        return out;
      }
      locale = params.locale;
    } else {
      locale = call('i18n.defaultLocale', {});
    }
    out.filters = { $and: [{ locale: locale }].concat(params.filters || []) };
    return out;
  }
  // hookedLoad is the entity service's load of a model with findOne hooks: Strapi's
  // transformLoadParamsToQuery (the params as the field's populate), then the query engine's
  // findOne of the entry with only its id selected and the field populated, through the
  // hooks, answering the field of what they leave.
  function hookedLoad(uid, entity, field, params, strict) {
    if (typeof field !== 'string') throw new Error('Invalid load. Expected "' + field + '" to be a string');
    var ct = model(uid) || {}, a = (ct.attributes || {})[field];
    if (!a || (a.type !== 'relation' && a.type !== 'media' && a.type !== 'component' && a.type !== 'dynamiczone')) {
      throw new Error('Invalid load. Expected ' + field + ' to be a relational attribute');
    }
    var wrap = {};
    wrap[field] = params;
    var pop = toQuery(uid, { populate: wrap }).populate;
    var populate = {};
    populate[field] = (pop && pop[field]) || true;
    var params = { select: ['id'], where: { id: entity && entity.id }, populate: populate };
    var before = strict ? JSON.stringify(params.populate) : '';
    return runLifecycle('beforeFindOne', uid, { params: params }).then(function (states) {
      if (strict && JSON.stringify(params.populate) !== before) {
        // The GraphQL executor pages and shapes the field as it read it: a populate the
        // hooks changed would be another read.
        throw new errors.NotImplementedError('a beforeFindOne hook of ' + uid + ' changes the populate of the load of ' + field + ', which Quarry does not run for GraphQL');
      }
      var result = call('db.findOne', { uid: uid, params: hostParams(uid, params, false), extra: [] });
      return runLifecycle('afterFindOne', uid, { params: params, result: result }, states).then(function () { return result; });
    }).then(function (e) {
      return e === null || e === undefined ? null : e[field];
    });
  }
  // entityWrite is the entity service's write of a model whose findOne read hooks run:
  // Strapi's entity service reads the entry to update (by id) or delete (with the call's
  // fields and populate) through the query engine first, and the query engine reads the
  // entry it wrote back through findOne (the write path's after hook does, in the sandbox
  // that runs the hooks, and the answer is the entry as the hooks left it). Between them,
  // the model's own events Strapi fires: the entity validator's counts of related entries
  // (relationCounts), then its uniqueness reads (uniqueReads); an update's component
  // writes load the entry's old components through findOne (componentLoads, run in the
  // beforeUpdate hook's sandbox, inside the write's transaction, after the write path
  // validated nothing yet: a failing write rolls what they wrote back, as Strapi never
  // reaches them), and a delete loads all its components before the query engine's delete.
  function entityWrite(uid, op, id, params) {
    var sel = {};
    if (params.fields !== undefined) sel.fields = params.fields;
    if (params.populate !== undefined) sel.populate = params.populate;
    var q = toQuery(uid, sel);
    var args = { uid: uid, id: id === undefined ? null : id, params: params, readBack: { select: q.select, populate: q.populate } };
    unfired(uid, op === 'delete' ? null : params.data);
    if (op === 'create') {
      return relationCounts(uid, params.data).then(function () { return uniqueReads(uid, params.data, null); }).then(function () {
        return call('es.create', args);
      });
    }
    if (op === 'update') {
      return dbRead(uid, 'findOne', { where: { id: id } }).then(function (found) {
        if (!found) return null;
        return relationCounts(uid, params.data).then(function () { return uniqueReads(uid, params.data, found); }).then(function (taken) {
          // A value found taken fails the validation: Strapi never reaches the components.
          var loads = taken ? [] : componentFields(uid).filter(function (f) { return isPlain(params.data) && params.data[f] !== undefined; });
          if (loads.length > 0) args.readBack.loads = { id: found.id === undefined ? null : found.id, fields: loads };
          return call('es.update', args);
        });
      });
    }
    return dbRead(uid, 'findOne', Object.assign(q, { where: { id: id } })).then(function (found) {
      if (!found) return null;
      // Strapi's getComponents: one load of every component and dynamic zone of the entry.
      var fields = componentFields(uid);
      var loaded = fields.length > 0 ? componentLoad(uid, found.id, fields) : Promise.resolve();
      return loaded.then(function () {
        // The query engine's delete is given only the id: its own read selects everything.
        call('es.delete', { uid: uid, id: found.id, params: {} });
        return found;
      });
    });
  }
  // componentFields are a model's component and dynamic-zone attributes, in its order.
  function componentFields(uid) {
    var ct = model(uid) || {}, attrs = ct.attributes || {};
    return Object.keys(attrs).filter(function (k) { return attrs[k].type === 'component' || attrs[k].type === 'dynamiczone'; });
  }
  // componentLoad is the query engine's load of fields of entry id: a findOne selecting the
  // id and populating each field (true), through the model's findOne hooks.
  function componentLoad(uid, id, fields) {
    var populate = {};
    fields.forEach(function (f) { populate[f] = true; });
    return dbRead(uid, 'findOne', { select: ['id'], where: { id: id }, populate: populate });
  }
  // componentLoads are the loads an update's component writes make before the query
  // engine's update (Strapi's deleteOldComponents and deleteOldDZComponents): one per
  // component or dynamic zone the data gives, in the model's attribute order.
  function componentLoads(uid, loads) {
    var chain = Promise.resolve();
    ((loads && loads.fields) || []).forEach(function (f) {
      chain = chain.then(function () { return componentLoad(uid, loads.id, [f]); });
    });
    return chain;
  }
  // uniqueReads are the entity validator's uniqueness checks of the model's own unique and
  // uid attributes the data gives (not null, of the attribute's type; an update's only when
  // the value differs from the entry it read): a query-engine findOne selecting the id,
  // through the model's findOne hooks, with Strapi's where. yup starts them in the reverse
  // of the attributes' order; Strapi runs several at once, Quarry one after another. The
  // write path's own check (in the write's transaction) answers whether the value is taken;
  // this answers whether one of the reads found an entry.
  function uniqueReads(uid, data, entity) {
    var ct = model(uid);
    if (!isPlain(data) || !ct || !ct.attributes) return Promise.resolve();
    var names = Object.keys(ct.attributes).filter(function (name) {
      var a = ct.attributes[name], v = data[name];
      if (!(a.unique || a.type === 'uid') || v === null || v === undefined || a.writable === false) return false;
      if (!STRING_TYPES[a.type] || typeof v !== 'string') return false; // yup's type check fails first
      return !(entity && v === entity[name]);
    }).reverse();
    var chain = Promise.resolve(false);
    names.forEach(function (name) {
      chain = chain.then(function (taken) {
        var eq = {};
        eq[name] = data[name];
        var where = entity ? { $and: [eq, { $not: { id: entity.id } }] } : eq;
        return dbRead(uid, 'findOne', { select: ['id'], where: where }).then(function (r) { return taken || (r !== null && r !== undefined); });
      });
    });
    return chain;
  }
  var STRING_TYPES = { string: true, text: true, richtext: true, email: true, password: true, uid: true };
  // unfired refuses an entity-service write whose query-engine events Quarry's write path
  // does not fire but hooks would see: its components' own writes (a function subscriber,
  // or one naming the component, sees them), the validator's uniqueness read of a unique
  // or uid attribute the data gives (the model's findOne hooks see it), and its count of
  // media or of a plugin's entries (their Count hooks see it). The REST routes refuse the
  // same writes before they run (transport's route table).
  // A delete (data null) deletes all its components.
  function unfired(uid, data) {
    var ct = model(uid);
    if (!ct || !ct.attributes || (data !== null && !isPlain(data))) return;
    if (data === null) {
      data = {};
      componentFields(uid).forEach(function (f) { data[f] = ct.attributes[f].type === 'dynamiczone' ? [] : {}; });
    }
    // The model's lifecycles file sees only its own events; a subscriber naming no models
    // sees every model's.
    var sees = function (target) {
      return subscribers.some(function (s) { return typeof s === 'function' || (!!s && (!s.models || (Array.isArray(s.models) && s.models.indexOf(target) >= 0))); });
    };
    Object.keys(ct.attributes).forEach(function (name) {
      var a = ct.attributes[name], v = data[name];
      if (v === null || v === undefined) return;
      var why = '';
      if (a.type === 'component' && sees(a.component)) why = 'the writes of its component ' + name;
      else if (a.type === 'dynamiczone' && (a.components || []).some(sees)) why = 'the writes of its dynamic zone ' + name;
      else if ((a.unique || a.type === 'uid') && !STRING_TYPES[a.type] && readHooked(uid, ['FindOne'])) why = 'the uniqueness check of ' + name + ' (a ' + a.type + ')';
      else if (a.type === 'media' && readHooked('plugin::upload.file', ['Count'])) why = 'the media check of ' + name;
      else if (a.type === 'relation' && !/^api::/.test(a.target || '') && readHooked(a.target, ['Count'])) why = 'the relation check of ' + name;
      if (why) throw new errors.NotImplementedError('strapi.entityService write of \'' + uid + '\': ' + why + ' fires lifecycle events Quarry does not run');
    });
  }
  // relationCounts are the entity validator's reads of the entries a write's data relates
  // to: one query-engine count per target model ({ where: { id: { $in: ids } } }, the ids
  // each once), all at once, as Strapi's checkRelationsExist makes them from its relations
  // store (buildRelationsStore: the model's relations and media in attribute order, those
  // of its components and dynamic zones' entries merged in where they come); only a target
  // with Count hooks is read here (the write path checks that the entries exist).
  function relationCounts(uid, data) {
    var store = {}, order = [];
    relationsStore(uid, data, store, order);
    return Promise.all(order.filter(function (t) { return readHooked(t, ['Count']); }).map(function (t) {
      var ids = store[t].filter(function (x, i, all) { return all.indexOf(x) === i; });
      return dbRead(t, 'count', { where: { id: { $in: ids } } });
    }));
  }
  function relationsStore(uid, data, store, order) {
    var ct = model(uid);
    if (!isPlain(data) || !ct || !ct.attributes) return;
    Object.keys(ct.attributes).forEach(function (name) {
      var a = ct.attributes[name], v = data[name];
      if (v === null || v === undefined) return;
      if (a.type === 'component') {
        [].concat(v).forEach(function (c) { relationsStore(a.component, c, store, order); });
        return;
      }
      if (a.type === 'dynamiczone') {
        [].concat(v).forEach(function (c) { if (isPlain(c) && c.__component) relationsStore(c.__component, c, store, order); });
        return;
      }
      if ((a.type !== 'relation' && a.type !== 'media') || /^morphTo/.test(a.relation || '')) return;
      var target = a.type === 'media' ? 'plugin::upload.file' : a.target;
      var source = Array.isArray(v) ? v : isObj(v) ? (v.connect !== undefined && v.connect !== null ? v.connect : v.set !== undefined && v.set !== null ? v.set : []) : [v];
      if (!store[target]) { store[target] = []; order.push(target); }
      [].concat(source).forEach(function (x) { store[target].push(x !== null && typeof x === 'object' ? x.id : x); });
    });
  }
  // toQuery is @strapi/utils' transformParamsToQuery: sort → orderBy, filters → where,
  // fields → select (with id), populate, start/limit → offset/limit, page/pageSize, and
  // publicationState → the query builder's filters function.
  function toQuery(uid, p) {
    var q = {};
    if (p._q !== undefined && p._q !== null) q._q = p._q;
    if (p.sort !== undefined && p.sort !== null) q.orderBy = toOrderBy(p.sort);
    if (p.filters !== undefined && p.filters !== null) {
      if (typeof p.filters !== 'object') throw new errors.ValidationError('The filters parameter must be an object or an array');
      q.where = cleanFilters(JSON.parse(JSON.stringify(p.filters)), model(uid));
    }
    if (p.fields !== undefined && p.fields !== null) { var f = toSelect(p.fields, 0); if (f !== undefined) q.select = f; }
    if (p.populate !== undefined && p.populate !== null) q.populate = toPopulate(p.populate, uid, 0);
    var has = function (k) { return p[k] !== undefined && p[k] !== null; };
    if ((has('page') || has('pageSize')) && (has('start') || has('limit'))) throw new errors.PaginationError('Invalid pagination parameters. Expected either start/limit or page/pageSize');
    if (has('page')) q.page = toInt(p.page, 'page', 1);
    if (has('pageSize')) q.pageSize = toInt(p.pageSize, 'pageSize', 1);
    if (has('start')) q.offset = toInt(p.start, 'start', 0);
    if (has('limit')) { var l = toInt(p.limit, 'limit', -1); q.limit = l === -1 ? undefined : l; }
    if (has('publicationState')) {
      var ps = p.publicationState;
      if (ps !== 'live' && ps !== 'preview') throw new errors.ValidationError('Invalid publicationState. Expected one of \'preview\',\'live\' received: ' + ps + '.');
      q.filters = function (ctx) {
        if (ps === 'live' && ctx.meta.attributes && ctx.meta.attributes.publishedAt) return { publishedAt: { $notNull: true } };
        return undefined;
      };
    }
    return q;
  }
  function toInt(v, name, min) {
    var n = typeof v === 'number' ? v : parseInt(v, 10);
    if (!Number.isInteger(n) || n < min) throw new errors.PaginationError('Invalid \'' + name + '\' parameter. Expected an integer >= ' + min);
    return n;
  }
  function checkOrder(order) {
    if (['asc', 'desc'].indexOf(String(order).toLowerCase()) < 0) throw new errors.ValidationError('Invalid order. order can only be one of asc|desc|ASC|DESC');
  }
  function toOrderBy(sort) {
    var one = function (s) {
      if (!s) return {};
      var parts = s.split(':'), field = parts[0], order = parts[1] === undefined ? 'asc' : parts[1];
      if (!field) throw new errors.ValidationError('Field cannot be empty');
      checkOrder(order);
      var o = {}, at = o, path = field.split('.');
      path.forEach(function (k, i) { if (i === path.length - 1) at[k] = order; else at = at[k] = {}; });
      return o;
    };
    var nested = function (o) {
      var out = {};
      Object.keys(o).forEach(function (k) {
        var v = o[k];
        if (isPlain(v)) out[k] = nested(v);
        else if (typeof v === 'string') { checkOrder(v); out[k] = v; }
        else throw new errors.ValidationError('Invalid sort type expected object or string got ' + typeof v);
      });
      return out;
    };
    if (typeof sort === 'string') return sort.split(',').map(one);
    if (Array.isArray(sort) && sort.every(function (s) { return typeof s === 'string'; })) return sort.reduce(function (acc, s) { return acc.concat(s.split(',').map(one)); }, []);
    if (Array.isArray(sort)) return sort.map(nested);
    if (isPlain(sort)) return nested(sort);
    throw new errors.ValidationError('Invalid sort parameter');
  }
  // cleanFilters is convertFiltersQueryParams: keys that are neither operators nor the
  // model's attributes go, as do dynamic zones and passwords, through relations, components
  // and media.
  function cleanFilters(f, m) {
    if (Array.isArray(f)) return f.map(function (x) { return cleanFilters(x, m); }).filter(function (x) { return !isPlain(x) || Object.keys(x).length > 0; });
    if (!isPlain(f)) return f;
    Object.keys(f).forEach(function (k) {
      var a = m && m.attributes ? m.attributes[k] : undefined;
      var valid = k.charAt(0) === '$' || k === 'id' || !!a;
      if (!valid) { delete f[k]; return; }
      if (a) {
        if (a.type === 'relation') f[k] = cleanFilters(f[k], model(a.target));
        else if (a.type === 'component') f[k] = cleanFilters(f[k], model(a.component));
        else if (a.type === 'media') f[k] = cleanFilters(f[k], model('plugin::upload.file'));
        else if (a.type === 'dynamiczone' || a.type === 'password') { delete f[k]; return; }
        else f[k] = cleanFilters(f[k], m);
      } else if (k !== '$null' && k !== '$notNull' && f[k] !== null && typeof f[k] === 'object') {
        f[k] = cleanFilters(f[k], m);
      }
      if (isPlain(f[k]) && Object.keys(f[k]).length === 0) delete f[k];
    });
    return f;
  }
  function toSelect(fields, depth) {
    if (depth === 0 && fields === '*') return undefined;
    if (typeof fields === 'string') {
      var list = fields.split(',').map(function (s) { return s.trim(); });
      return ['id'].concat(list).filter(function (v, i, a) { return a.indexOf(v) === i; });
    }
    if (Array.isArray(fields) && fields.every(function (f) { return typeof f === 'string'; })) {
      var out = ['id'];
      fields.forEach(function (f) { toSelect(f, depth + 1).forEach(function (x) { if (x !== undefined && x !== null) out.push(x); }); });
      return out.filter(function (v, i, a) { return a.indexOf(v) === i; });
    }
    throw new errors.ValidationError('Invalid fields parameter. Expected a string or an array of strings');
  }
  // toPopulate is @strapi/utils' convertPopulateQueryParams: the query engine's populate,
  // as its hooks see it ('*' → true; a string or a list → names; an object → per attribute
  // of the model: a dynamic zone merges its components' (true → {}), a relation, media or
  // component the nested params as convertNestedPopulate gives them: sort → orderBy,
  // filters → where, fields → select (with id), populate, count, ordering, page, pageSize,
  // start → offset, limit). hostPopulate turns it back into the shape the host reads.
  function toPopulate(populate, uid, depth) {
    if (!depth && populate === '*') return true;
    var names = function (v) { return v.split(',').map(function (x) { return x.trim(); }); };
    if (typeof populate === 'string') return names(populate);
    if (Array.isArray(populate)) {
      var out = [];
      populate.forEach(function (v) {
        if (typeof v !== 'string') throw new Error('Invalid populate parameter. Expected a string, an array of strings, a populate object');
        names(v).forEach(function (x) { if (out.indexOf(x) < 0) out.push(x); });
      });
      return out;
    }
    if (isPlain(populate)) return populateObject(populate, model(uid));
    throw new Error('Invalid populate parameter. Expected a string, an array of strings, a populate object');
  }
  function populateObject(populate, schema) {
    if (!schema) return {};
    var attrs = schema.attributes || {}, acc = {};
    Object.keys(populate).forEach(function (key) {
      var a = attrs[key], sub = populate[key];
      if (!a) return;
      var dz = a.type === 'dynamiczone', morphTo = a.type === 'relation' && /^morphTo/.test(a.relation || '');
      if ((dz || morphTo) && sub !== null && typeof sub === 'object' && sub.on !== undefined && sub.on !== null) {
        var on = {};
        Object.keys(sub.on).forEach(function (t) { on[t] = nestedPopulate(sub.on[t], t); });
        acc[key] = { on: on };
        return;
      }
      if (dz) {
        var parts = (a.components || []).map(function (c) { return nestedPopulate(sub, c); })
          .map(function (x) { return x === true ? {} : x; }).filter(function (x) { return x !== false; });
        if (parts.length === 0) return;
        acc[key] = parts.reduce(function (m, x) { return deepMerge(m, x); }, {});
        return;
      }
      if (morphTo) { acc[key] = nestedPopulate(sub, undefined); return; }
      var target = a.type === 'relation' ? a.target : a.type === 'component' ? a.component : a.type === 'media' ? 'plugin::upload.file' : null;
      if (!target || (!model(target) && target !== 'plugin::upload.file')) return;
      var v = nestedPopulate(sub, target);
      if (!v) return;
      acc[key] = v;
    });
    return acc;
  }
  function deepMerge(into, from) {
    if (!isPlain(from)) return from;
    var out = isPlain(into) ? Object.assign({}, into) : {};
    Object.keys(from).forEach(function (k) { out[k] = isPlain(out[k]) && isPlain(from[k]) ? deepMerge(out[k], from[k]) : from[k]; });
    return out;
  }
  function nestedPopulate(sub, uid) {
    if (typeof sub === 'string') return ['true', 't', '1'].indexOf(sub) >= 0 ? true : ['false', 'f', '0'].indexOf(sub) >= 0 ? false : Boolean(sub);
    if (typeof sub === 'boolean') return sub;
    if (!isPlain(sub)) throw new Error('Invalid nested populate. Expected \'*\' or an object');
    var q = {}, has = function (k) { return sub[k] !== undefined && sub[k] !== null; };
    if (sub.sort) q.orderBy = toOrderBy(sub.sort);
    if (sub.filters) q.where = cleanFilters(JSON.parse(JSON.stringify(sub.filters)), model(uid));
    if (sub.fields) { var f = toSelect(sub.fields, 0); if (f !== undefined) q.select = f; }
    if (sub.populate) q.populate = toPopulate(sub.populate, uid, 1);
    if (sub.count) q.count = sub.count;
    if (sub.ordering) q.ordering = sub.ordering;
    if ((has('page') || has('pageSize')) && (has('start') || has('limit'))) throw new errors.PaginationError('Invalid pagination attributes. You cannot use page and offset pagination in the same query');
    if (has('page')) q.page = toInt(sub.page, 'page', 1);
    if (has('pageSize')) q.pageSize = toInt(sub.pageSize, 'pageSize', 1);
    if (has('start')) q.offset = toInt(sub.start, 'start', 0);
    if (has('limit')) { var l = toInt(sub.limit, 'limit', -1); q.limit = l === -1 ? undefined : l; }
    if (has('publicationState')) q.publicationState = sub.publicationState; // the host reads it there
    return q;
  }
  // hostPopulate is a query-engine populate in the shape the host reads (the REST API's:
  // fields, filters, sort, start), whoever made it (a hook may have changed it).
  function hostPopulate(p) {
    if (!isPlain(p)) return p;
    var out = {};
    Object.keys(p).forEach(function (k) {
      var v = p[k];
      if (!isPlain(v)) { out[k] = v; return; }
      var o = {};
      Object.keys(v).forEach(function (n) {
        var x = v[n];
        if (x === undefined) return;
        if (n === 'select') o.fields = x;
        else if (n === 'where') o.filters = x;
        else if (n === 'orderBy') o.sort = x;
        else if (n === 'offset') o.start = x;
        else if (n === 'populate') o.populate = hostPopulate(x);
        else if (n === 'on' && isPlain(x)) { o.on = {}; Object.keys(x).forEach(function (t) { var w = {}; w[t] = x[t]; o.on[t] = hostPopulate(w)[t]; }); }
        else o[n] = x;
      });
      out[k] = o;
    });
    return out;
  }


  function hook(uid, action, eventJSON, readBackJSON) {
    var box = { state: 'pending' };
    try {
      var mod = lifecycleModule(uid);
      var base = JSON.parse(eventJSON);
      var rb = readBackJSON ? JSON.parse(readBackJSON) : {};
      var readBack; // the entry a delete's query engine read before it went
      var answered = false; // the after hooks ran on an entry read back here: it is the answer
      // One state per subscriber (the lifecycles file is the first), as Strapi keeps them.
      var states = base.state && Array.isArray(base.state.subscribers) ? base.state.subscribers : [];
      var props = { params: base.params };
      if ('result' in base) props.result = base.result;
      var list;
      var run = function (i) {
        if (i >= list.length) return Promise.resolve();
        var s = list[i];
        var fn = typeof s === 'function' ? s : (s && (!s.models || s.models.indexOf(uid) >= 0) ? s[action] : undefined);
        if (typeof fn !== 'function') return run(i + 1);
        var event = Object.assign({ action: action, model: base.model, state: states[i] || {} }, props);
        return Promise.resolve(fn.call(s, event)).then(function () { states[i] = event.state || {}; return run(i + 1); });
      };
      ensureStartup().then(function () {
        if (host.subscriptions > subscribers.length) {
          throw new errors.NotImplementedError('strapi.db.lifecycles.subscribe is called in bootstrap() after its first use of data, where Quarry does not reach it');
        }
        list = [mod].concat(subscribers); // as the start-up code left them
        // Strapi's query engine reads a created or updated entry back through findOne before
        // its after hook, and a deleted one after its before hook: the model's findOne read
        // hooks (and function subscribers) run there, on the same params and result objects.
        var p = rb.params || {};
        if (rb.id !== undefined && readHooked(uid, ['FindOne'])) {
          if (action === 'afterCreate' || action === 'afterUpdate') {
            return dbRead(uid, 'findOne', { where: { id: rb.id }, select: p.select, populate: p.populate }).then(function (r) {
              props.result = r;
              answered = true;
              return run(0);
            });
          }
          if (action === 'beforeUpdate' && p.loads) {
            // The entity service's component writes load the entry's old components first.
            return componentLoads(uid, p.loads).then(function () { return run(0); });
          }
          if (action === 'beforeDelete') {
            return run(0).then(function () {
              var where = props.params && props.params.where;
              return dbRead(uid, 'findOne', { select: p.select && ['id'].concat(p.select), where: where, populate: p.populate });
            }).then(function (r) { readBack = r === undefined ? null : r; });
          }
        }
        if (action === 'afterDelete' && base.state && 'readBack' in base.state) {
          props.result = base.state.readBack;
          answered = true;
        }
        return run(0);
      }).then(function () {
        box.state = 'done';
        if (props.params && props.params.data !== undefined) box.data = JSON.stringify(props.params.data);
        var st = { subscribers: states.map(function (x) { return x || {}; }) };
        if (readBack !== undefined) st.readBack = readBack;
        box.stateJSON = JSON.stringify(st);
        if (answered) box.result = JSON.stringify(props.result === undefined ? null : props.result);
      }, function (e) { fail(box, null, e); });
    } catch (e) { fail(box, null, e); }
    return box;
  }

  // ---- GraphQL extensions (use() in register()) ----
  var gqlResolvers = null, gqlPolicies = {}, gqlMiddlewares = {};
  // nexus, the GraphQL plugin's type builder, as far as Quarry builds it: objectType,
  // inputObjectType, enumType and extendType/extendInputType with scalar and named fields,
  // arguments and resolvers, translated to SDL; the resolvers run like the extension's own.
  // Anything else of nexus (plugins, interfaces, unions, connection fields, ...) is named and
  // keeps the endpoint refused.
  var nexusStub = new Proxy({}, { get: function (t, k) {
    if (typeof k === 'symbol' || k === 'then' || k === 'toJSON') return undefined;
    if (k === 'nonNull' || k === 'list' || k === 'nullable') return function (inner) { return { __nexus: k, inner: inner }; };
    return function (config) { return { __nexus: String(k), config: config || {} }; };
  } });
  var nexusScalars = { string: 'String', int: 'Int', float: 'Float', boolean: 'Boolean', id: 'ID' };
  function nexusType(x) {
    if (typeof x === 'string') return x;
    if (x && x.__nexus === 'nonNull') return nexusType(x.inner).replace(/!$/, '') + '!';
    if (x && x.__nexus === 'nullable') return nexusType(x.inner).replace(/!$/, '');
    if (x && x.__nexus === 'list') return '[' + nexusType(x.inner) + ']';
    if (x && (x.__nexus === 'objectType' || x.__nexus === 'inputObjectType' || x.__nexus === 'enumType') && x.config.name) return x.config.name;
    throw new Error('a field or argument type Quarry cannot read (' + (x && x.__nexus ? 'nexus.' + x.__nexus : typeof x) + ')');
  }
  function nexusArg(a) {
    if (typeof a === 'string') return a;
    if (a && (a.__nexus === 'nonNull' || a.__nexus === 'nullable' || a.__nexus === 'list')) {
      var inner = nexusArg(a.inner), dflt = '', at = inner.indexOf(' = ');
      if (at >= 0) { dflt = inner.slice(at); inner = inner.slice(0, at); }
      return (a.__nexus === 'list' ? '[' + inner + ']' : a.__nexus === 'nonNull' ? inner.replace(/!$/, '') + '!' : inner.replace(/!$/, '')) + dflt;
    }
    var kind = a && a.__nexus, c = (a && a.config) || {};
    var scalar = { stringArg: 'String', intArg: 'Int', floatArg: 'Float', booleanArg: 'Boolean', idArg: 'ID' }[kind];
    var t = scalar || (kind === 'arg' ? nexusType(c.type) : null);
    if (!t) throw new Error('an argument Quarry cannot read (' + (kind ? 'nexus.' + kind : typeof a) + ')');
    if (scalar && c.type !== undefined) t = nexusType(c.type);
    if (c.default !== undefined) {
      if (c.default !== null && typeof c.default === 'object') throw new Error('an argument default that is not a scalar');
      t += ' = ' + JSON.stringify(c.default);
    }
    return t;
  }
  // nexusBlock runs a definition(t) and returns its fields as SDL lines, keeping resolvers.
  function nexusBlock(def, resolvers) {
    var lines = [];
    function add(name, type, cfg) {
      cfg = cfg || {};
      var args = Object.keys(cfg.args || {}).map(function (k) { return k + ': ' + nexusArg(cfg.args[k]); });
      var desc = typeof cfg.description === 'string' ? JSON.stringify(cfg.description) + ' ' : '';
      lines.push('  ' + desc + name + (args.length ? '(' + args.join(', ') + ')' : '') + ': ' + type);
      if (typeof cfg.resolve === 'function') resolvers[name] = cfg.resolve;
    }
    function t(wraps) {
      var render = function (base) {
        for (var i = wraps.length - 1; i >= 0; i--) base = wraps[i] === 'list' ? '[' + base + ']' : base.replace(/!$/, '') + '!';
        return base;
      };
      var b = { field: function (name, cfg) { add(name, render(nexusType((cfg || {}).type)), cfg); } };
      Object.keys(nexusScalars).forEach(function (k) { b[k] = function (name, cfg) { add(name, render(nexusScalars[k]), cfg); }; });
      return new Proxy(b, { get: function (o, k) {
        if (k === 'nonNull' || k === 'list') return t(wraps.concat([k]));
        if (k === 'nullable') return t(wraps.filter(function (w, i) { return !(w === 'nonNull' && i === wraps.length - 1); }));
        if (Object.prototype.hasOwnProperty.call(o, k)) return o[k];
        if (typeof k === 'symbol' || k === 'then') return undefined;
        throw new Error('t.' + String(k) + ' (in a nexus definition)');
      } });
    }
    if (typeof def !== 'function') throw new Error('a type without a definition(t)');
    def(t([]));
    return lines;
  }
  // nexusSDL translates use()'s types to SDL and the resolvers they declare ({Type: {field: fn}}).
  function nexusSDL(types) {
    var sdl = [], resolvers = {};
    [].concat(types).forEach(function (x) {
      var kind = x && x.__nexus, c = (x && x.config) || {};
      var head = { objectType: 'type ' + c.name, inputObjectType: 'input ' + c.name, extendType: 'extend type ' + c.type,
        extendInputType: 'extend input ' + c.type }[kind];
      if (kind === 'enumType') {
        var members = Array.isArray(c.members) ? c.members.map(function (m) { return typeof m === 'string' ? m : m && m.name; }) : Object.keys(c.members || {});
        sdl.push('enum ' + c.name + ' {\n  ' + members.join('\n  ') + '\n}');
        return;
      }
      if (!head || head.indexOf('undefined') >= 0) throw new Error(kind ? 'nexus.' + kind + (c.name ? ' ' + c.name : '') : 'a type that is not made with nexus');
      var own = {};
      var lines = nexusBlock(c.definition, own);
      var typeName = c.name || c.type;
      if (Object.keys(own).length) resolvers[typeName] = own;
      sdl.push(head + ' {\n' + lines.join('\n') + '\n}');
    });
    return { sdl: sdl.join('\n'), resolvers: resolvers };
  }
  // graphqlExtensions describes each use() as JSON: its typeDefs, the resolvers and the
  // resolversConfig it declares, and what Quarry cannot run of it.
  function graphqlExtensions() {
    gqlResolvers = {};
    var out = [];
    ensureRegister().catch(function () {}); // its synchronous part: where use() is called
    if (registerFailed) {
      // Without register() the extension is not known: serving Shadow CRUD alone would skip
      // its resolversConfig.
      throw new errors.NotImplementedError('register() in ' + host.indexFile + ' failed under Quarry: ' + (registerFailed && registerFailed.message ? registerFailed.message : String(registerFailed)));
    }
    graphqlUses.forEach(function (u, i) {
      var d = { typeDefs: '', resolvers: {}, config: {}, unsupported: [] };
      var ext;
      try { ext = typeof u === 'function' ? u({ nexus: nexusStub, strapi: strapi }) : u; } catch (e) { d.unsupported.push('use() failed: ' + (e && e.message)); out.push(d); return; }
      if (!ext || typeof ext !== 'object') { d.unsupported.push('use() made no extension'); out.push(d); return; }
      if (ext.plugins !== undefined && [].concat(ext.plugins).length) d.unsupported.push('nexus plugins');
      if (ext.typeDefs !== undefined) {
        if (typeof ext.typeDefs === 'string') d.typeDefs = ext.typeDefs; else d.unsupported.push('typeDefs that are not SDL text');
      }
      var allResolvers = {};
      Object.keys(ext.resolvers || {}).forEach(function (type) { allResolvers[type] = ext.resolvers[type]; });
      if (ext.types !== undefined) {
        try {
          var nx = nexusSDL(ext.types);
          d.typeDefs = d.typeDefs ? d.typeDefs + '\n' + nx.sdl : nx.sdl;
          Object.keys(nx.resolvers).forEach(function (type) {
            var merged = {}, a = allResolvers[type] || {}, b = nx.resolvers[type];
            Object.keys(a).forEach(function (f) { merged[f] = a[f]; });
            Object.keys(b).forEach(function (f) { merged[f] = b[f]; });
            allResolvers[type] = merged;
          });
        } catch (e) { d.unsupported.push('nexus types: ' + (e && e.message)); }
      }
      Object.keys(allResolvers).forEach(function (type) {
        var fields = allResolvers[type] || {};
        Object.keys(fields).forEach(function (f) {
          var r = fields[f];
          var fn = typeof r === 'function' ? r : (r && typeof r.resolve === 'function' ? r.resolve : null);
          if (!fn) { d.unsupported.push('the resolver ' + type + '.' + f + ' (not a function)'); return; }
          (d.resolvers[type] = d.resolvers[type] || {})[f] = true;
          gqlResolvers[i + ' ' + type + '.' + f] = fn;
        });
      });
      Object.keys(ext.resolversConfig || {}).forEach(function (k) {
        var c = ext.resolversConfig[k] || {};
        var dc = { policies: [] };
        if (c.auth === false) dc.authDisabled = true;
        else if (c.auth && Array.isArray(c.auth.scope)) dc.scope = c.auth.scope;
        dc.middlewares = [];
        (c.middlewares || []).forEach(function (m, j) {
          var id = i + ' ' + k + ' m' + j;
          try { gqlMiddlewares[id] = resolverMiddleware(m); dc.middlewares.push(id); } catch (e) {
            d.unsupported.push('the middleware ' + (typeof m === 'string' ? m : (m && m.name) || 'given inline') + ' of ' + k + ' (' + (e && e.message) + ')');
          }
        });
        (c.policies || []).forEach(function (p, j) {
          var id = i + ' ' + k + ' ' + j;
          try { gqlPolicies[id] = resolvePolicy(p, {}); dc.policies.push(id); } catch (e) { d.unsupported.push('the policy ' + (typeof p === 'string' ? p : (p && p.name) || 'given inline') + ' of ' + k); }
        });
        d.config[k] = dc;
      });
      out.push(d);
    });
    return JSON.stringify(out);
  }
  // A resolversConfig middleware as the GraphQL plugin's parseMiddlewares takes it: a function
  // (resolve, parent, args, context, info), a registered middleware's name (the module itself
  // is the resolver middleware), or {name, options} (the module is a factory of one).
  function resolverMiddleware(m) {
    var f;
    if (typeof m === 'function') f = m;
    else if (typeof m === 'string') f = middleware(qualify(m, null, 'middleware'));
    else if (m && typeof m === 'object') f = middleware(qualify(m.name, null, 'middleware'))(m.options || {}, { strapi: strapi });
    else throw new TypeError('Invalid middleware type, expected (function,string,object), received ' + typeof m);
    if (typeof f !== 'function') throw new TypeError('it is not a function');
    return f;
  }
  // gqlCall is what a resolver, policy or middleware of a request receives: the parsed
  // parameters, the GraphQL context (state, koaContext) and an info with the field's names.
  function gqlCall(paramsJSON, reqJSON) {
    var p = JSON.parse(paramsJSON);
    var ctx = makeCtx(JSON.parse(reqJSON));
    return { p: p, ctx: ctx, context: { state: ctx.state, koaContext: ctx },
      info: { fieldName: p.fieldName, parentType: { name: p.typeName }, returnType: undefined, path: { key: p.fieldName } } };
  }
  // middlewareGraphQL runs a resolversConfig middleware for a request. Its resolve runs the
  // rest of the chain in Quarry (host.graphqlNext, with the args the middleware passes): a plain
  // value comes back as itself, a generated query's result as an opaque object to return as
  // it is, and a failure as a rejection the host answers with its own error.
  function middlewareGraphQL(id, paramsJSON, reqJSON) {
    var box = { state: 'pending' };
    try {
      if (!gqlResolvers) graphqlExtensions();
      var mw = gqlMiddlewares[id];
      if (!mw) throw new errors.NotImplementedError('the middleware ' + id + ' is not loaded');
      var g = gqlCall(paramsJSON, reqJSON);
      var opaque = Object.freeze({}), nextFailed = {};
      var resolve = function (parent, args) {
        var out = JSON.parse(host.graphqlNext(JSON.stringify(args === undefined ? null : args)));
        if (out.failed) return Promise.reject(nextFailed);
        return Promise.resolve(out.opaque ? opaque : out.value);
      };
      Promise.resolve().then(function () { return mw(resolve, g.p.parent, g.p.args, g.context, g.info); }).then(function (v) {
        box.state = 'done';
        if (v === opaque) box.opaque = true;
        else box.value = JSON.stringify(v === undefined ? null : v);
      }, function (e) {
        if (e === nextFailed) { box.state = 'done'; box.nextFailed = true; return; }
        fail(box, null, e);
      });
    } catch (e) { fail(box, null, e); }
    return box;
  }
  // resolveGraphQL runs an extension resolver (or, with policy set, a resolversConfig policy)
  // for a request, settling a box the host reads: value (JSON) or an error.
  function resolveGraphQL(key, policyID, paramsJSON, reqJSON) {
    var box = { state: 'pending' };
    try {
      if (!gqlResolvers) graphqlExtensions();
      var g = gqlCall(paramsJSON, reqJSON);
      var p = g.p, ctx = g.ctx, context = g.context, info = g.info;
      var run;
      if (policyID) {
        var pol = gqlPolicies[policyID];
        if (!pol) throw new errors.NotImplementedError('the policy ' + policyID + ' is not loaded');
        var pctx = { is: function (t) { return t === 'graphql'; }, get type() { return 'graphql'; },
          parent: p.parent, args: p.args, context: context, info: info, state: ctx.state, http: ctx };
        run = function () { return pol.handler(pctx, pol.config, { strapi: strapi }); };
      } else {
        var fn = gqlResolvers[key];
        if (!fn) throw new errors.NotImplementedError('the resolver ' + key + ' is not loaded');
        run = function () { return fn(p.parent, p.args, context, info); };
      }
      Promise.resolve().then(run).then(function (v) {
        box.state = 'done';
        box.value = JSON.stringify(v === undefined ? null : v);
      }, function (e) { fail(box, null, e); });
    } catch (e) { fail(box, null, e); }
    return box;
  }

  // generatedMutation is the GraphQL plugin's generated mutation resolver after its checks:
  // the data sanitized as input for the caller, then the entity service's create, update (by
  // id) or delete (by id); a single type's update and delete first find the entry with
  // findMany (its findOne hooks run), then update it or create it, or delete it (a missing
  // one is Strapi's NotFoundError).
  function generatedMutation(uid, action, args, params, ctx) {
    var ct = contentTypes[uid] || {};
    var input = function () {
      return action === 'delete' ? undefined : call('sanitize.input', { uid: uid, data: args.data === undefined ? {} : args.data, auth: authOf(ctx) });
    };
    if (ct.kind === 'singleType') {
      return Promise.resolve(strapi.entityService.findMany(uid, params)).then(function (e) {
        if (action === 'delete') {
          if (e === null || e === undefined) throw new errors.NotFoundError('Entity not found');
          return strapi.entityService.delete(uid, e.id, params);
        }
        var data = input();
        if (e === null || e === undefined) return strapi.entityService.create(uid, { data: data });
        return strapi.entityService.update(uid, e.id, { data: data });
      });
    }
    if (action === 'create') return Promise.resolve(strapi.entityService.create(uid, { data: input() }));
    if (action === 'update') return Promise.resolve(strapi.entityService.update(uid, args.id, { data: input() }));
    return Promise.resolve(strapi.entityService.delete(uid, args.id, params));
  }

  // generatedGraphQL runs what the GraphQL plugin's generated resolver of a model with read
  // lifecycle hooks runs after its checks (Quarry's executor made them as for any generated
  // query): the entity service's findMany (find: the nodes; a single type's: the value), its
  // findOne (the value), or, for meta.pagination, its count; the hooks run around the query
  // engine's reads as they do for REST. It answers the format service's {nodes, info} or
  // {value, info} ({count} for a count), which the executor resolves as the generated types do.
  function generatedGraphQL(uid, action, argsJSON, reqJSON) {
    var box = { state: 'pending' };
    try {
      var args = JSON.parse(argsJSON) || {};
      var params = {};
      Object.keys(args).forEach(function (k) { if (k !== 'id' && k !== 'data') params[k] = args[k]; });
      var info = { args: args, resourceUID: uid };
      var run = function () {
        if (action === 'load') {
          return withReadHooks(uid, ['FindOne'], function () {
            return hookedLoad(uid, { id: args.id }, args.field, args.params || {}, true);
          }).then(function (v) { return { value: v === undefined ? null : v }; });
        }
        if (WRITES[action]) return generatedMutation(uid, action, args, params, makeCtx(JSON.parse(reqJSON))).then(function (v) { return { value: v, info: info }; });
        if (action === 'count') return strapi.entityService.count(uid, params).then(function (n) { return { count: n }; });
        if (action === 'findOne') return strapi.entityService.findOne(uid, args.id, params).then(function (v) { return { value: v, info: info }; });
        var ct = contentTypes[uid] || {};
        return strapi.entityService.findMany(uid, params).then(function (r) {
          return ct.kind === 'singleType' ? { value: r, info: info } : { nodes: r || [], info: info };
        });
      };
      Promise.resolve().then(run).then(function (v) {
        box.state = 'done';
        box.value = JSON.stringify(v);
      }, function (e) { fail(box, null, e); });
    } catch (e) { fail(box, null, e); }
    return box;
  }

  // authUser is the plugin's authentication fetching a JWT's user: the user service's
  // fetchAuthenticatedUser as src/index's register() replaced it.
  function authUser(id) {
    var box = { state: 'pending' };
    try {
      ensureRegister().then(function () {
        return pluginService('users-permissions', 'user').fetchAuthenticatedUser(id);
      }).then(function (u) {
        box.state = 'done';
        box.value = u === undefined || u === null ? 'null' : JSON.stringify(u);
      }, function (e) { fail(box, null, e); });
    } catch (e) { fail(box, null, e); }
    return box;
  }

  var factories = { createCoreController: createCoreController, createCoreService: createCoreService, createCoreRouter: createCoreRouter };
  return { strapi: strapi, factories: factories, serve: serve, hook: hook, bootstrap: bootstrap, cronList: cronList, cronRun: cronRun,
    hubDispatch: hubDispatch, hubFire: hubFire, hubListened: hubListened, hubIdle: hubIdle, subscribers: subscribers, transformResponse: transformResponse,
    graphqlExtensions: graphqlExtensions, resolveGraphQL: resolveGraphQL, middlewareGraphQL: middlewareGraphQL, generatedGraphQL: generatedGraphQL,
    authUser: authUser };
})
