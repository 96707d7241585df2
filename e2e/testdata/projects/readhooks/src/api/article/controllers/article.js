'use strict';

const { createCoreController } = require('@strapi/strapi').factories;

module.exports = createCoreController('api::article.article', ({ strapi }) => ({
  // What the front page shows beside the list: counts and titles, through both APIs.
  async stats(ctx) {
    const published = await strapi.entityService.count('api::article.article', { publicationState: 'live' });
    const all = await strapi.db.query('api::article.article').count();
    const titles = await strapi.entityService.findMany('api::article.article', {
      fields: ['title', 'body'],
      sort: 'id',
      filters: { title: { $notContains: 'Draft' } },
    });
    const first = await strapi.db.query('api::article.article').findOne({ where: { title: 'Hidden gem' } });
    const latest = await strapi.db.query('api::article.article').findMany({ select: ['title'], orderBy: { id: 'desc' }, limit: 2 });
    const page = await strapi.db.query('api::article.article').findPage({ page: 2, pageSize: 1, orderBy: 'id', select: ['id', 'title'] });
    const [listed, counted] = await strapi.db.query('api::article.article').findWithCount({ select: ['title'], orderBy: [{ title: 'asc' }] });
    const one = await strapi.entityService.findOne('api::article.article', 3, { fields: ['title'] });
    ctx.body = { published, all, titles, first, latest, page, listed, counted, one };
  },
}));
