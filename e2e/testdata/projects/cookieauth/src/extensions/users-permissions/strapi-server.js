'use strict';

const { validateCallbackBody, validateRegisterBody } = require('./controllers/validation/auth');

/**
 * Logging in sets the JWT as a signed httpOnly cookie and keeps it out of the answer, where
 * scripts could read it.
 */
module.exports = (plugin) => {
  const callback = plugin.controllers.auth.callback;
  const register = plugin.controllers.auth.register;

  plugin.controllers.auth.callback = async (ctx) => {
    await validateCallbackBody(ctx.request.body);
    await callback(ctx);
    const body = ctx.body;
    if (body && body.jwt) {
      ctx.cookies.set('token', body.jwt, { httpOnly: true, sameSite: 'lax' });
      ctx.body = { user: body.user };
    }
  };

  // The phone number is checked before the plugin registers the user (it keeps what it knows).
  plugin.controllers.auth.register = async (ctx) => {
    await validateRegisterBody(ctx.request.body);
    const { phone, ...body } = ctx.request.body;
    ctx.request.body = body;
    await register(ctx);
  };

  return plugin;
};
