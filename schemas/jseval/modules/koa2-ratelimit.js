// koa2-ratelimit (1.1) as Quarry's sandbox provides it, written for Quarry from the package's
// documented behaviour: RateLimit.middleware(options) counts each request under a key
// (prefixKey|user id or IP) in a window of `interval`, sets X-RateLimit-* headers and answers
// 429 with { message } past `max`. The memory store is the host's, shared by every sandbox
// as the package's is by every middleware of a process; the other stores (Sequelize,
// MongoDB, Redis) need connections the sandbox does not give.
'use strict';
var NotImplementedError = require('@strapi/utils').errors.NotImplementedError;

var TIMES = { ms: 1, sec: 1000, min: 60000, hour: 3600000, day: 86400000, week: 604800000, month: 2628000000, year: 12 * 2628000000 };
var USER_KEYS = ['id', 'userId', 'user_id', 'idUser', 'id_user'];

function toMs(t) {
  if (t === null || typeof t !== 'object') return t;
  var ms = 0;
  Object.keys(t).forEach(function (k) {
    if (!Object.prototype.hasOwnProperty.call(TIMES, k)) throw new Error('Invalide key ' + k + ', allow keys: ' + Object.keys(TIMES).toString());
    if (t[k] > 0) ms += t[k] * TIMES[k];
  });
  return ms;
}

function Store() {}
Store.prototype.incr = function () { throw new Error('Store.incr is not implemented'); };
Store.prototype.decrement = function () {};
Store.prototype.saveAbuse = function () {};

// MemoryStore keeps its hits in the host (globalThis.__quarryHits); reading a file, where
// there is no host, every hit is the first.
function MemoryStore() {}
MemoryStore.prototype = Object.create(Store.prototype);
MemoryStore.prototype.constructor = MemoryStore;
MemoryStore.prototype.incr = function (key, options, weight) {
  var hits = globalThis.__quarryHits;
  if (typeof hits !== 'function') return Promise.resolve({ counter: weight, dateEnd: Date.now() + options.interval });
  return Promise.resolve(hits(key, options.interval, weight, false));
};
MemoryStore.prototype.decrement = function (key, options, weight) {
  var hits = globalThis.__quarryHits;
  if (typeof hits === 'function') hits(key, options.interval, weight, true);
};
MemoryStore.cleanAll = function () { throw new NotImplementedError('koa2-ratelimit: MemoryStore.cleanAll is not provided by Quarry'); };

var defaults = {
  interval: { min: 1 }, delayAfter: 0, timeWait: { sec: 1 }, max: 5,
  message: 'Too many requests, please try again later.', messageKey: 'message', statusCode: 429,
  headers: true, skipFailedRequests: false, prefixKey: 'global', prefixKeySeparator: '::',
  store: new MemoryStore(),
  keyGenerator: undefined, getUserIdFromKey: undefined, skip: undefined, getUserId: undefined,
  handler: undefined, onLimitReached: undefined, weight: undefined, whitelist: []
};

function RateLimit(options) {
  if (!(this instanceof RateLimit)) throw new TypeError("Class constructor RateLimit cannot be invoked without 'new'");
  this.options = Object.assign({}, defaults, options);
  this.options.interval = toMs(this.options.interval);
  this.options.timeWait = toMs(this.options.timeWait);
  this.store = this.options.store;
  if (!(this.store instanceof Store)) throw new Error('The store is not valid.');
}
RateLimit.timeToMs = toMs;
RateLimit.prototype.getUserId = function (ctx) {
  if (this.options.getUserId) return Promise.resolve(this.options.getUserId(ctx));
  var places = [ctx.state && ctx.state.user, ctx.user, ctx.state && ctx.state.User, ctx.User, ctx.state, ctx];
  for (var i = 0; i < places.length; i++) {
    var p = places[i];
    if (!p) continue;
    for (var j = 0; j < USER_KEYS.length; j++) if (p[USER_KEYS[j]]) return Promise.resolve(p[USER_KEYS[j]]);
  }
  return Promise.resolve(null);
};
RateLimit.prototype.keyGenerator = function (ctx) {
  var o = this.options;
  if (o.keyGenerator) return Promise.resolve(o.keyGenerator(ctx));
  return this.getUserId(ctx).then(function (id) { return o.prefixKey + '|' + (id ? id : ctx.request.ip); });
};
RateLimit.prototype.getUserIdFromKey = function (key) {
  if (this.options.getUserIdFromKey) return this.options.getUserIdFromKey(key);
  return String(key).split(this.options.prefixKeySeparator)[1];
};
RateLimit.prototype.isWhitelisted = function (key) {
  var list = this.options.whitelist;
  if (list == null || list.length === 0) return false;
  var id = this.getUserIdFromKey(key);
  return id ? list.indexOf(id) >= 0 : false;
};
RateLimit.prototype.handler = function (ctx) {
  var o = this.options;
  if (o.handler) { o.handler(ctx); return Promise.resolve(); }
  ctx.status = o.statusCode;
  var body = {};
  body[o.messageKey] = o.message;
  ctx.body = body;
  if (o.headers) ctx.set('Retry-After', Math.ceil(o.interval / 1000));
  return Promise.resolve();
};
RateLimit.prototype.run = async function (ctx, next) {
  var o = this.options;
  if (o.skip && await o.skip(ctx)) return next();
  var key = await this.keyGenerator(ctx);
  if (this.isWhitelisted(key)) return next();
  var weight = o.weight ? await o.weight(ctx) : 1;
  var hit = await this.store.incr(key, o, weight);
  var counter = hit.counter;
  var reset = new Date(hit.dateEnd).getTime();
  ctx.state.rateLimit = { limit: o.max, current: counter, remaining: Math.max(o.max - counter, 0), reset: Math.ceil(reset / 1000) };
  if (o.headers) {
    ctx.set('X-RateLimit-Limit', o.max);
    ctx.set('X-RateLimit-Remaining', ctx.state.rateLimit.remaining);
    ctx.set('X-RateLimit-Reset', ctx.state.rateLimit.reset);
  }
  if (o.max && counter > o.max) {
    if (o.onLimitReached) o.onLimitReached(ctx);
    return this.handler(ctx, next);
  }
  var self = this;
  var after = function (r) {
    // The package takes a failed request back when the response finishes.
    if (o.skipFailedRequests && ctx.status >= 400) self.store.decrement(key, o, weight);
    return r;
  };
  if (o.delayAfter && o.timeWait && counter > o.delayAfter) {
    var delay = (counter - o.delayAfter) * o.timeWait;
    await new Promise(function (resolve) { setTimeout(resolve, delay); });
  }
  return Promise.resolve(next()).then(after);
};
Object.defineProperty(RateLimit.prototype, 'middleware', {
  get: function () { return this.run.bind(this); }
});

var rateLimit = {
  RateLimit: RateLimit,
  middleware: function (options) { return new RateLimit(options || {}).middleware; },
  defaultOptions: function (options) { Object.assign(defaults, options || {}); }
};

module.exports = {
  RateLimit: rateLimit,
  Stores: {
    Memory: MemoryStore,
    Store: Store,
    get Sequelize() { throw new NotImplementedError('koa2-ratelimit: the Sequelize store is not provided by Quarry'); },
    get Mongodb() { throw new NotImplementedError('koa2-ratelimit: the MongoDB store is not provided by Quarry'); },
    get Redis() { throw new NotImplementedError('koa2-ratelimit: the Redis store is not provided by Quarry'); }
  }
};
