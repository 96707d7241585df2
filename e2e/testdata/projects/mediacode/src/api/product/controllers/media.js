'use strict';

// What the shop's pages show of a file (the stored size and dimensions are left out: sharp
// and Quarry re-encode images differently).
const pick = (file) =>
  file && {
    id: file.id,
    name: file.name,
    alternativeText: file.alternativeText,
    caption: file.caption,
    mime: file.mime,
    ext: file.ext,
    url: file.url,
    thumbnail: file.formats && file.formats.thumbnail ? file.formats.thumbnail.url : null,
    provider: file.provider,
  };

// Not folderPath: a private attribute, which Quarry's reads for the project's code leave
// out (docs/project-code.md).
const keys = (file) => file && Object.keys(file).filter((k) => k !== 'folderPath');

module.exports = {
  async list(ctx) {
    const files = await strapi.plugin('upload').service('upload').findMany({
      filters: ctx.query.filters || {},
      sort: 'id',
    });
    ctx.body = files.map(pick);
  },

  async page(ctx) {
    const { page = 1, pageSize = 2 } = ctx.query;
    const { results, pagination } = await strapi
      .plugin('upload')
      .service('upload')
      .findPage({ page, pageSize, sort: { id: 'desc' }, fields: ['name', 'mime'] });
    ctx.body = { results, pagination };
  },

  // Files sent to the shop's own route, stored by the upload service and linked to the
  // entry the form names.
  async create(ctx) {
    const { files } = ctx.request.files || {};
    if (!files) return ctx.badRequest('No files');
    const { ref, refId, field, caption } = ctx.request.body || {};
    const uploaded = await strapi.plugin('upload').service('upload').upload({
      data: ref ? { ref, refId, field, fileInfo: { caption } } : { fileInfo: { caption } },
      files,
    });
    ctx.body = uploaded.map(pick);
  },

  async show(ctx) {
    const file = await strapi.plugin('upload').service('upload').findOne(ctx.params.id);
    if (!file) return ctx.notFound('No such file');
    ctx.body = { ...pick(file), keys: keys(file) };
  },

  // The entries a file is linked to (its morph relation).
  async related(ctx) {
    const file = await strapi.plugin('upload').service('upload').findOne(ctx.params.id, ['related']);
    ctx.body = file && file.related.map((e) => ({ type: e.__type, id: e.id, name: e.name }));
  },

  // A product with the entries its cover is linked to, populated through the media.
  async product(ctx) {
    const product = await strapi.entityService.findOne('api::product.product', ctx.params.id, {
      fields: ['name'],
      populate: { cover: { fields: ['name'], populate: { related: true } } },
    });
    ctx.body = product;
  },

  async settings(ctx) {
    ctx.body = await strapi.plugin('upload').service('upload').getSettings();
  },

  // The same file through the entity service and the query engine.
  async raw(ctx) {
    const { id } = ctx.params;
    const viaEntityService = await strapi.entityService.findOne('plugin::upload.file', id, { fields: ['name', 'mime'] });
    const viaQuery = await strapi.db.query('plugin::upload.file').findOne({ where: { id }, select: ['name', 'caption'] });
    ctx.body = { viaEntityService, viaQuery };
  },

  async rename(ctx) {
    const { name, alternativeText, caption, folder } = ctx.request.body || {};
    const file = await strapi
      .plugin('upload')
      .service('upload')
      .updateFileInfo(ctx.params.id, { name, alternativeText, caption, folder });
    ctx.body = { ...pick(file), keys: keys(file) };
  },

  async edit(ctx) {
    const file = await strapi.service('plugin::upload.upload').update(ctx.params.id, ctx.request.body || {});
    ctx.body = pick(file);
  },

  async destroy(ctx) {
    const upload = strapi.plugins.upload.services.upload;
    const file = await upload.findOne(ctx.params.id);
    if (!file) return ctx.notFound('No such file');
    const removed = await upload.remove(file);
    ctx.body = { ...pick(removed), keys: keys(removed) };
  },

  // Older code hands remove() the id alone: Strapi deletes the row and leaves the stored
  // file (the provider is told only of files of its own).
  async destroyLegacy(ctx) {
    const removed = await strapi.service('plugin::upload.upload').remove({ id: Number(ctx.params.id) });
    ctx.body = pick(removed);
  },

  // The stored file alone, through the provider (the row stays).
  async purge(ctx) {
    const file = await strapi.plugin('upload').service('upload').findOne(ctx.params.id);
    if (!file) return ctx.notFound('No such file');
    await strapi.plugin('upload').provider.delete(file);
    ctx.body = { purged: file.name };
  },

  // The row alone, through the query engine.
  async drop(ctx) {
    const removed = await strapi.db.query('plugin::upload.file').delete({ where: { id: ctx.params.id } });
    ctx.body = pick(removed);
  },
};
