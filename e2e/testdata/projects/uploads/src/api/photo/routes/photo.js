'use strict';

const { createCoreRouter } = require('@strapi/strapi').factories;

module.exports = createCoreRouter('api::photo.photo', {
  config: { update: { middlewares: ['api::photo.stamp'] } },
});
