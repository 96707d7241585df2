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
}));
