'use strict';

const { createCoreController } = require('@strapi/strapi').factories;

module.exports = createCoreController('api::note.note', ({ strapi }) => ({
  async create(ctx) {
    ctx.request.body.data = { ...ctx.request.body.data, owner: ctx.state.user.id };
    return super.create(ctx);
  },

  async count(ctx) {
    const count = await strapi.db.query('api::note.note').count({ where: { owner: ctx.state.user.id } });
    return { count };
  },

  async archive(ctx) {
    const entry = await strapi.db.query('api::note.note').update({
      where: { id: ctx.params.id },
      data: { body: 'archived' },
    });
    const sanitized = await this.sanitizeOutput(entry, ctx);
    return this.transformResponse(sanitized);
  },
}));
