'use strict';
// Timestamp masking shared by the recorders (documented in README.md):
//  * createdAt / updatedAt: every string value is replaced by "<time>".
//  * publishedAt: a string value is replaced by "<time>" unless it starts with "2024-"
//    (every publishedAt the recorders send explicitly lies in 2024; values the server
//    generates are "now").
// Applied to objects at any depth of a parsed body and, with the same rule, to a raw body.
// e2e/conformance_test.go applies the same rule to Quarry's answers.

const TIME = '<time>';

function maskValue(key, v) {
  if (typeof v !== 'string') return v;
  if (key === 'createdAt' || key === 'updatedAt') return TIME;
  if (key === 'publishedAt' && !v.startsWith('2024-')) return TIME;
  return v;
}

function maskParsed(x) {
  if (Array.isArray(x)) return x.map(maskParsed);
  if (x && typeof x === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(x)) out[k] = maskValue(k, maskParsed(v));
    return out;
  }
  return x;
}

function maskRaw(s) {
  return s.replace(/"(createdAt|updatedAt|publishedAt)":"((?:[^"\\]|\\.)*)"/g, (m, k, v) =>
    `"${k}":"${maskValue(k, v)}"`);
}

module.exports = { TIME, maskValue, maskParsed, maskRaw };
