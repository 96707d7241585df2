'use strict';

const all = require('./index');

module.exports = {
  loud: (s) => String(s).toUpperCase() + '!',
  // The index was still being filled when this file ran.
  indexSizeSeen: () => Object.keys(all).length,
};
