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

    const count = await strapi.entityService.count('api::article.article');
    if (count === 0) {
      await strapi.entityService.create('api::article.article', { data: { title: 'Welcome' } });
    }
  },
};
