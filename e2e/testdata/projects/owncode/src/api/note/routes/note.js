'use strict';

const { createCoreRouter } = require('@strapi/strapi').factories;

module.exports = createCoreRouter('api::note.note', {
  config: {
    find: { middlewares: ['global::is-owner'] },
    findOne: { middlewares: ['global::is-owner'] },
    create: { policies: ['global::is-authenticated'] },
    update: { policies: ['global::is-authenticated'], middlewares: ['global::is-owner'] },
    delete: { middlewares: ['global::is-owner'] },
  },
});
