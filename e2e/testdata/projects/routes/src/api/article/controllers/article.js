'use strict';
const { createCoreController } = require('@strapi/strapi').factories;
module.exports = createCoreController('api::article.article', ({ strapi }) => ({
  async featured(ctx) { ctx.body = { featured: true }; },
  async like(ctx) { ctx.body = { liked: ctx.params.id }; },
}));
