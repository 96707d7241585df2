'use strict';

/**
 * Logging in sets the JWT as a signed httpOnly cookie and keeps it out of the answer, where
 * scripts could read it.
 */
module.exports = (plugin) => {
  const callback = plugin.controllers.auth.callback;

  plugin.controllers.auth.callback = async (ctx) => {
    await callback(ctx);
    const body = ctx.body;
    if (body && body.jwt) {
      ctx.cookies.set('token', body.jwt, { httpOnly: true, sameSite: 'lax' });
      ctx.body = { user: body.user };
    }
  };

  return plugin;
};
