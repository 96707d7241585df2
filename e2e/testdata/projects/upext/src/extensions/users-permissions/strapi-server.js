'use strict';

const _ = require('lodash');
const account = require('./controllers/account');

/**
 * The users-permissions plugin as the project extends it: a helper of its own on the user
 * service, PUT /api/user/me for the caller's own profile, and the account actions of
 * ./controllers/account spread into the user controller, each with its route.
 */
module.exports = (plugin) => {
  // The plugin's services are factories: the project's helper joins the user service's own
  // methods in a factory of its own.
  const userService = plugin.services.user;
  plugin.services.user = ({ strapi }) => ({
    ...userService({ strapi }),
    displayName(user) {
      return user && user.username ? `@${user.username}` : 'someone';
    },
  });
  // Assigned on the factory, not on the service: Strapi ignores it (calling it fails).
  plugin.services.user.shout = (text) => String(text).toUpperCase();

  plugin.controllers.user.updateMe = async (ctx) => {
    const me = ctx.state.user;
    if (!me) {
      return ctx.unauthorized();
    }
    const data = _.pick(ctx.request.body || {}, ['username']);
    if (!data.username) {
      return ctx.badRequest('username is required');
    }
    const updated = await strapi.entityService.update('plugin::users-permissions.user', me.id, { data });
    ctx.body = {
      id: updated.id,
      username: updated.username,
      name: strapi.plugin('users-permissions').service('user').displayName(updated),
    };
  };

  plugin.controllers.user = { ...plugin.controllers.user, ...account };
  plugin.controllers.user.shoutMe = async (ctx) => {
    try {
      ctx.body = { name: strapi.plugin('users-permissions').service('user').shout(ctx.state.user.username) };
    } catch (e) {
      ctx.body = { shouted: false };
    }
  };

  // The login answers who signed in with a greeting, as front-ends show it.
  const callback = plugin.controllers.auth.callback;
  plugin.controllers.auth.callback = async (ctx) => {
    await callback(ctx);
    if (ctx.body && ctx.body.user) {
      ctx.body = { ...ctx.body, greeting: `Welcome back, ${ctx.body.user.username}` };
    }
  };

  plugin.routes['content-api'].routes.push(
    { method: 'PUT', path: '/user/me', handler: 'user.updateMe', config: { prefix: '' } },
    {
      method: 'POST',
      path: '/user/me/password',
      handler: 'user.changeMyPassword',
      config: { prefix: '', policies: ['global::is-signed-in'] },
    },
    { method: 'GET', path: '/user/me/raw', handler: 'user.rawMe', config: { prefix: '' } },
    { method: 'GET', path: '/user/me/safe', handler: 'user.safeMe', config: { prefix: '' } },
    { method: 'GET', path: '/user/me/role', handler: 'user.myRole', config: { prefix: '' } },
    { method: 'GET', path: '/user/me/shout', handler: 'user.shoutMe', config: { prefix: '' } }
  );

  return plugin;
};
