'use strict';

const { createCoreRouter } = require('@strapi/strapi').factories;

// A read-only API: the articles are written in the admin panel.
module.exports = createCoreRouter('api::article.article', { only: ['find', 'findOne'] });
