'use strict';

const { createCoreController } = require('@strapi/strapi').factories;

// findOne by slug, as shop front-ends ask for /api/articles/<slug>.
module.exports = createCoreController('api::article.article', ({ strapi }) => ({
  async findOne(ctx) {
    const { id } = ctx.params;
    const entity = await strapi.db.query('api::article.article').findOne({ where: { slug: id } });
    const sanitized = await this.sanitizeOutput(entity, ctx);
    return this.transformResponse(sanitized);
  },
}));
