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

  function call(op, args) {
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
      try { return Promise.resolve(fn.apply(this, arguments)); } catch (e) { return Promise.reject(e); }
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
      else if (op === 'load') { return call('es.load', { uid: uid, entity: args[0], field: args[1], params: args[2] || {} }); }
      else params = args[0];
      return call('es.' + op, { uid: String(uid), id: id === undefined ? null : id, params: params || {} });
    });
  });
  function query(uid) {
    var q = {};
    ['findOne', 'findMany', 'findWithCount', 'findPage', 'count', 'create', 'createMany', 'update', 'updateMany',
     'delete', 'deleteMany', 'load', 'populate'].forEach(function (op) {
      q[op] = async(function (params) {
        var extra = Array.prototype.slice.call(arguments, 1);
        return call('db.' + op, { uid: String(uid), params: params || {}, extra: extra });
      });
    });
    return q;
  }
  var subscribers = [];
  var db = { query: query, lifecycles: { subscribe: function (s) { subscribers.push(s); } } };

  // ---- registries: the project's controllers, services, policies, middlewares ----
  var files = host.files; // kind → name → file path
  var instances = { controllers: {}, services: {} };
  function factoryOf(kind, name) {
    var f = files[kind] && files[kind][name];
    if (!f) return undefined;
    var mod = projectRequire(f);
    return mod && mod.__esModule && mod.default !== undefined ? mod.default : mod;
  }
  function instance(kind, uid) {
    if (instances[kind][uid]) return instances[kind][uid];
    var f = factoryOf(kind, uid);
    var obj;
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
  function plugin(name) {
    return {
      service: function (s) { return pluginService(name, s); },
      controller: function (c) { throw new errors.NotImplementedError('strapi.plugin(\'' + name + '\').controller(\'' + c + '\') is not provided by Quarry'); },
      config: function (k, d) { return getPath(((host.config.plugins || {})[name] || {}).config || {}, k, d); },
      contentType: function (c) { return contentTypes['plugin::' + name + '.' + c]; }
    };
  }
  function pluginService(p, s) {
    var svc = host.pluginServices[p + '.' + s];
    if (!svc) throw new errors.NotImplementedError('strapi.plugin(\'' + p + '\').service(\'' + s + '\') is not provided by Quarry');
    var out = {};
    svc.forEach(function (m) {
      out[m] = async(function () { return call('plugin.' + p + '.' + s + '.' + m, Array.prototype.slice.call(arguments)); });
    });
    return out;
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

  var strapi = {
    contentTypes: contentTypes, components: components,
    contentType: function (uid) { return contentTypes[uid]; },
    component: function (uid) { return components[uid]; },
    getModel: model,
    config: {
      get: function (p, d) {
        var keys = Array.isArray(p) ? p.slice() : String(p).split('.');
        if (keys[0] === 'plugin' && keys.length > 1) keys = ['plugins', keys[1], 'config'].concat(keys.slice(2));
        return getPath(host.config, keys, d);
      },
      has: function (p) { return strapi.config.get(p) !== undefined; }
    },
    log: { info: logger('info'), warn: logger('warn'), error: logger('error'), debug: logger('debug'), trace: logger('debug'), fatal: logger('error') },
    entityService: entityService, db: db, query: query,
    service: function (uid) { return instance('services', uid); },
    controller: function (uid) { return instance('controllers', uid); },
    policy: policy, middleware: middleware, plugin: plugin,
    plugins: new Proxy({}, { get: function (t, k) { return typeof k === 'string' ? plugin(k) : undefined; } }),
    dirs: { app: { root: host.root, src: host.root + '/src' }, dist: { root: host.root, src: host.root + '/src' } }
  };

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
      return function (ctx) {
        var svc = strapi.service(uid);
        if (!svc || !svc.__quarryOwn || !svc.__quarryOwn(serviceMethod(action))) return steps.call(this, ctx, svc);
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
          var body = (ctx.request.body || {});
          if (!isObj(body.data)) throw new errors.ValidationError('Missing "data" payload in the request body');
          var data = await this.sanitizeInput(body.data, ctx);
          var e = await svc.create(Object.assign({}, q, { data: data }));
          return this.transformResponse(await this.sanitizeOutput(e, ctx));
        }),
        update: nativeOr('update', async function (ctx, svc) {
          await this.validateQuery(ctx);
          var q = await this.sanitizeQuery(ctx);
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
  function createCoreRouter(uid, cfg) { return { __quarry: 'coreRouter', uid: uid, config: cfg || {} }; }

  // ---- Koa's context ----
  function makeCtx(req) {
    var res = { status: undefined, body: undefined, raw: null, headers: {} };
    var query = req.query || {};
    var state = { route: req.route, auth: req.auth };
    var user;
    Object.defineProperty(state, 'user', {
      enumerable: true, configurable: true,
      get: function () { if (user === undefined && req.userId) user = call('auth.user', { id: req.userId }) || null; return user === undefined ? undefined : user; },
      set: function (v) { user = v; }
    });
    var request = {
      method: req.method, url: req.url, path: req.path, querystring: req.querystring, headers: req.headers, header: req.headers,
      ip: req.ip, ips: [req.ip], files: undefined, host: req.headers.host, hostname: (req.headers.host || '').split(':')[0],
      get: function (n) { return req.headers[String(n).toLowerCase()] || ''; },
      is: function (t) { return isType(req.headers['content-type'], t); }
    };
    Object.defineProperty(request, 'body', { enumerable: true, get: function () { return req.body; }, set: function (v) { req.body = v; } });
    Object.defineProperty(request, 'query', { enumerable: true, get: function () { return query; }, set: function (v) { query = v; } });
    var response = {
      get: function (n) { return res.headers[String(n).toLowerCase()]; },
      set: function (n, v) { setHeader(res, n, v); }
    };
    var ctx = {
      request: request, response: response, state: state, params: req.params || {},
      method: req.method, url: req.url, path: req.path, originalUrl: req.url, headers: req.headers, header: req.headers,
      ip: req.ip, host: request.host, hostname: request.hostname, cookies: { get: function () { return undefined; }, set: function () {} },
      get: request.get, is: request.is,
      set: function (n, v) { setHeader(res, n, v); },
      throw: function (status, message, props) {
        if (typeof status === 'string') { props = message; message = status; status = 500; }
        if (status instanceof Error) throw status;
        throw httpError(status, message, props);
      },
      assert: function (v, status, message) { if (!v) ctx.throw(status, message); },
      send: function (data, status) { ctx.status = status === undefined ? 200 : status; ctx.body = data; },
      created: function (data) { ctx.status = 201; ctx.body = data; },
      deleted: function (data) { if (data === undefined || data === null) ctx.status = 204; else { ctx.status = 200; ctx.body = data; } }
    };
    Object.keys(statusText).forEach(function (code) {
      code = Number(code);
      if (code < 400 || code >= 600) return;
      ctx[camel(statusText[code])] = function (message, details) {
        var e = httpError(code, message);
        ctx.status = code;
        ctx.body = { data: null, error: { status: code, name: e.name, message: e.message, details: details === undefined ? {} : details } };
      };
    });
    Object.defineProperty(ctx, 'query', { enumerable: true, get: function () { return query; }, set: function (v) { query = v; } });
    Object.defineProperty(ctx, 'body', {
      enumerable: true,
      get: function () { if (res.raw !== null) { res.body = JSON.parse(res.raw); res.raw = null; } return res.body; },
      set: function (v) { res.raw = null; res.body = v; if (res.status === undefined) res.status = (v === null ? 204 : 200); }
    });
    Object.defineProperty(ctx, 'status', { enumerable: true, get: function () { return res.status === undefined ? 404 : res.status; }, set: function (v) { res.status = v; } });
    Object.defineProperty(ctx, 'type', { enumerable: true, get: function () { return res.headers['content-type'] || ''; }, set: function (v) { setHeader(res, 'content-type', v); } });
    ctx.response.body = undefined;
    Object.defineProperty(ctx.response, 'body', { get: function () { return ctx.body; }, set: function (v) { ctx.body = v; } });
    Object.defineProperty(ctx.response, 'status', { get: function () { return ctx.status; }, set: function (v) { ctx.status = v; } });
    Object.defineProperty(ctx, '__res', { value: res, enumerable: false });
    return ctx;
  }
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
    var out = call('native', { uid: uid, action: action, id: ctx.params.id === undefined ? null : String(ctx.params.id), query: ctx.query, body: ctx.request.body === undefined ? null : ctx.request.body });
    if (out.status >= 400) {
      var err = JSON.parse(out.body).error || {};
      throw toError({ status: out.status, name: err.name, message: err.message, details: err.details, quarry: out });
    }
    if (!keepRaw) return JSON.parse(out.body);
    ctx.__res.status = out.status;
    ctx.__res.raw = out.body;
    ctx.__res.body = undefined;
    return undefined;
  }

  // ---- running a route ----
  function compose(list) {
    return function (ctx) {
      var index = -1;
      function dispatch(i) {
        if (i <= index) return Promise.reject(new Error('next() called multiple times'));
        index = i;
        var fn = list[i];
        if (!fn) return Promise.resolve();
        try { return Promise.resolve(fn(ctx, function () { return dispatch(i + 1); })); } catch (e) { return Promise.reject(e); }
      }
      return dispatch(0);
    };
  }
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
  function action(route) {
    if (route.native) return function (ctx) { return native(ctx, route.uid, route.native, true); };
    var h = route.handler;
    var i = h.lastIndexOf('.');
    var ctrlName = h.slice(0, i), act = h.slice(i + 1);
    var ctrl = strapi.controller(ctrlName);
    if (!ctrl || typeof ctrl[act] !== 'function') throw new Error('Handler not found "' + h + '"');
    return function (ctx, next) { return ctrl[act](ctx, next); };
  }
  function returnBody(ctx, next) {
    return next().then(function (v) {
      if ((ctx.__res.body === undefined || ctx.__res.body === null) && ctx.__res.raw === null && v !== undefined && v !== null) ctx.body = v;
    });
  }
  var chains = {};
  function chain(route) {
    var key = route.key;
    if (chains[key]) return chains[key];
    var info = route.info || {};
    var pols = (route.policies || []).map(function (p) { return resolvePolicy(p, info); });
    var policyMw = function (ctx, next) {
      var pctx = Object.create(ctx, { is: { value: function (t) { return t === 'koa'; } }, type: { value: 'koa' } });
      var p = Promise.resolve();
      pols.forEach(function (pl) {
        p = p.then(function () { return pl.handler(pctx, pl.config, { strapi: strapi }); }).then(function (r) {
          if (r !== true && r !== undefined) throw new errors.PolicyError();
        });
      });
      return p.then(function () { return next(); });
    };
    // Strapi's authorize step wraps the rest of the chain: an UnauthorizedError or
    // ForbiddenError (a PolicyError is one) thrown anywhere below answers as ctx.unauthorized()
    // or ctx.forbidden() do.
    var authorize = function (ctx, next) {
      return next().catch(function (e) {
        if (e instanceof errors.UnauthorizedError) return ctx.unauthorized();
        if (e instanceof errors.ForbiddenError) return ctx.forbidden();
        throw e;
      });
    };
    var list = [authorize, policyMw].concat((route.middlewares || []).map(function (m) { return resolveMiddleware(m, info); }), [returnBody, action(route)]);
    chains[key] = compose(list);
    return chains[key];
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
  function serve(routeJSON, reqJSON) {
    var route = JSON.parse(routeJSON), req = JSON.parse(reqJSON);
    var box = { state: 'pending' };
    var ctx;
    try {
      ctx = makeCtx(req);
      ctx.state.route = { method: route.method, path: route.path, handler: route.handler, info: route.info || {}, config: route.config || {} };
      chain(route)(ctx).then(function () { box.state = 'done'; finish(box, ctx); }, function (e) { fail(box, ctx, e); });
    } catch (e) { fail(box, ctx, e); }
    return box;
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

  var factories = { createCoreController: createCoreController, createCoreService: createCoreService, createCoreRouter: createCoreRouter };
  return { strapi: strapi, factories: factories, serve: serve, subscribers: subscribers, transformResponse: transformResponse };
})
