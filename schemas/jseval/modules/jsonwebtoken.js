// jsonwebtoken 9.x for Quarry's sandbox: sign, verify and decode with the package's option
// checks, claim order, errors and messages, for the HMAC algorithms (HS256/384/512) and
// 'none'. RSA, ECDSA and PSS keys answer NotImplementedError: the sandbox has no public-key
// crypto. Timespans ('7d', '2h', 60) are read as the ms package reads them.
'use strict';
var native = require('\x00quarry-native');
var errors = require('@strapi/utils').errors;

function JsonWebTokenError(message, error) {
  Error.call(this, message);
  this.name = 'JsonWebTokenError';
  this.message = message;
  if (error) this.inner = error;
}
JsonWebTokenError.prototype = Object.create(Error.prototype);
JsonWebTokenError.prototype.constructor = JsonWebTokenError;

function NotBeforeError(message, date) {
  JsonWebTokenError.call(this, message);
  this.name = 'NotBeforeError';
  this.date = date;
}
NotBeforeError.prototype = Object.create(JsonWebTokenError.prototype);
NotBeforeError.prototype.constructor = NotBeforeError;

function TokenExpiredError(message, expiredAt) {
  JsonWebTokenError.call(this, message);
  this.name = 'TokenExpiredError';
  this.expiredAt = expiredAt;
}
TokenExpiredError.prototype = Object.create(JsonWebTokenError.prototype);
TokenExpiredError.prototype.constructor = TokenExpiredError;

var toTag = Object.prototype.toString;
function objectLike(v) { return v != null && typeof v == 'object'; }
function isString(v) { return typeof v == 'string' || (!Array.isArray(v) && objectLike(v) && toTag.call(v) == '[object String]'); }
function isNumber(v) { return typeof v == 'number' || (objectLike(v) && toTag.call(v) == '[object Number]'); }
function isBoolean(v) { return v === true || v === false || (objectLike(v) && toTag.call(v) == '[object Boolean]'); }
function isInteger(v) {
  if (typeof v != 'number') return false;
  var n = v === Infinity || v === -Infinity ? (v < 0 ? -1 : 1) * Number.MAX_VALUE : v;
  return v === v && n - n % 1 === v;
}
function isPlainObject(v) {
  if (!objectLike(v) || toTag.call(v) != '[object Object]') return false;
  var proto = Object.getPrototypeOf(v);
  if (proto === null) return true;
  var Ctor = Object.prototype.hasOwnProperty.call(proto, 'constructor') && proto.constructor;
  return typeof Ctor == 'function' && Ctor instanceof Ctor && Function.prototype.toString.call(Ctor) == Function.prototype.toString.call(Object);
}
function isBuffer(v) { return typeof Buffer === 'function' && typeof Buffer.isBuffer === 'function' && Buffer.isBuffer(v); }

// ms is the ms package's parse: a number and an optional unit, up to 100 characters.
var S = 1000, M = S * 60, H = M * 60, D = H * 24, W = D * 7, Y = D * 365.25;
function ms(str) {
  str = String(str);
  if (str.length > 100) return;
  var match = /^(-?(?:\d+)?\.?\d+) *(milliseconds?|msecs?|ms|seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d|weeks?|w|years?|yrs?|y)?$/i.exec(str);
  if (!match) return;
  var n = parseFloat(match[1]);
  switch ((match[2] || 'ms').toLowerCase()) {
    case 'years': case 'year': case 'yrs': case 'yr': case 'y': return n * Y;
    case 'weeks': case 'week': case 'w': return n * W;
    case 'days': case 'day': case 'd': return n * D;
    case 'hours': case 'hour': case 'hrs': case 'hr': case 'h': return n * H;
    case 'minutes': case 'minute': case 'mins': case 'min': case 'm': return n * M;
    case 'seconds': case 'second': case 'secs': case 'sec': case 's': return n * S;
    case 'milliseconds': case 'millisecond': case 'msecs': case 'msec': case 'ms': return n;
  }
}

function timespan(time, iat) {
  var timestamp = iat || Math.floor(Date.now() / 1000);
  if (typeof time === 'string') {
    var milliseconds = ms(time);
    if (typeof milliseconds === 'undefined') return;
    return Math.floor(timestamp + milliseconds / 1000);
  } else if (typeof time === 'number') {
    return timestamp + time;
  }
}

var HS_BITS = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };
var SUPPORTED_ALGS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'HS256', 'HS384', 'HS512', 'none'];

function notProvided(what) {
  return new errors.NotImplementedError('jsonwebtoken: ' + what + " is not provided by Quarry's sandbox (no public-key crypto)");
}

// keyOf is what createPrivateKey/createSecretKey make of the key material: a secret of its
// bytes, or undefined when it is not key material. PEM text would be an asymmetric key.
function keyOf(material) {
  var bytes;
  if (typeof material === 'string') bytes = material;
  else if (isBuffer(material) || ArrayBuffer.isView(material)) bytes = material;
  else return undefined;
  var text = typeof bytes === 'string' ? bytes : native.decode(bytes, 'latin1');
  if (text.indexOf('-----BEGIN') >= 0) throw notProvided('a PEM key');
  if (typeof bytes !== 'string' && bytes.length === 0) return undefined;
  return { type: 'secret', __quarrySecret: bytes };
}

function base64url(bytes) { return native.decode(bytes, 'base64url'); }

function hmacSign(alg, input, key) {
  return base64url(native.hmac(HS_BITS[alg], key.__quarrySecret, input));
}

function payloadText(payload) {
  if (typeof payload === 'string') return payload;
  if (typeof payload === 'number' || isBuffer(payload)) return payload.toString();
  return JSON.stringify(payload);
}

function jwsSign(header, payload, key, encoding) {
  var input = base64url(native.encode(JSON.stringify(header), 'binary')) + '.' + base64url(native.encode(payloadText(payload), encoding));
  var alg = header.alg;
  if (alg === 'none') return input + '.';
  if (HS_BITS[alg]) return input + '.' + hmacSign(alg, input, key);
  if (/^(RS|PS|ES)(256|384|512)$/.test(alg)) throw notProvided(alg);
  throw new TypeError('"' + alg + '" is not a valid algorithm.\n  Supported algorithms are:\n  "HS256", "HS384", "HS512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512" and "none".');
}

var sign_options_schema = {
  expiresIn: { isValid: function (v) { return isInteger(v) || (isString(v) && v); }, message: '"expiresIn" should be a number of seconds or string representing a timespan' },
  notBefore: { isValid: function (v) { return isInteger(v) || (isString(v) && v); }, message: '"notBefore" should be a number of seconds or string representing a timespan' },
  audience: { isValid: function (v) { return isString(v) || Array.isArray(v); }, message: '"audience" must be a string or array' },
  algorithm: { isValid: function (v) { return SUPPORTED_ALGS.indexOf(v) >= 0; }, message: '"algorithm" must be a valid string enum value' },
  header: { isValid: isPlainObject, message: '"header" must be an object' },
  encoding: { isValid: isString, message: '"encoding" must be a string' },
  issuer: { isValid: isString, message: '"issuer" must be a string' },
  subject: { isValid: isString, message: '"subject" must be a string' },
  jwtid: { isValid: isString, message: '"jwtid" must be a string' },
  noTimestamp: { isValid: isBoolean, message: '"noTimestamp" must be a boolean' },
  keyid: { isValid: isString, message: '"keyid" must be a string' },
  mutatePayload: { isValid: isBoolean, message: '"mutatePayload" must be a boolean' },
  allowInsecureKeySizes: { isValid: isBoolean, message: '"allowInsecureKeySizes" must be a boolean' },
  allowInvalidAsymmetricKeyTypes: { isValid: isBoolean, message: '"allowInvalidAsymmetricKeyTypes" must be a boolean' }
};
var registered_claims_schema = {
  iat: { isValid: isNumber, message: '"iat" should be a number of seconds' },
  exp: { isValid: isNumber, message: '"exp" should be a number of seconds' },
  nbf: { isValid: isNumber, message: '"nbf" should be a number of seconds' }
};

function validate(schema, allowUnknown, object, parameterName) {
  if (!isPlainObject(object)) throw new Error('Expected "' + parameterName + '" to be a plain object.');
  Object.keys(object).forEach(function (key) {
    var validator = schema[key];
    if (!validator) {
      if (!allowUnknown) throw new Error('"' + key + '" is not allowed in "' + parameterName + '"');
      return;
    }
    if (!validator.isValid(object[key])) throw new Error(validator.message);
  });
}

var options_to_payload = { audience: 'aud', issuer: 'iss', subject: 'sub', jwtid: 'jti' };
var options_for_objects = ['expiresIn', 'notBefore', 'noTimestamp', 'audience', 'issuer', 'subject', 'jwtid'];

function once(fn) {
  var called = false, result;
  return function () {
    if (called) return result;
    called = true;
    return (result = fn.apply(this, arguments));
  };
}

function sign(payload, secretOrPrivateKey, options, callback) {
  if (typeof options === 'function') { callback = options; options = {}; } else { options = options || {}; }
  var isObjectPayload = typeof payload === 'object' && !isBuffer(payload);
  var header = Object.assign({ alg: options.algorithm || 'HS256', typ: isObjectPayload ? 'JWT' : undefined, kid: options.keyid }, options.header);
  function failure(err) {
    if (callback) return callback(err);
    throw err;
  }
  if (!secretOrPrivateKey && options.algorithm !== 'none') return failure(new Error('secretOrPrivateKey must have a value'));
  if (secretOrPrivateKey != null) {
    secretOrPrivateKey = keyOf(secretOrPrivateKey);
    if (!secretOrPrivateKey) return failure(new Error('secretOrPrivateKey is not valid key material'));
  }
  if (header.alg.startsWith('HS') && secretOrPrivateKey.type !== 'secret') {
    return failure(new Error('secretOrPrivateKey must be a symmetric key when using ' + header.alg));
  } else if (/^(?:RS|PS|ES)/.test(header.alg)) {
    return failure(new Error('secretOrPrivateKey must be an asymmetric key when using ' + header.alg));
  }
  if (typeof payload === 'undefined') {
    return failure(new Error('payload is required'));
  } else if (isObjectPayload) {
    try { validate(registered_claims_schema, true, payload, 'payload'); } catch (error) { return failure(error); }
    if (!options.mutatePayload) payload = Object.assign({}, payload);
  } else {
    var invalid_options = options_for_objects.filter(function (opt) { return typeof options[opt] !== 'undefined'; });
    if (invalid_options.length > 0) return failure(new Error('invalid ' + invalid_options.join(',') + ' option for ' + (typeof payload) + ' payload'));
  }
  if (typeof payload.exp !== 'undefined' && typeof options.expiresIn !== 'undefined') {
    return failure(new Error('Bad "options.expiresIn" option the payload already has an "exp" property.'));
  }
  if (typeof payload.nbf !== 'undefined' && typeof options.notBefore !== 'undefined') {
    return failure(new Error('Bad "options.notBefore" option the payload already has an "nbf" property.'));
  }
  try { validate(sign_options_schema, false, options, 'options'); } catch (error) { return failure(error); }
  var timestamp = payload.iat || Math.floor(Date.now() / 1000);
  if (options.noTimestamp) delete payload.iat;
  else if (isObjectPayload) payload.iat = timestamp;
  if (typeof options.notBefore !== 'undefined') {
    try { payload.nbf = timespan(options.notBefore, timestamp); } catch (err) { return failure(err); }
    if (typeof payload.nbf === 'undefined') return failure(new Error('"notBefore" should be a number of seconds or string representing a timespan eg: "1d", "20h", 60'));
  }
  if (typeof options.expiresIn !== 'undefined' && typeof payload === 'object') {
    try { payload.exp = timespan(options.expiresIn, timestamp); } catch (err) { return failure(err); }
    if (typeof payload.exp === 'undefined') return failure(new Error('"expiresIn" should be a number of seconds or string representing a timespan eg: "1d", "20h", 60'));
  }
  Object.keys(options_to_payload).forEach(function (key) {
    var claim = options_to_payload[key];
    if (typeof options[key] !== 'undefined') {
      if (typeof payload[claim] !== 'undefined') return failure(new Error('Bad "options.' + key + '" option. The payload already has an "' + claim + '" property.'));
      payload[claim] = options[key];
    }
  });
  var encoding = options.encoding || 'utf8';
  if (typeof callback === 'function') {
    callback = once(callback);
    var token, error;
    try { token = jwsSign(header, payload, secretOrPrivateKey, encoding); } catch (e) { error = e; }
    Promise.resolve().then(function () { if (error) callback(error); else callback(null, token); });
    return;
  }
  return jwsSign(header, payload, secretOrPrivateKey, encoding);
}

var JWS_REGEX = /^[a-zA-Z0-9\-_]+?\.[a-zA-Z0-9\-_]+?\.([a-zA-Z0-9\-_]+)?$/;

function jwsText(v) {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || isBuffer(v)) return v.toString();
  return JSON.stringify(v);
}

function headerFrom(token) {
  try { return JSON.parse(native.decode(native.encode(token.split('.', 1)[0], 'base64'), 'binary')); } catch (e) { return undefined; }
}

// jwsDecode is the jws package's decode: null for what is not a JWS; a payload that does
// not parse as JSON under typ JWT throws the SyntaxError.
function jwsDecode(token, opts) {
  opts = opts || {};
  token = jwsText(token);
  if (!(JWS_REGEX.test(token) && !!headerFrom(token))) return null;
  var header = headerFrom(token);
  if (!header) return null;
  var payload = native.decode(native.encode(token.split('.')[1], 'base64'), 'utf8');
  if (header.typ === 'JWT' || opts.json) payload = JSON.parse(payload, opts.encoding);
  return { header: header, payload: payload, signature: token.split('.')[2] };
}

function decode(jwt, options) {
  options = options || {};
  var decoded = jwsDecode(jwt, options);
  if (!decoded) return null;
  var payload = decoded.payload;
  if (typeof payload === 'string') {
    try {
      var obj = JSON.parse(payload);
      if (obj !== null && typeof obj === 'object') payload = obj;
    } catch (e) {}
  }
  if (options.complete === true) return { header: decoded.header, payload: payload, signature: decoded.signature };
  return payload;
}

function jwsVerify(token, alg, key) {
  if (!alg) {
    var err = new Error('Missing algorithm parameter for jws.verify');
    err.code = 'MISSING_ALGORITHM';
    throw err;
  }
  token = jwsText(token);
  var signature = token.split('.')[2];
  var input = token.split('.', 2).join('.');
  if (alg === 'none') return signature === '';
  if (!HS_BITS[alg]) {
    if (/^(RS|PS|ES)(256|384|512)$/.test(alg)) throw notProvided(alg);
    throw new TypeError('"' + alg + '" is not a valid algorithm.\n  Supported algorithms are:\n  "HS256", "HS384", "HS512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512" and "none".');
  }
  return native.equal(String(signature), hmacSign(alg, input, key));
}

var HS_ALGS = ['HS256', 'HS384', 'HS512'];

function verify(jwtString, secretOrPublicKey, options, callback) {
  if ((typeof options === 'function') && !callback) { callback = options; options = {}; }
  if (!options) options = {};
  options = Object.assign({}, options);
  var done;
  if (callback) done = callback;
  else done = function (err, data) { if (err) throw err; return data; };
  if (options.clockTimestamp && typeof options.clockTimestamp !== 'number') return done(new JsonWebTokenError('clockTimestamp must be a number'));
  if (options.nonce !== undefined && (typeof options.nonce !== 'string' || options.nonce.trim() === '')) return done(new JsonWebTokenError('nonce must be a non-empty string'));
  if (options.allowInvalidAsymmetricKeyTypes !== undefined && typeof options.allowInvalidAsymmetricKeyTypes !== 'boolean') return done(new JsonWebTokenError('allowInvalidAsymmetricKeyTypes must be a boolean'));
  var clockTimestamp = options.clockTimestamp || Math.floor(Date.now() / 1000);
  if (!jwtString) return done(new JsonWebTokenError('jwt must be provided'));
  if (typeof jwtString !== 'string') return done(new JsonWebTokenError('jwt must be a string'));
  var parts = jwtString.split('.');
  if (parts.length !== 3) return done(new JsonWebTokenError('jwt malformed'));
  var decodedToken;
  try { decodedToken = decode(jwtString, { complete: true }); } catch (err) { return done(err); }
  if (!decodedToken) return done(new JsonWebTokenError('invalid token'));
  var header = decodedToken.header;
  var getSecret;
  if (typeof secretOrPublicKey === 'function') {
    if (!callback) return done(new JsonWebTokenError('verify must be called asynchronous if secret or public key is provided as a callback'));
    getSecret = secretOrPublicKey;
  } else {
    getSecret = function (header, secretCallback) { return secretCallback(null, secretOrPublicKey); };
  }
  return getSecret(header, function (err, secretOrPublicKey) {
    if (err) return done(new JsonWebTokenError('error in secret or public key callback: ' + err.message));
    var hasSignature = parts[2].trim() !== '';
    if (!hasSignature && secretOrPublicKey) return done(new JsonWebTokenError('jwt signature is required'));
    if (hasSignature && !secretOrPublicKey) return done(new JsonWebTokenError('secret or public key must be provided'));
    if (!hasSignature && !options.algorithms) return done(new JsonWebTokenError('please specify "none" in "algorithms" to verify unsigned tokens'));
    if (secretOrPublicKey != null) {
      try { secretOrPublicKey = keyOf(secretOrPublicKey); } catch (e) { return done(e); }
      if (!secretOrPublicKey) return done(new JsonWebTokenError('secretOrPublicKey is not valid key material'));
    }
    if (!options.algorithms) options.algorithms = HS_ALGS;
    if (options.algorithms.indexOf(decodedToken.header.alg) === -1) return done(new JsonWebTokenError('invalid algorithm'));
    if (header.alg.startsWith('HS') && secretOrPublicKey.type !== 'secret') {
      return done(new JsonWebTokenError('secretOrPublicKey must be a symmetric key when using ' + header.alg));
    } else if (/^(?:RS|PS|ES)/.test(header.alg) && secretOrPublicKey.type !== 'public') {
      return done(new JsonWebTokenError('secretOrPublicKey must be an asymmetric key when using ' + header.alg));
    }
    var valid;
    try { valid = jwsVerify(jwtString, decodedToken.header.alg, secretOrPublicKey); } catch (e) { return done(e); }
    if (!valid) return done(new JsonWebTokenError('invalid signature'));
    var payload = decodedToken.payload;
    if (typeof payload.nbf !== 'undefined' && !options.ignoreNotBefore) {
      if (typeof payload.nbf !== 'number') return done(new JsonWebTokenError('invalid nbf value'));
      if (payload.nbf > clockTimestamp + (options.clockTolerance || 0)) return done(new NotBeforeError('jwt not active', new Date(payload.nbf * 1000)));
    }
    if (typeof payload.exp !== 'undefined' && !options.ignoreExpiration) {
      if (typeof payload.exp !== 'number') return done(new JsonWebTokenError('invalid exp value'));
      if (clockTimestamp >= payload.exp + (options.clockTolerance || 0)) return done(new TokenExpiredError('jwt expired', new Date(payload.exp * 1000)));
    }
    if (options.audience) {
      var audiences = Array.isArray(options.audience) ? options.audience : [options.audience];
      var target = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
      var match = target.some(function (t) {
        return audiences.some(function (a) { return a instanceof RegExp ? a.test(t) : a === t; });
      });
      if (!match) return done(new JsonWebTokenError('jwt audience invalid. expected: ' + audiences.join(' or ')));
    }
    if (options.issuer) {
      var invalid_issuer = (typeof options.issuer === 'string' && payload.iss !== options.issuer) ||
        (Array.isArray(options.issuer) && options.issuer.indexOf(payload.iss) === -1);
      if (invalid_issuer) return done(new JsonWebTokenError('jwt issuer invalid. expected: ' + options.issuer));
    }
    if (options.subject && payload.sub !== options.subject) return done(new JsonWebTokenError('jwt subject invalid. expected: ' + options.subject));
    if (options.jwtid && payload.jti !== options.jwtid) return done(new JsonWebTokenError('jwt jwtid invalid. expected: ' + options.jwtid));
    if (options.nonce && payload.nonce !== options.nonce) return done(new JsonWebTokenError('jwt nonce invalid. expected: ' + options.nonce));
    if (options.maxAge) {
      if (typeof payload.iat !== 'number') return done(new JsonWebTokenError('iat required when maxAge is specified'));
      var maxAgeTimestamp = timespan(options.maxAge, payload.iat);
      if (typeof maxAgeTimestamp === 'undefined') return done(new JsonWebTokenError('"maxAge" should be a number of seconds or string representing a timespan eg: "1d", "20h", 60'));
      if (clockTimestamp >= maxAgeTimestamp + (options.clockTolerance || 0)) return done(new TokenExpiredError('maxAge exceeded', new Date(maxAgeTimestamp * 1000)));
    }
    if (options.complete === true) return done(null, { header: header, payload: payload, signature: decodedToken.signature });
    return done(null, payload);
  });
}

module.exports = {
  decode: decode,
  verify: verify,
  sign: sign,
  JsonWebTokenError: JsonWebTokenError,
  NotBeforeError: NotBeforeError,
  TokenExpiredError: TokenExpiredError
};
