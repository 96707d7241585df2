'use strict';

// Notes that the request went through config/middlewares' stack.
module.exports = (config) => async (ctx, next) => {
  ctx.state.trail = ctx.state.trail || [];
  ctx.state.trail.push(config.step || 'global');
  await next();
};
