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

  // Files sent to a custom route, stored by the upload service and linked to the photo.
  async attach(ctx) {
    const { files } = ctx.request.files || {};
    if (!files) return ctx.badRequest('No files');
    const uploaded = await strapi.plugin('upload').service('upload').upload({
      data: { ref: 'api::photo.photo', refId: ctx.params.id, field: 'gallery', fileInfo: { caption: 'attached' } },
      files,
    });
    ctx.body = uploaded.map((f) => ({
      // Not folderPath: a private attribute, which Quarry's reads for the project's code
      // leave out (docs/project-code.md).
      keys: Object.keys(f).filter((k) => k !== 'folderPath'), name: f.name, caption: f.caption, alternativeText: f.alternativeText,
      // Not size: Strapi keeps sharp's re-encoded PNG even when larger (docs/differences.md).
      mime: f.mime, ext: f.ext, width: f.width, provider: f.provider,
    }));
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
      files: Object.keys(files).sort().map((k) => ({ field: k, files: [].concat(files[k]).map(describe).sort((a, b) => (a.name < b.name ? -1 : 1)) })),
    };
  },
}));
