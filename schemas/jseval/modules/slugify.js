// slugify (the npm package Strapi projects use for slugs) as Quarry's sandbox provides it:
// slugify(string, replacement | { replacement, remove, lower, strict, trim, locale }).
// Letters lose their accents (NFD), a few letters and symbols are spelled out, and what is
// left outside the package's allowed characters is removed.
'use strict';
var spelled = {
  'ß': 'ss', 'æ': 'ae', 'Æ': 'AE', 'ø': 'o', 'Ø': 'O', 'œ': 'oe', 'Œ': 'OE', 'đ': 'd', 'Đ': 'D', 'ð': 'd', 'Ð': 'D',
  'þ': 'th', 'Þ': 'TH', 'ł': 'l', 'Ł': 'L', 'ı': 'i', 'ħ': 'h', 'Ħ': 'H',
  '&': 'and', '$': 'dollar', '%': 'percent', '<': 'less', '>': 'greater', '|': 'or',
  '¢': 'cent', '£': 'pound', '¥': 'yen', '€': 'euro', '©': '(c)', '®': '(r)', '™': 'tm', '∞': 'infinity', '♥': 'love'
};
var locales = {
  de: { 'Ä': 'AE', 'ä': 'ae', 'Ö': 'OE', 'ö': 'oe', 'Ü': 'UE', 'ü': 'ue', '%': 'prozent', '&': 'und', '|': 'oder', '∞': 'unendlich', '♥': 'Liebe', '<': 'kleiner', '>': 'groesser' },
  fr: { '%': 'pourcent', '&': 'et', '<': 'plus petit', '>': 'plus grand', '|': 'ou', '∞': 'infini', '♥': 'amour' },
  es: { '%': 'por ciento', '&': 'y', '<': 'menor que', '>': 'mayor que', '|': 'o', '∞': 'infinito', '♥': 'amor' }
};
function charOf(ch, locale) {
  if (locale && Object.prototype.hasOwnProperty.call(locale, ch)) return locale[ch];
  if (Object.prototype.hasOwnProperty.call(spelled, ch)) return spelled[ch];
  var base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  return base || ch;
}
function slugify(string, options) {
  if (typeof string !== 'string') throw new Error('slugify: string argument expected');
  options = typeof options === 'string' ? { replacement: options } : options || {};
  var locale = locales[options.locale];
  var replacement = options.replacement === undefined ? '-' : options.replacement;
  var trim = options.trim === undefined ? true : options.trim;
  var remove = options.remove || /[^\w\s$*_+~.()'"!\-:@]+/g;
  var slug = '';
  for (var ch of string.normalize()) {
    var c = charOf(ch, locale);
    if (c === replacement) c = ' ';
    slug += c.replace(remove, '');
  }
  if (options.strict) slug = slug.replace(/[^A-Za-z0-9\s]/g, '');
  if (trim) slug = slug.trim();
  slug = slug.replace(/\s+/g, replacement);
  if (options.lower) slug = slug.toLowerCase();
  return slug;
}
slugify.extend = function (map) { for (var k in map) spelled[k] = map[k]; };
module.exports = slugify;
module.exports.default = slugify;
