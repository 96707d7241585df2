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
  };
};
