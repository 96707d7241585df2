// The WHATWG URL and URLSearchParams for Quarry's sandbox (Node's globals and the url
// module's), written from the URL Standard's basic parser: special and opaque schemes,
// credentials, IPv4 (with its hex and octal parts) and IPv6 hosts, international domains
// (UTS #46 in Go), percent-encode sets, '.' and '..' segments and Windows drive letters in
// file URLs. The href, search and hash setters and searchParams are provided; the other
// setters answer NotImplementedError. The legacy url.parse/format/resolve are not provided.
(function (g, native, notProvided) {
  'use strict';
  var special = { 'ftp:': 21, 'file:': null, 'http:': 80, 'https:': 443, 'ws:': 80, 'wss:': 443 };

  function isC0(c) { return c <= 0x1f; }
  function inSet(set, c) {
    if (c <= 0x1f || c > 0x7e) return true;
    var ch = String.fromCharCode(c);
    switch (set) {
      case 'c0': return false;
      case 'fragment': return ' "<>`'.indexOf(ch) >= 0;
      case 'query': return ' "#<>'.indexOf(ch) >= 0;
      case 'special-query': return ' "#<>\''.indexOf(ch) >= 0;
      case 'path': return ' "#<>?`{}'.indexOf(ch) >= 0;
      case 'userinfo': return ' "#<>?`{}/:;=@[\\]^|'.indexOf(ch) >= 0;
      case 'component': return ' "#<>?`{}/:;=@[\\]^|$%&+,'.indexOf(ch) >= 0;
      case 'form': return !/[A-Za-z0-9*\-._]/.test(ch);
    }
    return false;
  }
  var hexDigits = '0123456789ABCDEF';
  function encodeSet(s, set, spaceAsPlus) {
    var out = '';
    for (var i = 0; i < s.length; i++) {
      var c = s.charCodeAt(i);
      if (spaceAsPlus && c === 0x20) { out += '+'; continue; }
      if (c < 0x80) {
        if (inSet(set, c)) out += '%' + hexDigits[c >> 4] + hexDigits[c & 15];
        else out += s[i];
        continue;
      }
      var end = i + 1;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
        var d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) end = i + 2;
      }
      var bytes = new Uint8Array(native.encode(s.slice(i, end), 'utf8'));
      for (var k = 0; k < bytes.length; k++) out += '%' + hexDigits[bytes[k] >> 4] + hexDigits[bytes[k] & 15];
      i = end - 1;
    }
    return out;
  }
  function percentDecodeBytes(s) {
    var bytes = new Uint8Array(native.encode(s, 'utf8'));
    var out = [];
    for (var i = 0; i < bytes.length; i++) {
      var b = bytes[i];
      if (b === 0x25 && i + 2 < bytes.length && isHex(bytes[i + 1]) && isHex(bytes[i + 2])) {
        out.push(parseInt(String.fromCharCode(bytes[i + 1], bytes[i + 2]), 16));
        i += 2;
      } else out.push(b);
    }
    return new Uint8Array(out);
  }
  function isHex(b) { return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66); }
  function percentDecode(s) { return native.decode(percentDecodeBytes(s), 'utf8'); }

  function failure(input) {
    var e = new TypeError('Invalid URL');
    e.code = 'ERR_INVALID_URL';
    e.input = input;
    return e;
  }

  // --- hosts ---------------------------------------------------------------------------------

  function parseIPv6(input) {
    var address = [0, 0, 0, 0, 0, 0, 0, 0];
    var pieceIndex = 0, compress = null, p = 0;
    var c = function () { return input.charCodeAt(p); };
    if (c() === 0x3a) {
      if (input.charCodeAt(p + 1) !== 0x3a) return null;
      p += 2;
      pieceIndex++;
      compress = pieceIndex;
    }
    while (p < input.length) {
      if (pieceIndex === 8) return null;
      if (c() === 0x3a) {
        if (compress !== null) return null;
        p++;
        pieceIndex++;
        compress = pieceIndex;
        continue;
      }
      var value = 0, length = 0;
      while (length < 4 && p < input.length && isHex(c())) { value = value * 0x10 + parseInt(input[p], 16); p++; length++; }
      if (c() === 0x2e) {
        if (length === 0) return null;
        p -= length;
        if (pieceIndex > 6) return null;
        var numbersSeen = 0;
        while (p < input.length) {
          var ipv4Piece = null;
          if (numbersSeen > 0) {
            if (c() === 0x2e && numbersSeen < 4) p++;
            else return null;
          }
          if (!(c() >= 0x30 && c() <= 0x39)) return null;
          while (c() >= 0x30 && c() <= 0x39) {
            var number = c() - 0x30;
            if (ipv4Piece === null) ipv4Piece = number;
            else if (ipv4Piece === 0) return null;
            else ipv4Piece = ipv4Piece * 10 + number;
            if (ipv4Piece > 255) return null;
            p++;
          }
          address[pieceIndex] = address[pieceIndex] * 0x100 + ipv4Piece;
          numbersSeen++;
          if (numbersSeen === 2 || numbersSeen === 4) pieceIndex++;
        }
        if (numbersSeen !== 4) return null;
        break;
      } else if (c() === 0x3a) {
        p++;
        if (p >= input.length) return null;
      } else if (p < input.length) return null;
      address[pieceIndex] = value;
      pieceIndex++;
    }
    if (compress !== null) {
      var swaps = pieceIndex - compress;
      pieceIndex = 7;
      while (pieceIndex !== 0 && swaps > 0) {
        var t = address[compress + swaps - 1];
        address[compress + swaps - 1] = address[pieceIndex];
        address[pieceIndex] = t;
        pieceIndex--;
        swaps--;
      }
    } else if (pieceIndex !== 8) return null;
    return address;
  }
  function serializeIPv6(a) {
    // The first longest run of two or more zero pieces is compressed.
    var best = -1, bestLen = 1, cur = -1, curLen = 0, i;
    for (i = 0; i < 8; i++) {
      if (a[i] === 0) {
        if (cur < 0) { cur = i; curLen = 1; } else curLen++;
        if (curLen > bestLen) { best = cur; bestLen = curLen; }
      } else cur = -1;
    }
    var out = '', ignore0 = false;
    for (i = 0; i < 8; i++) {
      if (ignore0 && a[i] === 0) continue;
      ignore0 = false;
      if (best === i) { out += i === 0 ? '::' : ':'; ignore0 = true; continue; }
      out += a[i].toString(16);
      if (i !== 7) out += ':';
    }
    return '[' + out + ']';
  }
  function parseIPv4Number(s) {
    if (s === '') return NaN;
    var R = 10;
    if (s.length >= 2 && (s.slice(0, 2) === '0x' || s.slice(0, 2) === '0X')) { s = s.slice(2); R = 16; }
    else if (s.length >= 2 && s[0] === '0') { s = s.slice(1); R = 8; }
    if (s === '') return 0;
    var re = R === 10 ? /^[0-9]+$/ : R === 16 ? /^[0-9A-Fa-f]+$/ : /^[0-7]+$/;
    if (!re.test(s)) return NaN;
    return parseInt(s, R);
  }
  function endsInNumber(host) {
    var parts = host.split('.');
    if (parts[parts.length - 1] === '') {
      if (parts.length === 1) return false;
      parts.pop();
    }
    var last = parts[parts.length - 1];
    if (last !== '' && /^[0-9]+$/.test(last)) return true;
    return !isNaN(parseIPv4Number(last)) && /^(0[xX][0-9A-Fa-f]*|[0-9]+)$/.test(last);
  }
  function parseIPv4(host) {
    var parts = host.split('.');
    if (parts[parts.length - 1] === '' && parts.length > 1) parts.pop();
    if (parts.length > 4) return null;
    var numbers = [];
    for (var i = 0; i < parts.length; i++) {
      var n = parseIPv4Number(parts[i]);
      if (isNaN(n)) return null;
      numbers.push(n);
    }
    for (i = 0; i < numbers.length - 1; i++) if (numbers[i] > 255) return null;
    if (numbers[numbers.length - 1] >= Math.pow(256, 5 - numbers.length)) return null;
    var ipv4 = numbers[numbers.length - 1];
    for (i = 0; i < numbers.length - 1; i++) ipv4 += numbers[i] * Math.pow(256, 3 - i);
    var out = [];
    for (i = 0; i < 4; i++) { out.unshift(String(ipv4 % 256)); ipv4 = Math.floor(ipv4 / 256); }
    return out.join('.');
  }
  var forbiddenHost = /[\u0000\u0009\u000a\u000d #/:<>?@[\\\]^|]/;
  var forbiddenDomain = /[\u0000-\u001f\u0009\u000a\u000d #%/:<>?@[\\\]^|\u007f]/;
  function parseHost(input, notSpecial) {
    if (input[0] === '[') {
      if (input[input.length - 1] !== ']') return null;
      var a = parseIPv6(input.slice(1, -1));
      return a ? serializeIPv6(a) : null;
    }
    if (notSpecial) {
      if (forbiddenHost.test(input)) return null;
      return encodeSet(input, 'c0');
    }
    var domain = percentDecode(input);
    var ascii = native.domainToASCII(domain);
    if (ascii === null || ascii === '' || forbiddenDomain.test(ascii)) return null;
    if (endsInNumber(ascii)) return parseIPv4(ascii);
    return ascii;
  }

  // --- the basic parser ----------------------------------------------------------------------

  function shortenPath(url) {
    var path = url.path;
    if (url.scheme === 'file' && path.length === 1 && /^[A-Za-z]:$/.test(path[0])) return;
    path.pop();
  }
  function isSingleDot(s) { return s === '.' || s.toLowerCase() === '%2e'; }
  function isDoubleDot(s) { s = s.toLowerCase(); return s === '..' || s === '.%2e' || s === '%2e.' || s === '%2e%2e'; }
  function isWindowsDriveLetter(s, normalizedOnly) { return s.length === 2 && /[A-Za-z]/.test(s[0]) && (s[1] === ':' || (!normalizedOnly && s[1] === '|')); }
  function startsWithWindowsDriveLetter(s, p) {
    return s.length - p >= 2 && /[A-Za-z]/.test(s[p]) && (s[p + 1] === ':' || s[p + 1] === '|') &&
      (s.length - p === 2 || '/\\?#'.indexOf(s[p + 2]) >= 0);
  }

  function basicParse(input, base) {
    input = input.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
    var url = { scheme: '', username: '', password: '', host: null, port: null, path: [], opaque: null, query: null, fragment: null };
    var state = 'scheme start', buffer = '', atSignSeen = false, insideBrackets = false, passwordTokenSeen = false;
    var p = 0;
    var isSpecial = function () { return hasOwn(special, url.scheme + ':'); };
    for (;;) {
      var c = p < input.length ? input[p] : undefined; // undefined is EOF
      switch (state) {
        case 'scheme start':
          if (c !== undefined && /[A-Za-z]/.test(c)) { buffer += c.toLowerCase(); state = 'scheme'; }
          else { state = 'no scheme'; p--; }
          break;
        case 'scheme':
          if (c !== undefined && /[A-Za-z0-9+\-.]/.test(c)) buffer += c.toLowerCase();
          else if (c === ':') {
            url.scheme = buffer;
            buffer = '';
            if (url.scheme === 'file') state = 'file';
            else if (isSpecial() && base && base.scheme === url.scheme) state = 'special relative or authority';
            else if (isSpecial()) state = 'special authority slashes';
            else if (input[p + 1] === '/') { state = 'path or authority'; p++; }
            else { url.opaque = ''; state = 'opaque path'; }
          } else { buffer = ''; state = 'no scheme'; p = -1; }
          break;
        case 'no scheme':
          if (!base || (base.opaque !== null && c !== '#')) return null;
          if (base.opaque !== null && c === '#') {
            url.scheme = base.scheme; url.path = base.path.slice(); url.opaque = base.opaque; url.query = base.query; url.fragment = '';
            state = 'fragment';
          } else if (base.scheme !== 'file') { state = 'relative'; p--; }
          else { state = 'file'; p--; }
          break;
        case 'special relative or authority':
          if (c === '/' && input[p + 1] === '/') { state = 'special authority ignore slashes'; p++; }
          else { state = 'relative'; p--; }
          break;
        case 'path or authority':
          if (c === '/') state = 'authority';
          else { state = 'path'; p--; }
          break;
        case 'relative':
          url.scheme = base.scheme;
          if (c === '/') state = 'relative slash';
          else if (isSpecial() && c === '\\') state = 'relative slash';
          else {
            url.username = base.username; url.password = base.password; url.host = base.host; url.port = base.port;
            url.path = base.path.slice(); url.query = base.query;
            if (c === '?') { url.query = ''; state = 'query'; }
            else if (c === '#') { url.fragment = ''; state = 'fragment'; }
            else if (c !== undefined) { url.query = null; shortenPath(url); state = 'path'; p--; }
          }
          break;
        case 'relative slash':
          if (isSpecial() && (c === '/' || c === '\\')) state = 'special authority ignore slashes';
          else if (c === '/') state = 'authority';
          else {
            url.username = base.username; url.password = base.password; url.host = base.host; url.port = base.port;
            state = 'path'; p--;
          }
          break;
        case 'special authority slashes':
          if (c === '/' && input[p + 1] === '/') { state = 'special authority ignore slashes'; p++; }
          else { state = 'special authority ignore slashes'; p--; }
          break;
        case 'special authority ignore slashes':
          if (c !== '/' && c !== '\\') { state = 'authority'; p--; }
          break;
        case 'authority':
          if (c === '@') {
            if (atSignSeen) buffer = '%40' + buffer;
            atSignSeen = true;
            for (var cp of buffer) {
              if (cp === ':' && !passwordTokenSeen) { passwordTokenSeen = true; continue; }
              var enc = encodeSet(cp, 'userinfo');
              if (passwordTokenSeen) url.password += enc; else url.username += enc;
            }
            buffer = '';
          } else if (c === undefined || c === '/' || c === '?' || c === '#' || (isSpecial() && c === '\\')) {
            if (atSignSeen && buffer === '') return null;
            p -= buffer.length + 1;
            buffer = '';
            state = 'host';
          } else buffer += c;
          break;
        case 'host':
          if (url.scheme === 'file') { p--; state = 'file host'; break; }
          if (c === ':' && !insideBrackets) {
            if (buffer === '') return null;
            var host = parseHost(buffer, !isSpecial());
            if (host === null) return null;
            url.host = host; buffer = ''; state = 'port';
          } else if (c === undefined || c === '/' || c === '?' || c === '#' || (isSpecial() && c === '\\')) {
            p--;
            if (isSpecial() && buffer === '') return null;
            var h = parseHost(buffer, !isSpecial());
            if (h === null) return null;
            url.host = h; buffer = ''; state = 'path start';
          } else {
            if (c === '[') insideBrackets = true;
            if (c === ']') insideBrackets = false;
            buffer += c;
          }
          break;
        case 'port':
          if (c !== undefined && /[0-9]/.test(c)) buffer += c;
          else if (c === undefined || c === '/' || c === '?' || c === '#' || (isSpecial() && c === '\\')) {
            if (buffer !== '') {
              var port = parseInt(buffer, 10);
              if (port > 65535) return null;
              url.port = special[url.scheme + ':'] === port ? null : port;
              buffer = '';
            }
            state = 'path start'; p--;
          } else return null;
          break;
        case 'file':
          url.scheme = 'file';
          url.host = '';
          if (c === '/' || c === '\\') state = 'file slash';
          else if (base && base.scheme === 'file') {
            url.host = base.host; url.path = base.path.slice(); url.query = base.query;
            if (c === '?') { url.query = ''; state = 'query'; }
            else if (c === '#') { url.fragment = ''; state = 'fragment'; }
            else if (c !== undefined) {
              url.query = null;
              if (!startsWithWindowsDriveLetter(input, p)) shortenPath(url);
              else url.path = [];
              state = 'path'; p--;
            }
          } else { state = 'path'; p--; }
          break;
        case 'file slash':
          if (c === '/' || c === '\\') state = 'file host';
          else {
            if (base && base.scheme === 'file') {
              url.host = base.host;
              if (!startsWithWindowsDriveLetter(input, p) && base.path.length && isWindowsDriveLetter(base.path[0], true)) url.path.push(base.path[0]);
            }
            state = 'path'; p--;
          }
          break;
        case 'file host':
          if (c === undefined || c === '/' || c === '\\' || c === '?' || c === '#') {
            p--;
            if (isWindowsDriveLetter(buffer, false)) state = 'path';
            else if (buffer === '') { url.host = ''; state = 'path start'; }
            else {
              var fh = parseHost(buffer, false);
              if (fh === null) return null;
              url.host = fh === 'localhost' ? '' : fh;
              buffer = '';
              state = 'path start';
            }
          } else buffer += c;
          break;
        case 'path start':
          if (isSpecial()) { state = 'path'; if (c !== '/' && c !== '\\') p--; }
          else if (c === '?') { url.query = ''; state = 'query'; }
          else if (c === '#') { url.fragment = ''; state = 'fragment'; }
          else if (c !== undefined) { state = 'path'; if (c !== '/') p--; }
          break;
        case 'path':
          if (c === undefined || c === '/' || (isSpecial() && c === '\\') || c === '?' || c === '#') {
            if (isDoubleDot(buffer)) {
              shortenPath(url);
              if (c !== '/' && !(isSpecial() && c === '\\')) url.path.push('');
            } else if (isSingleDot(buffer) && c !== '/' && !(isSpecial() && c === '\\')) url.path.push('');
            else if (!isSingleDot(buffer)) {
              if (url.scheme === 'file' && url.path.length === 0 && isWindowsDriveLetter(buffer, false)) buffer = buffer[0] + ':';
              url.path.push(buffer);
            }
            buffer = '';
            if (c === '?') { url.query = ''; state = 'query'; }
            if (c === '#') { url.fragment = ''; state = 'fragment'; }
          } else {
            var pend = /[\ud800-\udbff]/.test(c) && /[\udc00-\udfff]/.test(input[p + 1] || '') ? 2 : 1;
            buffer += encodeSet(input.slice(p, p + pend), 'path');
            p += pend - 1;
          }
          break;
        case 'opaque path':
          if (c === '?') { url.query = ''; state = 'query'; }
          else if (c === '#') { url.fragment = ''; state = 'fragment'; }
          else if (c !== undefined) {
            var oend = /[\ud800-\udbff]/.test(c) && /[\udc00-\udfff]/.test(input[p + 1] || '') ? 2 : 1;
            url.opaque += encodeSet(input.slice(p, p + oend), 'c0');
            p += oend - 1;
          }
          break;
        case 'query':
          if (c === '#' || c === undefined) {
            url.query += encodeSet(buffer, isSpecial() ? 'special-query' : 'query');
            buffer = '';
            if (c === '#') { url.fragment = ''; state = 'fragment'; }
          } else buffer += c;
          break;
        case 'fragment':
          if (c !== undefined) {
            var fend = /[\ud800-\udbff]/.test(c) && /[\udc00-\udfff]/.test(input[p + 1] || '') ? 2 : 1;
            url.fragment += encodeSet(input.slice(p, p + fend), 'fragment');
            p += fend - 1;
          }
          break;
      }
      // A state that went back a step at the end sees the end again in its next state.
      if (p >= input.length) break;
      p++;
    }
    return url;
  }
  function hasOwn(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }

  function pathOf(u) {
    if (u.opaque !== null) return u.opaque;
    var out = '';
    for (var i = 0; i < u.path.length; i++) out += '/' + u.path[i];
    return out;
  }
  function serialize(u, excludeFragment) {
    var out = u.scheme + ':';
    if (u.host !== null) {
      out += '//';
      if (u.username !== '' || u.password !== '') {
        out += u.username;
        if (u.password !== '') out += ':' + u.password;
        out += '@';
      }
      out += u.host;
      if (u.port !== null) out += ':' + u.port;
    } else if (u.opaque === null && u.path.length > 1 && u.path[0] === '') out += '/.';
    out += pathOf(u);
    if (u.query !== null) out += '?' + u.query;
    if (!excludeFragment && u.fragment !== null) out += '#' + u.fragment;
    return out;
  }

  // --- URLSearchParams -----------------------------------------------------------------------

  function parseForm(s) {
    var out = [];
    var parts = s.split('&');
    for (var i = 0; i < parts.length; i++) {
      var seq = parts[i];
      if (seq === '') continue;
      var eq = seq.indexOf('=');
      var name = eq >= 0 ? seq.slice(0, eq) : seq;
      var value = eq >= 0 ? seq.slice(eq + 1) : '';
      out.push([percentDecode(name.replace(/\+/g, ' ')), percentDecode(value.replace(/\+/g, ' '))]);
    }
    return out;
  }
  function toUSV(s) { return String(s).replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'); }
  function serializeForm(list) {
    return list.map(function (p) { return encodeSet(p[0], 'form', true) + '=' + encodeSet(p[1], 'form', true); }).join('&');
  }

  var kList = Symbol('query'), kURL = Symbol('context');
  class URLSearchParams {
    constructor(init) {
      this[kList] = [];
      this[kURL] = null;
      if (init === undefined || init === null) return;
      if (typeof init === 'object' || typeof init === 'function') {
        if (typeof init[Symbol.iterator] === 'function') {
          for (var pair of init) {
            var arr = Array.from(pair);
            if (arr.length !== 2) {
              var e = new TypeError('Each query pair must be an iterable [name, value] tuple');
              e.code = 'ERR_INVALID_TUPLE';
              throw e;
            }
            this[kList].push([toUSV(arr[0]), toUSV(arr[1])]);
          }
        } else {
          var keys = Reflect.ownKeys(init);
          for (var i = 0; i < keys.length; i++) {
            var k = keys[i];
            var d = Reflect.getOwnPropertyDescriptor(init, k);
            if (typeof k === 'string' && d !== undefined && d.enumerable) this[kList].push([toUSV(k), toUSV(init[k])]);
          }
        }
      } else {
        var s = toUSV(init);
        if (s[0] === '?') s = s.slice(1);
        this[kList] = parseForm(s);
      }
    }
    get size() { return this[kList].length; }
    append(name, value) { this[kList].push([toUSV(name), toUSV(value)]); update(this); }
    delete(name, value) {
      name = toUSV(name);
      var v = value === undefined ? undefined : toUSV(value);
      this[kList] = this[kList].filter(function (p) { return !(p[0] === name && (v === undefined || p[1] === v)); });
      update(this);
    }
    get(name) {
      name = toUSV(name);
      for (var i = 0; i < this[kList].length; i++) if (this[kList][i][0] === name) return this[kList][i][1];
      return null;
    }
    getAll(name) {
      name = toUSV(name);
      return this[kList].filter(function (p) { return p[0] === name; }).map(function (p) { return p[1]; });
    }
    has(name, value) {
      name = toUSV(name);
      var v = value === undefined ? undefined : toUSV(value);
      return this[kList].some(function (p) { return p[0] === name && (v === undefined || p[1] === v); });
    }
    set(name, value) {
      name = toUSV(name);
      value = toUSV(value);
      var found = false;
      this[kList] = this[kList].filter(function (p) {
        if (p[0] !== name) return true;
        if (found) return false;
        found = true;
        p[1] = value;
        return true;
      });
      if (!found) this[kList].push([name, value]);
      update(this);
    }
    sort() {
      var list = this[kList].map(function (p, i) { return [p, i]; });
      list.sort(function (a, b) {
        // By code units, stable.
        if (a[0][0] < b[0][0]) return -1;
        if (a[0][0] > b[0][0]) return 1;
        return a[1] - b[1];
      });
      this[kList] = list.map(function (x) { return x[0]; });
      update(this);
    }
    forEach(callback, thisArg) {
      if (typeof callback !== 'function') {
        var e = new TypeError('The "callback" argument must be of type function.' + (callback === undefined ? ' Received undefined' : ''));
        e.code = 'ERR_INVALID_ARG_TYPE';
        throw e;
      }
      for (var i = 0; i < this[kList].length; i++) callback.call(thisArg, this[kList][i][1], this[kList][i][0], this);
    }
    keys() { return this[kList].map(function (p) { return p[0]; })[Symbol.iterator](); }
    values() { return this[kList].map(function (p) { return p[1]; })[Symbol.iterator](); }
    entries() { return this[kList].map(function (p) { return [p[0], p[1]]; })[Symbol.iterator](); }
    [Symbol.iterator]() { return this.entries(); }
    toString() { return serializeForm(this[kList]); }
    get [Symbol.toStringTag]() { return 'URLSearchParams'; }
    [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
      if (this[kList].length === 0) return 'URLSearchParams {}';
      return 'URLSearchParams { ' + this[kList].map(function (p) { return inspect(p[0]) + ' => ' + inspect(p[1]); }).join(', ') + ' }';
    }
  }
  function update(params) {
    var u = params[kURL];
    if (!u) return;
    var s = serializeForm(params[kList]);
    u[kRecord].query = s === '' ? null : s;
  }

  // --- URL -----------------------------------------------------------------------------------

  var kRecord = Symbol('context');
  class URL {
    constructor(input, base) {
      if (arguments.length === 0) {
        var e = new TypeError('The "url" argument must be specified');
        e.code = 'ERR_MISSING_ARGS';
        throw e;
      }
      input = toUSV(input);
      var b = null;
      if (base !== undefined) {
        b = basicParse(toUSV(base), null);
        if (b === null) throw failure(input);
      }
      var rec = basicParse(input, b);
      if (rec === null) throw failure(input);
      this[kRecord] = rec;
      var params = new URLSearchParams(rec.query || '');
      params[kURL] = this;
      this[kSearchParams] = params;
    }
    static canParse(input, base) {
      try { new URL(input, base); return true; } catch (e) { return false; }
    }
    get href() { return serialize(this[kRecord]); }
    set href(v) {
      var rec = basicParse(toUSV(v), null);
      if (rec === null) throw failure(v);
      this[kRecord] = rec;
      this[kSearchParams][kList] = parseForm(rec.query || '');
    }
    get origin() {
      var u = this[kRecord];
      if (u.scheme === 'blob') {
        try { var inner = new URL(pathOf(u)); if (inner.protocol === 'http:' || inner.protocol === 'https:') return inner.origin; } catch (e) {}
        return 'null';
      }
      if (!hasOwn(special, u.scheme + ':') || u.scheme === 'file') return 'null';
      return u.scheme + '://' + u.host + (u.port !== null ? ':' + u.port : '');
    }
    get protocol() { return this[kRecord].scheme + ':'; }
    get username() { return this[kRecord].username; }
    get password() { return this[kRecord].password; }
    get host() { var u = this[kRecord]; return u.host === null ? '' : u.port === null ? u.host : u.host + ':' + u.port; }
    get hostname() { var u = this[kRecord]; return u.host === null ? '' : u.host; }
    get port() { var u = this[kRecord]; return u.port === null ? '' : String(u.port); }
    get pathname() { return pathOf(this[kRecord]); }
    get search() { var q = this[kRecord].query; return q === null || q === '' ? '' : '?' + q; }
    set search(v) {
      var u = this[kRecord];
      v = toUSV(v);
      if (v === '') { u.query = null; this[kSearchParams][kList] = []; return; }
      if (v[0] === '?') v = v.slice(1);
      u.query = encodeSet(v, hasOwn(special, u.scheme + ':') ? 'special-query' : 'query');
      this[kSearchParams][kList] = parseForm(v);
    }
    get searchParams() { return this[kSearchParams]; }
    get hash() { var f = this[kRecord].fragment; return f === null || f === '' ? '' : '#' + f; }
    set hash(v) {
      var u = this[kRecord];
      v = toUSV(v);
      if (v === '') { u.fragment = null; return; }
      if (v[0] === '#') v = v.slice(1);
      u.fragment = encodeSet(v.replace(/[\t\n\r]/g, ''), 'fragment');
    }
    toString() { return this.href; }
    toJSON() { return this.href; }
    get [Symbol.toStringTag]() { return 'URL'; }
    [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
      var obj = { href: this.href, origin: this.origin, protocol: this.protocol, username: this.username, password: this.password, host: this.host, hostname: this.hostname, port: this.port, pathname: this.pathname, search: this.search, searchParams: this.searchParams, hash: this.hash };
      return 'URL ' + inspect(obj, options).replace(/^\{/, '{');
    }
  }
  var kSearchParams = Symbol('query');
  ['protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname'].forEach(function (k) {
    var d = Object.getOwnPropertyDescriptor(URL.prototype, k);
    d.set = function () { throw notProvided('URL#' + k + "'s setter"); };
    Object.defineProperty(URL.prototype, k, d);
  });
  ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'searchParams', 'hash', 'toString', 'toJSON'].forEach(function (k) {
    var d = Object.getOwnPropertyDescriptor(URL.prototype, k);
    d.enumerable = true;
    Object.defineProperty(URL.prototype, k, d);
  });
  ['append', 'delete', 'get', 'getAll', 'has', 'set', 'sort', 'forEach', 'keys', 'values', 'entries', 'toString', 'size'].forEach(function (k) {
    var d = Object.getOwnPropertyDescriptor(URLSearchParams.prototype, k);
    d.enumerable = true;
    Object.defineProperty(URLSearchParams.prototype, k, d);
  });

  g.URL = URL;
  g.URLSearchParams = URLSearchParams;

  function fileURLToPath(path) {
    var u = typeof path === 'string' ? new URL(path) : path;
    if (!(u instanceof URL)) {
      var e = new TypeError('The "path" argument must be of type string or an instance of URL.' + (path === undefined ? ' Received undefined' : ''));
      e.code = 'ERR_INVALID_ARG_TYPE';
      throw e;
    }
    if (u.protocol !== 'file:') {
      var e2 = new TypeError('The URL must be of scheme file');
      e2.code = 'ERR_INVALID_URL_SCHEME';
      throw e2;
    }
    if (u.hostname !== '') {
      var e3 = new TypeError('File URL host must be "localhost" or empty on linux');
      e3.code = 'ERR_INVALID_FILE_URL_HOST';
      throw e3;
    }
    var p = u.pathname;
    for (var n = 0; n < p.length; n++) {
      if (p[n] === '%') {
        var third = p.codePointAt(n + 2) | 0x20;
        if (p[n + 1] === '2' && third === 102) {
          var e4 = new TypeError('File URL path must not include encoded / characters');
          e4.code = 'ERR_INVALID_FILE_URL_PATH';
          throw e4;
        }
      }
    }
    return decodeURIComponent(p);
  }
  function pathToFileURL(filepath) {
    var resolved = filepath[0] === '/' ? filepath : g.process.cwd() + '/' + filepath;
    if (filepath[filepath.length - 1] === '/' && resolved[resolved.length - 1] !== '/') resolved += '/';
    resolved = resolved.replace(/%/g, '%25').replace(/\\/g, '%5C').replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/\t/g, '%09').replace(/#/g, '%23').replace(/\?/g, '%3F');
    return new URL('file://' + resolved);
  }
  function legacy(name) { return function () { throw notProvided("url's " + name); }; }

  return {
    URL: URL,
    URLSearchParams: URLSearchParams,
    domainToASCII: function (d) { var r = native.domainToASCII(String(d)); return r === null ? '' : r; },
    domainToUnicode: function (d) { var r = native.domainToUnicode(String(d)); return r === null ? '' : r; },
    fileURLToPath: fileURLToPath,
    pathToFileURL: pathToFileURL,
    urlToHttpOptions: function (u) {
      var o = { protocol: u.protocol, hostname: u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname, hash: u.hash, search: u.search, pathname: u.pathname, path: (u.pathname || '') + (u.search || ''), href: u.href };
      if (u.port !== '') o.port = Number(u.port);
      if (u.username || u.password) o.auth = decodeURIComponent(u.username) + ':' + decodeURIComponent(u.password);
      return o;
    },
    parse: legacy('parse'),
    format: legacy('format'),
    resolve: legacy('resolve'),
    resolveObject: legacy('resolveObject'),
    Url: legacy('Url')
  };
})
