'use strict';

const { errors } = require('@strapi/utils');

module.exports = {
  register({ strapi }) {
    // Every answer says who served it, and what the rest of the server answered.
    strapi.server.use(async (ctx, next) => {
      ctx.state.trail = ['register'];
      ctx.set('X-Served-By', 'serveruse');
      if (ctx.query.teapot === '1') {
        ctx.throw(418, 'No coffee here');
      }
      if (ctx.path === '/api/raw-body') {
        // Strapi's body parser has not run yet out here.
        ctx.body = { parsed: ctx.request.body !== undefined };
        return;
      }
      await next();
      ctx.set('X-Trail', ctx.state.trail.join(' > '));
      ctx.set('X-Status-Seen', String(ctx.status));
    });

    // A liveness probe for the load balancer, and an internal route nobody may call.
    strapi.server.routes([
      { method: 'GET', path: '/api/ping', handler: (ctx) => { ctx.body = 'pong'; }, config: { auth: false } },
      { method: 'GET', path: '/api/internal/stats', handler: (ctx) => { ctx.body = { articles: 'many' }; } },
    ]);
  },

  async bootstrap({ strapi }) {
    // The payment provider's webhook, answered before any route.
    strapi.server.use(async (ctx, next) => {
      ctx.state.trail.push('bootstrap');
      if (ctx.request.url === '/api/webhook/stripe' && ctx.method === 'POST') {
        const event = ctx.request.body || {};
        if (event.type !== 'checkout.session.completed') {
          ctx.status = 400;
          ctx.body = { received: false, error: `Unhandled event type ${event.type}` };
          return;
        }
        ctx.body = { received: true, id: event.id, trail: ctx.state.trail };
        return;
      }
      await next();
    });

    // Articles are never deleted, and locked ones are not written through the API.
    strapi.server.use(async (ctx, next) => {
      if (ctx.path.startsWith('/api/articles') && ctx.method === 'DELETE') {
        throw new errors.ForbiddenError('Articles cannot be deleted');
      }
      const data = (ctx.request.body && ctx.request.body.data) || {};
      if (ctx.path.startsWith('/api/articles') && ctx.method !== 'GET' && data.locked) {
        return ctx.badRequest('Locked articles are read-only', { field: 'locked' });
      }
      await next();
    });

    // Signed hooks from other services, outside the content API.
    strapi.server.routes([
      {
        method: 'POST',
        path: '/hooks/:source',
        handler: [
          (ctx, next) => {
            ctx.state.source = ctx.params.source.toLowerCase();
            return next();
          },
          async (ctx) => ({
            source: ctx.state.source,
            event: (ctx.request.body || {}).event || null,
            route: ctx.state.route.info.type,
            trail: ctx.state.trail,
            count: await strapi.entityService.count('api::article.article'),
          }),
        ],
        config: { auth: false, policies: ['global::signed'] },
      },
    ]);

    const count = await strapi.entityService.count('api::article.article');
    if (count === 0) {
      await strapi.entityService.create('api::article.article', { data: { title: 'Welcome' } });
    }
  },
};
