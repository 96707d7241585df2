'use strict';

module.exports = () => async (ctx, next) => {
  await next();
  ctx.body = { wrapped: ctx.body };
};
