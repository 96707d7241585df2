// bcryptjs 2.x for Quarry's sandbox: the same salts ('$2a$' by default), hashes, errors and
// argument handling, with the EksBlowfish core in Go (so a hash costs what it does natively,
// not what bcryptjs's pure JavaScript costs). Callbacks run on a later microtask, as the
// package defers them with setImmediate/nextTick.
'use strict';
var native = require('\x00quarry-native');
var crypto = require('crypto');
var bcrypt = {};
var randomFallback = null;

function nextTick(fn) { Promise.resolve().then(fn); }

function random(len) {
  try { return crypto.randomBytes(len); } catch (e) {}
  if (!randomFallback) throw Error('Neither WebCryptoAPI nor a crypto module is available. Use bcrypt.setRandomFallback to set an alternative');
  return randomFallback(len);
}

bcrypt.setRandomFallback = function (r) { randomFallback = r; };

bcrypt.genSaltSync = function (rounds, seed_length) {
  rounds = rounds || 10;
  if (typeof rounds !== 'number') throw Error('Illegal arguments: ' + (typeof rounds) + ', ' + (typeof seed_length));
  if (rounds < 4) rounds = 4;
  else if (rounds > 31) rounds = 31;
  return '$2a$' + (rounds < 10 ? '0' : '') + rounds.toString() + '$' + native.bcryptEncode(random(16), 16);
};

bcrypt.genSalt = function (rounds, seed_length, callback) {
  if (typeof seed_length === 'function') callback = seed_length, seed_length = undefined;
  if (typeof rounds === 'function') callback = rounds, rounds = undefined;
  if (typeof rounds === 'undefined') rounds = 10;
  else if (typeof rounds !== 'number') throw Error('illegal arguments: ' + (typeof rounds));
  function async(cb) {
    nextTick(function () {
      try { cb(null, bcrypt.genSaltSync(rounds)); } catch (err) { cb(err); }
    });
  }
  return run(callback, async);
};

function run(callback, async) {
  if (callback) {
    if (typeof callback !== 'function') throw Error('Illegal callback: ' + typeof callback);
    async(callback);
    return;
  }
  return new Promise(function (resolve, reject) {
    async(function (err, res) { if (err) { reject(err); return; } resolve(res); });
  });
}

bcrypt.hashSync = function (s, salt) {
  if (typeof salt === 'undefined') salt = 10;
  if (typeof salt === 'number') salt = bcrypt.genSaltSync(salt);
  if (typeof s !== 'string' || typeof salt !== 'string') throw Error('Illegal arguments: ' + (typeof s) + ', ' + (typeof salt));
  return hashOf(s, salt);
};

bcrypt.hash = function (s, salt, callback, progressCallback) {
  function async(cb) {
    if (typeof s === 'string' && typeof salt === 'number') {
      bcrypt.genSalt(salt, function (err, salt) { deferred(s, salt, cb, progressCallback); });
    } else if (typeof s === 'string' && typeof salt === 'string') {
      deferred(s, salt, cb, progressCallback);
    } else {
      nextTick(cb.bind(this, Error('Illegal arguments: ' + (typeof s) + ', ' + (typeof salt))));
    }
  }
  return run(callback, async);
};

function deferred(s, salt, cb, progressCallback) {
  var out, err;
  try { out = hashOf(s, salt); } catch (e) { err = e; }
  nextTick(function () {
    if (err) { cb(err); return; }
    if (typeof progressCallback === 'function') progressCallback(1);
    cb(null, out);
  });
}

// safeStringCompare compares every character, as the package does, whatever differs first.
function safeStringCompare(known, unknown) {
  var wrong = 0;
  for (var i = 0, k = known.length; i < k; ++i) if (known.charCodeAt(i) !== unknown.charCodeAt(i)) ++wrong;
  return wrong === 0;
}

bcrypt.compareSync = function (s, hash) {
  if (typeof s !== 'string' || typeof hash !== 'string') throw Error('Illegal arguments: ' + (typeof s) + ', ' + (typeof hash));
  if (hash.length !== 60) return false;
  return safeStringCompare(bcrypt.hashSync(s, hash.substr(0, hash.length - 31)), hash);
};

bcrypt.compare = function (s, hash, callback, progressCallback) {
  function async(cb) {
    if (typeof s !== 'string' || typeof hash !== 'string') {
      nextTick(cb.bind(this, Error('Illegal arguments: ' + (typeof s) + ', ' + (typeof hash))));
      return;
    }
    if (hash.length !== 60) { nextTick(cb.bind(this, null, false)); return; }
    bcrypt.hash(s, hash.substr(0, 29), function (err, comp) {
      if (err) cb(err); else cb(null, safeStringCompare(comp, hash));
    }, progressCallback);
  }
  return run(callback, async);
};

bcrypt.getRounds = function (hash) {
  if (typeof hash !== 'string') throw Error('Illegal arguments: ' + (typeof hash));
  return parseInt(hash.split('$')[2], 10);
};

bcrypt.getSalt = function (hash) {
  if (typeof hash !== 'string') throw Error('Illegal arguments: ' + (typeof hash));
  if (hash.length !== 60) throw Error('Illegal hash length: ' + hash.length + ' != 60');
  return hash.substring(0, 29);
};

// hashOf is the package's _hash, synchronously: the salt read as bcryptjs reads it.
function hashOf(s, salt) {
  var minor, offset;
  if (salt.charAt(0) !== '$' || salt.charAt(1) !== '2') throw Error('Invalid salt version: ' + salt.substring(0, 2));
  if (salt.charAt(2) === '$') minor = String.fromCharCode(0), offset = 3;
  else {
    minor = salt.charAt(2);
    if ((minor !== 'a' && minor !== 'b' && minor !== 'y') || salt.charAt(3) !== '$') throw Error('Invalid salt revision: ' + salt.substring(2, 4));
    offset = 4;
  }
  if (salt.charAt(offset + 2) > '$') throw Error('Missing salt rounds');
  var rounds = parseInt(salt.substring(offset, offset + 1), 10) * 10 + parseInt(salt.substring(offset + 1, offset + 2), 10);
  var saltb = native.bcryptDecode(salt.substring(offset + 3, offset + 25), 16, true);
  if (rounds < 4 || rounds > 31) throw Error('Illegal number of rounds (4-31): ' + rounds);
  saltb = new Uint8Array(saltb);
  if (saltb.length !== 16) throw Error('Illegal salt length: ' + saltb.length + ' != 16');
  // NaN rounds pass the package's range check and run one round: (1 << NaN) is 1.
  var bytes = native.bcrypt(s, minor >= 'a', false, saltb, rounds === rounds ? rounds : 0);
  return '$2' + (minor >= 'a' ? minor : '') + '$' + (rounds < 10 ? '0' : '') + rounds.toString() + '$' + native.bcryptEncode(saltb, 16) + bytes;
}

bcrypt.encodeBase64 = function (b, len) {
  if (len <= 0 || len > b.length) throw Error('Illegal len: ' + len);
  return native.bcryptEncode(b, len);
};
bcrypt.decodeBase64 = function (s, len) {
  if (len <= 0) throw Error('Illegal len: ' + len);
  return Array.prototype.slice.call(new Uint8Array(native.bcryptDecode(s, len, true)));
};

module.exports = bcrypt;
