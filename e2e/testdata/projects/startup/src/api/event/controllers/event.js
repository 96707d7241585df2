'use strict';

const { createCoreController } = require('@strapi/strapi').factories;

module.exports = createCoreController('api::event.event', ({ strapi }) => ({
  // Gives every event without a title one, in one query.
  async retitle(ctx) {
    const { count } = await strapi.db.query('api::event.event').updateMany({
      where: { title: { $null: true } },
      data: { title: ctx.request.body.title || 'Untitled' },
    });
    ctx.body = { count };
  },

  // Removes the events whose slug starts with the given prefix.
  async cleanup(ctx) {
    const prefix = ctx.request.body.prefix;
    if (!prefix) {
      return ctx.badRequest('prefix is required');
    }
    const result = await strapi.db.query('api::event.event').deleteMany({
      where: { slug: { $startsWith: prefix } },
    });
    ctx.body = result;
  },
}));
