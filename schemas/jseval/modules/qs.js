// qs (the query-string library Strapi parses requests with) as Quarry's sandbox provides it:
// parse with brackets and indices (depth 5, arrays up to index 20, as qs's defaults) and
// stringify with brackets and indices, `encode` and `encodeValuesOnly`.
'use strict';
var hasOwn = Object.prototype.hasOwnProperty;
function decode(s) { s = s.replace(/\+/g, ' '); try { return decodeURIComponent(s); } catch (e) { return s; } }
function keysOf(key, depth) {
  var m = /^([^[]*)/.exec(key), out = [];
  if (m[1]) out.push(m[1]);
  var re = /\[([^[\]]*)\]/g, rest = key.slice(m[1].length), x, used = 0;
  while ((x = re.exec(rest)) !== null && out.length < depth + 1) { out.push(x[1]); used = re.lastIndex; }
  if (used < rest.length && out.length) out.push('[' + rest.slice(used) + ']');
  return out.length ? out : [key];
}
function assign(obj, keys, value, arrayLimit) {
  var k = keys[0];
  if (k === '__proto__' || k === 'constructor' || k === 'prototype') return obj;
  if (keys.length === 1) {
    if (Array.isArray(obj) && k === '') { obj.push(value); return obj; }
    if (hasOwn.call(obj, k)) obj[k] = [].concat(obj[k], value); else obj[k] = value;
    return obj;
  }
  var next = keys[1], idx = /^\d+$/.test(next) ? parseInt(next, 10) : -1;
  var child = hasOwn.call(obj, k) ? obj[k] : (next === '' || (idx >= 0 && idx <= arrayLimit)) ? [] : {};
  if (Array.isArray(child) && next !== '' && !(idx >= 0 && idx <= arrayLimit)) {
    var o = {}; child.forEach(function (v, i) { o[i] = v; }); child = o;
  }
  if (Array.isArray(child) && idx >= 0) {
    var rest = keys.slice(1);
    if (rest.length === 1) { child[idx] = value; }
    else { child[idx] = assign(child[idx] && typeof child[idx] === 'object' ? child[idx] : {}, rest.slice(1), value, arrayLimit) ; }
  } else {
    child = assign(child, keys.slice(1), value, arrayLimit);
  }
  obj[k] = child;
  return obj;
}
function compactArrays(v) {
  if (Array.isArray(v)) return v.filter(function (x) { return x !== undefined; }).map(compactArrays);
  if (v && typeof v === 'object') { for (var k in v) v[k] = compactArrays(v[k]); }
  return v;
}
function parse(str, opts) {
  opts = opts || {};
  var depth = opts.depth === undefined ? 5 : opts.depth, arrayLimit = opts.arrayLimit === undefined ? 20 : opts.arrayLimit;
  var limit = opts.parameterLimit === undefined ? 1000 : opts.parameterLimit;
  var out = {};
  if (str && typeof str === 'object') return str;
  str = String(str || '');
  if (opts.ignoreQueryPrefix && str.charAt(0) === '?') str = str.slice(1);
  str.split(opts.delimiter || '&').slice(0, limit).forEach(function (part) {
    if (!part) return;
    var eq = part.indexOf('='), key = decode(eq < 0 ? part : part.slice(0, eq)), val = eq < 0 ? '' : decode(part.slice(eq + 1));
    if (!key) return;
    if (opts.allowDots) key = key.replace(/\.([^.[]+)/g, '[$1]');
    assign(out, keysOf(key, depth), val, arrayLimit);
  });
  return compactArrays(out);
}
function enc(s) { return encodeURIComponent(s).replace(/%20/g, '%20'); }
function stringify(obj, opts) {
  opts = opts || {};
  var encode = opts.encode !== false, valuesOnly = !!opts.encodeValuesOnly, fmt = opts.arrayFormat || (opts.indices === false ? 'repeat' : 'indices');
  var parts = [];
  function key(k) { return encode && !valuesOnly ? enc(k) : k; }
  function val(v) { return encode ? enc(v) : v; }
  function walk(prefix, v) {
    if (v === undefined || typeof v === 'function') return;
    if (v === null) { if (!opts.skipNulls) parts.push(key(prefix) + '='); return; }
    if (v instanceof Date) v = v.toISOString();
    if (Array.isArray(v)) {
      v.forEach(function (x, i) { walk(fmt === 'brackets' ? prefix + '[]' : fmt === 'repeat' ? prefix : fmt === 'comma' ? prefix : prefix + '[' + i + ']', x); });
      return;
    }
    if (typeof v === 'object') { Object.keys(v).forEach(function (k) { walk(opts.allowDots ? prefix + '.' + k : prefix + '[' + k + ']', v[k]); }); return; }
    parts.push(key(prefix) + '=' + val(String(v)));
  }
  if (obj && typeof obj === 'object') Object.keys(obj).forEach(function (k) { walk(k, obj[k]); });
  var s = parts.join(opts.delimiter || '&');
  return (opts.addQueryPrefix && s ? '?' : '') + s;
}
module.exports = { parse: parse, stringify: stringify };
