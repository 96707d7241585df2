'use strict';

exports.edge = '*';
const index = require('./index');
exports.frame = (s) => exports.edge + s + exports.edge;
exports.indexWasEmpty = () => Object.keys(index).length === 0;
