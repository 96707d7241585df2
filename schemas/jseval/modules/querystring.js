// Node's querystring for Quarry's sandbox: parse (with maxKeys, '+' as space, Node's lenient
// unescape of malformed '%' sequences) and stringify, escape and unescape, as Node answers.
'use strict';

function unescapeBuffer(s) {
  // Node's fallback when decodeURIComponent throws: each valid %XX is a byte, the rest as is,
  // read back as UTF-8.
  var bytes = [];
  for (var i = 0; i < s.length; i++) {
    var c = s.charCodeAt(i);
    if (c === 37 && i + 2 < s.length + 0 && /^[0-9a-fA-F]{2}$/.test(s.substr(i + 1, 2))) {
      bytes.push(parseInt(s.substr(i + 1, 2), 16));
      i += 2;
    } else {
      var b = Buffer.from(s[i]);
      for (var k = 0; k < b.length; k++) bytes.push(b[k]);
    }
  }
  return Buffer.from(bytes).toString();
}

function qsUnescape(s) {
  try { return decodeURIComponent(s); } catch (e) { return unescapeBuffer(s); }
}

function qsEscape(str) {
  if (typeof str !== 'string') {
    if (typeof str === 'object') str = String(str);
    else str = str + '';
  }
  try { return encodeURIComponent(str); } catch (e) {
    var err = new URIError('URI malformed');
    err.code = 'ERR_INVALID_URI';
    throw err;
  }
}

function stringifyPrimitive(v) {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && isFinite(v)) return '' + v;
  if (typeof v === 'bigint') return '' + v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return '';
}

function stringify(obj, sep, eq, options) {
  sep = sep || '&';
  eq = eq || '=';
  var encode = qsEscape;
  if (options && typeof options.encodeURIComponent === 'function') encode = options.encodeURIComponent;
  var convert = function (v) { return encode(stringifyPrimitive(v)); };
  if (obj !== null && typeof obj === 'object') {
    var keys = Object.keys(obj);
    var fields = [];
    for (var i = 0; i < keys.length; i++) {
      var k = keys[i], v = obj[k];
      var ks = convert(k) + eq;
      if (Array.isArray(v)) {
        for (var j = 0; j < v.length; j++) fields.push(ks + convert(v[j]));
      } else {
        fields.push(ks + convert(v));
      }
    }
    return fields.join(sep);
  }
  return '';
}

function parse(qs, sep, eq, options) {
  var obj = Object.create(null);
  if (typeof qs !== 'string' || qs.length === 0) return obj;
  sep = sep ? String(sep) : '&';
  eq = eq ? String(eq) : '=';
  var maxKeys = 1000;
  if (options && typeof options.maxKeys === 'number') maxKeys = options.maxKeys;
  var decode = qsUnescape;
  if (options && typeof options.decodeURIComponent === 'function') decode = options.decodeURIComponent;
  var parts = qs.split(sep);
  if (maxKeys > 0 && parts.length > maxKeys) parts = parts.slice(0, maxKeys);
  for (var i = 0; i < parts.length; i++) {
    var x = parts[i];
    if (x.length === 0 && i === parts.length - 1 && parts.length > 1) continue;
    var idx = x.indexOf(eq);
    var kstr, vstr;
    if (idx >= 0) { kstr = x.slice(0, idx); vstr = x.slice(idx + eq.length); } else { kstr = x; vstr = ''; }
    if (kstr.length === 0 && vstr.length === 0 && idx < 0) continue;
    var k = decodePart(kstr.replace(/\+/g, ' '), decode);
    var v = decodePart(vstr.replace(/\+/g, ' '), decode);
    if (!(k in obj)) obj[k] = v;
    else if (Array.isArray(obj[k])) obj[k].push(v);
    else obj[k] = [obj[k], v];
  }
  return obj;
}

function decodePart(s, decode) {
  if (s.indexOf('%') < 0) return s;
  try { return decode(s); } catch (e) { return qsUnescape(s); }
}

module.exports = {
  unescapeBuffer: function (s) { return Buffer.from(unescapeBuffer(String(s))); },
  unescape: qsUnescape,
  escape: qsEscape,
  stringify: stringify,
  encode: stringify,
  parse: parse,
  decode: parse
};
