'use strict';

/**
 * A local plugin in the style of real ones: its own routes, a controller calling its own
 * service through strapi.plugin(), and a policy of its own.
 */
module.exports = () => ({
  register() {},
  bootstrap() {},
  routes: {
    'content-api': {
      type: 'content-api',
      routes: [
        { method: 'GET', path: '/cheapest', handler: 'catalog.cheapest', config: { policies: ['has-limit'] } },
        { method: 'GET', path: '/ping', handler: 'catalog.ping', config: { auth: false } },
      ],
    },
  },
  controllers: {
    catalog: ({ strapi }) => ({
      async cheapest(ctx) {
        const limit = Number(ctx.query.limit);
        const items = await strapi.plugin('shop-tools').service('pricing').cheapest(limit);
        ctx.body = { data: items, meta: { limit } };
      },
      ping(ctx) {
        ctx.body = { pong: true, plugin: ctx.state.route.info.pluginName };
      },
    }),
  },
  services: {
    pricing: ({ strapi }) => ({
      cheapest(limit) {
        return strapi.entityService.findMany('api::product.product', {
          sort: { price: 'asc' },
          limit,
          fields: ['name', 'price'],
          filters: { hidden: false },
        });
      },
    }),
  },
  policies: {
    'has-limit': (policyContext) => policyContext.request.query.limit !== undefined,
  },
});
