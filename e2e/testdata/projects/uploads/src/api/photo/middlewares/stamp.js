'use strict';

// Sets the caption of an entry sent as FormData before the core update writes it.
module.exports = () => async (ctx, next) => {
  if (ctx.is('multipart') && ctx.request.body && ctx.request.body.data) {
    let data;
    try {
      data = JSON.parse(ctx.request.body.data);
    } catch (e) {
      return next(); // the core action answers an invalid data field
    }
    data.caption = `stamped ${Object.keys(ctx.request.files || {}).join(',')}`;
    ctx.request.body.data = JSON.stringify(data);
  }
  await next();
};
