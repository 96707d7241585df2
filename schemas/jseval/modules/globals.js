// Node's globals that project code reaches for and goja lacks: timers, queueMicrotask,
// process.nextTick, Buffer (the common subset, as Node answers it), TextEncoder, TextDecoder,
// atob, btoa and structuredClone. Runs once per sandbox with (global, native, process) and
// returns the timer queue the host drains (VM.Settle).
(function (g, native, process) {
  'use strict';
  var MAX_LENGTH = 16777216; // as lodash's range/repeat: what one value may hold in the sandbox

  function received(v) {
    if (v == null) return ' Received ' + v;
    if (typeof v === 'function') return ' Received function ' + (v.name || '<anonymous>');
    if (typeof v === 'object') {
      if (v.constructor && v.constructor.name) return ' Received an instance of ' + v.constructor.name;
      return ' Received ' + String(v);
    }
    var shown = typeof v === 'string' ? v : String(v);
    if (shown.length > 28) shown = shown.slice(0, 25) + '...';
    if (typeof v === 'string') shown = "'" + shown + "'";
    return ' Received type ' + typeof v + ' (' + shown + ')';
  }
  function codeError(Ctor, code, message) {
    var e = new Ctor(message);
    e.code = code;
    return e;
  }
  function argType(name, expected, v) {
    return codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "' + name + '" argument must be ' + expected + '.' + received(v));
  }

  // Timers: a queue ordered by due time then creation; the host runs one due timer per call
  // (so that promise jobs run between them, as Node drains microtasks between callbacks),
  // waiting in Go for the next one while the run's time limit allows.
  var TIMEOUT_MAX = 2147483647;
  var queue = [];
  var seq = 0;
  function Timeout(fn, delay, args, repeat) {
    this._id = ++seq;
    this._onTimeout = fn;
    this._idleTimeout = delay;
    this._args = args;
    this._repeat = repeat ? delay : null;
    this._ref = true;
    this._destroyed = false;
  }
  Timeout.prototype.ref = function () { this._ref = true; return this; };
  Timeout.prototype.unref = function () { this._ref = false; return this; };
  Timeout.prototype.hasRef = function () { return this._ref; };
  Timeout.prototype.refresh = function () { if (!this._destroyed) schedule(this); return this; };
  Timeout.prototype.close = function () { clear(this); return this; };
  Timeout.prototype[Symbol.toPrimitive] = function () { return this._id; };
  function Immediate(fn, args) {
    this._id = ++seq;
    this._onImmediate = fn;
    this._args = args;
    this._ref = true;
    this._destroyed = false;
  }
  Immediate.prototype.ref = function () { this._ref = true; return this; };
  Immediate.prototype.unref = function () { this._ref = false; return this; };
  Immediate.prototype.hasRef = function () { return this._ref; };

  function insert(t) {
    var i = queue.length;
    while (i > 0 && (queue[i - 1]._due > t._due || (queue[i - 1]._due === t._due && queue[i - 1]._order > t._order))) i--;
    queue.splice(i, 0, t);
  }
  function unqueue(t) {
    var i = queue.indexOf(t);
    if (i >= 0) queue.splice(i, 1);
  }
  function schedule(t) {
    unqueue(t);
    if (queue.length >= 100000) throw codeError(RangeError, 'ERR_OUT_OF_RANGE', 'Too many pending timers in one request');
    t._due = t instanceof Immediate ? -1 : Date.now() + t._idleTimeout;
    t._order = ++seq;
    insert(t);
  }
  function add(fn, delay, args, repeat) {
    if (typeof fn !== 'function') throw argType('callback', 'of type function', fn);
    delay *= 1;
    if (!(delay >= 1 && delay <= TIMEOUT_MAX)) delay = 1;
    var t = new Timeout(fn, Math.trunc(delay), args, repeat);
    schedule(t);
    return t;
  }
  function clear(t) {
    if (t == null) return;
    if (typeof t === 'number' || typeof t === 'string') {
      for (var i = 0; i < queue.length; i++) if (String(queue[i]._id) === String(t)) { t = queue[i]; break; }
      if (typeof t !== 'object') return;
    }
    if (typeof t !== 'object') return;
    t._destroyed = true;
    unqueue(t);
  }
  g.setTimeout = function setTimeout(fn, delay) { return add(fn, delay, Array.prototype.slice.call(arguments, 2), false); };
  g.setInterval = function setInterval(fn, delay) { return add(fn, delay, Array.prototype.slice.call(arguments, 2), true); };
  g.setImmediate = function setImmediate(fn) {
    if (typeof fn !== 'function') throw argType('callback', 'of type function', fn);
    var t = new Immediate(fn, Array.prototype.slice.call(arguments, 1));
    schedule(t);
    return t;
  };
  g.clearTimeout = function clearTimeout(t) { clear(t); };
  g.clearInterval = function clearInterval(t) { clear(t); };
  g.clearImmediate = function clearImmediate(t) { clear(t); };
  g.queueMicrotask = function queueMicrotask(fn) {
    if (typeof fn !== 'function') throw argType('callback', 'of type function', fn);
    Promise.resolve().then(function () { fn(); });
  };
  process.nextTick = function nextTick(fn) {
    if (typeof fn !== 'function') throw argType('callback', 'of type function', fn);
    var args = Array.prototype.slice.call(arguments, 1);
    Promise.resolve().then(function () { fn.apply(undefined, args); });
  };
  var timers = {
    // next is the due time (ms since the epoch) of the earliest timer, -1 when none.
    next: function () { return queue.length ? Math.max(queue[0]._due, 0) : -1; },
    // runOne runs the earliest timer if it is due by now.
    runOne: function (now) {
      var t = queue[0];
      if (!t || t._due > now) return;
      queue.shift();
      if (t instanceof Immediate) { t._destroyed = true; t._onImmediate.apply(t, t._args); return; }
      if (t._repeat !== null) schedule(t); else t._destroyed = true;
      t._onTimeout.apply(t, t._args);
    },
    // reset drops what a run left pending: the sandbox serves its next request clean.
    reset: function () { queue.length = 0; }
  };

  // Buffer: a Uint8Array subclass as Node's is, with the codecs in Go.
  var ENCODINGS = ['utf8', 'utf-8', 'hex', 'base64', 'base64url', 'ascii', 'latin1', 'binary', 'ucs2', 'ucs-2', 'utf16le', 'utf-16le'];
  function isEncoding(e) { return typeof e === 'string' && e.length !== 0 && ENCODINGS.indexOf(e.toLowerCase()) >= 0; }
  function checkSize(size) {
    if (typeof size !== 'number') throw argType('size', 'of type number', size);
    if (!(size >= 0 && size <= 4294967296)) throw codeError(RangeError, 'ERR_OUT_OF_RANGE', 'The value of "size" is out of range. It must be >= 0 && <= 4294967296. Received ' + String(size).replace(/\B(?=(\d{3})+(?!\d))/g, '_'));
    // Node allows up to 4 GiB; the sandbox caps one value as it caps arrays and strings.
    if (size > MAX_LENGTH) throw codeError(RangeError, 'ERR_OUT_OF_RANGE', 'The value of "size" is out of range. It must be >= 0 && <= ' + MAX_LENGTH + " in Quarry's sandbox. Received " + String(size).replace(/\B(?=(\d{3})+(?!\d))/g, '_'));
  }
  function fromBytes(ab) { return new Buffer(ab, 0, ab.byteLength); }
  function encodingOf(enc) {
    if (enc === undefined) return 'utf8';
    if (!isEncoding(enc)) throw codeError(TypeError, 'ERR_UNKNOWN_ENCODING', 'Unknown encoding: ' + enc);
    return enc;
  }
  function encodeString(s, enc) {
    if (typeof enc !== 'string' || enc.length === 0) enc = 'utf8';
    if (!isEncoding(enc)) throw codeError(TypeError, 'ERR_UNKNOWN_ENCODING', 'Unknown encoding: ' + enc);
    if (s.length > MAX_LENGTH) throw codeError(RangeError, 'ERR_OUT_OF_RANGE', 'The string is too long for a Buffer in the sandbox');
    return fromBytes(native.encode(s, enc));
  }

  class Buffer extends Uint8Array {
    static from(value, encodingOrOffset, length) {
      if (typeof value === 'string') return encodeString(value, encodingOrOffset);
      if (typeof value === 'object' && value !== null) {
        if (value instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && value instanceof SharedArrayBuffer)) {
          var off = encodingOrOffset === undefined ? 0 : +encodingOrOffset || 0;
          if (off > value.byteLength) throw codeError(RangeError, 'ERR_BUFFER_OUT_OF_BOUNDS', '"offset" is outside of buffer bounds');
          var len = length === undefined ? value.byteLength - off : +length || 0;
          if (len > value.byteLength - off) throw codeError(RangeError, 'ERR_BUFFER_OUT_OF_BOUNDS', '"length" is outside of buffer bounds');
          return new Buffer(value, off, len);
        }
        var valueOf = value.valueOf && value.valueOf();
        if (valueOf != null && valueOf !== value && (typeof valueOf === 'string' || typeof valueOf === 'object')) return Buffer.from(valueOf, encodingOrOffset, length);
        if (ArrayBuffer.isView(value) || value.length !== undefined) return fromArrayLike(value);
        if (value.type === 'Buffer' && Array.isArray(value.data)) return fromArrayLike(value.data);
        if (typeof value[Symbol.toPrimitive] === 'function') {
          var p = value[Symbol.toPrimitive]('string');
          if (typeof p === 'string') return encodeString(p, encodingOrOffset);
        }
      }
      throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The first argument must be of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object.' + received(value));
    }
    static alloc(size, fill, encoding) {
      checkSize(size);
      var b = new Buffer(size);
      if (fill !== undefined && fill !== 0 && size > 0) b.fill(fill, encoding);
      return b;
    }
    static allocUnsafe(size) { checkSize(size); return new Buffer(size); }
    static allocUnsafeSlow(size) { checkSize(size); return new Buffer(size); }
    static isBuffer(b) { return b instanceof Buffer; }
    static isEncoding(e) { return isEncoding(e); }
    static byteLength(s, enc) {
      if (typeof s !== 'string') {
        if (ArrayBuffer.isView(s) || s instanceof ArrayBuffer) return s.byteLength;
        throw argType('string', 'of type string or an instance of Buffer or ArrayBuffer', s);
      }
      return native.encode(s, isEncoding(enc) ? enc : 'utf8').byteLength;
    }
    static concat(list, totalLength) {
      if (!Array.isArray(list)) throw argType('list', 'an instance of Array', list);
      if (list.length === 0) return new Buffer(0);
      var i;
      if (totalLength === undefined) {
        totalLength = 0;
        for (i = 0; i < list.length; i++) if (list[i] && list[i].length) totalLength += list[i].length;
      }
      checkSize(totalLength);
      var out = Buffer.allocUnsafe(totalLength), pos = 0;
      for (i = 0; i < list.length; i++) {
        var b = list[i];
        if (!(b instanceof Uint8Array)) throw argType('list[' + i + ']', 'an instance of Buffer or Uint8Array', b);
        if (pos + b.length > totalLength) { out.set(b.subarray(0, totalLength - pos), pos); pos = totalLength; break; }
        out.set(b, pos);
        pos += b.length;
      }
      if (pos < totalLength) out.fill(0, pos, totalLength);
      return out;
    }
    static compare(a, b) {
      if (!(a instanceof Uint8Array)) throw argType('buf1', 'an instance of Buffer or Uint8Array', a);
      if (!(b instanceof Uint8Array)) throw argType('buf2', 'an instance of Buffer or Uint8Array', b);
      return compareBytes(a, b);
    }
    toString(encoding, start, end) {
      if (arguments.length === 0) return native.decode(this, 'utf8');
      var len = this.length;
      start = start === undefined || start <= 0 ? 0 : start >= len ? len : Math.trunc(start) || 0;
      end = end === undefined || end > len ? len : Math.trunc(end) || 0;
      if (end <= start) { encodingOf(encoding); return ''; }
      return native.decode(this.subarray(start, end), encodingOf(encoding));
    }
    toLocaleString(encoding, start, end) { return this.toString.apply(this, arguments); }
    toJSON() { return { type: 'Buffer', data: Array.prototype.slice.call(this) }; }
    equals(other) {
      if (!(other instanceof Uint8Array)) throw argType('otherBuffer', 'an instance of Buffer or Uint8Array', other);
      return compareBytes(this, other) === 0;
    }
    compare(target, tStart, tEnd, sStart, sEnd) {
      if (!(target instanceof Uint8Array)) throw argType('target', 'an instance of Buffer or Uint8Array', target);
      return compareBytes(this.subarray(sStart || 0, sEnd === undefined ? this.length : sEnd), target.subarray(tStart || 0, tEnd === undefined ? target.length : tEnd));
    }
    slice(start, end) { return this.subarray(start, end); }
    write(string, offset, length, encoding) {
      if (typeof offset === 'string') { encoding = offset; offset = 0; length = this.length; }
      else if (typeof length === 'string') { encoding = length; length = this.length - (offset || 0); }
      offset = offset === undefined ? 0 : offset >>> 0;
      var remaining = this.length - offset;
      if (length === undefined || length > remaining) length = remaining;
      var bytes = new Uint8Array(native.encode(String(string), encodingOf(encoding)));
      var n = Math.min(bytes.length, length);
      // UTF-8 writes only whole characters.
      if ((encoding === undefined || /^utf-?8$/i.test(encoding)) && n < bytes.length) while (n > 0 && (bytes[n] & 0xc0) === 0x80) n--;
      this.set(bytes.subarray(0, n), offset);
      return n;
    }
    copy(target, targetStart, sourceStart, sourceEnd) {
      targetStart = targetStart === undefined ? 0 : Math.max(0, Math.trunc(targetStart) || 0);
      sourceStart = sourceStart === undefined ? 0 : Math.max(0, Math.trunc(sourceStart) || 0);
      sourceEnd = sourceEnd === undefined ? this.length : Math.min(this.length, Math.trunc(sourceEnd) || 0);
      if (targetStart >= target.length || sourceStart >= sourceEnd) return 0;
      var n = Math.min(sourceEnd - sourceStart, target.length - targetStart);
      target.set(this.subarray(sourceStart, sourceStart + n), targetStart);
      return n;
    }
    fill(value, offset, end, encoding) {
      if (typeof offset === 'string') { encoding = offset; offset = 0; end = this.length; }
      else if (typeof end === 'string') { encoding = end; end = this.length; }
      offset = offset === undefined ? 0 : offset;
      end = end === undefined ? this.length : end;
      if (typeof value === 'string') {
        var bytes = value.length === 0 ? new Uint8Array([0]) : new Uint8Array(native.encode(value, encodingOf(encoding)));
        if (bytes.length === 0) throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', "The argument 'value' is invalid. Received '" + value + "'");
        for (var i = offset, j = 0; i < end; i++, j = (j + 1) % bytes.length) this[i] = bytes[j];
        return this;
      }
      if (value instanceof Uint8Array) {
        for (var k = offset, m = 0; k < end; k++, m = (m + 1) % value.length) this[k] = value[m];
        return this;
      }
      return Uint8Array.prototype.fill.call(this, typeof value === 'boolean' ? +value : value & 255, offset, end);
    }
    indexOf(value, byteOffset, encoding) { return search(this, value, byteOffset, encoding, true); }
    lastIndexOf(value, byteOffset, encoding) { return search(this, value, byteOffset, encoding, false); }
    includes(value, byteOffset, encoding) { return this.indexOf(value, byteOffset, encoding) !== -1; }
  }
  function fromArrayLike(a) {
    var n = a.length >>> 0;
    checkSize(n);
    var b = new Buffer(n);
    for (var i = 0; i < n; i++) b[i] = a[i] & 255;
    return b;
  }
  function compareBytes(a, b) {
    var n = Math.min(a.length, b.length);
    for (var i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
    return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
  }
  function search(buf, value, byteOffset, encoding, forward) {
    if (typeof byteOffset === 'string') { encoding = byteOffset; byteOffset = undefined; }
    var len = buf.length;
    var off = byteOffset === undefined || byteOffset !== byteOffset ? (forward ? 0 : len) : Math.trunc(+byteOffset);
    if (off < 0) off += len;
    if (typeof value === 'number') value = new Uint8Array([value & 255]);
    else if (typeof value === 'string') value = new Uint8Array(native.encode(value, encodingOf(encoding)));
    else if (!(value instanceof Uint8Array)) throw argType('value', 'one of type number or string or an instance of Buffer or Uint8Array', value);
    if (value.length === 0) return forward ? Math.min(Math.max(off, 0), len) : Math.min(Math.max(off, 0), len);
    function at(i) { for (var k = 0; k < value.length; k++) if (buf[i + k] !== value[k]) return false; return true; }
    if (forward) { for (var i = Math.max(off, 0); i + value.length <= len; i++) if (at(i)) return i; }
    else { for (var j = Math.min(off, len - value.length); j >= 0; j--) if (at(j)) return j; }
    return -1;
  }
  // The integer readers and writers, through a DataView of the same bytes.
  function bounds(buf, offset, size) {
    if (offset === undefined) offset = 0;
    if (typeof offset !== 'number') throw argType('offset', 'of type number', offset);
    if (offset !== Math.floor(offset)) throw codeError(RangeError, 'ERR_OUT_OF_RANGE', 'The value of "offset" is out of range. It must be an integer. Received ' + offset);
    if (offset < 0 || offset + size > buf.length) {
      if (buf.length - size < 0) throw codeError(RangeError, 'ERR_BUFFER_OUT_OF_BOUNDS', 'Attempt to access memory outside buffer bounds');
      throw codeError(RangeError, 'ERR_OUT_OF_RANGE', 'The value of "offset" is out of range. It must be >= 0 and <= ' + (buf.length - size) + '. Received ' + offset);
    }
    return offset;
  }
  [['UInt8', 'Uint8', 1], ['Int8', 'Int8', 1], ['UInt16', 'Uint16', 2], ['Int16', 'Int16', 2], ['UInt32', 'Uint32', 4], ['Int32', 'Int32', 4], ['Float', 'Float32', 4], ['Double', 'Float64', 8]].forEach(function (d) {
    var ends = d[2] === 1 ? [''] : ['LE', 'BE'];
    ends.forEach(function (e) {
      var little = e === 'LE';
      var read = function (offset) {
        offset = bounds(this, offset, d[2]);
        return new DataView(this.buffer, this.byteOffset, this.byteLength)['get' + d[1]](offset, little);
      };
      var write = function (value, offset) {
        offset = bounds(this, offset, d[2]);
        new DataView(this.buffer, this.byteOffset, this.byteLength)['set' + d[1]](offset, +value, little);
        return offset + d[2];
      };
      Buffer.prototype['read' + d[0] + e] = read;
      Buffer.prototype['write' + d[0] + e] = write;
      if (d[0].indexOf('UInt') === 0) {
        Buffer.prototype['readUint' + d[0].slice(4) + e] = read;
        Buffer.prototype['writeUint' + d[0].slice(4) + e] = write;
      }
    });
  });
  Buffer.poolSize = 8192;
  g.Buffer = Buffer;

  class TextEncoder {
    get encoding() { return 'utf-8'; }
    encode(input) { return new Uint8Array(native.encode(input === undefined ? '' : String(input), 'utf8')); }
    encodeInto(src, dest) {
      var bytes = this.encode(src);
      var n = Math.min(bytes.length, dest.length);
      while (n > 0 && n < bytes.length && (bytes[n] & 0xc0) === 0x80) n--;
      dest.set(bytes.subarray(0, n));
      var read = native.decode(bytes.subarray(0, n), 'utf8').length;
      return { read: read, written: n };
    }
  }
  class TextDecoder {
    constructor(label, options) {
      label = label === undefined ? 'utf-8' : String(label).trim().toLowerCase();
      if (label !== 'utf-8' && label !== 'utf8' && label !== 'unicode-1-1-utf-8') {
        throw codeError(RangeError, 'ERR_ENCODING_NOT_SUPPORTED', 'The "' + label + '" encoding is not supported');
      }
      this._fatal = !!(options && options.fatal);
      this._ignoreBOM = !!(options && options.ignoreBOM);
    }
    get encoding() { return 'utf-8'; }
    get fatal() { return this._fatal; }
    get ignoreBOM() { return this._ignoreBOM; }
    decode(input) {
      if (input === undefined) return '';
      var bytes;
      if (input instanceof ArrayBuffer) bytes = new Uint8Array(input);
      else if (ArrayBuffer.isView(input)) bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
      else throw argType('input', 'an instance of ArrayBuffer or ArrayBufferView', input);
      var s = native.decode(bytes, 'utf8');
      if (this._fatal && s.indexOf('\ufffd') >= 0 && native.decode(native.encode(s, 'utf8'), 'hex') !== native.decode(bytes, 'hex')) {
        throw codeError(TypeError, 'ERR_ENCODING_INVALID_ENCODED_DATA', 'The encoded data was not valid for encoding utf-8');
      }
      if (!this._ignoreBOM && s.charCodeAt(0) === 0xfeff) s = s.slice(1);
      return s;
    }
  }
  g.TextEncoder = TextEncoder;
  g.TextDecoder = TextDecoder;

  function domException(message, name) {
    var e = new Error(message);
    e.name = name;
    return e;
  }
  g.btoa = function btoa(input) {
    if (arguments.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "input" argument must be specified');
    input = String(input);
    for (var i = 0; i < input.length; i++) if (input.charCodeAt(i) > 255) throw domException('Invalid character', 'InvalidCharacterError');
    return native.decode(native.encode(input, 'latin1'), 'base64');
  };
  g.atob = function atob(input) {
    if (arguments.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "input" argument must be specified');
    input = String(input).replace(/[\t\n\f\r ]/g, '');
    var m = /^([A-Za-z0-9+/]*)(=*)$/.exec(input);
    if (!m || (m[2].length && (input.length % 4 !== 0 || m[2].length > 2))) throw domException('Invalid character', 'InvalidCharacterError');
    input = m[1];
    if (input.length % 4 === 1) throw domException('The string to be decoded is not correctly encoded.', 'InvalidCharacterError');
    return native.decode(native.encode(input, 'base64'), 'latin1');
  };

  // structuredClone: the HTML structured clone of plain data (objects, arrays, Date, RegExp,
  // Map, Set, typed arrays, ArrayBuffer, errors, boxed primitives), cycles kept; functions and
  // symbols refuse with DataCloneError as Node does.
  g.structuredClone = function structuredClone(value) {
    if (arguments.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "value" argument must be specified');
    var seen = new Map();
    function refuse(v) { return domException(String(v) + ' could not be cloned.', 'DataCloneError'); }
    function clone(v) {
      if (typeof v === 'function' || typeof v === 'symbol') throw refuse(v);
      if (v === null || typeof v !== 'object') return v;
      if (seen.has(v)) return seen.get(v);
      var tag = Object.prototype.toString.call(v), out, k;
      if (v instanceof Date) out = new Date(v.getTime());
      else if (v instanceof RegExp) out = new RegExp(v.source, v.flags);
      else if (tag === '[object Boolean]' || tag === '[object Number]' || tag === '[object String]') out = Object(v.valueOf());
      else if (v instanceof ArrayBuffer) out = v.slice(0);
      else if (ArrayBuffer.isView(v)) {
        var C = v instanceof Buffer ? Uint8Array : v.constructor;
        out = v instanceof DataView ? new DataView(v.buffer.slice(0)) : new C(v);
      } else if (v instanceof Map) {
        out = new Map();
        seen.set(v, out);
        v.forEach(function (val, key) { out.set(clone(key), clone(val)); });
        return out;
      } else if (v instanceof Set) {
        out = new Set();
        seen.set(v, out);
        v.forEach(function (val) { out.add(clone(val)); });
        return out;
      } else if (v instanceof Error) {
        var Ctor = { EvalError: EvalError, RangeError: RangeError, ReferenceError: ReferenceError, SyntaxError: SyntaxError, TypeError: TypeError, URIError: URIError }[v.name] || Error;
        out = new Ctor(v.message);
        if (v.stack !== undefined) out.stack = v.stack;
      } else if (Array.isArray(v)) {
        out = new Array(v.length);
        seen.set(v, out);
        for (k in v) if (Object.prototype.hasOwnProperty.call(v, k)) out[k] = clone(v[k]);
        return out;
      } else if (tag === '[object Object]' || tag === '[object Arguments]') {
        out = {};
        seen.set(v, out);
        Object.keys(v).forEach(function (key) { out[key] = clone(v[key]); });
        return out;
      } else {
        throw domException(tag.slice(8, -1) + ' object could not be cloned.', 'DataCloneError');
      }
      seen.set(v, out);
      return out;
    }
    return clone(value);
  };

  // global, performance.now, process.hrtime and uptime (a monotonic clock from Go), and the
  // Web Crypto global's randomUUID and getRandomValues (crypto.subtle is not provided).
  g.global = g;
  var timeOrigin = native.now();
  g.performance = {
    timeOrigin: Date.now() - (native.now() - timeOrigin),
    now: function now() { return native.now() - timeOrigin; },
    toJSON: function () { return { timeOrigin: this.timeOrigin }; }
  };
  process.hrtime = function hrtime(prev) {
    var ns = native.nowNanos();
    var sec = Math.floor(ns / 1e9), nsec = ns % 1e9;
    if (prev !== undefined) {
      if (!Array.isArray(prev)) throw argType('time', 'an instance of Array', prev);
      sec -= prev[0];
      nsec -= prev[1];
      if (nsec < 0) { sec--; nsec += 1e9; }
    }
    return [sec, nsec];
  };
  process.hrtime.bigint = function () { return BigInt(native.nowNanos()); };
  process.uptime = function uptime() { return (native.now() - timeOrigin) / 1000; };
  var webcrypto = native.webcrypto;
  g.crypto = {
    randomUUID: function randomUUID() { return webcrypto.randomUUID(); },
    getRandomValues: function getRandomValues(view) {
      if (!ArrayBuffer.isView(view) || view instanceof Float32Array || view instanceof Float64Array || view instanceof DataView) {
        throw domException('The data argument must be an integer-type TypedArray', 'TypeMismatchError');
      }
      if (view.byteLength > 65536) throw domException('The requested length exceeds 65,536 bytes', 'QuotaExceededError');
      new Uint8Array(view.buffer, view.byteOffset, view.byteLength).set(new Uint8Array(webcrypto.randomBytes(view.byteLength)));
      return view;
    }
  };

  return timers;
})
