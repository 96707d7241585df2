'use strict';

/**
 * Lets a user see and change only what they own: lists are limited to the caller's
 * entries, and an entry of someone else's is refused.
 */
module.exports = (config, { strapi }) => {
  return async (ctx, next) => {
    const user = ctx.state.user;
    if (!user) {
      return ctx.unauthorized('You must be logged in');
    }
    const { apiName } = ctx.state.route.info;
    const uid = `api::${apiName}.${apiName}`;
    const { id } = ctx.params;
    if (id) {
      const entry = await strapi.entityService.findOne(uid, id, { populate: '*' });
      if (!entry) {
        return ctx.notFound();
      }
      if (!entry.owner || entry.owner.id !== user.id) {
        return ctx.unauthorized('This entry is not yours');
      }
    } else {
      ctx.query.filters = { ...(ctx.query.filters || {}), owner: { id: user.id } };
    }
    await next();
  };
};
