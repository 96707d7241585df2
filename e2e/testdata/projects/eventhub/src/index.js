'use strict';

// An audit log and a moderation queue fed by Strapi's event hub: the entity service
// announces entry.create/update/delete (and the content manager entry.publish/unpublish),
// the project's own code announces 'article.published' and 'comment.flagged'.
const WATCHED = ['api::article.article', 'api::comment.comment', 'plugin::upload.folder', 'plugin::users-permissions.user'];

// What a listener was given, without the times (their values change from run to run).
const shape = (value) =>
  Object.keys(value || {})
    .map((k) => {
      const v = value[k];
      if (k === 'createdAt' || k === 'updatedAt' || k === 'publishedAt') return `${k}:${v === null ? 'null' : typeof v}`;
      if (v !== null && typeof v === 'object') return `${k}:{${Object.keys(v).join(',')}}`;
      return `${k}:${JSON.stringify(v)}`;
    })
    .join(' ');

module.exports = {
  register() {},

  async bootstrap({ strapi }) {
    const audit = (data) => strapi.entityService.create('api::audit.audit', { data });

    const record = (event) => async (payload) => {
      const { model, uid, entry } = payload;
      if (!WATCHED.includes(uid)) return;
      await audit({
        event,
        model,
        uid,
        entry: entry.id,
        title: entry.title || entry.author || entry.name || entry.username || null,
        note: `keys=${Object.keys(payload).join(',')} ${shape(entry)}`,
      });
    };
    strapi.eventHub.on('entry.create', record('entry.create'));
    strapi.eventHub.addListener('entry.update', record('entry.update'));
    strapi.eventHub.on('entry.delete', record('entry.delete'));
    strapi.eventHub.on('entry.publish', record('entry.publish'));
    strapi.eventHub.on('entry.unpublish', record('entry.unpublish'));

    // Files attached to comments are kept track of too (the upload plugin's media.create).
    strapi.eventHub.on('media.create', async ({ media, ...rest }) => {
      await audit({
        event: 'media.create',
        model: 'file',
        entry: media.id,
        title: media.name,
        note: `keys=${Object.keys(rest).concat('media').join(',')} media=${Object.keys(media).join(',')} mime=${media.mime}`,
      });
    });

    strapi.eventHub.on('article.published', async ({ id, title }) => {
      await audit({ event: 'article.published', entry: id, title, note: 'newsletter queued' });
    });

    // The moderation queue: a flag is recorded, the first one ever also pages someone; a
    // flag the moderators cannot take fails the request that raised it.
    strapi.eventHub.on('comment.flagged', async ({ id, reason, by }) => {
      if (reason === 'boom') {
        const { ApplicationError } = require('@strapi/utils').errors;
        throw new ApplicationError(`Comment ${id} cannot be flagged for that`);
      }
      const comment = await strapi.entityService.findOne('api::comment.comment', id, { fields: ['author'] });
      await audit({ event: 'comment.flagged', entry: id, title: comment ? comment.author : null, note: `${reason} (by ${by})` });
    });
    strapi.eventHub.once('comment.flagged', async ({ id }) => {
      await audit({ event: 'first flag', entry: id, note: 'someone was paged' });
    });

    // A listener taken back: neither the function on() answers nor off() leave it behind.
    const stray = async ({ id }) => {
      await audit({ event: 'stray', entry: id });
    };
    const unsubscribe = strapi.eventHub.on('comment.flagged', stray);
    unsubscribe();
    strapi.eventHub.on('article.published', stray);
    strapi.eventHub.removeListener('article.published', stray);

    // A subscriber sees every event after the listeners: it counts the custom ones.
    let seen = 0;
    strapi.eventHub.subscribe(async (name, payload) => {
      if (name === 'article.published' || name === 'comment.flagged') {
        seen += 1;
        await audit({ event: `subscriber saw ${name}`, entry: payload.id, note: `#${seen}` });
      }
    });

    // The first start welcomes readers: the listeners above see this write too.
    const comments = await strapi.db.query('api::comment.comment').count();
    if (comments === 0) {
      await strapi.entityService.create('api::comment.comment', { data: { body: 'Welcome!', author: 'the team' } });
    }
  },
};
