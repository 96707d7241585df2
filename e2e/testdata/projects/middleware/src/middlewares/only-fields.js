'use strict';

module.exports = (config) => async (ctx, next) => {
  ctx.query.fields = config.fields;
  ctx.state.page = ctx.params.id;
  await next();
};
