'use strict';

const { createCoreRouter } = require('@strapi/strapi').factories;

module.exports = createCoreRouter('api::article.article', {
  config: {
    update: { policies: ['global::is-owner'] },
    delete: { policies: ['global::is-owner'] },
  },
});
