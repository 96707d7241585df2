'use strict';

const { errors } = require('@strapi/utils');
const _ = require('lodash');

const CATEGORIES = ['News', 'Events', 'Releases'];

module.exports = {
  register() {},

  async bootstrap({ strapi }) {
    // Events get a slug from their title, and may not lose their title.
    strapi.db.lifecycles.subscribe({
      models: ['api::event.event'],
      beforeCreate(event) {
        const { data } = event.params;
        if (data.title && !data.slug) {
          data.slug = _.kebabCase(data.title);
        }
        event.state.createdWithTitle = Boolean(data.title);
      },
      beforeUpdate(event) {
        const { data } = event.params;
        if (data.title !== undefined && String(data.title).trim() === '') {
          throw new errors.ApplicationError('An event needs a title', { field: 'title' });
        }
        if (data.title) {
          data.slug = _.kebabCase(data.title);
        }
      },
    });

    // Every new user gets a profile, as many projects do for their front-end.
    strapi.db.lifecycles.subscribe({
      models: ['plugin::users-permissions.user'],
      async afterCreate(event) {
        const { result } = event;
        await strapi.entityService.create('api::profile.profile', {
          data: { displayName: result.username.toUpperCase(), user: result.id },
        });
      },
    });

    // Seed the categories once; a second start finds them.
    const existing = await strapi.entityService.findMany('api::category.category', { fields: ['name'] });
    const have = new Set(existing.map((c) => c.name));
    for (const [i, name] of CATEGORIES.entries()) {
      if (!have.has(name)) {
        await strapi.entityService.create('api::category.category', { data: { name, position: i + 1 } });
      }
    }
    strapi.log.info(`categories ready: ${CATEGORIES.length}`);

    // Let everyone read the profiles, as many projects grant public permissions at start.
    const publicRole = await strapi.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
    const granted = await strapi.query('plugin::users-permissions.permission').findMany({ where: { role: publicRole.id } });
    for (const action of ['api::profile.profile.find']) {
      if (!granted.some((p) => p.action === action)) {
        await strapi.query('plugin::users-permissions.permission').create({ data: { action, role: publicRole.id } });
      }
    }
  },
};
