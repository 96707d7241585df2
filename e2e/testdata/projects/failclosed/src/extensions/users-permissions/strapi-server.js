module.exports = (plugin) => {
  const update = plugin.controllers.user.update;
  plugin.controllers.user.update = async (ctx) => {
    if (!ctx.state.user || String(ctx.state.user.id) !== ctx.params.id) {
      return ctx.unauthorized('You can only change yourself');
    }
    return update(ctx);
  };
  return plugin;
};
