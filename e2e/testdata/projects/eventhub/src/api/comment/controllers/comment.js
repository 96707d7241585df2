'use strict';

const { createCoreController } = require('@strapi/strapi').factories;

module.exports = createCoreController('api::comment.comment', ({ strapi }) => ({
  // Moderators flag a comment; the moderation queue (bootstrap()'s listeners) takes it from
  // there. A listener that refuses the flag fails the request.
  async flag(ctx) {
    const id = Number(ctx.params.id);
    const { reason } = ctx.request.body || {};
    await strapi.eventHub.emit('comment.flagged', { id, reason, by: 'public' });
    ctx.body = { flagged: id, reason };
  },

  // An import that writes through the query engine, which announces nothing.
  async quiet(ctx) {
    const made = await strapi.db.query('api::comment.comment').create({
      data: { body: 'Imported quietly', author: 'importer' },
    });
    ctx.body = { id: made.id };
  },
}));
