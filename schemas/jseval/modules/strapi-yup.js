// What @strapi/utils 4.26 does to yup when it loads, and the yup helpers it exports, written for
// Quarry's sandbox. Loading @strapi/utils changes the one yup of the app, so a project's
// require('yup') sees the same: methods added to its schemas (mixed().notNil(), notNull(),
// isFunction(); string().isCamelCase(), isKebabCase(); object().onlyContainsFunctions();
// array().uniqueProperty()) and the type error message without yup's hint about null.
// module.exports is function (yup, errors) giving { yup: the namespace @strapi/utils exports as
// `yup` (yup's exports with strapiID and StrapiIDSchema, frozen), validateYupSchema,
// validateYupSchemaSync, handleYupError, YupValidationError }.
'use strict';
module.exports = function (yup, errors) {
  var isNil = function (v) { return v == null; };
  var isFunction = function (v) { return typeof v === 'function'; };
  var getPath = function (path, o) {
    var parts = String(path).split(/[.[\]]+/).filter(Boolean);
    for (var i = 0; i < parts.length; i++) {
      if (o == null) return undefined;
      o = o[parts[i]];
    }
    return o;
  };
  // lodash's toPath, for the error paths Strapi answers with ("a.b[0]" is ["a","b","0"]).
  function toPath(path) {
    if (Array.isArray(path)) return path.map(String);
    if (path == null) return [];
    var s = String(path), out = [];
    if (s.charCodeAt(0) === 46) out.push('');
    s.replace(/[^.[\]]+|\[(?:(-?\d+(?:\.\d+)?)|(["'])((?:(?!\2)[^\\]|\\.)*?)\2)\]|(?=(?:\.|\[\])(?:\.|\[\]|$))/g, function (m, num, quote, sub) {
      out.push(quote ? sub.replace(/\\(\\)?/g, '$1') : num || m);
    });
    return out;
  }
  function printValue(v, quote) {
    function simple(x) {
      if (x == null || x === true || x === false) return '' + x;
      if (typeof x === 'number') return x != +x ? 'NaN' : x === 0 && 1 / x < 0 ? '-0' : '' + x;
      if (typeof x === 'string') return quote ? '"' + x + '"' : x;
      if (typeof x === 'function') return '[Function ' + (x.name || 'anonymous') + ']';
      if (typeof x === 'symbol') return Symbol.prototype.toString.call(x).replace(/^Symbol\((.*)\)(.*)$/, 'Symbol($1)');
      var tag = Object.prototype.toString.call(x).slice(8, -1);
      if (tag === 'Date') return isNaN(x.getTime()) ? '' + x : x.toISOString();
      if (tag === 'Error' || x instanceof Error) return '[' + Error.prototype.toString.call(x) + ']';
      if (tag === 'RegExp') return RegExp.prototype.toString.call(x);
      return null;
    }
    var s = simple(v);
    if (s !== null) return s;
    return JSON.stringify(v, function (k, val) { var r = simple(this[k]); return r !== null ? r : val; }, 2);
  }

  yup.addMethod(yup.mixed, 'notNil', function (msg) {
    return this.test('defined', msg === undefined ? '${path} must be defined.' : msg, function (v) { return !isNil(v); });
  });
  yup.addMethod(yup.mixed, 'notNull', function (msg) {
    return this.test('defined', msg === undefined ? '${path} cannot be null.' : msg, function (v) { return v !== null; });
  });
  yup.addMethod(yup.mixed, 'isFunction', function (msg) {
    return this.test('is a function', msg === undefined ? '${path} is not a function' : msg, function (v) { return v === undefined || isFunction(v); });
  });
  yup.addMethod(yup.string, 'isCamelCase', function (msg) {
    return this.test('is in camelCase', msg === undefined ? '${path} is not in camel case (anExampleOfCamelCase)' : msg,
      function (v) { return v ? /^[a-z][a-zA-Z0-9]+$/.test(v) : true; });
  });
  yup.addMethod(yup.string, 'isKebabCase', function (msg) {
    return this.test('is in kebab-case', msg === undefined ? '${path} is not in kebab case (an-example-of-kebab-case)' : msg,
      function (v) { return v ? /^([a-z][a-z0-9]*)(-[a-z0-9]+)*$/.test(v) : true; });
  });
  yup.addMethod(yup.object, 'onlyContainsFunctions', function (msg) {
    return this.test('only contains functions', msg === undefined ? '${path} contains values that are not functions' : msg,
      function (v) { return v === undefined || (v && Object.values(v).every(isFunction)); });
  });
  yup.addMethod(yup.array, 'uniqueProperty', function (prop, message) {
    return this.test('unique', message, function (list) {
      var self = this, found = [];
      if (list != null) {
        list.forEach(function (el, i) {
          var same = list.filter(function (e) { return getPath(prop, e) === getPath(prop, el); });
          if (same.length > 1) found.push(self.createError({ path: self.path + '[' + i + '].' + prop, message: message }));
        });
      }
      if (found.length) throw new yup.ValidationError(found);
      return true;
    });
  });

  // strapiID(): a string, or a non-negative integer.
  class StrapiIDSchema extends yup.MixedSchema {
    constructor() { super({ type: 'strapiID' }); }
    _typeCheck(v) { return typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v) && v >= 0); }
  }
  var strapiID = function () { return new StrapiIDSchema(); };

  yup.setLocale({ mixed: { notType: function (p) {
    var cast = p.originalValue != null && p.originalValue !== p.value;
    return p.path + ' must be a `' + p.type + '` type, but the final value was: `' + printValue(p.value, true) + '`' +
      (cast ? ' (cast from the value `' + printValue(p.originalValue, true) + '`).' : '.');
  } } });

  var ns = { StrapiIDSchema: StrapiIDSchema, strapiID: strapiID };
  Object.keys(yup).forEach(function (k) {
    if (k !== 'default' && !(k in ns)) Object.defineProperty(ns, k, { enumerable: true, get: function () { return yup[k]; } });
  });
  Object.defineProperty(ns, Symbol.toStringTag, { value: 'Module' });
  Object.freeze(ns);

  // YupValidationError: Strapi's ValidationError (400) whose details list each failure as
  // { path: [keys], message, name }, and whose message is the given one or yup's.
  var ValidationError = errors.ValidationError;
  function YupValidationError(yupError, message) {
    var e = new ValidationError('Validation');
    Object.setPrototypeOf(e, YupValidationError.prototype);
    var list = yupError.inner == null || yupError.inner.length === 0 ? [yupError] : yupError.inner;
    e.message = message || yupError.message;
    e.details = { errors: list.map(function (x) { return { path: toPath(x.path), message: x.message, name: x.name }; }) };
    return e;
  }
  YupValidationError.prototype = Object.create(ValidationError.prototype, { constructor: { value: YupValidationError, writable: true, configurable: true } });
  Object.defineProperty(YupValidationError, 'name', { value: 'YupValidationError' });

  function handleYupError(error, errorMessage) { throw new YupValidationError(error, errorMessage); }
  function withDefaults(options) {
    var o = Object.assign({}, options);
    if (o.strict === undefined) o.strict = true;
    if (o.abortEarly === undefined) o.abortEarly = false;
    return o;
  }
  function validateYupSchema(schema, options) {
    return function (body, errorMessage) {
      return Promise.resolve().then(function () { return schema.validate(body, withDefaults(options)); }).catch(function (e) {
        if (e instanceof yup.ValidationError) handleYupError(e, errorMessage);
        throw e;
      });
    };
  }
  function validateYupSchemaSync(schema, options) {
    return function (body, errorMessage) {
      try {
        return schema.validateSync(body, withDefaults(options));
      } catch (e) {
        if (e instanceof yup.ValidationError) handleYupError(e, errorMessage);
        throw e;
      }
    };
  }
  return { yup: ns, validateYupSchema: validateYupSchema, validateYupSchemaSync: validateYupSchemaSync, handleYupError: handleYupError, YupValidationError: YupValidationError };
};
