'use strict';

const { createCoreRouter } = require('@strapi/strapi').factories;

module.exports = createCoreRouter('api::page.page', {
  config: {
    find: { middlewares: ['api::page.page-populate-middleware'] },
    findOne: { middlewares: [{ name: 'global::only-fields', config: { fields: ['title'] } }] },
    update: { middlewares: ['global::wrap-body'] },
  },
});
