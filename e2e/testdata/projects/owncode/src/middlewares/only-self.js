'use strict';

/** Limits a list of users to the caller. */
module.exports = () => async (ctx, next) => {
  ctx.query.filters = { ...(ctx.query.filters || {}), id: ctx.state.user.id };
  await next();
};
