'use strict';

/**
 * Sign-out and session actions on the auth controller, with their routes put first among the
 * plugin's routes.
 */
module.exports = (plugin) => {
  plugin.controllers.auth.logout = async (ctx) => {
    // JWTs are stateless: the client forgets its token, the server says so.
    ctx.body = { ok: true, user: ctx.state.user ? ctx.state.user.username : null };
  };

  plugin.controllers.auth.session = async (ctx) => {
    const user = ctx.state.user;
    ctx.body = { signedIn: Boolean(user), username: user ? user.username : null };
  };

  plugin.routes['content-api'].routes.unshift(
    { method: 'POST', path: '/auth/logout', handler: 'auth.logout', config: { prefix: '' } },
    { method: 'GET', path: '/auth/session', handler: 'auth.session', config: { prefix: '' } }
  );

  return plugin;
};
