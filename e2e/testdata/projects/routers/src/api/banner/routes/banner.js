'use strict';

const { createCoreRouter } = require('@strapi/strapi').factories;

const defaultRouter = createCoreRouter('api::banner.banner', {
  only: ['find', 'update'],
  config: {
    find: { auth: false },
  },
});

const textRoute = { method: 'GET', path: '/banner/text', handler: 'banner.text', config: { auth: false } };

// The core routes are read when Strapi registers the routes, once it has the content types
// (reading them as the file loads, Strapi does not start).
module.exports = {
  get routes() {
    return [textRoute, ...defaultRouter.routes];
  },
};
