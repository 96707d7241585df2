'use strict';

const { createCoreService } = require('@strapi/strapi').factories;

module.exports = createCoreService('api::tag.tag', ({ strapi }) => ({
  async find(params) {
    // Only tags with a name, whatever the client asks.
    const filters = { $and: [params.filters || {}, { name: { $notNull: true } }] };
    return super.find({ ...params, filters });
  },
}));
