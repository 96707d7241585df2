'use strict';

const { createCoreController } = require('@strapi/strapi').factories;

module.exports = createCoreController('api::photo.photo', () => ({
  // A front-end sends the entry as FormData: the entry is a JSON string in `data`.
  async create(ctx) {
    if (ctx.is('multipart') && ctx.request.body.data) {
      const data = JSON.parse(ctx.request.body.data);
      data.title = String(data.title || '').toUpperCase();
      ctx.request.body.data = JSON.stringify(data);
    }
    return super.create(ctx);
  },

  async inspect(ctx) {
    const files = ctx.request.files || {};
    const describe = (f) => ({
      name: f.name,
      type: f.type,
      size: f.size,
      path: typeof f.path,
      date: f.lastModifiedDate instanceof Date,
      json: Object.keys(JSON.parse(JSON.stringify(f))),
    });
    ctx.body = {
      multipart: ctx.is('multipart') || false,
      body: ctx.request.body === undefined ? 'none' : ctx.request.body,
      hasFiles: ctx.request.files !== undefined,
      // Sorted: formidable reports each file when it is written, in no fixed order.
      files: Object.keys(files).sort().map((k) => ({ field: k, files: [].concat(files[k]).map(describe) })),
    };
  },
}));
