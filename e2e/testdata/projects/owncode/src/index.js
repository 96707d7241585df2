'use strict';

module.exports = {
  /**
   * Users see only themselves: the users-permissions plugin's own routes get the project's
   * middleware and policy, as the plugin's documentation suggests for register().
   */
  register({ strapi }) {
    const routes = strapi.plugins['users-permissions'].routes['content-api'].routes;
    const find = routes.find((r) => r.handler === 'user.find' && r.method === 'GET');
    find.config.middlewares = [...(find.config.middlewares || []), 'global::only-self'];
    const findOne = routes.find((r) => r.handler === 'user.findOne');
    findOne.config.policies = [...(findOne.config.policies || []), 'global::is-self'];
    // An inline middleware, as many projects write it: /api/users/me answers a header.
    const me = routes.find((r) => r.handler === 'user.me');
    me.config.middlewares = [
      ...(me.config.middlewares || []),
      async (ctx, next) => {
        await next();
        ctx.set('x-profile-checked', 'yes');
        if (ctx.query.short === 'true' && ctx.body) ctx.body = { id: ctx.body.id, username: ctx.body.username };
      },
    ];
    strapi.plugin('graphql').service('extension').shadowCRUD('api::note.note').disableAction('delete');
  },

  bootstrap() {},
};
