'use strict';

const { createCoreController } = require('@strapi/strapi').factories;

module.exports = createCoreController('api::item.item', ({ strapi }) => ({
  async label(ctx) {
    const item = await strapi.entityService.findOne('api::item.item', ctx.params.id, { fields: ['title'] });
    ctx.body = { label: strapi.catalog.label(item) };
  },
  async limited(ctx) {
    ctx.body = { ok: true, remaining: ctx.state.rateLimit.remaining };
  },
  async ping(ctx) {
    ctx.body = { answer: strapi.notesClient.ping() };
  },
}));
