// dayjs 1.x's core for Quarry's sandbox, with the English locale: parsing (Dates, timestamps,
// ISO-like strings read in local time as dayjs reads them), format, get/set, add/subtract,
// startOf/endOf, diff (months as moment computes them), isBefore/isAfter/isSame, unix,
// valueOf, toDate/toJSON/toISOString/toString, daysInMonth, utcOffset, locale, clone. Its
// plugins and other locales are files the sandbox does not provide (a file requiring one is
// refused, 501); dayjs.extend runs a plugin the project passes itself.
'use strict';

var MS = 'millisecond', S = 'second', MIN = 'minute', H = 'hour', D = 'day', W = 'week', M = 'month', Q = 'quarter', Y = 'year', DATE = 'date';
var MS_MINUTE = 60000, MS_HOUR = 3600000, MS_DAY = 86400000, MS_WEEK = 604800000;
var FORMAT_DEFAULT = 'YYYY-MM-DDTHH:mm:ssZ';
var INVALID = 'Invalid Date';
var REGEX_PARSE = /^(\d{4})[-/]?(\d{1,2})?[-/]?(\d{0,2})[Tt\s]*(\d{1,2})?:?(\d{1,2})?:?(\d{1,2})?[.:]?(\d+)?$/;
var REGEX_FORMAT = /\[([^\]]+)]|YYYY|YY|M{1,4}|D{1,2}|d{1,4}|H{1,2}|h{1,2}|a|A|m{1,2}|s{1,2}|Z{1,2}|SSS/g;

var en = {
  name: 'en',
  weekdays: 'Sunday_Monday_Tuesday_Wednesday_Thursday_Friday_Saturday'.split('_'),
  months: 'January_February_March_April_May_June_July_August_September_October_November_December'.split('_'),
  ordinal: function (n) {
    var s = ['th', 'st', 'nd', 'rd'];
    var v = n % 100;
    return '[' + n + (s[(v - 20) % 10] || s[v] || s[0]) + ']';
  }
};
var L = 'en';
var Ls = { en: en };
var IS_DAYJS = '$isDayjsObject';

function pad(value, length, ch) {
  var s = String(value);
  if (!s || s.length >= length) return value;
  return Array(length + 1 - s.length).join(ch) + value;
}
function zoneString(inst) {
  var neg = -inst.utcOffset();
  var minutes = Math.abs(neg);
  return (neg <= 0 ? '+' : '-') + pad(Math.floor(minutes / 60), 2, '0') + ':' + pad(minutes % 60, 2, '0');
}
function monthDiff(a, b) {
  if (a.date() < b.date()) return -monthDiff(b, a);
  var whole = (b.year() - a.year()) * 12 + (b.month() - a.month());
  var anchor = a.clone().add(whole, M);
  var behind = b - anchor < 0;
  var anchor2 = a.clone().add(whole + (behind ? -1 : 1), M);
  return +(-(whole + (b - anchor) / (behind ? anchor - anchor2 : anchor2 - anchor)) || 0);
}
function absFloor(n) { return n < 0 ? Math.ceil(n) || 0 : Math.floor(n); }
function unitOf(u) {
  var short = { M: M, y: Y, w: W, d: D, D: DATE, h: H, m: MIN, s: S, ms: MS, Q: Q };
  return short[u] || String(u || '').toLowerCase().replace(/s$/, '');
}
function isUndefined(v) { return v === undefined; }

function isDayjs(d) { return d instanceof Dayjs || !!(d && d[IS_DAYJS]); }

function parseLocale(preset, object, isLocal) {
  var l;
  if (!preset) return L;
  if (typeof preset === 'string') {
    var lower = preset.toLowerCase();
    if (Ls[lower]) l = lower;
    if (object) { Ls[lower] = object; l = lower; }
    var parts = preset.split('-');
    if (!l && parts.length > 1) return parseLocale(parts[0]);
  } else {
    Ls[preset.name] = preset;
    l = preset.name;
  }
  if (!isLocal && l) L = l;
  return l || (!isLocal && L);
}

function dayjs(date, c) {
  if (isDayjs(date)) return date.clone();
  var cfg = typeof c === 'object' ? c : {};
  cfg.date = date;
  cfg.args = arguments;
  return new Dayjs(cfg);
}

function wrap(date, inst) {
  return dayjs(date, { locale: inst.$L, utc: inst.$u, x: inst.$x, $offset: inst.$offset });
}

var Utils = { s: pad, z: zoneString, m: monthDiff, a: absFloor, p: unitOf, u: isUndefined, l: parseLocale, i: isDayjs, w: wrap };

function parseDate(cfg) {
  var date = cfg.date, utc = cfg.utc;
  if (date === null) return new Date(NaN);
  if (date === undefined) return new Date();
  if (date instanceof Date) return new Date(date);
  if (typeof date === 'string' && !/Z$/i.test(date)) {
    var d = date.match(REGEX_PARSE);
    if (d) {
      var m = d[2] - 1 || 0;
      var ms = (d[7] || '0').substring(0, 3);
      if (utc) return new Date(Date.UTC(d[1], m, d[3] || 1, d[4] || 0, d[5] || 0, d[6] || 0, ms));
      return new Date(d[1], m, d[3] || 1, d[4] || 0, d[5] || 0, d[6] || 0, ms);
    }
  }
  return new Date(date);
}

function Dayjs(cfg) {
  this.$L = parseLocale(cfg.locale, null, true);
  this.parse(cfg);
  this.$x = this.$x || cfg.x || {};
  this[IS_DAYJS] = true;
}
var proto = Dayjs.prototype;
proto.parse = function (cfg) {
  this.$d = parseDate(cfg);
  this.init();
};
proto.init = function () {
  var d = this.$d;
  this.$y = d.getFullYear();
  this.$M = d.getMonth();
  this.$D = d.getDate();
  this.$W = d.getDay();
  this.$H = d.getHours();
  this.$m = d.getMinutes();
  this.$s = d.getSeconds();
  this.$ms = d.getMilliseconds();
};
proto.$utils = function () { return Utils; };
proto.isValid = function () { return this.$d.toString() !== INVALID; };
proto.isSame = function (that, units) {
  var other = dayjs(that);
  return this.startOf(units) <= other && other <= this.endOf(units);
};
proto.isAfter = function (that, units) { return dayjs(that) < this.startOf(units); };
proto.isBefore = function (that, units) { return this.endOf(units) < dayjs(that); };
proto.$g = function (input, get, set) {
  if (input === undefined) return this[get];
  return this.set(set, input);
};
proto.unix = function () { return Math.floor(this.valueOf() / 1000); };
proto.valueOf = function () { return this.$d.getTime(); };
proto.startOf = function (units, startOf) {
  var self = this;
  var isStart = startOf !== undefined ? startOf : true;
  var unit = unitOf(units);
  var atDay = function (d, m) {
    var ins = wrap(self.$u ? Date.UTC(self.$y, m, d) : new Date(self.$y, m, d), self);
    return isStart ? ins : ins.endOf(D);
  };
  var atTime = function (method, from) {
    var start = [0, 0, 0, 0], end = [23, 59, 59, 999];
    var d = self.toDate();
    d[method].apply(d, (isStart ? start : end).slice(from));
    return wrap(d, self);
  };
  var set = 'set' + (this.$u ? 'UTC' : '');
  switch (unit) {
    case Y: return isStart ? atDay(1, 0) : atDay(31, 11);
    case M: return isStart ? atDay(1, this.$M) : atDay(0, this.$M + 1);
    case W: {
      var weekStart = this.$locale().weekStart || 0;
      var gap = (this.$W < weekStart ? this.$W + 7 : this.$W) - weekStart;
      return atDay(isStart ? this.$D - gap : this.$D + (6 - gap), this.$M);
    }
    case D:
    case DATE: return atTime(set + 'Hours', 0);
    case H: return atTime(set + 'Minutes', 1);
    case MIN: return atTime(set + 'Seconds', 2);
    case S: return atTime(set + 'Milliseconds', 3);
    default: return this.clone();
  }
};
proto.endOf = function (arg) { return this.startOf(arg, false); };
proto.$set = function (units, value) {
  var unit = unitOf(units);
  var pre = 'set' + (this.$u ? 'UTC' : '');
  var names = {};
  names[D] = pre + 'Date'; names[DATE] = pre + 'Date'; names[M] = pre + 'Month'; names[Y] = pre + 'FullYear';
  names[H] = pre + 'Hours'; names[MIN] = pre + 'Minutes'; names[S] = pre + 'Seconds'; names[MS] = pre + 'Milliseconds';
  var name = names[unit];
  var arg = unit === D ? this.$D + (value - this.$W) : value;
  if (unit === M || unit === Y) {
    // The day of the month is kept where the new month has it, else its last day.
    var date = this.clone().set(DATE, 1);
    date.$d[name](arg);
    date.init();
    this.$d = date.set(DATE, Math.min(this.$D, date.daysInMonth())).$d;
  } else if (name) this.$d[name](arg);
  this.init();
  return this;
};
proto.set = function (unit, value) { return this.clone().$set(unit, value); };
proto.get = function (unit) { return this[unitOf(unit)](); };
proto.add = function (number, units) {
  var self = this;
  number = Number(number);
  var unit = unitOf(units);
  var byDays = function (n) {
    var d = dayjs(self);
    return wrap(d.date(d.date() + Math.round(n * number)), self);
  };
  if (unit === M) return this.set(M, this.$M + number);
  if (unit === Y) return this.set(Y, this.$y + number);
  if (unit === D) return byDays(1);
  if (unit === W) return byDays(7);
  var steps = {};
  steps[MIN] = MS_MINUTE; steps[H] = MS_HOUR; steps[S] = 1000;
  return wrap(this.$d.getTime() + number * (steps[unit] || 1), this);
};
proto.subtract = function (number, units) { return this.add(number * -1, units); };
proto.format = function (formatStr) {
  var self = this;
  var locale = this.$locale();
  if (!this.isValid()) return locale.invalidDate || INVALID;
  var str = formatStr || FORMAT_DEFAULT;
  var zone = zoneString(this);
  var hours = this.$H, minutes = this.$m, month = this.$M;
  var short = function (arr, index, full, length) {
    return (arr && (arr[index] || arr(self, str))) || full[index].slice(0, length);
  };
  var h12 = function (n) { return pad(hours % 12 || 12, n, '0'); };
  var meridiem = locale.meridiem || function (hour, minute, lower) {
    var m = hour < 12 ? 'AM' : 'PM';
    return lower ? m.toLowerCase() : m;
  };
  var token = function (match) {
    switch (match) {
      case 'YY': return String(self.$y).slice(-2);
      case 'YYYY': return pad(self.$y, 4, '0');
      case 'M': return month + 1;
      case 'MM': return pad(month + 1, 2, '0');
      case 'MMM': return short(locale.monthsShort, month, locale.months, 3);
      case 'MMMM': return short(locale.months, month);
      case 'D': return self.$D;
      case 'DD': return pad(self.$D, 2, '0');
      case 'd': return String(self.$W);
      case 'dd': return short(locale.weekdaysMin, self.$W, locale.weekdays, 2);
      case 'ddd': return short(locale.weekdaysShort, self.$W, locale.weekdays, 3);
      case 'dddd': return locale.weekdays[self.$W];
      case 'H': return String(hours);
      case 'HH': return pad(hours, 2, '0');
      case 'h': return h12(1);
      case 'hh': return h12(2);
      case 'a': return meridiem(hours, minutes, true);
      case 'A': return meridiem(hours, minutes, false);
      case 'm': return String(minutes);
      case 'mm': return pad(minutes, 2, '0');
      case 's': return String(self.$s);
      case 'ss': return pad(self.$s, 2, '0');
      case 'SSS': return pad(self.$ms, 3, '0');
      case 'Z': return zone;
    }
    return null;
  };
  return str.replace(REGEX_FORMAT, function (match, escaped) {
    return escaped || token(match) || zone.replace(':', '');
  });
};
proto.utcOffset = function () { return -Math.round(this.$d.getTimezoneOffset() / 15) * 15; };
proto.diff = function (input, units, float) {
  var self = this;
  var unit = unitOf(units);
  var that = dayjs(input);
  var zoneDelta = (that.utcOffset() - this.utcOffset()) * MS_MINUTE;
  var diff = this - that;
  var months = function () { return monthDiff(self, that); };
  var result;
  switch (unit) {
    case Y: result = months() / 12; break;
    case M: result = months(); break;
    case Q: result = months() / 3; break;
    case W: result = (diff - zoneDelta) / MS_WEEK; break;
    case D: result = (diff - zoneDelta) / MS_DAY; break;
    case H: result = diff / MS_HOUR; break;
    case MIN: result = diff / MS_MINUTE; break;
    case S: result = diff / 1000; break;
    default: result = diff;
  }
  return float ? result : absFloor(result);
};
proto.daysInMonth = function () { return this.endOf(M).$D; };
proto.$locale = function () { return Ls[this.$L]; };
proto.locale = function (preset, object) {
  if (!preset) return this.$L;
  var that = this.clone();
  var next = parseLocale(preset, object, true);
  if (next) that.$L = next;
  return that;
};
proto.clone = function () { return wrap(this.$d, this); };
proto.toDate = function () { return new Date(this.valueOf()); };
proto.toJSON = function () { return this.isValid() ? this.toISOString() : null; };
proto.toISOString = function () { return this.$d.toISOString(); };
proto.toString = function () { return this.$d.toUTCString(); };

[['$ms', MS], ['$s', S], ['$m', MIN], ['$H', H], ['$W', D], ['$M', M], ['$y', Y], ['$D', DATE]].forEach(function (g) {
  proto[g[1]] = function (input) { return this.$g(input, g[0], g[1]); };
});

dayjs.prototype = proto;
dayjs.extend = function (plugin, option) {
  if (!plugin.$i) {
    plugin(option, Dayjs, dayjs);
    plugin.$i = true;
  }
  return dayjs;
};
dayjs.locale = parseLocale;
dayjs.isDayjs = isDayjs;
dayjs.unix = function (timestamp) { return dayjs(timestamp * 1e3); };
dayjs.en = Ls[L];
dayjs.Ls = Ls;
dayjs.p = {};

module.exports = dayjs;
