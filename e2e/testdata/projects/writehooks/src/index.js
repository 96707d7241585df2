'use strict';

// An audit log, as projects write one: a function subscriber sees every event of every
// model, and records each article (and the home page) written, with what its read-back
// showed.
const WRITES = ['afterCreate', 'afterUpdate', 'afterDelete'];

// The timestamps Strapi's own subscriber sets, named by their type rather than their time.
const untimed = (key, value) => (key === 'createdAt' || key === 'updatedAt' ? typeof value : value);

module.exports = {
  register() {},

  async bootstrap({ strapi }) {
    strapi.db.lifecycles.subscribe(async (event) => {
      if (event.model.uid === 'api::category.category' && event.action === 'beforeCount') {
        // The entity validator checks that an article's category exists.
        await strapi.entityService.create('api::audit.audit', {
          data: { action: event.action, note: JSON.stringify(event.params) },
        });
      }
      if (event.model.uid !== 'api::article.article' && event.model.uid !== 'api::homepage.homepage') {
        return;
      }
      if (event.action === 'beforeFindOne') {
        event.state.keys = Object.keys(event.params).join(',');
      }
      if (event.action === 'afterFindOne' && event.result) {
        event.result.readAs = event.state.keys;
      }
      if (WRITES.includes(event.action)) {
        const r = event.result || {};
        await strapi.entityService.create('api::audit.audit', {
          data: { action: event.action, entry: r.id, title: r.title, note: `${r.excerpt}|${r.readAs}` },
        });
      }
      if (['afterCreateMany', 'afterUpdateMany', 'afterDeleteMany'].includes(event.action)) {
        await strapi.entityService.create('api::audit.audit', {
          data: { action: event.action, entry: event.result.count, note: JSON.stringify(event.params, untimed) },
        });
      }
    });

    const some = await strapi.db.query('api::category.category').findMany({ limit: 1 });
    if (some.length === 0) {
      await strapi.entityService.create('api::category.category', { data: { name: 'News' } });
      await strapi.entityService.create('api::category.category', { data: { name: 'Notes' } });
    }
  },
};
