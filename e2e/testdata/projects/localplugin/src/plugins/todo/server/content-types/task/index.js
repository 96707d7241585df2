'use strict';

const schema = require('./schema.json');
const lifecycles = require('./lifecycles');

module.exports = { schema, lifecycles };
