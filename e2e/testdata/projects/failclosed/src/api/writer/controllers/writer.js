'use strict';

// A controller that needs an npm module Quarry's sandbox does not provide: its overridden
// action is refused (the module is named), never answered by the core action.
const axios = require('axios');
const _ = require('lodash');

module.exports = require('@strapi/strapi').factories.createCoreController('api::writer.writer', () => ({
  async find(ctx) {
    const { data } = await axios.get('https://example.com/writers');
    return _.map(data, 'name');
  },
}));
