// lodash as Quarry's sandbox provides it: the functions Strapi projects call, written for
// Quarry with lodash 4's documented behaviour. A function it lacks throws Strapi's
// NotImplementedError when called (501), never silently does something else.
'use strict';
var NotImplementedError = require('@strapi/utils').errors.NotImplementedError;

var hasOwn = Object.prototype.hasOwnProperty;
var toStr = Object.prototype.toString;

function isNil(v) { return v === null || v === undefined; }
function isObject(v) { var t = typeof v; return v !== null && (t === 'object' || t === 'function'); }
function isObjectLike(v) { return v !== null && typeof v === 'object'; }
function isPlainObject(v) {
  if (!isObjectLike(v) || toStr.call(v) !== '[object Object]') return false;
  var p = Object.getPrototypeOf(v);
  return p === null || p === Object.prototype;
}
function isArrayLike(v) { return v != null && typeof v !== 'function' && typeof v.length === 'number' && v.length >= 0; }
function isEmpty(v) {
  if (v == null) return true;
  if (isArrayLike(v)) return v.length === 0;
  if (v instanceof Map || v instanceof Set) return v.size === 0;
  if (isObjectLike(v)) { for (var k in v) if (hasOwn.call(v, k)) return false; return true; }
  return true;
}
function isEqual(a, b) {
  if (a === b || (a !== a && b !== b)) return true;
  if (!isObjectLike(a) || !isObjectLike(b)) return false;
  if (toStr.call(a) !== toStr.call(b)) return false;
  if (a instanceof Date) return a.getTime() === b.getTime();
  if (Array.isArray(a)) {
    if (a.length !== b.length) return false;
    for (var i = 0; i < a.length; i++) if (!isEqual(a[i], b[i])) return false;
    return true;
  }
  var ka = Object.keys(a), kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (var j = 0; j < ka.length; j++) if (!hasOwn.call(b, ka[j]) || !isEqual(a[ka[j]], b[ka[j]])) return false;
  return true;
}

// Paths: 'a.b[0].c', "a['b']", or an array of keys.
function toPath(p) {
  if (Array.isArray(p)) return p.map(String);
  if (typeof p === 'symbol') return [p];
  var s = String(p), out = [];
  var re = /[^.[\]]+|\[(?:(-?\d+(?:\.\d+)?)|(["'])((?:(?!\2)[^\\]|\\.)*?)\2)\]|(?=(?:\.|\[\])(?:\.|\[\]|$))/g;
  if (s.charCodeAt(0) === 46) out.push('');
  s.replace(re, function (m, num, quote, sub) { out.push(quote ? sub.replace(/\\(\\)?/g, '$1') : (num !== undefined ? num : m)); return m; });
  return out;
}
function get(obj, path, def) {
  var keys = toPath(path), v = obj;
  for (var i = 0; i < keys.length; i++) { if (v == null) return def; v = v[keys[i]]; }
  return v === undefined || keys.length === 0 ? def : v;
}
function has(obj, path) {
  var keys = toPath(path), v = obj;
  if (keys.length === 0) return false;
  for (var i = 0; i < keys.length; i++) { if (v == null || !hasOwn.call(Object(v), keys[i])) return false; v = v[keys[i]]; }
  return true;
}
function set(obj, path, value) {
  if (!isObject(obj)) return obj;
  var keys = toPath(path), v = obj;
  for (var i = 0; i < keys.length; i++) {
    var k = keys[i];
    if (k === '__proto__' || k === 'constructor' || k === 'prototype') return obj;
    if (i === keys.length - 1) { v[k] = value; break; }
    if (!isObject(v[k])) v[k] = /^(?:0|[1-9]\d*)$/.test(keys[i + 1]) ? [] : {};
    v = v[k];
  }
  return obj;
}
function unset(obj, path) {
  var keys = toPath(path), v = obj;
  for (var i = 0; i < keys.length - 1; i++) { if (v == null) return true; v = v[keys[i]]; }
  if (v != null) delete v[keys[keys.length - 1]];
  return true;
}
function update(obj, path, fn) { return set(obj, path, fn(get(obj, path))); }

function property(path) { return function (o) { return get(o, path); }; }
function matches(src) { return function (o) { for (var k in src) if (hasOwn.call(src, k) && !isEqual(get(o, k), src[k]) && !(isObjectLike(src[k]) && matches(src[k])(get(o, k)))) return false; return true; }; }
function iteratee(f) {
  if (f == null) return identity;
  if (typeof f === 'function') return f;
  if (Array.isArray(f)) { var p = f[0], val = f[1]; return function (o) { return isEqual(get(o, p), val); }; }
  if (typeof f === 'object') return matches(f);
  return property(f);
}
function identity(v) { return v; }
function noop() {}
function constant(v) { return function () { return v; }; }

function entriesOf(c) {
  if (c == null) return [];
  if (isArrayLike(c)) { var out = []; for (var i = 0; i < c.length; i++) out.push([i, c[i]]); return out; }
  return Object.keys(c).map(function (k) { return [k, c[k]]; });
}
function forEach(c, f) { var e = entriesOf(c); for (var i = 0; i < e.length; i++) if (f(e[i][1], e[i][0], c) === false) break; return c; }
function map(c, f) { f = iteratee(f); return entriesOf(c).map(function (e) { return f(e[1], e[0], c); }); }
function filter(c, f) { f = iteratee(f); return entriesOf(c).filter(function (e) { return f(e[1], e[0], c); }).map(function (e) { return e[1]; }); }
function reject(c, f) { f = iteratee(f); return filter(c, function (v, k, o) { return !f(v, k, o); }); }
function find(c, f, from) { f = iteratee(f); var e = entriesOf(c); for (var i = from || 0; i < e.length; i++) if (f(e[i][1], e[i][0], c)) return e[i][1]; return undefined; }
function findLast(c, f) { f = iteratee(f); var e = entriesOf(c); for (var i = e.length - 1; i >= 0; i--) if (f(e[i][1], e[i][0], c)) return e[i][1]; return undefined; }
function findIndex(a, f, from) { f = iteratee(f); for (var i = from || 0; i < (a ? a.length : 0); i++) if (f(a[i], i, a)) return i; return -1; }
function findKey(o, f) { f = iteratee(f); var ks = Object.keys(o || {}); for (var i = 0; i < ks.length; i++) if (f(o[ks[i]], ks[i], o)) return ks[i]; return undefined; }
function some(c, f) { f = iteratee(f); return entriesOf(c).some(function (e) { return f(e[1], e[0], c); }); }
function every(c, f) { f = iteratee(f); return entriesOf(c).every(function (e) { return f(e[1], e[0], c); }); }
function reduce(c, f, acc) {
  var e = entriesOf(c), i = 0;
  if (arguments.length < 3) { if (e.length === 0) return undefined; acc = e[0][1]; i = 1; }
  for (; i < e.length; i++) acc = f(acc, e[i][1], e[i][0], c);
  return acc;
}
function includes(c, v, from) {
  if (typeof c === 'string') return c.indexOf(v, from || 0) !== -1;
  return values(c).slice(from || 0).some(function (x) { return x === v || (x !== x && v !== v); });
}
function groupBy(c, f) { f = iteratee(f); var out = {}; forEach(c, function (v) { var k = f(v); (hasOwn.call(out, k) ? out[k] : (out[k] = [])).push(v); }); return out; }
function keyBy(c, f) { f = iteratee(f); var out = {}; forEach(c, function (v) { out[f(v)] = v; }); return out; }
function countBy(c, f) { f = iteratee(f); var out = {}; forEach(c, function (v) { var k = f(v); out[k] = (out[k] || 0) + 1; }); return out; }
function partition(c, f) { f = iteratee(f); var a = [], b = []; forEach(c, function (v) { (f(v) ? a : b).push(v); }); return [a, b]; }
function compareValues(a, b) {
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  if (a === null) return 1;
  if (b === null) return -1;
  return a > b ? 1 : a < b ? -1 : 0;
}
function orderBy(c, fs, orders) {
  fs = (fs == null ? [identity] : Array.isArray(fs) ? fs : [fs]).map(iteratee);
  orders = Array.isArray(orders) ? orders : orders == null ? [] : [orders];
  var rows = values(c).map(function (v, i) { return { v: v, i: i, k: fs.map(function (f) { return f(v); }) }; });
  rows.sort(function (x, y) {
    for (var j = 0; j < fs.length; j++) {
      var r = compareValues(x.k[j], y.k[j]);
      if (r) return String(orders[j]).toLowerCase() === 'desc' ? -r : r;
    }
    return x.i - y.i;
  });
  return rows.map(function (r) { return r.v; });
}
function sortBy(c) { var fs = flattenDepth(Array.prototype.slice.call(arguments, 1), 1); return orderBy(c, fs.length ? fs : [identity]); }

function flattenDepth(a, d) {
  var out = [];
  (a || []).forEach(function (v) { if (Array.isArray(v) && d > 0) out.push.apply(out, flattenDepth(v, d - 1)); else out.push(v); });
  return out;
}
function flatten(a) { return flattenDepth(a, 1); }
function flattenDeep(a) { return flattenDepth(a, Infinity); }
function flatMap(c, f) { return flatten(map(c, f)); }
function compact(a) { return (a || []).filter(Boolean); }
function chunk(a, n) { n = Math.max(toInteger(n === undefined ? 1 : n), 0); var out = []; if (!n) return out; for (var i = 0; i < (a || []).length; i += n) out.push(a.slice(i, i + n)); return out; }
function sameValueIn(list, v) { return list.some(function (x) { return x === v || (x !== x && v !== v); }); }
function uniqBy(a, f) { f = iteratee(f); var seen = [], out = []; (a || []).forEach(function (v) { var k = f(v); if (!sameValueIn(seen, k)) { seen.push(k); out.push(v); } }); return out; }
function uniq(a) { return uniqBy(a, identity); }
function uniqWith(a, cmp) { var out = []; (a || []).forEach(function (v) { if (!out.some(function (o) { return cmp(v, o); })) out.push(v); }); return out; }
function difference(a) { var rest = flatten(Array.prototype.slice.call(arguments, 1)); return (a || []).filter(function (v) { return !sameValueIn(rest, v); }); }
function differenceBy(a, b, f) { f = iteratee(f); var keys = (b || []).map(f); return (a || []).filter(function (v) { return !sameValueIn(keys, f(v)); }); }
function intersection(a) { var rest = Array.prototype.slice.call(arguments, 1); return uniq((a || []).filter(function (v) { return rest.every(function (r) { return sameValueIn(r || [], v); }); })); }
function union() { return uniq(flatten(Array.prototype.slice.call(arguments))); }
function without(a) { var rest = Array.prototype.slice.call(arguments, 1); return (a || []).filter(function (v) { return !sameValueIn(rest, v); }); }
function xor() { var all = Array.prototype.slice.call(arguments).map(uniq); var f = flatten(all); return f.filter(function (v) { return f.filter(function (x) { return x === v; }).length === 1; }); }
function take(a, n) { return (a || []).slice(0, n === undefined ? 1 : Math.max(n, 0)); }
function takeRight(a, n) { n = n === undefined ? 1 : n; return n <= 0 ? [] : (a || []).slice(-n); }
function drop(a, n) { return (a || []).slice(n === undefined ? 1 : Math.max(n, 0)); }
function dropRight(a, n) { n = n === undefined ? 1 : n; a = a || []; return a.slice(0, Math.max(a.length - n, 0)); }
function head(a) { return a && a.length ? a[0] : undefined; }
function last(a) { return a && a.length ? a[a.length - 1] : undefined; }
function tail(a) { return (a || []).slice(1); }
function initial(a) { return (a || []).slice(0, -1); }
function nth(a, n) { a = a || []; n = toInteger(n); return a[n < 0 ? a.length + n : n]; }
function zip() { var as = Array.prototype.slice.call(arguments); var n = Math.max.apply(null, as.map(function (x) { return x.length; }).concat([0])); var out = []; for (var i = 0; i < n; i++) out.push(as.map(function (x) { return x[i]; })); return out; }
function zipObject(ks, vs) { var out = {}; (ks || []).forEach(function (k, i) { out[k] = (vs || [])[i]; }); return out; }
function fromPairs(ps) { var out = {}; (ps || []).forEach(function (p) { out[p[0]] = p[1]; }); return out; }
function range(start, end, step) {
  if (end === undefined) { end = start; start = 0; }
  step = step === undefined ? (start < end ? 1 : -1) : step;
  var n = Math.max(Math.ceil((end - start) / (step || 1)), 0), out = [];
  if (n > 16777216) throw new RangeError('Invalid array length');
  for (var i = 0; i < n; i++) out.push(start + i * step);
  return out;
}
function times(n, f) { f = f || identity; var out = []; n = toInteger(n); if (n > 16777216) throw new RangeError('Invalid array length'); for (var i = 0; i < n; i++) out.push(f(i)); return out; }
function sumBy(a, f) { f = iteratee(f); var s, any = false; (a || []).forEach(function (v) { var x = f(v); if (x !== undefined) { s = any ? s + x : x; any = true; } }); return any ? s : 0; }
function sum(a) { return sumBy(a, identity); }
function mean(a) { return a && a.length ? sum(a) / a.length : NaN; }
function extremeBy(a, f, better) { f = iteratee(f); var best, bk; (a || []).forEach(function (v) { var k = f(v); if (k != null && k === k && (bk === undefined || better(k, bk))) { best = v; bk = k; } }); return best; }
function maxBy(a, f) { return extremeBy(a, f, function (x, y) { return x > y; }); }
function minBy(a, f) { return extremeBy(a, f, function (x, y) { return x < y; }); }
function max(a) { return maxBy(a, identity); }
function min(a) { return minBy(a, identity); }
function castArray() { if (!arguments.length) return []; var v = arguments[0]; return Array.isArray(v) ? v : [v]; }
function values(o) { if (o == null) return []; if (isArrayLike(o)) return Array.prototype.slice.call(o); return Object.keys(o).map(function (k) { return o[k]; }); }
function keys(o) { return o == null ? [] : Object.keys(Object(o)); }
function toPairs(o) { return keys(o).map(function (k) { return [k, o[k]]; }); }
function size(c) { if (c == null) return 0; if (isArrayLike(c)) return c.length; if (c instanceof Map || c instanceof Set) return c.size; return Object.keys(c).length; }

function mapValues(o, f) { f = iteratee(f); var out = {}; keys(o).forEach(function (k) { out[k] = f(o[k], k, o); }); return out; }
function mapKeys(o, f) { f = iteratee(f); var out = {}; keys(o).forEach(function (k) { out[f(o[k], k, o)] = o[k]; }); return out; }
function pickBy(o, f) { f = iteratee(f); var out = {}; if (o == null) return out; for (var k in o) if (f(o[k], k)) out[k] = o[k]; return out; }
function omitBy(o, f) { f = iteratee(f); return pickBy(o, function (v, k) { return !f(v, k); }); }
function pick(o) {
  var paths = flattenDeep(Array.prototype.slice.call(arguments, 1)), out = {};
  if (o == null) return out;
  paths.forEach(function (p) { if (has(o, p) || (typeof p === 'string' && p in Object(o))) set(out, p, get(o, p)); });
  return out;
}
function omit(o) {
  var paths = flattenDeep(Array.prototype.slice.call(arguments, 1));
  if (o == null) return {};
  var out = {};
  for (var k in o) out[k] = o[k];
  paths.forEach(function (p) {
    var ks = toPath(p);
    if (ks.length > 1 && isObject(get(out, ks.slice(0, -1)))) {
      // copy the branch before deleting in it, so the source is left as it was
      var cur = out;
      for (var i = 0; i < ks.length - 1; i++) { cur[ks[i]] = clone(cur[ks[i]]); cur = cur[ks[i]]; if (!isObject(cur)) return; }
    }
    unset(out, ks);
  });
  return out;
}
function invert(o) { var out = {}; keys(o).forEach(function (k) { out[o[k]] = k; }); return out; }
function assign(t) { for (var i = 1; i < arguments.length; i++) { var s = arguments[i]; if (s != null) for (var k in s) if (hasOwn.call(s, k)) t[k] = s[k]; } return t; }
function defaults(t) { t = Object(t); for (var i = 1; i < arguments.length; i++) { var s = arguments[i]; if (s != null) for (var k in s) if (t[k] === undefined || (t[k] === Object.prototype[k] && !hasOwn.call(t, k))) t[k] = s[k]; } return t; }
function defaultsDeep(t) {
  for (var i = 1; i < arguments.length; i++) {
    var s = arguments[i];
    if (s == null) continue;
    for (var k in s) {
      if (!hasOwn.call(s, k)) continue;
      if (t[k] === undefined) t[k] = cloneDeep(s[k]);
      else if (isPlainObject(t[k]) && isPlainObject(s[k])) defaultsDeep(t[k], s[k]);
    }
  }
  return t;
}
function mergeInto(t, s, custom) {
  for (var k in s) {
    if (!hasOwn.call(s, k) || k === '__proto__' || k === 'constructor') continue;
    var sv = s[k], tv = t[k];
    if (custom) { var r = custom(tv, sv, k, t, s); if (r !== undefined) { t[k] = r; continue; } }
    if (Array.isArray(sv)) t[k] = mergeInto(Array.isArray(tv) ? tv : isPlainObject(tv) ? tv : [], sv, custom);
    else if (isPlainObject(sv)) t[k] = mergeInto(isObject(tv) && typeof tv !== 'function' ? tv : {}, sv, custom);
    else if (sv !== undefined || !hasOwn.call(t, k)) t[k] = sv;
  }
  return t;
}
function merge(t) { for (var i = 1; i < arguments.length; i++) if (arguments[i] != null) mergeInto(t, arguments[i]); return t; }
function mergeWith(t) { var args = Array.prototype.slice.call(arguments, 1), custom = args.pop(); args.forEach(function (s) { if (s != null) mergeInto(t, s, custom); }); return t; }
function clone(v) {
  if (!isObjectLike(v)) return v;
  if (Array.isArray(v)) return v.slice();
  if (v instanceof Date) return new Date(v.getTime());
  return assign(Object.create(Object.getPrototypeOf(v)), v);
}
function cloneDeep(v, seen) {
  if (!isObjectLike(v)) return v;
  seen = seen || new Map();
  if (seen.has(v)) return seen.get(v);
  if (v instanceof Date) return new Date(v.getTime());
  if (v instanceof RegExp) return new RegExp(v.source, v.flags);
  var out = Array.isArray(v) ? [] : Object.create(Object.getPrototypeOf(v));
  seen.set(v, out);
  for (var k in v) if (hasOwn.call(v, k)) out[k] = cloneDeep(v[k], seen);
  return out;
}
function forOwn(o, f) { keys(o).forEach(function (k) { f(o[k], k, o); }); return o; }

// Strings.
function toString(v) { if (v == null) return ''; if (typeof v === 'string') return v; if (Array.isArray(v)) return v.map(toString).join(','); var s = String(v); return s === '0' && 1 / v === -Infinity ? '-0' : s; }
function deburr(s) {
  var special = { 'ß': 'ss', 'æ': 'ae', 'Æ': 'Ae', 'ø': 'o', 'Ø': 'O', 'œ': 'oe', 'Œ': 'Oe', 'đ': 'd', 'Đ': 'D', 'ð': 'd', 'Ð': 'D', 'þ': 'th', 'Þ': 'Th', 'ł': 'l', 'Ł': 'L', 'ı': 'i' };
  return toString(s).normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[ßæÆøØœŒđĐðÐþÞłŁı]/g, function (c) { return special[c]; });
}
function words(s, pattern) {
  s = toString(s);
  if (pattern !== undefined) return s.match(pattern) || [];
  return s.replace(/['\u2019]/g, '').match(/[A-Z\u00C0-\u00DE]{2,}(?=[A-Z\u00C0-\u00DE][a-z\u00DF-\u00FF]|[^A-Za-z\u00C0-\u00FF]|$)|[A-Z\u00C0-\u00DE]?[a-z\u00DF-\u00FF]+|[A-Z\u00C0-\u00DE]+|[0-9]+/g) || [];
}
function upperFirst(s) { s = toString(s); return s.charAt(0).toUpperCase() + s.slice(1); }
function lowerFirst(s) { s = toString(s); return s.charAt(0).toLowerCase() + s.slice(1); }
function capitalize(s) { return upperFirst(toString(s).toLowerCase()); }
function camelCase(s) { return words(deburr(s)).reduce(function (acc, w, i) { w = w.toLowerCase(); return acc + (i ? upperFirst(w) : w); }, ''); }
function joinWords(sep, f) { return function (s) { return words(deburr(s)).map(f).join(sep); }; }
var kebabCase = joinWords('-', function (w) { return w.toLowerCase(); });
var snakeCase = joinWords('_', function (w) { return w.toLowerCase(); });
var lowerCase = joinWords(' ', function (w) { return w.toLowerCase(); });
var upperCase = joinWords(' ', function (w) { return w.toUpperCase(); });
var startCase = function (s) { return words(deburr(s)).map(upperFirst).join(' '); };
function charsRe(chars) { return chars === undefined ? null : '[' + toString(chars).replace(/[\\\]^-]/g, '\\$&') + ']'; }
function trim(s, chars) { var c = charsRe(chars); return c ? toString(s).replace(new RegExp('^' + c + '+|' + c + '+$', 'g'), '') : toString(s).trim(); }
function trimStart(s, chars) { var c = charsRe(chars); return c ? toString(s).replace(new RegExp('^' + c + '+'), '') : toString(s).replace(/^\s+/, ''); }
function trimEnd(s, chars) { var c = charsRe(chars); return c ? toString(s).replace(new RegExp(c + '+$'), '') : toString(s).replace(/\s+$/, ''); }
function padding(n, chars) { chars = chars === undefined ? ' ' : toString(chars); if (n <= 0 || !chars) return ''; var out = ''; while (out.length < n) out += chars; return out.slice(0, n); }
function padStart(s, n, chars) { s = toString(s); return padding(toInteger(n) - s.length, chars) + s; }
function padEnd(s, n, chars) { s = toString(s); return s + padding(toInteger(n) - s.length, chars); }
function pad(s, n, chars) { s = toString(s); var total = toInteger(n) - s.length; if (total <= 0) return s; var l = Math.floor(total / 2); return padding(l, chars) + s + padding(total - l, chars); }
function repeat(s, n) { n = n === undefined ? 1 : toInteger(n); if (n < 1) return ''; if (n * toString(s).length > 16777216) throw new RangeError('Invalid string length'); return toString(s).repeat(n); }
function truncate(s, o) {
  s = toString(s); o = o || {};
  var length = o.length === undefined ? 30 : toInteger(o.length), omission = o.omission === undefined ? '...' : toString(o.omission);
  if (s.length <= length) return s;
  var end = length - omission.length;
  if (end < 1) return omission;
  var out = s.slice(0, end);
  if (o.separator !== undefined) {
    var sep = o.separator, idx = -1;
    if (sep instanceof RegExp) { var re = new RegExp(sep.source, sep.flags.indexOf('g') >= 0 ? sep.flags : sep.flags + 'g'), m; while ((m = re.exec(out))) { idx = m.index; if (m[0] === '') re.lastIndex++; } }
    else idx = out.lastIndexOf(toString(sep));
    if (idx > -1) out = out.slice(0, idx);
  }
  return out + omission;
}
var htmlEscapes = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
function escape(s) { return toString(s).replace(/[&<>"']/g, function (c) { return htmlEscapes[c]; }); }
function unescape(s) { return toString(s).replace(/&(?:amp|lt|gt|quot|#39);/g, function (e) { return invert(htmlEscapes)[e]; }); }
function escapeRegExp(s) { return toString(s).replace(/[\\^$.*+?()[\]{}|]/g, '\\$&'); }

// Numbers.
function toNumber(v) { if (typeof v === 'number') return v; if (typeof v === 'symbol') return NaN; if (isObject(v)) v = v.valueOf(); if (typeof v !== 'string') return v === 0 ? v : +v; v = v.trim(); if (/^0b[01]+$/i.test(v)) return parseInt(v.slice(2), 2); if (/^0o[0-7]+$/i.test(v)) return parseInt(v.slice(2), 8); return +v; }
function toFinite(v) { v = toNumber(v); if (v === Infinity || v === -Infinity) return (v < 0 ? -1 : 1) * Number.MAX_VALUE; return v === v ? v : 0; }
function toInteger(v) { var n = toFinite(v), r = n % 1; return r ? n - r : n; }
function clamp(n, lo, hi) { if (hi === undefined) { hi = lo; lo = undefined; } n = toNumber(n); if (hi !== undefined) n = n <= hi ? n : hi; if (lo !== undefined) n = n >= lo ? n : lo; return n; }
function inRange(n, start, end) { if (end === undefined) { end = start; start = 0; } if (start > end) { var t = start; start = end; end = t; } return n >= start && n < end; }
function random(lo, hi, floating) {
  if (hi === undefined && typeof lo !== 'boolean') { hi = lo === undefined ? 1 : lo; lo = 0; }
  lo = lo || 0;
  if (floating || lo % 1 || hi % 1) return lo + Math.random() * (hi - lo);
  return lo + Math.floor(Math.random() * (hi - lo + 1));
}
var idCounter = 0;
function uniqueId(prefix) { idCounter++; return toString(prefix) + idCounter; }

function once(f) { var done = false, r; return function () { if (!done) { done = true; r = f.apply(this, arguments); } return r; }; }
function memoize(f, resolver) { var cache = new Map(); var m = function () { var k = resolver ? resolver.apply(this, arguments) : arguments[0]; if (cache.has(k)) return cache.get(k); var r = f.apply(this, arguments); cache.set(k, r); return r; }; m.cache = cache; return m; }
function negate(f) { return function () { return !f.apply(this, arguments); }; }

var _ = function () { throw new NotImplementedError("lodash's chained wrapper _(value) is not provided by Quarry's sandbox"); };
var fns = {
  isNil: isNil, isNull: function (v) { return v === null; }, isUndefined: function (v) { return v === undefined; },
  isArray: Array.isArray, isObject: isObject, isObjectLike: isObjectLike, isPlainObject: isPlainObject, isArrayLike: isArrayLike,
  isString: function (v) { return typeof v === 'string' || toStr.call(v) === '[object String]'; },
  isNumber: function (v) { return typeof v === 'number' || toStr.call(v) === '[object Number]'; },
  isBoolean: function (v) { return v === true || v === false || toStr.call(v) === '[object Boolean]'; },
  isFunction: function (v) { return typeof v === 'function'; },
  isDate: function (v) { return v instanceof Date; }, isRegExp: function (v) { return v instanceof RegExp; },
  isError: function (v) { return v instanceof Error; }, isSymbol: function (v) { return typeof v === 'symbol'; },
  isInteger: Number.isInteger, isSafeInteger: Number.isSafeInteger, isFinite: Number.isFinite,
  isNaN: function (v) { return (typeof v === 'number' || toStr.call(v) === '[object Number]') && v != +v; },
  isEmpty: isEmpty, isEqual: isEqual, isMatch: function (o, src) { return matches(src)(o); },
  toPath: toPath, get: get, set: set, has: has, hasIn: function (o, p) { return get(o, p) !== undefined || has(o, p); }, unset: unset, update: update, result: function (o, p, d) { var v = get(o, p, d); return typeof v === 'function' ? v.call(o) : v; },
  property: property, matches: matches, iteratee: iteratee, identity: identity, noop: noop, constant: constant,
  forEach: forEach, each: forEach, map: map, filter: filter, reject: reject, find: find, findLast: findLast, findIndex: findIndex, findKey: findKey,
  some: some, every: every, reduce: reduce, includes: includes, groupBy: groupBy, keyBy: keyBy, countBy: countBy, partition: partition,
  orderBy: orderBy, sortBy: sortBy, flatten: flatten, flattenDeep: flattenDeep, flattenDepth: function (a, d) { return flattenDepth(a, d === undefined ? 1 : d); }, flatMap: flatMap,
  compact: compact, chunk: chunk, uniq: uniq, uniqBy: uniqBy, uniqWith: uniqWith, difference: difference, differenceBy: differenceBy,
  intersection: intersection, union: union, without: without, xor: xor, take: take, takeRight: takeRight, drop: drop, dropRight: dropRight,
  head: head, first: head, last: last, tail: tail, initial: initial, nth: nth, zip: zip, zipObject: zipObject, fromPairs: fromPairs,
  range: range, times: times, sum: sum, sumBy: sumBy, mean: mean, max: max, min: min, maxBy: maxBy, minBy: minBy,
  castArray: castArray, toArray: values, values: values, keys: keys, toPairs: toPairs, entries: toPairs, size: size,
  indexOf: function (a, v, from) { return (a || []).indexOf(v, from); }, join: function (a, sep) { return (a || []).join(sep === undefined ? ',' : sep); },
  reverse: function (a) { return a == null ? a : a.reverse(); }, concat: function () { return flattenDepth(Array.prototype.slice.call(arguments), 1); },
  slice: function (a, s, e) { return (a || []).slice(s, e); }, sample: function (a) { var v = values(a); return v[Math.floor(Math.random() * v.length)]; },
  shuffle: function (a) { var v = values(a); for (var i = v.length - 1; i > 0; i--) { var j = Math.floor(Math.random() * (i + 1)); var t = v[i]; v[i] = v[j]; v[j] = t; } return v; },
  mapValues: mapValues, mapKeys: mapKeys, pick: pick, pickBy: pickBy, omit: omit, omitBy: omitBy, invert: invert,
  assign: assign, extend: assign, defaults: defaults, defaultsDeep: defaultsDeep, merge: merge, mergeWith: mergeWith,
  clone: clone, cloneDeep: cloneDeep, forOwn: forOwn,
  toString: toString, deburr: deburr, words: words, upperFirst: upperFirst, lowerFirst: lowerFirst, capitalize: capitalize,
  camelCase: camelCase, kebabCase: kebabCase, snakeCase: snakeCase, lowerCase: lowerCase, upperCase: upperCase, startCase: startCase,
  toLower: function (s) { return toString(s).toLowerCase(); }, toUpper: function (s) { return toString(s).toUpperCase(); },
  trim: trim, trimStart: trimStart, trimEnd: trimEnd, pad: pad, padStart: padStart, padEnd: padEnd, repeat: repeat, truncate: truncate,
  escape: escape, unescape: unescape, escapeRegExp: escapeRegExp,
  startsWith: function (s, t, p) { return toString(s).startsWith(t, p); }, endsWith: function (s, t, p) { return toString(s).endsWith(t, p); },
  split: function (s, sep, n) { return toString(s).split(sep, n); }, replace: function (s, p, r) { return toString(s).replace(p, r); },
  toNumber: toNumber, toInteger: toInteger, toFinite: toFinite, clamp: clamp, inRange: inRange, random: random, uniqueId: uniqueId,
  once: once, memoize: memoize, negate: negate
};
for (var name in fns) _[name] = fns[name];

// Every other lodash function is refused when called, naming it.
var passthrough = { then: 1, __esModule: 1, default: 1, toJSON: 1, prototype: 1, length: 1, name: 1, constructor: 1, inspect: 1, VERSION: 1 };
module.exports = new Proxy(_, {
  get: function (t, k) {
    if (typeof k !== 'string' || hasOwn.call(t, k) || passthrough[k]) return t[k];
    return function () { throw new NotImplementedError("lodash's " + k + ' is not provided by Quarry\'s sandbox'); };
  }
});
