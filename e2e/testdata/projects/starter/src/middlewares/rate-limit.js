'use strict';

// Rate limiting as real projects add it, with koa2-ratelimit (users-permissions' own
// dependency): here only for the limited route, two requests a minute.
const { RateLimit } = require('koa2-ratelimit');

module.exports = (config, { strapi }) => async (ctx, next) =>
  RateLimit.middleware({
    interval: { min: 1 },
    max: 2,
    prefixKey: `${ctx.request.path}:${ctx.request.ip}`,
    skip: (c) => c.request.path !== '/api/items-limited',
  })(ctx, next);
