module.exports = () => async (ctx, next) => {
  ctx.query.filters = { ...(ctx.query.filters || {}), id: ctx.state.user ? ctx.state.user.id : 0 };
  await next();
};
