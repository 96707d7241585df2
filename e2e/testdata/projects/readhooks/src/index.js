'use strict';

const ARTICLES = [
  { title: 'Hello world', body: 'The first article of many to come here.', publishedAt: new Date() },
  { title: 'Hidden gem', body: 'Nobody should read this one at all.', hidden: true, publishedAt: new Date() },
  { title: 'Second thoughts', body: 'Short one.', publishedAt: new Date() },
  { title: 'Draft ideas', body: 'Not yet published, still thinking.' },
];

module.exports = {
  register() {},

  async bootstrap({ strapi }) {
    // Every single article says it was seen, as analytics code does.
    strapi.db.lifecycles.subscribe({
      models: ['api::article.article'],
      beforeFindOne(event) {
        event.state.asked = Object.keys(event.params.where || {}).join(',');
      },
      afterFindOne(event) {
        if (event.result) {
          event.result.seen = event.state.asked;
        }
      },
    });

    const n = await strapi.db.query('api::article.article').count({ where: { hidden: { $in: [true, false] } } });
    if (n === 0) {
      for (const data of ARTICLES) {
        await strapi.entityService.create('api::article.article', { data });
      }
    }
  },
};
