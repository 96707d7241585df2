// Node's events for Quarry's sandbox: EventEmitter with Node's listener order, once
// wrappers, 'newListener'/'removeListener' events, the 'error' event's throw and its
// messages, and events.once as a promise.
'use strict';
var util = require('util');

var kCapture = Symbol('kCapture');
var errorMonitor = Symbol('events.errorMonitor');
var defaultMaxListeners = 10;

function received(v) {
  if (v == null) return ' Received ' + v;
  if (typeof v === 'function') return ' Received function ' + (v.name || '<anonymous>');
  if (typeof v === 'object') return v.constructor && v.constructor.name ? ' Received an instance of ' + v.constructor.name : ' Received ' + util.inspect(v, { depth: -1 });
  var shown = util.inspect(v);
  if (shown.length > 28) shown = shown.slice(0, 25) + '...';
  return ' Received type ' + typeof v + ' (' + shown + ')';
}
function checkListener(listener) {
  if (typeof listener !== 'function') {
    var e = new TypeError('The "listener" argument must be of type function.' + received(listener));
    e.code = 'ERR_INVALID_ARG_TYPE';
    throw e;
  }
}

function EventEmitter(opts) { EventEmitter.init.call(this, opts); }
EventEmitter.prototype._events = undefined;
EventEmitter.prototype._eventsCount = 0;
EventEmitter.prototype._maxListeners = undefined;
EventEmitter.init = function (opts) {
  if (this._events === undefined || this._events === Object.getPrototypeOf(this)._events) {
    this._events = Object.create(null);
    this._eventsCount = 0;
  }
  this._maxListeners = this._maxListeners || undefined;
  if (opts && opts.captureRejections) this[kCapture] = true;
};

function validateCount(n, name) {
  var e;
  if (typeof n !== 'number') {
    e = new TypeError('The "' + name + '" argument must be of type number.' + received(n));
    e.code = 'ERR_INVALID_ARG_TYPE';
    throw e;
  }
  if (n < 0 || n !== n) {
    e = new RangeError('The value of "' + name + '" is out of range. It must be >= 0. Received ' + util.inspect(n));
    e.code = 'ERR_OUT_OF_RANGE';
    throw e;
  }
}
EventEmitter.prototype.setMaxListeners = function (n) {
  validateCount(n, 'setMaxListeners');
  this._maxListeners = n;
  return this;
};
EventEmitter.prototype.getMaxListeners = function () {
  return this._maxListeners === undefined ? EventEmitter.defaultMaxListeners : this._maxListeners;
};

EventEmitter.prototype.emit = function (type) {
  var args = Array.prototype.slice.call(arguments, 1);
  var doError = type === 'error';
  var events = this._events;
  if (events !== undefined) {
    if (doError && events[errorMonitor] !== undefined) this.emit.apply(this, [errorMonitor].concat(args));
    doError = doError && events.error === undefined;
  } else if (!doError) return false;
  if (doError) {
    var er = args.length > 0 ? args[0] : undefined;
    if (er instanceof Error) throw er;
    var err = new Error('Unhandled error. (' + util.inspect(er) + ')');
    err.code = 'ERR_UNHANDLED_ERROR';
    err.context = er;
    throw err;
  }
  var handler = events[type];
  if (handler === undefined) return false;
  if (typeof handler === 'function') {
    handler.apply(this, args);
  } else {
    var listeners = handler.slice();
    for (var i = 0; i < listeners.length; ++i) listeners[i].apply(this, args);
  }
  return true;
};

function addListener(target, type, listener, prepend) {
  checkListener(listener);
  var events = target._events;
  if (events === undefined) {
    events = target._events = Object.create(null);
    target._eventsCount = 0;
  } else if (events.newListener !== undefined) {
    target.emit('newListener', type, listener.listener ? listener.listener : listener);
    events = target._events;
  }
  var existing = events[type];
  if (existing === undefined) {
    events[type] = listener;
    ++target._eventsCount;
  } else if (typeof existing === 'function') {
    events[type] = prepend ? [listener, existing] : [existing, listener];
  } else if (prepend) {
    existing.unshift(listener);
  } else {
    existing.push(listener);
  }
  return target;
}

EventEmitter.prototype.addListener = function (type, listener) { return addListener(this, type, listener, false); };
EventEmitter.prototype.on = EventEmitter.prototype.addListener;
EventEmitter.prototype.prependListener = function (type, listener) { return addListener(this, type, listener, true); };

function onceWrapper(target, type, listener) {
  var state = { fired: false, target: target, type: type, listener: listener };
  var wrapped = function () {
    if (!state.fired) {
      state.target.removeListener(state.type, wrapped);
      state.fired = true;
      return state.listener.apply(state.target, arguments);
    }
  };
  wrapped.listener = listener;
  return wrapped;
}
EventEmitter.prototype.once = function (type, listener) {
  checkListener(listener);
  this.on(type, onceWrapper(this, type, listener));
  return this;
};
EventEmitter.prototype.prependOnceListener = function (type, listener) {
  checkListener(listener);
  this.prependListener(type, onceWrapper(this, type, listener));
  return this;
};

EventEmitter.prototype.removeListener = function (type, listener) {
  checkListener(listener);
  var events = this._events;
  if (events === undefined) return this;
  var list = events[type];
  if (list === undefined) return this;
  if (list === listener || list.listener === listener) {
    if (--this._eventsCount === 0) this._events = Object.create(null);
    else {
      delete events[type];
      if (events.removeListener) this.emit('removeListener', type, list.listener || listener);
    }
  } else if (typeof list !== 'function') {
    var position = -1;
    for (var i = list.length - 1; i >= 0; i--) {
      if (list[i] === listener || list[i].listener === listener) { position = i; break; }
    }
    if (position < 0) return this;
    if (position === 0) list.shift(); else list.splice(position, 1);
    if (list.length === 1) events[type] = list[0];
    if (events.removeListener !== undefined) this.emit('removeListener', type, listener);
  }
  return this;
};
EventEmitter.prototype.off = EventEmitter.prototype.removeListener;

EventEmitter.prototype.removeAllListeners = function (type) {
  var events = this._events;
  if (events === undefined) return this;
  if (events.removeListener === undefined) {
    if (arguments.length === 0) {
      this._events = Object.create(null);
      this._eventsCount = 0;
    } else if (events[type] !== undefined) {
      if (--this._eventsCount === 0) this._events = Object.create(null);
      else delete events[type];
    }
    return this;
  }
  if (arguments.length === 0) {
    var self = this;
    Reflect.ownKeys(events).forEach(function (key) {
      if (key === 'removeListener') return;
      self.removeAllListeners(key);
    });
    this.removeAllListeners('removeListener');
    this._events = Object.create(null);
    this._eventsCount = 0;
    return this;
  }
  var listeners = events[type];
  if (typeof listeners === 'function') this.removeListener(type, listeners);
  else if (listeners !== undefined) for (var i = listeners.length - 1; i >= 0; i--) this.removeListener(type, listeners[i]);
  return this;
};

function listenersOf(target, type, unwrap) {
  var events = target._events;
  if (events === undefined) return [];
  var l = events[type];
  if (l === undefined) return [];
  if (typeof l === 'function') return unwrap ? [l.listener || l] : [l];
  return unwrap ? l.map(function (f) { return f.listener || f; }) : l.slice();
}
EventEmitter.prototype.listeners = function (type) { return listenersOf(this, type, true); };
EventEmitter.prototype.rawListeners = function (type) { return listenersOf(this, type, false); };
function listenerCount(type, listener) {
  var events = this._events;
  if (events === undefined) return 0;
  var l = events[type];
  if (typeof l === 'function') return listener == null || listener === l || listener === l.listener ? 1 : 0;
  if (l === undefined) return 0;
  if (listener == null) return l.length;
  return l.filter(function (f) { return f === listener || f.listener === listener; }).length;
}
EventEmitter.prototype.listenerCount = listenerCount;
EventEmitter.prototype.eventNames = function () { return this._eventsCount > 0 ? Reflect.ownKeys(this._events) : []; };

Object.defineProperty(EventEmitter, 'defaultMaxListeners', {
  enumerable: true,
  get: function () { return defaultMaxListeners; },
  set: function (n) {
    validateCount(n, 'defaultMaxListeners');
    defaultMaxListeners = n;
  }
});
EventEmitter.EventEmitter = EventEmitter;
EventEmitter.usingDomains = false;
EventEmitter.captureRejections = false;
EventEmitter.captureRejectionSymbol = Symbol.for('nodejs.rejection');
EventEmitter.errorMonitor = errorMonitor;
EventEmitter.listenerCount = function (emitter, type) { return listenerCount.call(emitter, type); };
EventEmitter.getEventListeners = function (emitter, type) { return emitter.listeners(type); };
EventEmitter.once = function (emitter, name) {
  return new Promise(function (resolve, reject) {
    var errorListener = function (err) { emitter.removeListener(name, resolver); reject(err); };
    var resolver = function () {
      if (name !== 'error') emitter.removeListener('error', errorListener);
      resolve(Array.prototype.slice.call(arguments));
    };
    emitter.once(name, resolver);
    if (name !== 'error') emitter.once('error', errorListener);
  });
};
module.exports = EventEmitter;
