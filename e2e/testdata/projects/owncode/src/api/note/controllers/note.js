'use strict';

const { createCoreController } = require('@strapi/strapi').factories;

module.exports = createCoreController('api::note.note', ({ strapi }) => ({
  async create(ctx) {
    ctx.request.body.data = { ...ctx.request.body.data, owner: ctx.state.user.id };
    return super.create(ctx);
  },

  async count(ctx) {
    const count = await strapi.db.query('api::note.note').count({ where: { owner: ctx.state.user.id } });
    return { count };
  },

  async archive(ctx) {
    const entry = await strapi.db.query('api::note.note').update({
      where: { id: ctx.params.id },
      data: { body: 'archived' },
    });
    const sanitized = await this.sanitizeOutput(entry, ctx);
    return this.transformResponse(sanitized);
  },

  // A session token made by the users-permissions plugin's own services, as custom auth
  // flows do.
  async whoami(ctx) {
    const jwt = strapi.plugin('users-permissions').service('jwt');
    const token = await jwt.issue({ id: ctx.state.user.id });
    const payload = await jwt.verify(token);
    let forged = 'accepted';
    try {
      await jwt.verify(`${token}x`);
    } catch (e) {
      forged = e.message;
    }
    const users = strapi.plugin('users-permissions').service('user');
    const user = await users.fetch(payload.id, { populate: ['role'] });
    const edited = await users.edit(payload.id, { confirmed: true });
    ctx.body = { jwt: token, id: payload.id, forged, username: user.username, role: user.role.name, confirmed: edited.confirmed, editedRole: edited.role.type };
  },
}));
