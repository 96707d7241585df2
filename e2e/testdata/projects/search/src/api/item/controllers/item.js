'use strict';

const { createCoreController } = require('@strapi/strapi').factories;

module.exports = createCoreController('api::item.item', ({ strapi }) => ({
  // A search page written over the entity service and the query engine.
  async search(ctx) {
    const term = ctx.query.term;
    const viaService = await strapi.entityService.findMany('api::item.item', { _q: term, fields: ['name'], sort: 'id' });
    const viaQuery = await strapi.db.query('api::item.item').findMany({ _q: term, select: ['name'], orderBy: { id: 'asc' } });
    const count = await strapi.db.query('api::item.item').count({ _q: term });
    ctx.body = { viaService: viaService.map((e) => e.name), viaQuery: viaQuery.map((e) => e.name), count };
  },
}));
