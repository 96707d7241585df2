// bcrypt (the native package, 5.x/6.x API) for Quarry's sandbox: the same salts, hashes,
// errors and argument handling, with the EksBlowfish core in Go. Callbacks run on a later
// microtask, where the package runs them from its thread pool.
'use strict';
var native = require('\x00quarry-native');
var crypto = require('crypto');

var SALT_ERROR = 'Invalid salt. Salt must be in the form of: $Vers$log2(NumRounds)$saltvalue';
var ARGS_ERROR = 'data must be a string or Buffer and salt must either be a salt string or a number of rounds';

function isBuffer(x) { return typeof Buffer === 'function' && x instanceof Buffer; }
function later(fn) { Promise.resolve().then(fn); }
function promise(fn, self, args) {
  args = Array.prototype.slice.call(args);
  return new Promise(function (resolve, reject) {
    args.push(function (err, data) { if (err) reject(err); else resolve(data); });
    fn.apply(self, args);
  });
}

// parseSalt reads a salt (or a hash's salt part) as the native code does: '$', a version
// character up to '2', an optional minor 'a' or 'b', two characters of rounds (atoi), '$'
// and at least 22 characters of salt. Null when invalid.
function parseSalt(salt) {
  if (salt.charAt(0) !== '$' || !(salt.charAt(1) && salt.charAt(1) <= '2')) return null;
  var i = 2, minor = '';
  if (salt.charAt(i) !== '$') {
    minor = salt.charAt(i);
    if (minor !== 'a' && minor !== 'b') return null;
    i++;
  }
  i++;
  if (salt.charAt(i + 2) !== '$') return null;
  var n = parseInt(salt.substring(i, i + 2), 10);
  if (n !== n) n = 0;
  if (n > 31 || n < 4) return null;
  var rest = salt.substring(i + 3);
  if (Math.floor(rest.length * 3 / 4) < 16) return null;
  var bytes = new Uint8Array(16);
  bytes.set(new Uint8Array(native.bcryptDecode(rest, 16)));
  return { minor: minor, rounds: n, salt: bytes };
}

function encrypt(data, salt) {
  var p = parseSalt(salt);
  if (!p) throw new Error(SALT_ERROR);
  var head = '$2' + p.minor + '$' + (p.rounds < 10 ? '0' : '') + p.rounds + '$';
  return head + native.bcryptEncode(p.salt, 16) + native.bcrypt(data, p.minor !== '', p.minor !== 'b', p.salt, p.rounds);
}

function makeSalt(minor, rounds) {
  var r = (rounds >>> 0) & 0xff;
  if (r < 4) r = 4; else if (r > 31) r = 31;
  return '$2' + minor + '$' + (r < 10 ? '0' : '') + r + '$' + native.bcryptEncode(crypto.randomBytes(16), 16);
}

function genSaltSync(rounds, minor) {
  if (!rounds) rounds = 10;
  else if (typeof rounds !== 'number') throw new Error('rounds must be a number');
  if (!minor) minor = 'b';
  else if (minor !== 'b' && minor !== 'a') throw new Error('minor must be either "a" or "b"');
  return makeSalt(minor, rounds);
}

function genSalt(rounds, minor, cb) {
  if (typeof arguments[0] === 'function') { cb = arguments[0]; rounds = 10; minor = 'b'; }
  else if (typeof arguments[1] === 'function') { cb = arguments[1]; minor = 'b'; }
  if (!cb) return promise(genSalt, this, [rounds, minor]);
  var error;
  if (!rounds) rounds = 10;
  else if (typeof rounds !== 'number') error = new Error('rounds must be a number');
  if (!error) {
    if (!minor) minor = 'b';
    else if (minor !== 'b' && minor !== 'a') error = new Error('minor must be either "a" or "b"');
  }
  if (error) return later(function () { cb(error); });
  var salt = makeSalt(minor, rounds);
  later(function () { cb(undefined, salt); });
}

function hashSync(data, salt) {
  if (data == null || salt == null) throw new Error('data and salt arguments required');
  if (!(typeof data === 'string' || isBuffer(data)) || (typeof salt !== 'string' && typeof salt !== 'number')) throw new Error(ARGS_ERROR);
  if (typeof salt === 'number') salt = module.exports.genSaltSync(salt);
  return encrypt(data, salt);
}

function hash(data, salt, cb) {
  var error;
  if (typeof data === 'function') { error = new Error(ARGS_ERROR); return later(function () { data(error); }); }
  if (typeof salt === 'function') { error = new Error(ARGS_ERROR); return later(function () { salt(error); }); }
  if (cb && typeof cb !== 'function') return Promise.reject(new Error('cb must be a function or null to return a Promise'));
  if (!cb) return promise(hash, this, [data, salt]);
  if (data == null || salt == null) error = new Error('data and salt arguments required');
  else if (!(typeof data === 'string' || isBuffer(data)) || (typeof salt !== 'string' && typeof salt !== 'number')) error = new Error(ARGS_ERROR);
  if (error) return later(function () { cb(error); });
  if (typeof salt === 'number') {
    return module.exports.genSalt(salt, function (err, s) { run(s); });
  }
  run(salt);
  function run(s) {
    var out, err;
    try { out = encrypt(data, s); } catch (e) { err = e; }
    later(function () { if (err) cb(err); else cb(undefined, out); });
  }
}

function check(data, h) {
  var p = parseSalt(h);
  if (!p) return false;
  return native.equal(encrypt(data, h), h);
}

function compareSync(data, h) {
  if (data == null || h == null) throw new Error('data and hash arguments required');
  if (!(typeof data === 'string' || isBuffer(data)) || typeof h !== 'string') throw new Error('data must be a string or Buffer and hash must be a string');
  return check(data, h);
}

function compare(data, h, cb) {
  var error;
  if (typeof data === 'function') { error = new Error('data and hash arguments required'); return later(function () { data(error); }); }
  if (typeof h === 'function') { error = new Error('data and hash arguments required'); return later(function () { h(error); }); }
  if (cb && typeof cb !== 'function') return Promise.reject(new Error('cb must be a function or null to return a Promise'));
  if (!cb) return promise(compare, this, [data, h]);
  if (data == null || h == null) error = new Error('data and hash arguments required');
  else if (!(typeof data === 'string' || isBuffer(data)) || typeof h !== 'string') error = new Error('data and hash must be strings');
  if (error) return later(function () { cb(error); });
  var ok = check(data, h);
  later(function () { cb(undefined, ok); });
}

function getRounds(h) {
  if (h == null) throw new Error('hash argument required');
  if (typeof h !== 'string') throw new Error('hash must be a string');
  // As the native code reads it: '$', one version character, an optional minor, '$', atoi.
  var i = 0;
  if (h.charAt(i++) !== '$' || i >= h.length) return fail();
  i++;
  if (i < h.length && h.charAt(i) !== '$') i++;
  if (h.charAt(i++) !== '$') return fail();
  var n = parseInt(h.substring(i), 10);
  if (!n) return fail();
  return n >>> 0;
  function fail() { throw new Error('invalid hash provided'); }
}

module.exports = { genSaltSync: genSaltSync, genSalt: genSalt, hashSync: hashSync, hash: hash, compareSync: compareSync, compare: compare, getRounds: getRounds };
