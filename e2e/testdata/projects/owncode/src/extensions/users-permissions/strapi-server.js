'use strict';

/**
 * The users-permissions plugin as the project extends it: /api/users/me also says how many
 * notes the caller owns, as profile pages ask for.
 */
module.exports = (plugin) => {
  const originalMe = plugin.controllers.user.me;
  plugin.controllers.user.me = async (ctx) => {
    await originalMe(ctx);
    if (ctx.body && ctx.query.withNotes === 'true') {
      const notes = await strapi.entityService.count('api::note.note', { filters: { owner: ctx.state.user.id } });
      ctx.body = { id: ctx.body.id, username: ctx.body.username, notes };
    }
  };
  return plugin;
};
