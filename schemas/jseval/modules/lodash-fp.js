// lodash/fp as Quarry's sandbox provides it, over the sandbox's lodash: written for Quarry
// from lodash 4's documented fp conventions. Each function of the table below takes a fixed
// number of arguments, data last, and is curried (fp.get('a.b')(object)); the callbacks of
// iterating functions get their value only (map's gets no index); functions that change their input (set, unset, update, merge, assign,
// defaults) change a copy. Placeholders (fp.__) are not provided. lodash functions not in the
// table are lodash's own, as lodash/fp leaves them; those the sandbox's lodash lacks throw
// NotImplementedError when called.
'use strict';
var _ = require('lodash');
var NotImplementedError = require('@strapi/utils').errors.NotImplementedError;

var slice = Array.prototype.slice;

// curry calls fn once it has n arguments (more are dropped), gathering them over calls.
function curry(fn, n) {
  if (n === undefined) n = fn.length;
  function gather(have) {
    return function () {
      var args = have.concat(slice.call(arguments));
      if (args.length >= n) return fn.apply(undefined, args.slice(0, n));
      return gather(args);
    };
  }
  return gather([]);
}

function capped(f, n) {
  if (typeof f !== 'function') return f;
  return n === 1 ? function (a) { return f(a); } : function (a, b) { return f(a, b); };
}

function copyAlong(object, path) {
  var keys = _.toPath(path);
  var root = Array.isArray(object) ? object.slice() : Object.assign({}, object);
  var cur = root;
  for (var i = 0; i < keys.length - 1 && cur != null; i++) {
    var next = cur[keys[i]];
    if (next === null || typeof next !== 'object') break;
    cur = cur[keys[i]] = Array.isArray(next) ? next.slice() : Object.assign({}, next);
  }
  return object == null ? object : root;
}

// spec: [ary, rearg (lodash's argument i is fp's rearg[i]), iteratee's arguments (0: as is),
// how the input is copied ('object': by the function itself into {}, 'path': along the path)]
var SWAP = [1, 0], ROT3 = [2, 0, 1], KEEP2 = [0, 1];
var specs = {
  get: [2, SWAP], getOr: [3, [2, 1, 0]], set: [3, ROT3, 0, 'path'], unset: [2, SWAP, 0, 'path'],
  update: [3, ROT3, 0, 'path'], has: [2, SWAP], pick: [2, SWAP], omit: [2, SWAP], pickBy: [2, SWAP], omitBy: [2, SWAP],
  map: [2, SWAP, 1], filter: [2, SWAP, 1], reject: [2, SWAP, 1], find: [2, SWAP, 1], findIndex: [2, SWAP, 1],
  some: [2, SWAP, 1], every: [2, SWAP, 1], forEach: [2, SWAP, 1], flatMap: [2, SWAP, 1], mapValues: [2, SWAP, 1],
  mapKeys: [2, SWAP, 1], times: [2, SWAP, 1], partition: [2, SWAP, 1], reduce: [3, ROT3],
  includes: [2, SWAP], groupBy: [2, SWAP], keyBy: [2, SWAP], countBy: [2, SWAP], sortBy: [2, SWAP], orderBy: [3, ROT3],
  uniqBy: [2, SWAP], union: [2, SWAP], intersection: [2, SWAP], without: [2, SWAP], xor: [2, SWAP],
  sumBy: [2, SWAP], maxBy: [2, SWAP], minBy: [2, SWAP], chunk: [2, SWAP], take: [2, SWAP], takeRight: [2, SWAP],
  drop: [2, SWAP], dropRight: [2, SWAP], nth: [2, SWAP], join: [2, SWAP], split: [2, SWAP], startsWith: [2, SWAP],
  endsWith: [2, SWAP], replace: [3, ROT3], isMatch: [2, SWAP], defaultTo: [2, SWAP],
  defaults: [2, SWAP, 0, 'object'], defaultsDeep: [2, SWAP, 0, 'object'],
  merge: [2, KEEP2, 0, 'object'], assign: [2, KEEP2, 0, 'object'], concat: [2, KEEP2], difference: [2, KEEP2],
  isEqual: [2, KEEP2], zipObject: [2, KEEP2], range: [2, KEEP2],
  trim: [1, [0]], fromPairs: [1, [0]], invert: [1, [0]]
};

var fp = {};
var defaultTo = function (d, v) { return v == null || v !== v ? d : v; };
Object.keys(specs).forEach(function (name) {
  var s = specs[name], ary = s[0], rearg = s[1], iterAry = s[2], copy = s[3];
  var base = name === 'defaultTo' ? function (v, d) { return defaultTo(d, v); } : name === 'getOr' ? function (o, p, d) { return _.get(o, p, d); } : _[name];
  fp[name] = curry(function () {
    var fpArgs = slice.call(arguments);
    var args = rearg.map(function (i) { return fpArgs[i]; });
    if (iterAry) args[1] = capped(args[1], iterAry);
    if (copy === 'object') args[0] = base({}, args[0]);
    if (copy === 'path') {
      // The copy is the answer (unset's own answer is whether it removed something).
      args[0] = copyAlong(args[0], args[1]);
      base.apply(undefined, args);
      return args[0];
    }
    if (name === 'without') return base.apply(undefined, [args[0]].concat(args[1] || []));
    return base.apply(undefined, args);
  }, ary);
});

// The rest of the conventions lodash/fp has for these.
fp.mergeAll = function (list) { return _.merge.apply(undefined, [{}].concat(slice.call(list || []))); };
fp.assignAll = function (list) { return _.assign.apply(undefined, [{}].concat(slice.call(list || []))); };
fp.defaultsAll = function (list) { return _.defaults.apply(undefined, [{}].concat(slice.call(list || []))); };
fp.flow = function () {
  var fns = _.flatten(slice.call(arguments));
  return function () {
    var r = fns.length ? fns[0].apply(this, arguments) : arguments[0];
    for (var i = 1; i < fns.length; i++) r = fns[i].call(this, r);
    return r;
  };
};
fp.flowRight = function () { return fp.flow.apply(undefined, _.flatten(slice.call(arguments)).reverse()); };
fp.curry = function (f) { return curry(f, f.length); };
fp.castArray = function () { return arguments.length ? _.castArray(arguments[0]) : []; };
fp.stubTrue = function () { return true; };
fp.stubFalse = function () { return false; };
fp.placeholder = function () { throw new NotImplementedError("lodash/fp's placeholder (fp.__) is not provided by Quarry's sandbox"); };

var aliases = {
  prop: 'get', path: 'get', property: 'get', propOr: 'getOr', pathOr: 'getOr', assoc: 'set', assocPath: 'set',
  dissoc: 'unset', dissocPath: 'unset', pipe: 'flow', compose: 'flowRight', contains: 'includes', all: 'every',
  any: 'some', equals: 'isEqual', each: 'forEach', first: 'head', entries: 'toPairs', pickAll: 'pick',
  omitAll: 'omit', always: 'constant', complement: 'negate', indexBy: 'keyBy', pluck: 'map', matches: 'isMatch',
  T: 'stubTrue', F: 'stubFalse', __: 'placeholder', extend: 'assign', identical: 'eq'
};

module.exports = new Proxy(fp, {
  get: function (t, k) {
    if (typeof k !== 'string') return undefined;
    if (Object.prototype.hasOwnProperty.call(t, k)) return t[k];
    if (Object.prototype.hasOwnProperty.call(aliases, k)) return module.exports[aliases[k]];
    if (k === 'then' || k === '__esModule' || k === 'default' || k === 'toJSON') return undefined;
    if (k === 'eq') return curry(function (a, b) { return a === b || (a !== a && b !== b); }, 2);
    return _[k];
  }
});
