// uuid 9.x for Quarry's sandbox: v1, v3, v4, v5, NIL, parse, stringify, validate and
// version, with the package's checks and errors; randomness and digests are Go's crypto.
'use strict';
var crypto = require('crypto');
Object.defineProperty(exports, '__esModule', { value: true });

var REGEX = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|00000000-0000-0000-0000-000000000000)$/i;
var NIL = '00000000-0000-0000-0000-000000000000';
var byteToHex = [];
for (var i = 0; i < 256; ++i) byteToHex.push((i + 0x100).toString(16).slice(1));

function bytesOfHex(h) {
  var out = [];
  for (var i = 0; i < h.length; i += 2) out.push(parseInt(h.substr(i, 2), 16));
  return out;
}
function rng() { return bytesOfHex(crypto.randomBytes(16).toString('hex')); }

function validate(uuid) { return typeof uuid === 'string' && REGEX.test(uuid); }

function unsafeStringify(arr, offset) {
  offset = offset || 0;
  var h = function (k) { return byteToHex[arr[offset + k]]; };
  return h(0) + h(1) + h(2) + h(3) + '-' + h(4) + h(5) + '-' + h(6) + h(7) + '-' + h(8) + h(9) + '-' + h(10) + h(11) + h(12) + h(13) + h(14) + h(15);
}

function stringify(arr, offset) {
  var uuid = unsafeStringify(arr, offset);
  if (!validate(uuid)) throw TypeError('Stringified UUID is invalid');
  return uuid;
}

function parse(uuid) {
  if (!validate(uuid)) throw TypeError('Invalid UUID');
  var arr = new Uint8Array(16), v;
  arr[0] = (v = parseInt(uuid.slice(0, 8), 16)) >>> 24;
  arr[1] = v >>> 16 & 0xff;
  arr[2] = v >>> 8 & 0xff;
  arr[3] = v & 0xff;
  arr[4] = (v = parseInt(uuid.slice(9, 13), 16)) >>> 8;
  arr[5] = v & 0xff;
  arr[6] = (v = parseInt(uuid.slice(14, 18), 16)) >>> 8;
  arr[7] = v & 0xff;
  arr[8] = (v = parseInt(uuid.slice(19, 23), 16)) >>> 8;
  arr[9] = v & 0xff;
  arr[10] = (v = parseInt(uuid.slice(24, 36), 16)) / 0x10000000000 & 0xff;
  arr[11] = v / 0x100000000 & 0xff;
  arr[12] = v >>> 24 & 0xff;
  arr[13] = v >>> 16 & 0xff;
  arr[14] = v >>> 8 & 0xff;
  arr[15] = v & 0xff;
  return arr;
}

function version(uuid) {
  if (!validate(uuid)) throw TypeError('Invalid UUID');
  return parseInt(uuid.slice(14, 15), 16);
}

function copyOut(bytes, buf, offset) {
  offset = offset || 0;
  for (var i = 0; i < 16; ++i) buf[offset + i] = bytes[i];
  return buf;
}

function v4(options, buf, offset) {
  if (!buf && !options) return crypto.randomUUID();
  options = options || {};
  var rnds = options.random || (options.rng || rng)();
  rnds[6] = rnds[6] & 0x0f | 0x40;
  rnds[8] = rnds[8] & 0x3f | 0x80;
  if (buf) return copyOut(rnds, buf, offset);
  return unsafeStringify(rnds);
}

// v1's state, per sandbox as it is per process under Node.
var nodeId, clockseqState, lastMSecs = 0, lastNSecs = 0;

function v1(options, buf, offset) {
  var i = buf && offset || 0;
  var b = buf || new Array(16);
  options = options || {};
  var node = options.node || nodeId;
  var clockseq = options.clockseq !== undefined ? options.clockseq : clockseqState;
  if (node == null || clockseq == null) {
    var seed = options.random || (options.rng || rng)();
    if (node == null) node = nodeId = [seed[0] | 0x01, seed[1], seed[2], seed[3], seed[4], seed[5]];
    if (clockseq == null) clockseq = clockseqState = (seed[6] << 8 | seed[7]) & 0x3fff;
  }
  var msecs = options.msecs !== undefined ? options.msecs : Date.now();
  var nsecs = options.nsecs !== undefined ? options.nsecs : lastNSecs + 1;
  var dt = msecs - lastMSecs + (nsecs - lastNSecs) / 10000;
  if (dt < 0 && options.clockseq === undefined) clockseq = clockseq + 1 & 0x3fff;
  if ((dt < 0 || msecs > lastMSecs) && options.nsecs === undefined) nsecs = 0;
  if (nsecs >= 10000) throw new Error("uuid.v1(): Can't create more than 10M uuids/sec");
  lastMSecs = msecs;
  lastNSecs = nsecs;
  clockseqState = clockseq;
  msecs += 12219292800000; // from the Unix epoch to the Gregorian one
  var tl = ((msecs & 0xfffffff) * 10000 + nsecs) % 0x100000000;
  b[i++] = tl >>> 24 & 0xff;
  b[i++] = tl >>> 16 & 0xff;
  b[i++] = tl >>> 8 & 0xff;
  b[i++] = tl & 0xff;
  var tmh = msecs / 0x100000000 * 10000 & 0xfffffff;
  b[i++] = tmh >>> 8 & 0xff;
  b[i++] = tmh & 0xff;
  b[i++] = tmh >>> 24 & 0xf | 0x10;
  b[i++] = tmh >>> 16 & 0xff;
  b[i++] = clockseq >>> 8 | 0x80;
  b[i++] = clockseq & 0xff;
  for (var n = 0; n < 6; ++n) b[i + n] = node[n];
  return buf || unsafeStringify(b);
}

var DNS = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';
var URL_NS = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';

function stringToBytes(str) {
  str = unescape(encodeURIComponent(str));
  var bytes = [];
  for (var i = 0; i < str.length; ++i) bytes.push(str.charCodeAt(i));
  return bytes;
}

function v35(ver, alg) {
  function generateUUID(value, namespace, buf, offset) {
    if (typeof value === 'string') value = stringToBytes(value);
    if (typeof namespace === 'string') namespace = parse(namespace);
    if ((namespace == null ? undefined : namespace.length) !== 16) throw TypeError('Namespace must be array-like (16 iterable integer values, 0-255)');
    var bytes = new Uint8Array(16 + value.length);
    bytes.set(namespace);
    bytes.set(value, namespace.length);
    bytes = bytesOfHex(crypto.createHash(alg).update(bytes).digest('hex'));
    bytes[6] = bytes[6] & 0x0f | ver;
    bytes[8] = bytes[8] & 0x3f | 0x80;
    if (buf) return copyOut(bytes, buf, offset);
    return unsafeStringify(bytes);
  }
  generateUUID.DNS = DNS;
  generateUUID.URL = URL_NS;
  return generateUUID;
}

var v3 = v35(0x30, 'md5');
var v5 = v35(0x50, 'sha1');

[['NIL', NIL], ['parse', parse], ['stringify', stringify], ['v1', v1], ['v3', v3], ['v4', v4], ['v5', v5], ['validate', validate], ['version', version]].forEach(function (e) {
  Object.defineProperty(exports, e[0], { enumerable: true, get: function () { return e[1]; } });
});
