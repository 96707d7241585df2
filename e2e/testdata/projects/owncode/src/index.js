'use strict';

module.exports = {
  /**
   * Users see only themselves: the users-permissions plugin's own routes get the project's
   * middleware and policy, as the plugin's documentation suggests for register().
   */
  register({ strapi }) {
    const routes = strapi.plugins['users-permissions'].routes['content-api'].routes;
    const find = routes.find((r) => r.handler === 'user.find' && r.method === 'GET');
    find.config.middlewares = [...(find.config.middlewares || []), 'global::only-self'];
    const findOne = routes.find((r) => r.handler === 'user.findOne');
    findOne.config.policies = [...(findOne.config.policies || []), 'global::is-self'];
    // An inline middleware, as many projects write it: /api/users/me answers a header.
    const me = routes.find((r) => r.handler === 'user.me');
    me.config.middlewares = [
      ...(me.config.middlewares || []),
      async (ctx, next) => {
        await next();
        ctx.set('x-profile-checked', 'yes');
        if (ctx.query.short === 'true' && ctx.body) ctx.body = { id: ctx.body.id, username: ctx.body.username };
      },
    ];
    const extension = strapi.plugin('graphql').service('extension');
    extension.shadowCRUD('api::note.note').disableAction('delete');
    // A query of the shop's own, and a policy on a generated one.
    extension.use(({ strapi }) => ({
      typeDefs: `
        type ShopStats { total: Int!, visible: Int!, cheapest: String }
        extend type Query { shopStats(minPrice: Float): ShopStats, productNames(limit: Int): [String] }
      `,
      resolvers: {
        Query: {
          shopStats: {
            async resolve(parent, args) {
              const filters = args.minPrice === undefined ? {} : { price: { $gte: args.minPrice } };
              const total = await strapi.entityService.count('api::product.product', { filters });
              const visible = await strapi.entityService.count('api::product.product', { filters: { ...filters, hidden: false } });
              const [first] = await strapi.entityService.findMany('api::product.product', { filters, sort: { price: 'asc' }, limit: 1 });
              return { total, visible, cheapest: first ? first.name : null };
            },
          },
          async productNames(parent, args) {
            const list = await strapi.entityService.findMany('api::product.product', { sort: { name: 'asc' }, limit: args.limit });
            return list.map((p) => p.name);
          },
        },
      },
      resolversConfig: {
        'Query.shopStats': { auth: false },
        'Query.notes': { policies: ['global::is-authenticated'] },
        // Resolver middlewares: inline ones that change the answer, one given by name that
        // changes the args, one given by name with options that refuses some args of a
        // generated query.
        'Query.productNames': {
          auth: false,
          middlewares: [
            async (next, parent, args, context, info) => {
              const names = await next(parent, args, context, info);
              return names.map((n) => n.toUpperCase());
            },
            'global::gql-cap-limit',
          ],
        },
        'Query.products': {
          middlewares: [{ name: 'global::gql-no-hidden', options: { message: 'Hidden products are not listed here' } }],
        },
      },
    }));
    // An extension built with nexus, as the plugin's own are: a type and a query of the shop's.
    extension.use(({ nexus }) => ({
      types: [
        nexus.objectType({
          name: 'PriceRange',
          definition(t) {
            t.nonNull.int('count');
            t.float('lowest');
            t.float('highest');
            t.list.nonNull.string('names');
          },
        }),
        nexus.extendType({
          type: 'Query',
          definition(t) {
            t.field('priceRange', {
              type: 'PriceRange',
              args: { upTo: nexus.floatArg(), visibleOnly: nexus.nonNull(nexus.booleanArg({ default: true })) },
              async resolve(parent, args) {
                const filters = {};
                if (args.upTo !== undefined && args.upTo !== null) filters.price = { $lte: args.upTo };
                if (args.visibleOnly) filters.hidden = false;
                const list = await strapi.entityService.findMany('api::product.product', { filters, sort: { price: 'asc' } });
                return {
                  count: list.length,
                  lowest: list.length ? Number(list[0].price) : null,
                  highest: list.length ? Number(list[list.length - 1].price) : null,
                  names: list.map((p) => p.name),
                };
              },
            });
          },
        }),
      ],
      resolversConfig: { 'Query.priceRange': { auth: false } },
    }));
  },

  bootstrap() {},
};
