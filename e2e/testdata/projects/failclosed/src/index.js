'use strict';

module.exports = {
  register({ strapi }) {
    const routes = strapi.plugins['users-permissions'].routes['content-api'].routes;
    for (const route of routes) {
      if (route.handler === 'user.find') {
        route.config.middlewares = [...(route.config.middlewares || []), 'global::only-me'];
      }
    }
  },
  async bootstrap({ strapi }) {
    strapi.db.lifecycles.subscribe({
      models: ['api::homepage.homepage'],
      afterUpdate(event) {
        strapi.log.info('homepage changed');
      },
    });
  },
};
