'use strict';

// Notes is a draft category: GraphQL's live reads leave it out.
const CATEGORIES = [{ name: 'News', publishedAt: new Date() }, { name: 'Notes' }];
const ARTICLES = [
  { title: 'Hello world', body: 'The first article of many to come here.', category: 1 },
  { title: 'Secret plans', body: 'Nobody should read this one.', private: true, category: 1 },
  { title: 'Second thoughts', body: 'Short one.', category: 2 },
];

module.exports = {
  register() {},

  async bootstrap({ strapi }) {
    // An audit trail of the article lists read: what was asked and how many came back. A
    // function subscriber sees every event of every model, and picks the ones it records.
    strapi.db.lifecycles.subscribe(async (event) => {
      if (event.model.uid !== 'api::article.article') {
        return;
      }
      if (event.action === 'afterFindMany') {
        await strapi.db.query('api::audit.audit').create({
          data: { action: event.action, note: `${JSON.stringify(event.params.where)} -> ${event.result.length}` },
        });
      }
      if (event.action === 'afterCount') {
        strapi.log.info(`articles counted: ${event.result}`);
      }
    });

    const n = await strapi.db.query('api::category.category').count();
    if (n === 0) {
      for (const data of CATEGORIES) {
        await strapi.db.query('api::category.category').create({ data });
      }
      for (const data of ARTICLES) {
        await strapi.db.query('api::article.article').create({ data });
      }
    }
  },
};
