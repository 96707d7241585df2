'use strict';

const { createCoreController } = require('@strapi/strapi').factories;

module.exports = createCoreController('api::article.article', ({ strapi }) => ({
  // Copies an article, touches the copy up through the query engine and throws it away:
  // every write reads its entry back through findOne, whose hooks run there.
  async copy(ctx) {
    const src = await strapi.entityService.findOne('api::article.article', ctx.params.id, { fields: ['title', 'body'] });
    if (!src) {
      return ctx.notFound('No such article');
    }
    const made = await strapi.entityService.create('api::article.article', { data: { title: `${src.title} (copy)`, body: src.body }, fields: ['title'] });
    const edited = await strapi.entityService.update('api::article.article', made.id, { data: { body: 'Edited copy body' } });
    const viaDb = await strapi.db.query('api::article.article').update({ where: { id: made.id }, data: { title: 'Copy, renamed' }, select: ['id', 'title'] });
    const created = await strapi.db.query('api::article.article').create({ data: { title: 'Made by the query engine', body: 'Short text here' } });
    const gone = await strapi.db.query('api::article.article').delete({ where: { id: made.id } });
    const removed = await strapi.entityService.delete('api::article.article', created.id, { fields: ['title'] });
    ctx.body = { made, edited, viaDb, created, gone, removed };
  },

  // Writes three articles (one with createMany), rewrites and removes them in bulk through
  // the query engine.
  async bulk(ctx) {
    const es = strapi.entityService;
    await es.create('api::article.article', { data: { title: 'Bulk one', body: 'Bulk body one' } });
    await es.create('api::article.article', { data: { title: 'Bulk two', body: 'Bulk body two' } });
    const many = await strapi.db.query('api::article.article').createMany({ data: [{ title: '  Bulk three ', body: 'Bulk body three' }] });
    const bulk = { title: { $startsWith: 'Bulk' } };
    const updated = await strapi.db.query('api::article.article').updateMany({ where: bulk, data: { body: 'Rewritten' } });
    const after = await strapi.db.query('api::article.article').findMany({ where: bulk, select: ['title', 'body'], orderBy: 'id' });
    const deleted = await strapi.db.query('api::article.article').deleteMany({ where: bulk });
    const none = await strapi.db.query('api::article.article').updateMany({ where: bulk, data: { body: 'Nobody' } });
    ctx.body = { many, updated, after, deleted, none };
  },
}));
