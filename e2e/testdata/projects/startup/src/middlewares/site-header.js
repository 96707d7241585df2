'use strict';

// Marks every answer with the site's name, from the middleware's config.
module.exports = (config) => async (ctx, next) => {
  await next();
  ctx.set('x-site', config.site || 'unknown');
};
