'use strict';

/**
 * The JWT lives in a signed httpOnly cookie: a request that brings one and no Authorization
 * header of its own is authenticated with it.
 */
module.exports = (config, { strapi }) => {
  return async (ctx, next) => {
    const token = ctx.cookies.get('token', { signed: true });
    if (token && !ctx.request.header.authorization) {
      ctx.request.header.authorization = `Bearer ${token}`;
    }
    await next();
    // Who the route authenticated, for the front-end's logs.
    if (ctx.state.user) {
      ctx.set('X-User', `${ctx.state.user.username} (${ctx.state.auth.strategy.name})`);
    }
  };
};
