// yup 0.32.9 (the schema validator @strapi/utils 4.26 ships and re-exports as `yup`) as Quarry's
// sandbox provides it, written from its documented behaviour and checked against the real
// package (testdata/yup.cases): mixed, string, number, boolean, date, object, array, lazy,
// ref, when, test, transform, cast, validate/validateSync/isValid(Sync)/validateAt,
// ValidationError, setLocale and addMethod, with the default locale's messages.
//
// How a value goes through a schema, as yup does it: the schema is first resolved (its when()
// conditions and lazy builders, against the value, parent and context); unless strict, the value
// is cast (the schema's transforms in order, then its default for undefined; an object casts its
// fields, an array its items); then the type check, oneOf/notOneOf, then the schema's tests run
// (an object's and array's own tests first, then each field or item, with strict on since they
// are cast already). Errors gather into one ValidationError whose inner lists each failure;
// abortEarly stops at the first. Asynchronous validation runs every test through a promise, so
// the order errors come in is the order their promises settle, as in yup.
'use strict';

// ---- printing values in messages -------------------------------------------------------------

function printNumber(n) {
  if (n != +n) return 'NaN';
  return n === 0 && 1 / n < 0 ? '-0' : '' + n;
}

function printSimple(v, quote) {
  if (v == null || v === true || v === false) return '' + v;
  var t = typeof v;
  if (t === 'number') return printNumber(v);
  if (t === 'string') return quote ? '"' + v + '"' : v;
  if (t === 'function') return '[Function ' + (v.name || 'anonymous') + ']';
  if (t === 'symbol') return Symbol.prototype.toString.call(v).replace(/^Symbol\((.*)\)(.*)$/, 'Symbol($1)');
  var tag = Object.prototype.toString.call(v).slice(8, -1);
  if (tag === 'Date') return isNaN(v.getTime()) ? '' + v : v.toISOString();
  if (tag === 'Error' || v instanceof Error) return '[' + Error.prototype.toString.call(v) + ']';
  if (tag === 'RegExp') return RegExp.prototype.toString.call(v);
  return null;
}

function printValue(value, quote) {
  var simple = printSimple(value, quote);
  if (simple !== null) return simple;
  return JSON.stringify(value, function (k, v) {
    var s = printSimple(this[k], quote);
    return s !== null ? s : v;
  }, 2);
}

// ---- the default locale ----------------------------------------------------------------------

var locale = Object.create(null);
locale.mixed = {
  default: '${path} is invalid',
  required: '${path} is a required field',
  oneOf: '${path} must be one of the following values: ${values}',
  notOneOf: '${path} must not be one of the following values: ${values}',
  notType: function (p) {
    var cast = p.originalValue != null && p.originalValue !== p.value;
    var msg = p.path + ' must be a `' + p.type + '` type, but the final value was: `' + printValue(p.value, true) + '`' +
      (cast ? ' (cast from the value `' + printValue(p.originalValue, true) + '`).' : '.');
    if (p.value === null) msg += '\n If "null" is intended as an empty value be sure to mark the schema as `.nullable()`';
    return msg;
  },
  defined: '${path} must be defined'
};
locale.string = {
  length: '${path} must be exactly ${length} characters',
  min: '${path} must be at least ${min} characters',
  max: '${path} must be at most ${max} characters',
  matches: '${path} must match the following: "${regex}"',
  email: '${path} must be a valid email',
  url: '${path} must be a valid URL',
  uuid: '${path} must be a valid UUID',
  trim: '${path} must be a trimmed string',
  lowercase: '${path} must be a lowercase string',
  uppercase: '${path} must be a upper case string'
};
locale.number = {
  min: '${path} must be greater than or equal to ${min}',
  max: '${path} must be less than or equal to ${max}',
  lessThan: '${path} must be less than ${less}',
  moreThan: '${path} must be greater than ${more}',
  positive: '${path} must be a positive number',
  negative: '${path} must be a negative number',
  integer: '${path} must be an integer'
};
locale.date = { min: '${path} field must be later than ${min}', max: '${path} field must be at earlier than ${max}' };
locale.boolean = { isValue: '${path} field must be ${value}' };
locale.object = { noUnknown: '${path} field has unspecified keys: ${unknown}' };
locale.array = {
  min: '${path} field must have at least ${min} items',
  max: '${path} field must have less than or equal to ${max} items',
  length: '${path} must be have ${length} items'
};

function setLocale(custom) {
  Object.keys(custom).forEach(function (type) {
    Object.keys(custom[type]).forEach(function (k) { locale[type][k] = custom[type][k]; });
  });
}

// ---- helpers ---------------------------------------------------------------------------------

var hasOwn = function (o, k) { return o != null && Object.prototype.hasOwnProperty.call(o, k); };
var isAbsent = function (v) { return v == null; };
var toArray = function (v) { return v == null ? [] : [].concat(v); };
var isPlainObject = function (v) { return Object.prototype.toString.call(v) === '[object Object]'; };
var isSchema = function (v) { return v && v.__isYupSchema__; };

// deepClone copies a default or spec as yup's cloning does: dates, regexps, arrays, maps and
// sets anew; an object as a new object inheriting from the original, with its enumerable keys
// (inherited ones too) cloned; functions and primitives as they are.
function deepClone(src, seen, copies) {
  if (!src || typeof src !== 'object') return src;
  if (src instanceof Date) return new Date(src.getTime());
  if (src instanceof RegExp) return new RegExp(src);
  if (Array.isArray(src)) return src.map(function (x) { return deepClone(x, [], []); });
  if (src instanceof Map) return new Map(Array.from(src.entries()));
  if (src instanceof Set) return new Set(Array.from(src.values()));
  seen.push(src);
  var out = Object.create(src);
  copies.push(out);
  for (var k in src) {
    var at = seen.indexOf(src[k]);
    out[k] = at > -1 ? copies[at] : deepClone(src[k], seen, copies);
  }
  return out;
}
function clone(v) { return deepClone(v, [], []); }

// pathParts splits a property path ("a.b[0]['c']") into its keys, quotes removed.
function pathParts(path) {
  var parts = [];
  String(path).replace(/[^.^\]^[]+|(?=\[\]|\.\.)/g, function (p) {
    var m = /^\s*(['"]?)(.*?)(\1)\s*$/.exec(p);
    parts.push(m ? m[2] : p);
    return p;
  });
  return parts;
}

// walkPath calls fn(part, isBracket, isArrayIndex) for each part of a path, as reach reads
// it: a part with characters that need it is quoted, and a quoted part is a bracket part.
function walkPath(path, fn) {
  var raw = String(path).match(/[^.^\]^[]+|(?=\[\]|\.\.)/g) || [''];
  raw.forEach(function (p) {
    if (!p) return;
    var quoted = p.charAt(0) === '"' || p.charAt(0) === "'";
    if (!quoted && ((/^\d/.test(p) && !/^\d+$/.test(p)) || /[~`!#$%\^&*+=\-\[\]\\';,/{}|":<>?]/.test(p))) {
      p = '"' + p + '"';
      quoted = true;
    }
    fn(p, quoted, !quoted && /^\d+$/.test(p));
  });
}

function getter(path) {
  var parts = pathParts(path);
  return function (data) {
    var v = data;
    for (var i = 0; i < parts.length; i++) {
      if (v == null) return undefined;
      v = v[parts[i]];
    }
    return v;
  };
}

function stableSort(list, cmp) {
  var indexed = list.map(function (v, i) { return [v, i]; });
  indexed.sort(function (a, b) { return cmp(a[0], b[0]) || a[1] - b[1]; });
  for (var i = 0; i < list.length; i++) list[i] = indexed[i][0];
}

// ---- ValidationError -------------------------------------------------------------------------

function ValidationError(errorOrErrors, value, field, type) {
  var self = Reflect.construct(Error, [], new.target || ValidationError);
  self.name = 'ValidationError';
  self.value = value;
  self.path = field;
  self.type = type;
  self.errors = [];
  self.inner = [];
  toArray(errorOrErrors).forEach(function (err) {
    if (ValidationError.isError(err)) {
      // One at a time: thousands of item errors are gathered in linear time.
      err.errors.forEach(function (m) { self.errors.push(m); });
      if (err.inner.length) err.inner.forEach(function (i) { self.inner.push(i); });
      else self.inner.push(err);
    } else {
      self.errors.push(err);
    }
  });
  self.message = self.errors.length > 1 ? self.errors.length + ' errors occurred' : self.errors[0];
  return self;
}
ValidationError.prototype = Object.create(Error.prototype, { constructor: { value: ValidationError, writable: true, configurable: true } });
Object.setPrototypeOf(ValidationError, Error);
ValidationError.formatError = function (message, params) {
  var path = params.label || params.path || 'this';
  if (path !== params.path) params = Object.assign({}, params, { path: path });
  if (typeof message === 'string') return message.replace(/\$\{\s*(\w+)\s*\}/g, function (_, k) { return printValue(params[k]); });
  if (typeof message === 'function') return message(params);
  return message;
};
ValidationError.isError = function (err) { return !!err && err.name === 'ValidationError'; };

// ---- references ------------------------------------------------------------------------------

function Reference(key, options) {
  if (typeof key !== 'string') throw new TypeError('ref must be a string, got: ' + key);
  this.key = key.trim();
  if (key === '') throw new TypeError('ref must be a non-empty string');
  this.isContext = this.key[0] === '$';
  this.isValue = this.key[0] === '.';
  this.isSibling = !this.isContext && !this.isValue;
  this.path = this.key.slice(this.isContext || this.isValue ? 1 : 0);
  this.getter = this.path && getter(this.path);
  this.map = (options || {}).map;
}
Reference.prototype.__isYupRef = true;
Reference.prototype.getValue = function (value, parent, context) {
  var out = this.isContext ? context : this.isValue ? value : parent;
  if (this.getter) out = this.getter(out || {});
  if (this.map) out = this.map(out);
  return out;
};
Reference.prototype.cast = function (value, options) {
  return this.getValue(value, options && options.parent, options && options.context);
};
Reference.prototype.resolve = function () { return this; };
Reference.prototype.describe = function () { return { type: 'ref', key: this.key }; };
Reference.prototype.toString = function () { return 'Ref(' + this.key + ')'; };
Reference.isRef = function (v) { return v && v.__isYupRef; };

// A set of allowed (or refused) values, some of them references resolved at validation.
function ValueSet() { this.list = new Set(); this.refs = new Map(); }
Object.defineProperty(ValueSet.prototype, 'size', { get: function () { return this.list.size + this.refs.size; } });
ValueSet.prototype.describe = function () {
  var out = Array.from(this.list);
  this.refs.forEach(function (r) { out.push(r.describe()); });
  return out;
};
ValueSet.prototype.toArray = function () { return Array.from(this.list).concat(Array.from(this.refs.values())); };
ValueSet.prototype.add = function (v) { if (Reference.isRef(v)) this.refs.set(v.key, v); else this.list.add(v); };
ValueSet.prototype.delete = function (v) { if (Reference.isRef(v)) this.refs.delete(v.key); else this.list.delete(v); };
ValueSet.prototype.has = function (v, resolve) {
  if (this.list.has(v)) return true;
  var found = false;
  this.refs.forEach(function (r) { if (!found && resolve(r) === v) found = true; });
  return found;
};
ValueSet.prototype.clone = function () {
  var n = new ValueSet();
  n.list = new Set(this.list);
  n.refs = new Map(this.refs);
  return n;
};
ValueSet.prototype.merge = function (add, remove) {
  var n = this.clone();
  add.list.forEach(function (v) { n.add(v); });
  add.refs.forEach(function (v) { n.add(v); });
  remove.list.forEach(function (v) { n.delete(v); });
  remove.refs.forEach(function (v) { n.delete(v); });
  return n;
};

// ---- tests -----------------------------------------------------------------------------------

// makeTest turns a test's options ({ name, message, params, test }) into the function the
// schema runs: test(args, cb) calls cb(error) or cb(null).
function makeTest(config) {
  function run(args, cb) {
    var value = args.value, path = args.path === undefined ? '' : args.path, label = args.label,
      options = args.options, originalValue = args.originalValue, sync = args.sync;
    var parent = options.parent, context = options.context;
    function resolve(item) { return Reference.isRef(item) ? item.getValue(value, parent, context) : item; }
    function createError(overrides) {
      overrides = overrides || {};
      var raw = Object.assign({ value: value, originalValue: originalValue, label: label, path: overrides.path || path },
        config.params, overrides.params);
      var params = {};
      Object.keys(raw).forEach(function (k) { params[k] = resolve(raw[k]); });
      var err = new ValidationError(ValidationError.formatError(overrides.message || config.message, params), value, params.path, overrides.type || config.name);
      err.params = params;
      return err;
    }
    var ctx = { path: path, parent: parent, type: config.name, createError: createError, resolve: resolve, options: options, originalValue: originalValue };
    Object.keys(args).forEach(function (k) {
      if (['value', 'path', 'label', 'options', 'originalValue', 'sync'].indexOf(k) < 0) ctx[k] = args[k];
    });
    function settle(result) {
      if (ValidationError.isError(result)) cb(result);
      else if (!result) cb(createError());
      else cb(null, result);
    }
    if (!sync) {
      // A test that throws or rejects fails the validation with its error (yup 0.32.9 would
      // leave a rejected test's validation pending forever).
      try {
        Promise.resolve(config.test.call(ctx, value, ctx)).then(settle, function (err) { cb(err); });
      } catch (err) {
        cb(err);
      }
      return;
    }
    var result;
    try {
      result = config.test.call(ctx, value, ctx);
      if (result != null && typeof result.then === 'function') {
        throw new Error('Validation test of type: "' + ctx.type + '" returned a Promise during a synchronous validate. ' +
          'This test will finish after the validate call has returned');
      }
    } catch (err) {
      cb(err);
      return;
    }
    settle(result);
  }
  run.OPTIONS = config;
  return run;
}

// runTests runs tests (each test(args, cb)) and calls cb once: with the first error when
// endEarly, with any error that is not a ValidationError at once, else with all of them
// gathered (the nested ones first, sorted by sort, then errors given before).
function runTests(o, cb) {
  var done = false;
  function finish(err, v) { if (!done) { done = true; cb(err, v); } }
  var count = o.tests.length, nested = [], errors = o.errors || [];
  if (!count) return errors.length ? finish(new ValidationError(errors, o.value, o.path)) : finish(null, o.value);
  o.tests.forEach(function (test) {
    test(o.args, function (err) {
      if (err) {
        if (!ValidationError.isError(err)) return finish(err, o.value);
        if (o.endEarly) {
          err.value = o.value;
          return finish(err, o.value);
        }
        nested.push(err);
      }
      if (--count <= 0) {
        if (nested.length) {
          if (o.sort) stableSort(nested, o.sort);
          if (errors.length) nested.push.apply(nested, errors);
          errors = nested;
        }
        if (errors.length) return finish(new ValidationError(errors, o.value, o.path), o.value);
        finish(null, o.value);
      }
    });
  });
}

// ---- when() ----------------------------------------------------------------------------------

function Condition(refs, options) {
  this.refs = refs;
  if (typeof options === 'function') {
    this.fn = options;
    return;
  }
  if (!hasOwn(options, 'is')) throw new TypeError('`is:` is required for `when()` conditions');
  if (!options.then && !options.otherwise) throw new TypeError('either `then:` or `otherwise:` is required for `when()` conditions');
  var is = options.is, then = options.then, otherwise = options.otherwise;
  var check = typeof is === 'function' ? is : function () {
    return Array.prototype.every.call(arguments, function (v) { return v === is; });
  };
  this.fn = function () {
    var args = Array.prototype.slice.call(arguments);
    var opts = args.pop(), schema = args.pop();
    var branch = check.apply(undefined, args) ? then : otherwise;
    if (!branch) return undefined;
    if (typeof branch === 'function') return branch(schema);
    return schema.concat(branch.resolve(opts));
  };
}
Condition.prototype.resolve = function (base, options) {
  var values = this.refs.map(function (r) { return r.getValue(options && options.value, options && options.parent, options && options.context); });
  var schema = this.fn.apply(base, values.concat(base, options));
  if (schema === undefined || schema === base) return base;
  if (!isSchema(schema)) throw new TypeError('conditions must return a schema object');
  return schema.resolve(options);
};

// ---- the base schema (mixed) -----------------------------------------------------------------

class BaseSchema {
  constructor(options) {
    this.deps = [];
    this.conditions = [];
    this._whitelist = new ValueSet();
    this._blacklist = new ValueSet();
    this.exclusiveTests = Object.create(null);
    this.tests = [];
    this.transforms = [];
    this.withMutation(() => { this.typeError(locale.mixed.notType); });
    this.type = (options && options.type) || 'mixed';
    this.spec = Object.assign({ strip: false, strict: false, abortEarly: true, recursive: true, nullable: false, presence: 'optional' },
      options && options.spec);
  }

  get _type() { return this.type; }

  _typeCheck() { return true; }

  clone(spec) {
    if (this._mutate) {
      if (spec) Object.assign(this.spec, spec);
      return this;
    }
    var next = Object.create(Object.getPrototypeOf(this));
    next.type = this.type;
    next._typeError = this._typeError;
    next._whitelistError = this._whitelistError;
    next._blacklistError = this._blacklistError;
    next._whitelist = this._whitelist.clone();
    next._blacklist = this._blacklist.clone();
    next.exclusiveTests = Object.assign({}, this.exclusiveTests);
    next.deps = this.deps.slice();
    next.conditions = this.conditions.slice();
    next.tests = this.tests.slice();
    next.transforms = this.transforms.slice();
    next.spec = clone(Object.assign({}, this.spec, spec));
    return next;
  }

  label(label) {
    var next = this.clone();
    next.spec.label = label;
    return next;
  }

  meta() {
    if (arguments.length === 0) return this.spec.meta;
    var next = this.clone();
    next.spec.meta = Object.assign(next.spec.meta || {}, arguments[0]);
    return next;
  }

  withMutation(fn) {
    var before = this._mutate;
    this._mutate = true;
    var out = fn(this);
    this._mutate = before;
    return out;
  }

  concat(schema) {
    if (!schema || schema === this) return this;
    if (schema.type !== this.type && this.type !== 'mixed') {
      throw new TypeError("You cannot `concat()` schema's of different types: " + this.type + ' and ' + schema.type);
    }
    var base = this, combined = schema.clone();
    combined.spec = Object.assign({}, base.spec, combined.spec);
    combined._typeError = combined._typeError || base._typeError;
    combined._whitelistError = combined._whitelistError || base._whitelistError;
    combined._blacklistError = combined._blacklistError || base._blacklistError;
    combined._whitelist = base._whitelist.merge(schema._whitelist, schema._blacklist);
    combined._blacklist = base._blacklist.merge(schema._blacklist, schema._whitelist);
    combined.tests = base.tests;
    combined.exclusiveTests = base.exclusiveTests;
    combined.withMutation(function (next) {
      schema.tests.forEach(function (t) { next.test(t.OPTIONS); });
    });
    return combined;
  }

  isType(v) {
    if (this.spec.nullable && v === null) return true;
    return this._typeCheck(v);
  }

  resolve(options) {
    var schema = this;
    if (schema.conditions.length) {
      var conditions = schema.conditions;
      schema = schema.clone();
      schema.conditions = [];
      schema = conditions.reduce(function (s, c) { return c.resolve(s, options); }, schema);
      schema = schema.resolve(options);
    }
    return schema;
  }

  cast(value, options) {
    options = options || {};
    var schema = this.resolve(Object.assign({ value: value }, options));
    var result = schema._cast(value, options);
    if (value !== undefined && options.assert !== false && schema.isType(result) !== true) {
      var fv = printValue(value), fr = printValue(result);
      throw new TypeError('The value of ' + (options.path || 'field') + ' could not be cast to a value ' +
        'that satisfies the schema type: "' + schema._type + '". \n\n' + 'attempted value: ' + fv + ' \n' +
        (fr !== fv ? 'result of cast: ' + fr : ''));
    }
    return result;
  }

  _cast(raw) {
    var self = this;
    var value = raw === undefined ? raw : this.transforms.reduce(function (v, fn) { return fn.call(self, v, raw, self); }, raw);
    if (value === undefined) value = this.getDefault();
    return value;
  }

  _validate(raw, options, cb) {
    options = options || {};
    var sync = options.sync, path = options.path, from = options.from || [];
    var originalValue = options.originalValue === undefined ? raw : options.originalValue;
    var strict = options.strict === undefined ? this.spec.strict : options.strict;
    var abortEarly = options.abortEarly === undefined ? this.spec.abortEarly : options.abortEarly;
    var value = raw;
    if (!strict) value = this._cast(value, Object.assign({ assert: false }, options));
    var args = { value: value, path: path, options: options, originalValue: originalValue, schema: this, label: this.spec.label, sync: sync, from: from };
    var first = [];
    if (this._typeError) first.push(this._typeError);
    if (this._whitelistError) first.push(this._whitelistError);
    if (this._blacklistError) first.push(this._blacklistError);
    var self = this;
    runTests({ args: args, value: value, path: path, sync: sync, tests: first, endEarly: abortEarly }, function (err) {
      if (err) return void cb(err, value);
      runTests({ tests: self.tests, args: args, path: path, sync: sync, value: value, endEarly: abortEarly }, cb);
    });
  }

  validate(value, options, maybeCb) {
    var schema = this.resolve(Object.assign({}, options, { value: value }));
    if (typeof maybeCb === 'function') return schema._validate(value, options, maybeCb);
    return new Promise(function (resolve, reject) {
      schema._validate(value, options, function (err, v) { if (err) reject(err); else resolve(v); });
    });
  }

  validateSync(value, options) {
    var schema = this.resolve(Object.assign({}, options, { value: value }));
    var result;
    schema._validate(value, Object.assign({}, options, { sync: true }), function (err, v) {
      if (err) throw err;
      result = v;
    });
    return result;
  }

  isValid(value, options) {
    return this.validate(value, options).then(function () { return true; }, function (err) {
      if (ValidationError.isError(err)) return false;
      throw err;
    });
  }

  isValidSync(value, options) {
    try {
      this.validateSync(value, options);
      return true;
    } catch (err) {
      if (ValidationError.isError(err)) return false;
      throw err;
    }
  }

  _getDefault() {
    var d = this.spec.default;
    if (d == null) return d;
    return typeof d === 'function' ? d.call(this) : clone(d);
  }

  getDefault(options) { return this.resolve(options || {})._getDefault(); }

  default(def) {
    if (arguments.length === 0) return this._getDefault();
    return this.clone({ default: def });
  }

  strict(isStrict) {
    var next = this.clone();
    next.spec.strict = isStrict === undefined ? true : isStrict;
    return next;
  }

  _isPresent(value) { return value != null; }

  defined(message) {
    return this.test({ message: message === undefined ? locale.mixed.defined : message, name: 'defined', exclusive: true,
      test: function (v) { return v !== undefined; } });
  }

  required(message) {
    if (message === undefined) message = locale.mixed.required;
    return this.clone({ presence: 'required' }).withMutation(function (s) {
      return s.test({ message: message, name: 'required', exclusive: true, test: function (v) { return this.schema._isPresent(v); } });
    });
  }

  notRequired() {
    var next = this.clone({ presence: 'optional' });
    next.tests = next.tests.filter(function (t) { return t.OPTIONS.name !== 'required'; });
    return next;
  }

  nullable(isNullable) { return this.clone({ nullable: isNullable !== false }); }

  transform(fn) {
    var next = this.clone();
    next.transforms.push(fn);
    return next;
  }

  // test(fn) | test(name, fn) | test(name, message, fn) | test({ name, message, test, params, exclusive }).
  // An exclusive test replaces the tests of its name; a test of the same name and function
  // replaces itself.
  test() {
    var opts;
    if (arguments.length === 1) opts = typeof arguments[0] === 'function' ? { test: arguments[0] } : arguments[0];
    else if (arguments.length === 2) opts = { name: arguments[0], test: arguments[1] };
    else opts = { name: arguments[0], message: arguments[1], test: arguments[2] };
    if (opts.message === undefined) opts.message = locale.mixed.default;
    if (typeof opts.test !== 'function') throw new TypeError('`test` is a required parameters');
    var next = this.clone();
    var run = makeTest(opts);
    var exclusive = opts.exclusive || (opts.name && next.exclusiveTests[opts.name] === true);
    if (opts.exclusive && !opts.name) throw new TypeError('Exclusive tests must provide a unique `name` identifying the test');
    if (opts.name) next.exclusiveTests[opts.name] = !!opts.exclusive;
    next.tests = next.tests.filter(function (t) {
      if (t.OPTIONS.name === opts.name) {
        if (exclusive) return false;
        if (t.OPTIONS.test === run.OPTIONS.test) return false;
      }
      return true;
    });
    next.tests.push(run);
    return next;
  }

  when(keys, options) {
    if (!Array.isArray(keys) && typeof keys !== 'string') {
      options = keys;
      keys = '.';
    }
    var next = this.clone();
    var deps = toArray(keys).map(function (k) { return new Reference(k); });
    deps.forEach(function (d) { if (d.isSibling) next.deps.push(d.key); });
    next.conditions.push(new Condition(deps, options));
    return next;
  }

  typeError(message) {
    var next = this.clone();
    next._typeError = makeTest({ message: message, name: 'typeError', test: function (v) {
      if (v !== undefined && !this.schema.isType(v)) return this.createError({ params: { type: this.schema._type } });
      return true;
    } });
    return next;
  }

  oneOf(enums, message) {
    if (message === undefined) message = locale.mixed.oneOf;
    var next = this.clone();
    enums.forEach(function (v) { next._whitelist.add(v); next._blacklist.delete(v); });
    next._whitelistError = makeTest({ message: message, name: 'oneOf', test: function (v) {
      if (v === undefined) return true;
      var valid = this.schema._whitelist;
      return valid.has(v, this.resolve) ? true : this.createError({ params: { values: valid.toArray().join(', ') } });
    } });
    return next;
  }

  notOneOf(enums, message) {
    if (message === undefined) message = locale.mixed.notOneOf;
    var next = this.clone();
    enums.forEach(function (v) { next._blacklist.add(v); next._whitelist.delete(v); });
    next._blacklistError = makeTest({ message: message, name: 'notOneOf', test: function (v) {
      var invalid = this.schema._blacklist;
      if (invalid.has(v, this.resolve)) return this.createError({ params: { values: invalid.toArray().join(', ') } });
      return true;
    } });
    return next;
  }

  strip(strip) {
    var next = this.clone();
    next.spec.strip = strip === undefined ? true : strip;
    return next;
  }

  describe() {
    var next = this.clone();
    return {
      meta: next.spec.meta,
      label: next.spec.label,
      type: next.type,
      oneOf: next._whitelist.describe(),
      notOneOf: next._blacklist.describe(),
      tests: next.tests.map(function (t) { return { name: t.OPTIONS.name, params: t.OPTIONS.params }; })
        .filter(function (n, i, list) { return list.findIndex(function (c) { return c.name === n.name; }) === i; })
    };
  }
}
BaseSchema.prototype.__isYupSchema__ = true;
['validate', 'validateSync'].forEach(function (method) {
  BaseSchema.prototype[method + 'At'] = function (path, value, options) {
    options = options || {};
    var at = getIn(this, path, value, options.context);
    return at.schema[method](at.parent && at.parent[at.parentPath], Object.assign({}, options, { parent: at.parent, path: path }));
  };
});
BaseSchema.prototype.equals = BaseSchema.prototype.is = BaseSchema.prototype.oneOf;
BaseSchema.prototype.not = BaseSchema.prototype.nope = BaseSchema.prototype.notOneOf;
BaseSchema.prototype.optional = BaseSchema.prototype.notRequired;

var MixedSchema = BaseSchema;
function mixed() { return new MixedSchema(); }
mixed.prototype = MixedSchema.prototype;

// ---- boolean ---------------------------------------------------------------------------------

class BooleanSchema extends BaseSchema {
  constructor() {
    super({ type: 'boolean' });
    this.withMutation(() => {
      this.transform(function (v) {
        if (!this.isType(v)) {
          if (/^(true|1)$/i.test(String(v))) return true;
          if (/^(false|0)$/i.test(String(v))) return false;
        }
        return v;
      });
    });
  }
  _typeCheck(v) {
    if (v instanceof Boolean) v = v.valueOf();
    return typeof v === 'boolean';
  }
  isTrue(message) { return this._isValue(true, message); }
  isFalse(message) { return this._isValue(false, message); }
  _isValue(want, message) {
    return this.test({ message: message === undefined ? locale.boolean.isValue : message, name: 'is-value', exclusive: true,
      params: { value: String(want) }, test: function (v) { return isAbsent(v) || v === want; } });
  }
}
function boolean() { return new BooleanSchema(); }
boolean.prototype = BooleanSchema.prototype;

// ---- string ----------------------------------------------------------------------------------

// The email and URL patterns yup checks with, composed from their parts (RFC 5322's dot-atom
// and quoted local parts; hosts of dot-separated labels or IPv4 addresses). yup's are
// case-insensitive: here both cases are spelled out instead, since folding the classes' large
// Unicode ranges makes each pattern slow to compile (the same strings match: the letters those
// ranges hold fold only among themselves).
var uc = '\\u00A0-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFEF'; // the Unicode letters both accept
var alnum = '[a-zA-Z\\d' + uc + ']', alpha = '[a-zA-Z' + uc + ']', inner = '[a-zA-Z\\d\\-._~' + uc + ']';
var label = '(?:' + alnum + '|' + alnum + inner + '*' + alnum + ')';
var topLabel = '(?:' + alpha + '|' + alpha + inner + '*' + alpha + ')';
var atext = "[a-zA-Z\\d!#$%&'*+\\-/=?^_`{|}~" + uc + ']';
var fws = '(?:(?:[\\x20\\x09]*\\x0d\\x0a)?[\\x20\\x09]+)';
var qtext = '[\\x01-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f\\x21\\x23-\\x5b\\x5d-\\x7e' + uc + ']';
var qpair = '\\\\[\\x01-\\x09\\x0b\\x0c\\x0d-\\x7f' + uc + ']';
var localPart = '(?:' + atext + '+(?:\\.' + atext + '+)*|"(?:' + fws + '?(?:' + qtext + '|' + qpair + '))*' + fws + '?")';
var rEmail = new RegExp('^' + localPart + '@(?:' + label + '\\.)+' + topLabel + '$');
var hexByte = '%[\\da-fA-F]{2}';
var pchar = "(?:[a-zA-Z\\d\\-._~" + uc + "]|" + hexByte + "|[!$&'()*+,;=]|:|@)";
var octet = '(?:\\d|[1-9]\\d|1\\d\\d|2[0-4]\\d|25[0-5])';
var userinfo = "(?:(?:[a-zA-Z\\d\\-._~" + uc + "]|" + hexByte + "|[!$&'()*+,;=]|:)*@)?";
var host = '(?:' + octet + '\\.' + octet + '\\.' + octet + '\\.' + octet + '|(?:' + label + '\\.)+' + topLabel + '\\.?)';
var rUrl = new RegExp('^(?:(?:[hH][tT][tT][pP][sS]?|[fF][tT][pP]):)?\\/\\/' + userinfo + host + '(?::\\d*)?' +
  '(?:\\/(?:' + pchar + '+(?:\\/' + pchar + '*)*)?)?' +
  '(?:\\?(?:' + pchar + '|[\\uE000-\\uF8FF]|\\/|\\?)*)?' +
  '(?:#(?:' + pchar + '|\\/|\\?)*)?$');
var rUUID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|00000000-0000-0000-0000-000000000000)$/i;
var plainObjectString = {}.toString();

class StringSchema extends BaseSchema {
  constructor() {
    super({ type: 'string' });
    this.withMutation(() => {
      this.transform(function (v) {
        if (this.isType(v)) return v;
        if (Array.isArray(v)) return v;
        var s = v != null && v.toString ? v.toString() : v;
        return s === plainObjectString ? v : s;
      });
    });
  }
  _typeCheck(v) {
    if (v instanceof String) v = v.valueOf();
    return typeof v === 'string';
  }
  _isPresent(v) { return super._isPresent(v) && !!v.length; }
  length(length, message) {
    return this.test({ message: message === undefined ? locale.string.length : message, name: 'length', exclusive: true, params: { length: length },
      test: function (v) { return isAbsent(v) || v.length === this.resolve(length); } });
  }
  min(min, message) {
    return this.test({ message: message === undefined ? locale.string.min : message, name: 'min', exclusive: true, params: { min: min },
      test: function (v) { return isAbsent(v) || v.length >= this.resolve(min); } });
  }
  max(max, message) {
    return this.test({ name: 'max', exclusive: true, message: message === undefined ? locale.string.max : message, params: { max: max },
      test: function (v) { return isAbsent(v) || v.length <= this.resolve(max); } });
  }
  matches(regex, options) {
    var excludeEmpty = false, message, name;
    if (options) {
      if (typeof options === 'object') {
        excludeEmpty = options.excludeEmptyString === undefined ? false : options.excludeEmptyString;
        message = options.message;
        name = options.name;
      } else {
        message = options;
      }
    }
    return this.test({ name: name || 'matches', message: message || locale.string.matches, params: { regex: regex },
      test: function (v) { return isAbsent(v) || (v === '' && excludeEmpty) || v.search(regex) !== -1; } });
  }
  email(message) { return this.matches(rEmail, { name: 'email', message: message === undefined ? locale.string.email : message, excludeEmptyString: true }); }
  url(message) { return this.matches(rUrl, { name: 'url', message: message === undefined ? locale.string.url : message, excludeEmptyString: true }); }
  uuid(message) { return this.matches(rUUID, { name: 'uuid', message: message === undefined ? locale.string.uuid : message, excludeEmptyString: false }); }
  ensure() { return this.default('').transform(function (v) { return v === null ? '' : v; }); }
  trim(message) {
    return this.transform(function (v) { return v != null ? v.trim() : v; })
      .test({ message: message === undefined ? locale.string.trim : message, name: 'trim', test: function (v) { return isAbsent(v) || v === v.trim(); } });
  }
  lowercase(message) {
    return this.transform(function (v) { return !isAbsent(v) ? v.toLowerCase() : v; })
      .test({ message: message === undefined ? locale.string.lowercase : message, name: 'string_case', exclusive: true,
        test: function (v) { return isAbsent(v) || v === v.toLowerCase(); } });
  }
  uppercase(message) {
    return this.transform(function (v) { return !isAbsent(v) ? v.toUpperCase() : v; })
      .test({ message: message === undefined ? locale.string.uppercase : message, name: 'string_case', exclusive: true,
        test: function (v) { return isAbsent(v) || v === v.toUpperCase(); } });
  }
}
function string() { return new StringSchema(); }
string.prototype = StringSchema.prototype;

// ---- number ----------------------------------------------------------------------------------

class NumberSchema extends BaseSchema {
  constructor() {
    super({ type: 'number' });
    this.withMutation(() => {
      this.transform(function (v) {
        var parsed = v;
        if (typeof parsed === 'string') {
          parsed = parsed.replace(/\s/g, '');
          if (parsed === '') return NaN;
          parsed = +parsed; // not parseFloat: "12abc" is not a number
        }
        if (this.isType(parsed)) return parsed;
        return parseFloat(parsed);
      });
    });
  }
  _typeCheck(v) {
    if (v instanceof Number) v = v.valueOf();
    return typeof v === 'number' && v == +v;
  }
  _bound(name, key, limit, message, holds) {
    var params = {};
    params[key] = limit;
    return this.test({ message: message, name: name, exclusive: true, params: params,
      test: function (v) { return isAbsent(v) || holds(v, this.resolve(limit)); } });
  }
  min(min, message) { return this._bound('min', 'min', min, message === undefined ? locale.number.min : message, function (v, l) { return v >= l; }); }
  max(max, message) { return this._bound('max', 'max', max, message === undefined ? locale.number.max : message, function (v, l) { return v <= l; }); }
  lessThan(less, message) { return this._bound('max', 'less', less, message === undefined ? locale.number.lessThan : message, function (v, l) { return v < l; }); }
  moreThan(more, message) { return this._bound('min', 'more', more, message === undefined ? locale.number.moreThan : message, function (v, l) { return v > l; }); }
  positive(message) { return this.moreThan(0, message === undefined ? locale.number.positive : message); }
  negative(message) { return this.lessThan(0, message === undefined ? locale.number.negative : message); }
  integer(message) {
    return this.test({ name: 'integer', message: message === undefined ? locale.number.integer : message,
      test: function (v) { return isAbsent(v) || Number.isInteger(v); } });
  }
  truncate() { return this.transform(function (v) { return !isAbsent(v) ? v | 0 : v; }); }
  round(method) {
    var avail = ['ceil', 'floor', 'round', 'trunc'];
    method = (method && method.toLowerCase()) || 'round';
    if (method === 'trunc') return this.truncate();
    if (avail.indexOf(method.toLowerCase()) === -1) throw new TypeError('Only valid options for round() are: ' + avail.join(', '));
    return this.transform(function (v) { return !isAbsent(v) ? Math[method](v) : v; });
  }
}
function number() { return new NumberSchema(); }
number.prototype = NumberSchema.prototype;

// ---- date ------------------------------------------------------------------------------------

// parseIsoDate reads ISO 8601 dates leniently as yup does: missing month and day are 1, a
// fraction beyond milliseconds is cut, no zone means local time; anything else goes to
// Date.parse.
function parseIsoDate(s) {
  var m = /^(\d{4}|[+\-]\d{6})(?:-?(\d{2})(?:-?(\d{2}))?)?(?:[ T]?(\d{2}):?(\d{2})(?::?(\d{2})(?:[,\.](\d{1,}))?)?(?:(Z)|([+\-])(\d{2})(?::?(\d{2}))?)?)?$/.exec(s);
  if (!m) return Date.parse(s);
  var n = function (x) { return +x || 0; };
  var year = n(m[1]), month = (+m[2] || 1) - 1, day = +m[3] || 1, h = n(m[4]), mi = n(m[5]), sec = n(m[6]);
  var ms = m[7] ? String(m[7]).substr(0, 3) : 0;
  if (!m[8] && !m[9]) return +new Date(year, month, day, h, mi, sec, ms);
  var offset = 0;
  if (m[8] !== 'Z' && m[9] !== undefined) {
    offset = n(m[10]) * 60 + n(m[11]);
    if (m[9] === '+') offset = -offset;
  }
  return Date.UTC(year, month, day, h, mi + offset, sec, ms);
}

var invalidDate = new Date('');
class DateSchema extends BaseSchema {
  constructor() {
    super({ type: 'date' });
    this.withMutation(() => {
      this.transform(function (v) {
        if (this.isType(v)) return v;
        v = parseIsoDate(v);
        return !isNaN(v) ? new Date(v) : invalidDate;
      });
    });
  }
  _typeCheck(v) { return Object.prototype.toString.call(v) === '[object Date]' && !isNaN(v.getTime()); }
  prepareParam(ref, name) {
    if (Reference.isRef(ref)) return ref;
    var cast = this.cast(ref);
    if (!this._typeCheck(cast)) throw new TypeError('`' + name + '` must be a Date or a value that can be `cast()` to a Date');
    return cast;
  }
  min(min, message) {
    var limit = this.prepareParam(min, 'min');
    return this.test({ message: message === undefined ? locale.date.min : message, name: 'min', exclusive: true, params: { min: min },
      test: function (v) { return isAbsent(v) || v >= this.resolve(limit); } });
  }
  max(max, message) {
    var limit = this.prepareParam(max, 'max');
    return this.test({ message: message === undefined ? locale.date.max : message, name: 'max', exclusive: true, params: { max: max },
      test: function (v) { return isAbsent(v) || v <= this.resolve(limit); } });
  }
}
DateSchema.INVALID_DATE = invalidDate;
function date() { return new DateSchema(); }
date.prototype = DateSchema.prototype;
date.INVALID_DATE = invalidDate;

// ---- object ----------------------------------------------------------------------------------

// byKeyOrder orders errors by the first key (in the shape's order) their path contains, as
// a substring: the order yup reports an object's field errors in.
function byKeyOrder(keys) {
  function at(err) {
    for (var i = 0; i < keys.length; i++) if (err.path != null && String(err.path).indexOf(keys[i]) !== -1) return i;
    return Infinity;
  }
  return function (a, b) { return at(a) - at(b); };
}

// fieldOrder is the order an object casts and validates its fields in: a field after those
// its refs and when() conditions read (a cycle throws), and otherwise the shape's keys last
// first, as yup's topological sort leaves them.
function fieldOrder(fields, excludes) {
  var nodes = [], edges = [];
  function addNode(depPath, key) {
    var node = pathParts(depPath)[0];
    if (nodes.indexOf(node) < 0) nodes.push(node);
    if (excludes.indexOf(key + '-' + node) < 0) edges.push([key, node]);
  }
  Object.keys(fields).forEach(function (key) {
    var f = fields[key];
    if (nodes.indexOf(key) < 0) nodes.push(key);
    if (Reference.isRef(f) && f.isSibling) addNode(f.path, key);
    else if (isSchema(f) && 'deps' in f) f.deps.forEach(function (p) { addNode(p, key); });
  });
  var index = new Map(), out = new Map();
  nodes.forEach(function (n, i) { index.set(n, i); });
  edges.forEach(function (e) {
    if (!index.has(e[0]) || !index.has(e[1])) throw new Error('Unknown node. There is an unknown node in the supplied edges.');
    if (!out.has(e[0])) out.set(e[0], new Set());
    out.get(e[0]).add(e[1]);
  });
  var sorted = new Array(nodes.length), cursor = nodes.length, visited = {};
  function visit(node, i, path) {
    if (path.has(node)) {
      var rep;
      try { rep = ', node was:' + JSON.stringify(node); } catch (e) { rep = ''; }
      throw new Error('Cyclic dependency' + rep);
    }
    if (visited[i]) return;
    visited[i] = true;
    var next = Array.from(out.get(node) || []);
    if (next.length) {
      path.add(node);
      for (var j = next.length - 1; j >= 0; j--) visit(next[j], index.get(next[j]), path);
      path.delete(node);
    }
    sorted[--cursor] = node;
  }
  for (var i = nodes.length - 1; i >= 0; i--) if (!visited[i]) visit(nodes[i], i, new Set());
  return sorted.reverse();
}

var unsorted = byKeyOrder([]);

class ObjectSchema extends BaseSchema {
  constructor(spec) {
    super({ type: 'object' });
    this.fields = Object.create(null);
    this._sortErrors = unsorted;
    this._nodes = [];
    this._excludedEdges = [];
    this.withMutation(() => {
      this.transform(function (v) {
        if (typeof v === 'string') {
          try { v = JSON.parse(v); } catch (e) { v = null; }
        }
        return this.isType(v) ? v : null;
      });
      if (spec) this.shape(spec);
    });
  }
  _typeCheck(v) { return isPlainObject(v) || typeof v === 'function'; }
  _cast(raw, options) {
    options = options || {};
    var value = super._cast(raw, options);
    if (value === undefined) return this.getDefault();
    if (!this._typeCheck(value)) return value;
    var fields = this.fields, nodes = this._nodes;
    var strip = options.stripUnknown != null ? options.stripUnknown : this.spec.noUnknown;
    var props = nodes.concat(Object.keys(value).filter(function (k) { return nodes.indexOf(k) === -1; }));
    var out = {};
    var inner = Object.assign({}, options, { parent: out, __validating: options.__validating || false });
    var changed = false;
    props.forEach(function (prop) {
      var field = fields[prop];
      if (field) {
        inner.path = (options.path ? options.path + '.' : '') + prop;
        field = field.resolve({ value: value[prop], context: options.context, parent: out });
        var spec = 'spec' in field ? field.spec : undefined;
        if (spec && spec.strip) {
          changed = changed || prop in value;
          return;
        }
        var v = !options.__validating || !(spec && spec.strict) ? field.cast(value[prop], inner) : value[prop];
        if (v !== undefined) out[prop] = v;
      } else if (hasOwn(value, prop) && !strip) {
        out[prop] = value[prop];
      }
      if (out[prop] !== value[prop]) changed = true;
    });
    return changed ? out : value;
  }
  _validate(raw, opts, callback) {
    opts = opts || {};
    var errors = [], self = this;
    var sync = opts.sync;
    var originalValue = opts.originalValue === undefined ? raw : opts.originalValue;
    var abortEarly = opts.abortEarly === undefined ? this.spec.abortEarly : opts.abortEarly;
    var recursive = opts.recursive === undefined ? this.spec.recursive : opts.recursive;
    var from = [{ schema: this, value: originalValue }].concat(opts.from || []);
    opts.__validating = true;
    opts.originalValue = originalValue;
    opts.from = from;
    super._validate(raw, opts, function (err, value) {
      if (err) {
        if (!ValidationError.isError(err) || abortEarly) return void callback(err, value);
        errors.push(err);
      }
      if (!recursive || !isPlainObject(value)) return void callback(errors[0] || null, value);
      originalValue = originalValue || value;
      var tests = self._nodes.map(function (key) {
        return function (_, cb) {
          var path = key.indexOf('.') === -1 ? (opts.path ? opts.path + '.' : '') + key : (opts.path || '') + '["' + key + '"]';
          var field = self.fields[key];
          if (field && 'validate' in field) {
            field.validate(value[key], Object.assign({}, opts, { path: path, from: from, strict: true, parent: value, originalValue: originalValue[key] }), cb);
            return;
          }
          cb(null);
        };
      });
      runTests({ sync: sync, tests: tests, value: value, errors: errors, endEarly: abortEarly, sort: self._sortErrors, path: opts.path }, callback);
    });
  }
  clone(spec) {
    var next = super.clone(spec);
    next.fields = Object.assign({}, this.fields);
    next._nodes = this._nodes;
    next._excludedEdges = this._excludedEdges;
    next._sortErrors = this._sortErrors;
    return next;
  }
  concat(schema) {
    var next = super.concat(schema);
    var nextFields = next.fields;
    Object.keys(this.fields).forEach(function (k) {
      var mine = this.fields[k], target = nextFields[k];
      if (target === undefined) nextFields[k] = mine;
      else if (target instanceof BaseSchema && mine instanceof BaseSchema) nextFields[k] = mine.concat(target);
    }, this);
    return next.withMutation(function () { return next.shape(nextFields); });
  }
  getDefaultFromShape() {
    var out = {}, fields = this.fields;
    this._nodes.forEach(function (k) {
      var f = fields[k];
      out[k] = 'default' in f ? f.getDefault() : undefined;
    });
    return out;
  }
  _getDefault() {
    if ('default' in this.spec) return super._getDefault();
    if (!this._nodes.length) return undefined;
    return this.getDefaultFromShape();
  }
  shape(additions, excludes) {
    excludes = excludes || [];
    var next = this.clone();
    next.fields = Object.assign(next.fields, additions);
    next._sortErrors = byKeyOrder(Object.keys(next.fields));
    if (excludes.length) {
      if (!Array.isArray(excludes[0])) excludes = [excludes];
      next._excludedEdges = next._excludedEdges.concat(excludes.map(function (p) { return p[0] + '-' + p[1]; }));
    }
    next._nodes = fieldOrder(next.fields, next._excludedEdges);
    return next;
  }
  pick(keys) {
    var picked = {}, self = this;
    keys.forEach(function (k) { if (self.fields[k]) picked[k] = self.fields[k]; });
    return this.clone().withMutation(function (next) {
      next.fields = {};
      return next.shape(picked);
    });
  }
  omit(keys) {
    var next = this.clone(), fields = next.fields;
    next.fields = {};
    keys.forEach(function (k) { delete fields[k]; });
    return next.withMutation(function () { return next.shape(fields); });
  }
  from(from, to, alias) {
    var get = getter(from);
    return this.transform(function (obj) {
      if (obj == null) return obj;
      var out = obj;
      if (hasOwn(obj, from)) {
        out = Object.assign({}, obj);
        if (!alias) delete out[from];
        out[to] = get(obj);
      }
      return out;
    });
  }
  noUnknown(noAllow, message) {
    if (noAllow === undefined) noAllow = true;
    if (message === undefined) message = locale.object.noUnknown;
    if (typeof noAllow === 'string') {
      message = noAllow;
      noAllow = true;
    }
    var next = this.test({ name: 'noUnknown', exclusive: true, message: message, test: function (v) {
      if (v == null) return true;
      var known = Object.keys(this.schema.fields);
      var unknown = Object.keys(v).filter(function (k) { return known.indexOf(k) === -1; });
      return !noAllow || unknown.length === 0 || this.createError({ params: { unknown: unknown.join(', ') } });
    } });
    next.spec.noUnknown = noAllow;
    return next;
  }
  unknown(allow, message) { return this.noUnknown(!(allow === undefined ? true : allow), message); }
  transformKeys(fn) {
    return this.transform(function (obj) {
      if (!obj) return obj;
      var out = {};
      Object.keys(obj).forEach(function (k) { out[fn(k)] = obj[k]; });
      return out;
    });
  }
  describe() {
    var base = super.describe(), fields = this.fields;
    base.fields = {};
    Object.keys(fields).forEach(function (k) { base.fields[k] = fields[k].describe(); });
    return base;
  }
}
function object(spec) { return new ObjectSchema(spec); }
object.prototype = ObjectSchema.prototype;

// ---- array -----------------------------------------------------------------------------------

class ArraySchema extends BaseSchema {
  constructor(type) {
    super({ type: 'array' });
    this.innerType = type;
    this.withMutation(() => {
      this.transform(function (v) {
        if (typeof v === 'string') {
          try { v = JSON.parse(v); } catch (e) { v = null; }
        }
        return this.isType(v) ? v : null;
      });
    });
  }
  _typeCheck(v) { return Array.isArray(v); }
  get _subType() { return this.innerType; }
  _cast(raw, opts) {
    var value = super._cast(raw, opts), inner = this.innerType;
    if (!this._typeCheck(value) || !inner) return value;
    var changed = false;
    var out = value.map(function (v, i) {
      var c = inner.cast(v, Object.assign({}, opts, { path: ((opts && opts.path) || '') + '[' + i + ']' }));
      if (c !== v) changed = true;
      return c;
    });
    return changed ? out : value;
  }
  _validate(raw, options, callback) {
    options = options || {};
    var errors = [], self = this, inner = this.innerType, sync = options.sync, path = options.path;
    var endEarly = options.abortEarly != null ? options.abortEarly : this.spec.abortEarly;
    var recursive = options.recursive != null ? options.recursive : this.spec.recursive;
    var originalValue = options.originalValue != null ? options.originalValue : raw;
    super._validate(raw, options, function (err, value) {
      if (err) {
        if (!ValidationError.isError(err) || endEarly) return void callback(err, value);
        errors.push(err);
      }
      if (!recursive || !inner || !self._typeCheck(value)) return void callback(errors[0] || null, value);
      originalValue = originalValue || value;
      var tests = new Array(value.length);
      for (var i = 0; i < value.length; i++) {
        (function (idx) {
          var item = value[idx];
          var innerOptions = Object.assign({}, options, { path: (options.path || '') + '[' + idx + ']', strict: true, parent: value, index: idx, originalValue: originalValue[idx] });
          tests[idx] = function (_, cb) { inner.validate(item, innerOptions, cb); };
        })(i);
      }
      runTests({ sync: sync, path: path, value: value, errors: errors, endEarly: endEarly, tests: tests }, callback);
    });
  }
  clone(spec) {
    var next = super.clone(spec);
    next.innerType = this.innerType;
    return next;
  }
  concat(schema) {
    var next = super.concat(schema);
    next.innerType = this.innerType;
    if (schema.innerType) next.innerType = next.innerType ? next.innerType.concat(schema.innerType) : schema.innerType;
    return next;
  }
  of(schema) {
    var next = this.clone();
    if (!isSchema(schema)) throw new TypeError('`array.of()` sub-schema must be a valid yup schema not: ' + printValue(schema));
    next.innerType = schema;
    return next;
  }
  _count(name, n, message, holds) {
    var params = {};
    params[name] = n;
    return this.test({ message: message, name: name, exclusive: true, params: params,
      test: function (v) { return isAbsent(v) || holds(v.length, this.resolve(n)); } });
  }
  length(length, message) { return this._count('length', length, message === undefined ? locale.array.length : message, function (l, n) { return l === n; }); }
  min(min, message) { return this._count('min', min, message || locale.array.min, function (l, n) { return l >= n; }); }
  max(max, message) { return this._count('max', max, message || locale.array.max, function (l, n) { return l <= n; }); }
  ensure() {
    var self = this;
    return this.default(function () { return []; }).transform(function (v, original) {
      if (self._typeCheck(v)) return v;
      return original == null ? [] : [].concat(original);
    });
  }
  compact(rejector) {
    var keep = !rejector ? function (v) { return !!v; } : function (v, i, a) { return !rejector(v, i, a); };
    return this.transform(function (vs) { return vs != null ? vs.filter(keep) : vs; });
  }
  describe() {
    var base = super.describe();
    if (this.innerType) base.innerType = this.innerType.describe();
    return base;
  }
}
function array(type) { return new ArraySchema(type); }
array.prototype = ArraySchema.prototype;

// ---- lazy ------------------------------------------------------------------------------------

class Lazy {
  constructor(builder) {
    this.type = 'lazy';
    this.__isYupSchema__ = true;
    this.builder = builder;
    this._resolve = (value, options) => {
      options = options || {};
      var schema = this.builder(value, options);
      if (!isSchema(schema)) throw new TypeError('lazy() functions must return a valid schema');
      return schema.resolve(options);
    };
  }
  resolve(options) { return this._resolve(options.value, options); }
  cast(value, options) { return this._resolve(value, options).cast(value, options); }
  validate(value, options, maybeCb) { return this._resolve(value, options).validate(value, options, maybeCb); }
  validateSync(value, options) { return this._resolve(value, options).validateSync(value, options); }
  validateAt(path, value, options) { return this._resolve(value, options).validateAt(path, value, options); }
  validateSyncAt(path, value, options) { return this._resolve(value, options).validateSyncAt(path, value, options); }
  describe() { return null; }
  isValid(value, options) { return this._resolve(value, options).isValid(value, options); }
  isValidSync(value, options) { return this._resolve(value, options).isValidSync(value, options); }
}
function lazy(builder) { return new Lazy(builder); }

// ---- reach -----------------------------------------------------------------------------------

function getIn(schema, path, value, context) {
  if (context === undefined) context = value;
  var parent, lastPart, lastDebug;
  if (!path) return { parent: parent, parentPath: path, schema: schema };
  walkPath(path, function (rawPart, isBracket, isIndex) {
    var part = isBracket ? rawPart.slice(1, -1) : rawPart;
    schema = schema.resolve({ context: context, parent: parent, value: value });
    if (schema.innerType) {
      var idx = isIndex ? parseInt(part, 10) : 0;
      if (value && idx >= value.length) {
        throw new Error('Yup.reach cannot resolve an array item at index: ' + rawPart + ', in the path: ' + path + '. ' +
          'because there is no value at that index. ');
      }
      parent = value;
      value = value && value[idx];
      schema = schema.innerType;
    }
    if (!isIndex) {
      if (!schema.fields || !schema.fields[part]) {
        throw new Error('The schema does not contain the path: ' + path + '. ' + '(failed at: ' + lastDebug + ' which is a type: "' + schema._type + '")');
      }
      parent = value;
      value = value && value[part];
      schema = schema.fields[part];
    }
    lastPart = part;
    lastDebug = isBracket ? '[' + rawPart + ']' : '.' + rawPart;
  });
  return { schema: schema, parent: parent, parentPath: lastPart };
}
function reach(obj, path, value, context) { return getIn(obj, path, value, context).schema; }

function addMethod(schemaType, name, fn) {
  if (!schemaType || !isSchema(schemaType.prototype)) throw new TypeError('You must provide a yup schema constructor function');
  if (typeof name !== 'string') throw new TypeError('A Method name must be provided');
  if (typeof fn !== 'function') throw new TypeError('Method function must be provided');
  schemaType.prototype[name] = fn;
}

function ref(key, options) { return new Reference(key, options); }

module.exports = {
  mixed: mixed, bool: boolean, boolean: boolean, string: string, number: number, date: date, object: object, array: array,
  ref: ref, lazy: lazy, reach: reach, isSchema: isSchema, addMethod: addMethod, setLocale: setLocale, ValidationError: ValidationError,
  BaseSchema: BaseSchema, MixedSchema: MixedSchema, BooleanSchema: BooleanSchema, StringSchema: StringSchema, NumberSchema: NumberSchema,
  DateSchema: DateSchema, ObjectSchema: ObjectSchema, ArraySchema: ArraySchema
};
// yup's build marks its exports as an ES module's (not enumerable), so that compiled
// `import * as yup` and `import yup` read them as under Node.
Object.defineProperty(module.exports, '__esModule', { value: true });
