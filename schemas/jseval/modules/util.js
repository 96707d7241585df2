// Node's util for Quarry's sandbox: inspect (Node's layout rules: depth, compact 3, breakLength
// 80, array grouping, circular references), format, promisify, callbackify,
// isDeepStrictEqual, types, inherits, deprecate and the legacy is* checks. An error's stack is
// the engine's own text, not V8's.
'use strict';
var native = require('\x00quarry-native');
var hasOwn = Object.prototype.hasOwnProperty;
var toTag = Object.prototype.toString;

var customInspect = Symbol.for('nodejs.util.inspect.custom');
var customPromisify = Symbol.for('nodejs.util.promisify.custom');
var defaults = { showHidden: false, depth: 2, colors: false, customInspect: true, showProxy: false, maxArrayLength: 100, maxStringLength: 10000, breakLength: 80, compact: 3, sorted: false, getters: false, numericSeparator: false };

function received(v) {
  if (v == null) return ' Received ' + v;
  if (typeof v === 'function') return ' Received function ' + (v.name || '<anonymous>');
  if (typeof v === 'object') return v.constructor && v.constructor.name ? ' Received an instance of ' + v.constructor.name : ' Received ' + inspect(v, { depth: -1 });
  var shown = inspect(v, { colors: false });
  if (shown.length > 28) shown = shown.slice(0, 25) + '...';
  return ' Received type ' + typeof v + ' (' + shown + ')';
}
function argType(name, expected, v) {
  var e = new TypeError('The "' + name + '" argument must be ' + expected + '.' + received(v));
  e.code = 'ERR_INVALID_ARG_TYPE';
  return e;
}

// --- inspect -------------------------------------------------------------------------------

var meta = ['\\x00', '\\x01', '\\x02', '\\x03', '\\x04', '\\x05', '\\x06', '\\x07', '\\b', '\\t', '\\n', '\\x0B', '\\f', '\\r', '\\x0E', '\\x0F',
  '\\x10', '\\x11', '\\x12', '\\x13', '\\x14', '\\x15', '\\x16', '\\x17', '\\x18', '\\x19', '\\x1A', '\\x1B', '\\x1C', '\\x1D', '\\x1E', '\\x1F'];

// strEscape quotes a string as Node does: single quotes unless the string has some and no
// double quotes (then double), or both but no backticks (then backticks).
function strEscape(str) {
  var quote = "'";
  if (str.indexOf("'") >= 0) {
    if (str.indexOf('"') < 0) quote = '"';
    else if (str.indexOf('`') < 0 && str.indexOf('${') < 0) quote = '`';
  }
  var out = '';
  for (var i = 0; i < str.length; i++) {
    var c = str.charCodeAt(i);
    var ch = str[i];
    if (ch === quote || ch === '\\') out += '\\' + ch;
    else if (c < 32) out += meta[c];
    else if (c === 0x7f) out += '\\x7F';
    else if (c >= 0xd800 && c <= 0xdfff) {
      var next = str.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) { out += ch + str[i + 1]; i++; }
      else out += '\\u' + c.toString(16).toUpperCase();
    } else out += ch;
  }
  return quote + out + quote;
}

function formatNumber(n) { return Object.is(n, -0) ? '-0' : String(n); }

function formatPrimitive(ctx, v) {
  switch (typeof v) {
    case 'string': {
      var trailer = '';
      if (v.length > ctx.maxStringLength) {
        var remaining = v.length - ctx.maxStringLength;
        v = v.slice(0, ctx.maxStringLength);
        trailer = '... ' + remaining + ' more character' + (remaining > 1 ? 's' : '');
      }
      if (ctx.compact !== true && v.length > 16 && v.length > ctx.breakLength - ctx.indentationLvl - 4) {
        return v.split(/(?<=\n)/).map(strEscape).join(' +\n' + ' '.repeat(ctx.indentationLvl + 2)) + trailer;
      }
      return strEscape(v) + trailer;
    }
    case 'number': return formatNumber(v);
    case 'bigint': return String(v) + 'n';
    case 'boolean': return String(v);
    case 'undefined': return 'undefined';
    default: return v.toString(); // symbol
  }
}

function constructorName(obj) {
  var o = obj;
  while (o !== null && o !== undefined) {
    var d = Object.getOwnPropertyDescriptor(o, 'constructor');
    if (d !== undefined && typeof d.value === 'function' && d.value.name !== '' && isInstanceof(obj, d.value)) return d.value.name;
    o = Object.getPrototypeOf(o);
  }
  return null;
}
function isInstanceof(o, C) { try { return o instanceof C; } catch (e) { return false; } }

function prefixOf(constructor, tag, fallback, size) {
  size = size === undefined ? '' : '(' + size + ')';
  if (constructor === null) {
    if (tag !== '' && fallback !== tag) return '[' + fallback + size + ': null prototype] [' + tag + '] ';
    return '[' + fallback + size + ': null prototype] ';
  }
  if (tag !== '' && constructor !== tag) return constructor + size + ' [' + tag + '] ';
  return constructor + size + ' ';
}

var keyRe = /^[a-zA-Z_][a-zA-Z_0-9]*$/;

function ownKeys(value, ctx) {
  var keys = Object.keys(value);
  var symbols = Object.getOwnPropertySymbols(value).filter(function (s) { return Object.prototype.propertyIsEnumerable.call(value, s); });
  if (ctx.showHidden) keys = Object.getOwnPropertyNames(value);
  return keys.concat(symbols);
}

function formatValue(ctx, value, recurseTimes, typedArray) {
  if (typeof value !== 'object' && typeof value !== 'function') return formatPrimitive(ctx, value);
  if (value === null) return 'null';
  if (ctx.customInspect) {
    var maybe = value[customInspect];
    if (typeof maybe === 'function' && maybe !== inspect && !(hasOwn.call(value, 'constructor') && value.constructor.prototype === value)) {
      var depth = ctx.depth === null ? null : ctx.depth - recurseTimes;
      var opts = Object.assign({}, ctx.userOptions, { depth: depth });
      var ret = maybe.call(value, depth, opts, inspect);
      if (ret !== value) {
        if (typeof ret !== 'string') return formatValue(ctx, ret, recurseTimes);
        return ret.replace(/\n/g, '\n' + ' '.repeat(ctx.indentationLvl));
      }
    }
  }
  if (ctx.seen.indexOf(value) >= 0) {
    var index = 1;
    if (ctx.circular === undefined) { ctx.circular = new Map(); ctx.circular.set(value, index); }
    else {
      index = ctx.circular.get(value);
      if (index === undefined) { index = ctx.circular.size + 1; ctx.circular.set(value, index); }
    }
    return '[Circular *' + index + ']';
  }
  return formatRaw(ctx, value, recurseTimes, typedArray);
}

function functionBase(value, constructor, tag) {
  var src = Function.prototype.toString.call(value);
  if (src.slice(0, 5) === 'class' && /^class(\s|\{)/.test(src)) {
    var b = '[class ' + (value.name || '(anonymous)');
    var sup = Object.getPrototypeOf(value);
    if (constructor !== 'Function' && constructor !== null) b += ' [' + constructor + ']';
    if (sup && sup.name) b += ' extends ' + sup.name;
    return b + ']';
  }
  var type = 'Function';
  var t = toTag.call(value);
  if (t === '[object AsyncFunction]') type = 'AsyncFunction';
  else if (t === '[object GeneratorFunction]') type = 'GeneratorFunction';
  else if (t === '[object AsyncGeneratorFunction]') type = 'AsyncGeneratorFunction';
  var base = '[' + type;
  if (constructor === null) base += ' (null prototype)';
  base += value.name === '' ? ' (anonymous)' : ': ' + value.name;
  base += ']';
  if (constructor !== type && constructor !== null) base += ' ' + constructor;
  if (tag !== '' && constructor !== tag) base += ' [' + tag + ']';
  return base;
}

function formatRaw(ctx, value, recurseTimes, typedArray) {
  var keys, protoProps;
  var constructor = constructorName(value);
  var tag = value[Symbol.toStringTag];
  if (typeof tag !== 'string' || (tag !== '' && (ctx.showHidden ? hasOwn : Object.prototype.propertyIsEnumerable).call(value, Symbol.toStringTag))) tag = '';
  var base = '', formatter = formatObjectEntries, braces, noIterator = true, i = 0;
  var extrasType = 'object';
  var objTag = toTag.call(value);

  if (Array.isArray(value)) {
    keys = ownKeys(value, ctx).filter(function (k) { return !(typeof k === 'string' && isIndex(k)); });
    var prefix = (constructor !== 'Array' || tag !== '') ? prefixOf(constructor, tag, 'Array', value.length) : '';
    braces = [prefix + '[', ']'];
    if (value.length === 0 && keys.length === 0) return braces[0] + ']';
    extrasType = 'array';
    formatter = formatArray;
  } else if (value instanceof Set || objTag === '[object Set]') {
    keys = ownKeys(value, ctx);
    var sp = prefixOf(constructor, tag, 'Set', value.size);
    formatter = formatSet;
    if (value.size === 0 && keys.length === 0) return sp + '{}';
    braces = [sp + '{', '}'];
  } else if (value instanceof Map || objTag === '[object Map]') {
    keys = ownKeys(value, ctx);
    var mp = prefixOf(constructor, tag, 'Map', value.size);
    formatter = formatMap;
    if (value.size === 0 && keys.length === 0) return mp + '{}';
    braces = [mp + '{', '}'];
  } else if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    keys = ownKeys(value, ctx).filter(function (k) { return !(typeof k === 'string' && isIndex(k)); });
    var fallback = objTag.slice(8, -1);
    var size = value.length;
    braces = [prefixOf(constructor, tag, fallback, size) + '[', ']'];
    if (value.length === 0 && keys.length === 0) return braces[0] + ']';
    formatter = formatTypedArray;
    extrasType = 'array';
  } else {
    noIterator = false;
  }
  if (!noIterator) {
    keys = ownKeys(value, ctx);
    braces = ['{', '}'];
    if (constructor === 'Object' && objTag !== '[object Arguments]' && !(value instanceof Error) && objTag !== '[object Date]' && objTag !== '[object RegExp]' && typeof value !== 'function' && !isBoxed(value) && objTag !== '[object Promise]' && objTag !== '[object WeakMap]' && objTag !== '[object WeakSet]') {
      if (tag !== '') braces[0] = prefixOf(constructor, tag, 'Object') + '{';
      if (keys.length === 0) return braces[0] + '}';
    } else if (typeof value === 'function') {
      base = functionBase(value, constructor, tag);
      if (keys.length === 0) return base;
    } else if (objTag === '[object RegExp]') {
      base = RegExp.prototype.toString.call(constructor !== null ? value : new RegExp(value));
      var rp = prefixOf(constructor, tag, 'RegExp');
      if (rp !== 'RegExp ') base = rp + base;
      if (keys.length === 0) return base;
    } else if (objTag === '[object Date]') {
      base = isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
      var dp = prefixOf(constructor, tag, 'Date');
      if (dp !== 'Date ') base = dp + base;
      if (keys.length === 0) return base;
    } else if (value instanceof Error || objTag === '[object Error]') {
      base = formatError(value, constructor, tag, ctx, keys);
      if (keys.length === 0) return base;
    } else if (objTag === '[object Arguments]') {
      braces[0] = '[Arguments] [';
      braces[1] = ']';
      extrasType = 'array';
      keys = keys.filter(function (k) { return !(typeof k === 'string' && isIndex(k)); });
      formatter = formatArray;
      if (value.length === 0 && keys.length === 0) return '[Arguments] []';
    } else if (isBoxed(value)) {
      var prim = value.valueOf();
      var t = typeof prim;
      var typeName = t === 'string' ? 'String' : t === 'number' ? 'Number' : t === 'boolean' ? 'Boolean' : t === 'bigint' ? 'BigInt' : 'Symbol';
      base = '[' + typeName;
      if (typeName !== constructor) base += constructor === null ? ' (null prototype)' : ' (' + constructor + ')';
      base += ': ' + formatPrimitive(Object.assign({}, ctx, { compact: true }), prim) + ']';
      if (t === 'string') keys = keys.filter(function (k) { return !(typeof k === 'string' && isIndex(k)); });
      if (tag !== '' && tag !== constructor) base += ' [' + tag + ']';
      if (keys.length === 0) return base;
    } else if (objTag === '[object Promise]') {
      braces[0] = prefixOf(constructor, tag, 'Promise') + '{';
      formatter = formatPromise;
    } else if (objTag === '[object WeakSet]' || objTag === '[object WeakMap]') {
      braces[0] = prefixOf(constructor, tag, objTag.slice(8, -1)) + '{';
      formatter = function () { return ['<items unknown>']; };
    } else if (objTag === '[object ArrayBuffer]') {
      braces[0] = prefixOf(constructor, tag, 'ArrayBuffer') + '{';
      formatter = formatArrayBuffer;
    } else {
      if (keys.length === 0) return prefixOf(constructor, tag, 'Object') + '{}';
      braces[0] = prefixOf(constructor, tag, 'Object') + '{';
    }
  }
  if (recurseTimes > ctx.depth && ctx.depth !== null) {
    if (constructor === null) return '[Object: null prototype]';
    return '[' + (constructor || tag || 'Object') + ']';
  }
  recurseTimes += 1;
  ctx.seen.push(value);
  ctx.currentDepth = recurseTimes;
  var output = formatter(ctx, value, recurseTimes);
  for (i = 0; i < keys.length; i++) output.push(formatProperty(ctx, value, recurseTimes, keys[i], extrasType));
  ctx.seen.pop();
  if (ctx.sorted) {
    var cmp = ctx.sorted === true ? undefined : ctx.sorted;
    if (extrasType === 'object') output = output.sort(cmp);
  }
  var res = reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value);
  var budget = ctx.budget[ctx.indentationLvl] || 0;
  var newLength = budget + res.length;
  ctx.budget[ctx.indentationLvl] = newLength;
  if (ctx.circular !== undefined) {
    var idx = ctx.circular.get(value);
    if (idx !== undefined) res = '<ref *' + idx + '> ' + res;
  }
  return res;
}

function isBoxed(v) {
  var t = toTag.call(v);
  return typeof v === 'object' && (t === '[object String]' || t === '[object Number]' || t === '[object Boolean]' || t === '[object BigInt]' || t === '[object Symbol]');
}
function isIndex(k) { return /^(0|[1-9][0-9]*)$/.test(k) && +k < 4294967295; }

function formatError(err, constructor, tag, ctx, keys) {
  var name = err.name != null ? String(err.name) : 'Error';
  var stack = err.stack ? String(err.stack) : Error.prototype.toString.call(err);
  // The message and name are part of the stack: shown there, not again as keys.
  ['name', 'message', 'stack'].forEach(function (k) {
    var i = keys.indexOf(k);
    if (i >= 0 && stack.indexOf(String(err[k])) >= 0) keys.splice(i, 1);
  });
  if (constructor === null || (name.endsWith('Error') && stack.startsWith(name) && (stack.length === name.length || stack[name.length] === ':' || stack[name.length] === '\n'))) {
    var fallback = 'Error';
    if (constructor === null) {
      var start = /^([A-Z][a-z_ A-Z0-9[\]()-]+)(?::|\n\s+at)/.exec(stack) || /^([a-z_A-Z0-9-]*Error)$/.exec(stack);
      fallback = (start && start[1]) || '';
      stack = '[' + fallback + ': null prototype]' + (fallback.length ? stack.slice(fallback.length) : ' ' + stack);
    } else if (constructor !== name && constructor.indexOf(name) >= 0 === false && name.indexOf(constructor) < 0) {
      stack = constructor + ' [' + name + ']' + stack.slice(name.length);
    }
  }
  var pos = (err.message && stack.indexOf(err.message)) || -1;
  if (pos !== -1) pos += err.message.length;
  var lines = stack.indexOf('\n    at', pos);
  if (lines === -1) stack = '[' + stack + ']';
  if (ctx.indentationLvl !== 0) stack = stack.replace(/\n/g, '\n' + ' '.repeat(ctx.indentationLvl));
  return stack;
}

function formatObjectEntries() { return []; }

function formatArray(ctx, value, recurseTimes) {
  var len = value.length;
  var max = Math.min(Math.max(0, ctx.maxArrayLength), len);
  var remaining = len - max;
  var output = [];
  for (var i = 0; i < max; i++) {
    if (!hasOwn.call(value, i)) return formatArrayWithHoles(ctx, value, recurseTimes, max, output, i);
    output.push(formatProperty(ctx, value, recurseTimes, i, 'index'));
  }
  if (remaining > 0) output.push('... ' + remaining + ' more item' + (remaining > 1 ? 's' : ''));
  return output;
}

function formatArrayWithHoles(ctx, value, recurseTimes, max, output, i) {
  var len = value.length;
  var outputLen = output.length;
  for (; i < len && outputLen < max; i++) {
    if (!hasOwn.call(value, i)) {
      var j = i + 1;
      while (j < len && !hasOwn.call(value, j)) j++;
      var holes = j - i;
      output.push('<' + holes + ' empty item' + (holes > 1 ? 's' : '') + '>');
      outputLen++;
      i = j - 1;
      continue;
    }
    output.push(formatProperty(ctx, value, recurseTimes, i, 'index'));
    outputLen++;
  }
  var remaining = len - i;
  if (outputLen >= max && remaining > 0) output.push('... ' + remaining + ' more item' + (remaining > 1 ? 's' : ''));
  return output;
}

function formatTypedArray(ctx, value, recurseTimes) {
  var len = value.length;
  var max = Math.min(Math.max(0, ctx.maxArrayLength), len);
  var output = [];
  for (var i = 0; i < max; i++) {
    var v = value[i];
    output.push(typeof v === 'bigint' ? String(v) + 'n' : formatNumber(v));
  }
  if (len > max) output.push('... ' + (len - max) + ' more item' + (len - max > 1 ? 's' : ''));
  if (ctx.showHidden) {
    ctx.indentationLvl += 2;
    ['BYTES_PER_ELEMENT', 'length', 'byteLength', 'byteOffset', 'buffer'].forEach(function (k) {
      output.push('[' + k + ']: ' + formatValue(ctx, value[k], recurseTimes, true));
    });
    ctx.indentationLvl -= 2;
  }
  return output;
}

function formatArrayBuffer(ctx, value) {
  var bytes = new Uint8Array(value);
  var hex = [];
  for (var i = 0; i < Math.min(ctx.maxArrayLength, bytes.length); i++) hex.push((bytes[i] + 0x100).toString(16).slice(1));
  var str = hex.join(' ');
  var remaining = bytes.length - ctx.maxArrayLength;
  if (remaining > 0) str += ' ... ' + remaining + ' more byte' + (remaining > 1 ? 's' : '');
  return ['[Uint8Contents]: <' + str + '>', 'byteLength: ' + formatNumber(value.byteLength)];
}

function formatSet(ctx, value, recurseTimes) {
  var output = [];
  ctx.indentationLvl += 2;
  value.forEach(function (v) { output.push(formatValue(ctx, v, recurseTimes)); });
  ctx.indentationLvl -= 2;
  return output;
}

function formatMap(ctx, value, recurseTimes) {
  var output = [];
  ctx.indentationLvl += 2;
  value.forEach(function (v, k) { output.push(formatValue(ctx, k, recurseTimes) + ' => ' + formatValue(ctx, v, recurseTimes)); });
  ctx.indentationLvl -= 2;
  return output;
}

function formatPromise(ctx, value, recurseTimes) {
  var st = native.promiseState(value);
  if (st[0] === 'pending') return ['<pending>'];
  ctx.indentationLvl += 2;
  var str = formatValue(ctx, st[1], recurseTimes);
  ctx.indentationLvl -= 2;
  return [st[0] === 'rejected' ? '<rejected> ' + str : str];
}

function formatProperty(ctx, value, recurseTimes, key, type) {
  var name, str;
  var desc = Object.getOwnPropertyDescriptor(value, key) || { value: value[key], enumerable: true };
  if (desc.value !== undefined || !('get' in desc || 'set' in desc)) {
    var diff = ctx.compact !== true || type !== 'object' ? 2 : 3;
    ctx.indentationLvl += diff;
    str = formatValue(ctx, desc.value, recurseTimes);
    if (diff === 3 && ctx.breakLength < str.length + ctx.indentationLvl) str = '\n' + ' '.repeat(ctx.indentationLvl) + str;
    ctx.indentationLvl -= diff;
  } else if (desc.get !== undefined) {
    str = desc.set !== undefined ? '[Getter/Setter]' : '[Getter]';
  } else if (desc.set !== undefined) {
    str = '[Setter]';
  } else {
    str = 'undefined';
  }
  if (type === 'index') return str;
  if (typeof key === 'symbol') name = '[' + key.toString() + ']';
  else if (key === '__proto__') name = "['__proto__']";
  else if (desc.enumerable === false) name = '[' + (keyRe.test(key) ? key : strEscape(key)) + ']';
  else if (keyRe.test(key)) name = key;
  else name = strEscape(key);
  return name + ': ' + str;
}

function isBelowBreakLength(ctx, output, start, base) {
  var total = output.length + start;
  if (total + output.length > ctx.breakLength) return false;
  for (var i = 0; i < output.length; i++) {
    total += output[i].length;
    if (total > ctx.breakLength) return false;
  }
  return base === '' || base.indexOf('\n') < 0;
}

function reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value) {
  if (ctx.compact !== true) {
    if (typeof ctx.compact === 'number' && ctx.compact >= 1) {
      var entries = output.length;
      if (extrasType === 'array' && entries > 6) output = groupArrayElements(ctx, output, value);
      if (ctx.currentDepth - recurseTimes < ctx.compact && entries === output.length) {
        var start = output.length + ctx.indentationLvl + braces[0].length + base.length + 10;
        if (isBelowBreakLength(ctx, output, start, base)) {
          var joined = output.join(', ');
          if (joined.indexOf('\n') < 0) return (base ? base + ' ' : '') + braces[0] + ' ' + joined + ' ' + braces[1];
        }
      }
    }
    var ind = '\n' + ' '.repeat(ctx.indentationLvl);
    return (base ? base + ' ' : '') + braces[0] + ind + '  ' + output.join(',' + ind + '  ') + ind + braces[1];
  }
  if (isBelowBreakLength(ctx, output, 0, base)) return braces[0] + (base ? ' ' + base : '') + ' ' + output.join(', ') + ' ' + braces[1];
  var indentation = ' '.repeat(ctx.indentationLvl);
  var ln = base === '' && braces[0].length === 1 ? ' ' : (base ? ' ' + base : '') + '\n' + indentation + '  ';
  return braces[0] + ln + output.join(',\n' + indentation + '  ') + ' ' + braces[1];
}

// groupArrayElements lays a long array's short entries out in aligned columns, as Node does.
function groupArrayElements(ctx, output, value) {
  var totalLength = 0, maxLength = 0, i = 0;
  var outputLength = output.length;
  if (ctx.maxArrayLength < output.length) outputLength--;
  var separatorSpace = 2;
  var dataLen = new Array(outputLength);
  for (; i < outputLength; i++) {
    var len = output[i].length;
    dataLen[i] = len;
    totalLength += len + separatorSpace;
    if (maxLength < len) maxLength = len;
  }
  var actualMax = maxLength + separatorSpace;
  if (actualMax * 3 + ctx.indentationLvl < ctx.breakLength && (totalLength / actualMax > 5 || maxLength <= 6)) {
    var averageBias = Math.sqrt(actualMax - totalLength / output.length);
    var biasedMax = Math.max(actualMax - 3 - averageBias, 1);
    var columns = Math.min(
      Math.round(Math.sqrt(2.5 * biasedMax * outputLength) / biasedMax),
      Math.floor((ctx.breakLength - ctx.indentationLvl) / actualMax),
      ctx.compact * 4,
      15
    );
    if (columns <= 1) return output;
    var tmp = [], maxLineLength = [];
    for (i = 0; i < columns; i++) {
      var lineLength = 0;
      for (var j = i; j < output.length; j += columns) if (dataLen[j] > lineLength) lineLength = dataLen[j];
      maxLineLength.push(lineLength + separatorSpace);
    }
    var padStart = true;
    if (value !== undefined) {
      for (i = 0; i < output.length; i++) {
        if (typeof value[i] !== 'number' && typeof value[i] !== 'bigint') { padStart = false; break; }
      }
    }
    for (i = 0; i < outputLength; i += columns) {
      var max = Math.min(i + columns, outputLength);
      var str = '';
      var k = i;
      for (; k < max - 1; k++) {
        var cell = output[k] + ', ';
        str += padStart ? cell.padStart(maxLineLength[k - i]) : cell.padEnd(maxLineLength[k - i]);
      }
      str += padStart ? output[k].padStart(maxLineLength[k - i] - separatorSpace) : output[k];
      tmp.push(str);
    }
    if (ctx.maxArrayLength < output.length) tmp.push(output[outputLength]);
    output = tmp;
  }
  return output;
}

function inspect(value, opts) {
  var ctx = { budget: {}, indentationLvl: 0, seen: [], currentDepth: 0, stylize: function (s) { return s; } };
  for (var k in defaults) ctx[k] = defaults[k];
  if (arguments.length > 2) {
    if (arguments[2] !== undefined) ctx.depth = arguments[2];
    if (arguments.length > 3 && arguments[3] !== undefined) ctx.colors = arguments[3];
  }
  if (typeof opts === 'boolean') ctx.showHidden = opts;
  else if (opts) {
    for (var key in opts) if (hasOwn.call(defaults, key) || key === 'stylize') ctx[key] = opts[key];
  }
  ctx.userOptions = opts && typeof opts === 'object' ? opts : undefined;
  if (ctx.depth === Infinity) ctx.depth = null;
  if (ctx.maxArrayLength === null) ctx.maxArrayLength = Infinity;
  if (ctx.maxStringLength === null) ctx.maxStringLength = Infinity;
  if (ctx.colors) throw notProvided('inspect with colors');
  return formatValue(ctx, value, 0);
}
inspect.custom = customInspect;
Object.defineProperty(inspect, 'defaultOptions', { get: function () { return Object.assign({}, defaults); }, set: function (o) { Object.assign(defaults, o); } });
inspect.colors = Object.assign(Object.create(null), { reset: [0, 0], bold: [1, 22], dim: [2, 22], italic: [3, 23], underline: [4, 24], inverse: [7, 27], hidden: [8, 28], strikethrough: [9, 29], black: [30, 39], red: [31, 39], green: [32, 39], yellow: [33, 39], blue: [34, 39], magenta: [35, 39], cyan: [36, 39], white: [37, 39], gray: [90, 39] });
inspect.styles = Object.assign(Object.create(null), { special: 'cyan', number: 'yellow', bigint: 'yellow', boolean: 'yellow', undefined: 'grey', null: 'bold', string: 'green', symbol: 'green', date: 'magenta', regexp: 'red', module: 'underline' });

function notProvided(what) {
  var errors = require('@strapi/utils').errors;
  return new errors.NotImplementedError("util's " + what + " is not provided by Quarry's sandbox");
}

// --- format ----------------------------------------------------------------------------------

function hasBuiltInToString(v) {
  var proto = v;
  while (proto !== null) {
    var d = Object.getOwnPropertyDescriptor(proto, 'toString');
    if (d !== undefined) return proto === Object.prototype || proto === Array.prototype || proto === Error.prototype || proto === Date.prototype || proto === RegExp.prototype || proto === Function.prototype;
    proto = Object.getPrototypeOf(proto);
  }
  return true;
}

function formatWithOptions(inspectOptions, args) {
  var first = args[0];
  var a = 0, str = '', join = '';
  if (typeof first === 'string') {
    if (args.length === 1) return first;
    var lastPos = 0, tempStr;
    for (var i = 0; i < first.length - 1; i++) {
      if (first.charCodeAt(i) !== 37) continue; // '%'
      var next = first.charCodeAt(++i);
      if (a + 1 !== args.length) {
        switch (next) {
          case 115: { // 's'
            var arg = args[++a];
            if (typeof arg === 'number') tempStr = formatNumber(arg);
            else if (typeof arg === 'bigint') tempStr = String(arg) + 'n';
            else if (typeof arg !== 'object' || arg === null || !hasBuiltInToString(arg)) tempStr = String(arg);
            else tempStr = inspect(arg, Object.assign({}, inspectOptions, { depth: 0, colors: false, compact: 3 }));
            break;
          }
          case 106: // 'j'
            try { tempStr = JSON.stringify(args[++a]); } catch (e) {
              if (e instanceof TypeError && /circular/i.test(e.message)) tempStr = '[Circular]'; else throw e;
            }
            break;
          case 100: { // 'd'
            var n = args[++a];
            if (typeof n === 'bigint') tempStr = String(n) + 'n';
            else if (typeof n === 'symbol') tempStr = 'NaN';
            else tempStr = formatNumber(Number(n));
            break;
          }
          case 79: // 'O'
            tempStr = inspect(args[++a], inspectOptions);
            break;
          case 111: // 'o'
            tempStr = inspect(args[++a], Object.assign({}, inspectOptions, { showHidden: true, showProxy: true, depth: 4 }));
            break;
          case 105: { // 'i'
            var x = args[++a];
            if (typeof x === 'bigint') tempStr = String(x) + 'n';
            else if (typeof x === 'symbol') tempStr = 'NaN';
            else tempStr = formatNumber(parseInt(x));
            break;
          }
          case 102: { // 'f'
            var f = args[++a];
            tempStr = typeof f === 'symbol' ? 'NaN' : formatNumber(parseFloat(f));
            break;
          }
          case 99: // 'c'
            a += 1;
            tempStr = '';
            break;
          case 37: // '%'
            str += first.slice(lastPos, i);
            lastPos = i + 1;
            continue;
          default:
            continue;
        }
        if (lastPos !== i - 1) str += first.slice(lastPos, i - 1);
        str += tempStr;
        lastPos = i + 1;
      } else if (next === 37) {
        str += first.slice(lastPos, i);
        lastPos = i + 1;
      }
    }
    if (lastPos !== 0) {
      a++;
      join = ' ';
      if (lastPos < first.length) str += first.slice(lastPos);
    }
  }
  while (a < args.length) {
    var value = args[a];
    str += join;
    str += typeof value !== 'string' ? inspect(value, inspectOptions) : value;
    join = ' ';
    a++;
  }
  return str;
}

function format() { return formatWithOptions(undefined, Array.prototype.slice.call(arguments)); }

// --- isDeepStrictEqual -----------------------------------------------------------------------

function isDeepStrictEqual(a, b) { return deepEqual(a, b, []); }

function deepEqual(a, b, memo) {
  if (a === b) return a !== 0 || Object.is(a, b);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return typeof a === 'number' && typeof b === 'number' && a !== a && b !== b;
  }
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  var ta = toTag.call(a);
  if (ta !== toTag.call(b)) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (ta === '[object Date]' && a.getTime() !== b.getTime() && !(a.getTime() !== a.getTime() && b.getTime() !== b.getTime())) return false;
  if (ta === '[object RegExp]' && (a.source !== b.source || a.flags !== b.flags || a.lastIndex !== b.lastIndex)) return false;
  if (a instanceof Error && (a.message !== b.message || a.name !== b.name)) return false;
  if (isBoxed(a) && !Object.is(a.valueOf(), b.valueOf())) return false;
  if (ArrayBuffer.isView(a)) {
    if (a.length !== b.length || a.byteLength !== b.byteLength) return false;
    for (var i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  }
  if (ta === '[object ArrayBuffer]') {
    if (a.byteLength !== b.byteLength) return false;
    var x = new Uint8Array(a), y = new Uint8Array(b);
    for (var j = 0; j < x.length; j++) if (x[j] !== y[j]) return false;
  }
  for (var m = 0; m < memo.length; m++) if (memo[m][0] === a && memo[m][1] === b) return true;
  memo = memo.concat([[a, b]]);
  var ka = ownEnumerable(a), kb = ownEnumerable(b);
  if (ArrayBuffer.isView(a)) { ka = ka.filter(notIndex); kb = kb.filter(notIndex); }
  if (ka.length !== kb.length) return false;
  for (var k = 0; k < ka.length; k++) {
    if (!Object.prototype.propertyIsEnumerable.call(b, ka[k])) return false;
    if (!deepEqual(a[ka[k]], b[ka[k]], memo)) return false;
  }
  if (ta === '[object Set]') {
    if (a.size !== b.size) return false;
    var rest = [];
    var ok = true;
    b.forEach(function (v) { rest.push(v); });
    a.forEach(function (v) {
      if (!ok) return;
      if (b.has(v) && (typeof v !== 'object' || v === null)) { rest.splice(rest.indexOf(v), 1); return; }
      for (var r = 0; r < rest.length; r++) if (deepEqual(v, rest[r], memo)) { rest.splice(r, 1); return; }
      ok = false;
    });
    return ok;
  }
  if (ta === '[object Map]') {
    if (a.size !== b.size) return false;
    var entries = [];
    var good = true;
    b.forEach(function (v, key) { entries.push([key, v]); });
    a.forEach(function (v, key) {
      if (!good) return;
      for (var e = 0; e < entries.length; e++) {
        if (deepEqual(key, entries[e][0], memo) && deepEqual(v, entries[e][1], memo)) { entries.splice(e, 1); return; }
      }
      good = false;
    });
    return good;
  }
  return true;
}
function notIndex(k) { return !(typeof k === 'string' && isIndex(k)); }
function ownEnumerable(o) {
  return Object.keys(o).concat(Object.getOwnPropertySymbols(o).filter(function (s) { return Object.prototype.propertyIsEnumerable.call(o, s); }));
}

// --- promisify, callbackify, inherits, deprecate -------------------------------------------

function promisify(original) {
  if (typeof original !== 'function') throw argType('original', 'of type function', original);
  if (original[customPromisify]) {
    var fn = original[customPromisify];
    if (typeof fn !== 'function') throw argType('util.promisify.custom', 'of type function', fn);
    return Object.defineProperty(fn, customPromisify, { value: fn, enumerable: false, writable: false, configurable: true });
  }
  function fnPromisified() {
    var self = this;
    var args = Array.prototype.slice.call(arguments);
    return new Promise(function (resolve, reject) {
      args.push(function (err, value) { if (err) return reject(err); resolve(value); });
      Reflect.apply(original, self, args);
    });
  }
  Object.setPrototypeOf(fnPromisified, Object.getPrototypeOf(original));
  Object.defineProperty(fnPromisified, customPromisify, { value: fnPromisified, enumerable: false, writable: false, configurable: true });
  var descriptors = Object.getOwnPropertyDescriptors(original);
  Object.keys(descriptors).forEach(function (k) { if (k !== 'length' && k !== 'name' && k !== 'prototype') Object.defineProperty(fnPromisified, k, descriptors[k]); });
  return fnPromisified;
}
promisify.custom = customPromisify;

function callbackify(original) {
  if (typeof original !== 'function') throw argType('original', 'of type function', original);
  function callbackified() {
    var args = Array.prototype.slice.call(arguments);
    var cb = args.pop();
    if (typeof cb !== 'function') throw argType('last argument', 'of type function', cb);
    var self = this;
    Promise.resolve(Reflect.apply(original, this, args)).then(function (ret) {
      process.nextTick(cb.bind(self, null, ret));
    }, function (rej) {
      if (!rej) {
        var e = new Error('Promise was rejected with a falsy value');
        e.code = 'ERR_FALSY_VALUE_REJECTION';
        e.reason = rej;
        rej = e;
      }
      process.nextTick(cb.bind(self, rej));
    });
  }
  Object.defineProperties(callbackified, { length: { value: original.length + 1 }, name: { value: original.name + 'Callbackified' } });
  return callbackified;
}

function inherits(ctor, superCtor) {
  if (ctor === undefined || ctor === null) throw argType('ctor', 'of type function', ctor);
  if (superCtor === undefined || superCtor === null) throw argType('superCtor', 'of type function', superCtor);
  if (superCtor.prototype === undefined) throw argType('superCtor.prototype', 'of type object', superCtor.prototype);
  Object.defineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
  Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
}

function deprecate(fn, msg, code) {
  if (typeof fn !== 'function') throw argType('fn', 'of type function', fn);
  function deprecated() {
    return new.target ? Reflect.construct(fn, arguments, new.target) : fn.apply(this, arguments);
  }
  Object.setPrototypeOf(deprecated, fn);
  if (fn.prototype) deprecated.prototype = fn.prototype;
  return deprecated;
}

// --- types -----------------------------------------------------------------------------------

function tagIs(name) { return function (v) { return v !== null && (typeof v === 'object' || typeof v === 'function') && toTag.call(v) === '[object ' + name + ']'; }; }
function viewIs(name) { return function (v) { return ArrayBuffer.isView(v) && toTag.call(v) === '[object ' + name + ']'; }; }
var types = {
  isDate: tagIs('Date'), isRegExp: tagIs('RegExp'), isMap: tagIs('Map'), isSet: tagIs('Set'), isWeakMap: tagIs('WeakMap'), isWeakSet: tagIs('WeakSet'),
  isPromise: tagIs('Promise'), isArrayBuffer: tagIs('ArrayBuffer'), isSharedArrayBuffer: tagIs('SharedArrayBuffer'), isDataView: tagIs('DataView'),
  isAnyArrayBuffer: function (v) { return tagIs('ArrayBuffer')(v) || tagIs('SharedArrayBuffer')(v); },
  isArrayBufferView: function (v) { return ArrayBuffer.isView(v); },
  isTypedArray: function (v) { return ArrayBuffer.isView(v) && !(v instanceof DataView); },
  isUint8Array: viewIs('Uint8Array'), isUint8ClampedArray: viewIs('Uint8ClampedArray'), isUint16Array: viewIs('Uint16Array'), isUint32Array: viewIs('Uint32Array'),
  isInt8Array: viewIs('Int8Array'), isInt16Array: viewIs('Int16Array'), isInt32Array: viewIs('Int32Array'), isFloat32Array: viewIs('Float32Array'), isFloat64Array: viewIs('Float64Array'),
  isBigInt64Array: viewIs('BigInt64Array'), isBigUint64Array: viewIs('BigUint64Array'),
  isAsyncFunction: function (v) { return typeof v === 'function' && /^\[object Async(Generator)?Function\]$/.test(toTag.call(v)); },
  isGeneratorFunction: function (v) { return typeof v === 'function' && /^\[object (Async)?GeneratorFunction\]$/.test(toTag.call(v)); },
  isGeneratorObject: tagIs('Generator'), isArgumentsObject: tagIs('Arguments'),
  isMapIterator: tagIs('Map Iterator'), isSetIterator: tagIs('Set Iterator'),
  isNativeError: function (v) { return v instanceof Error; },
  isBoxedPrimitive: function (v) { return v !== null && typeof v === 'object' && isBoxed(v); },
  isNumberObject: function (v) { return v !== null && typeof v === 'object' && toTag.call(v) === '[object Number]'; },
  isStringObject: function (v) { return v !== null && typeof v === 'object' && toTag.call(v) === '[object String]'; },
  isBooleanObject: function (v) { return v !== null && typeof v === 'object' && toTag.call(v) === '[object Boolean]'; },
  isBigIntObject: function (v) { return v !== null && typeof v === 'object' && toTag.call(v) === '[object BigInt]'; },
  isSymbolObject: function (v) { return v !== null && typeof v === 'object' && toTag.call(v) === '[object Symbol]'; },
  isModuleNamespaceObject: function () { return false; },
  isExternal: function () { return false; },
  isKeyObject: function () { return false; },
  isCryptoKey: function () { return false; }
};

module.exports = {
  format: format,
  formatWithOptions: function (inspectOptions) { return formatWithOptions(inspectOptions, Array.prototype.slice.call(arguments, 1)); },
  inspect: inspect,
  promisify: promisify,
  callbackify: callbackify,
  isDeepStrictEqual: isDeepStrictEqual,
  inherits: inherits,
  deprecate: deprecate,
  types: types,
  TextEncoder: TextEncoder,
  TextDecoder: TextDecoder,
  isArray: Array.isArray,
  isBoolean: function (v) { return typeof v === 'boolean'; },
  isBuffer: function (v) { return Buffer.isBuffer(v); },
  isDate: types.isDate,
  isError: function (v) { return toTag.call(v) === '[object Error]' || v instanceof Error; },
  isFunction: function (v) { return typeof v === 'function'; },
  isNull: function (v) { return v === null; },
  isNullOrUndefined: function (v) { return v === null || v === undefined; },
  isNumber: function (v) { return typeof v === 'number'; },
  isObject: function (v) { return v !== null && typeof v === 'object'; },
  isPrimitive: function (v) { return v === null || (typeof v !== 'object' && typeof v !== 'function'); },
  isRegExp: types.isRegExp,
  isString: function (v) { return typeof v === 'string'; },
  isSymbol: function (v) { return typeof v === 'symbol'; },
  isUndefined: function (v) { return v === undefined; },
  stripVTControlCharacters: function (s) {
    if (typeof s !== 'string') throw argType('str', 'of type string', s);
    return s.replace(/[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-ntqry=><~]))/g, '');
  },
  toUSVString: function (s) { return String(s).replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'); },
  debuglog: function () { var f = function () {}; f.enabled = false; return f; },
  log: function () {}
};
module.exports.debug = module.exports.debuglog;
