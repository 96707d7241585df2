'use strict';

// Turns away a crawler by its user agent before anything else runs.
module.exports = () => async (ctx, next) => {
  if ((ctx.request.headers['user-agent'] || '').includes('BadBot')) {
    ctx.status = 403;
    ctx.body = { error: 'bots are not welcome' };
    return;
  }
  await next();
};
