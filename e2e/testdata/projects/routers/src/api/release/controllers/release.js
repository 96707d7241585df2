'use strict';

const { createCoreController } = require('@strapi/strapi').factories;

module.exports = createCoreController('api::release.release', ({ strapi }) => ({
  // The release's notes, one line each.
  async notes(ctx) {
    const release = await strapi.entityService.findOne('api::release.release', ctx.params.id, {
      fields: ['version', 'notes'],
    });
    if (!release) {
      return ctx.notFound('No such release');
    }
    ctx.body = {
      version: release.version,
      lines: String(release.notes || '')
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
    };
  },

  // The newest release (never reached: the core findOne route comes first).
  async latest(ctx) {
    const [newest] = await strapi.entityService.findMany('api::release.release', {
      sort: { id: 'desc' },
      limit: 1,
    });
    ctx.body = { version: newest ? newest.version : null };
  },
}));
