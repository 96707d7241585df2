'use strict';

const { createCoreController } = require('@strapi/strapi').factories;

const roles = () => strapi.plugin('users-permissions').service('role');

// What a role's page shows: the role, the types its tree lists and the tag actions it
// grants, by name.
const summary = (role) => {
  const actions = role.permissions['api::tag'].controllers.tag;
  return {
    id: role.id,
    name: role.name,
    description: role.description,
    type: role.type,
    types: Object.keys(role.permissions).sort(),
    tag: Object.keys(actions).sort().map((a) => `${a}:${actions[a].enabled}`),
  };
};

module.exports = createCoreController('api::tag.tag', ({ strapi }) => ({
  // Tags made in one statement with the query engine's createMany, as import scripts do.
  async bulk(ctx) {
    const names = (ctx.request.body && ctx.request.body.names) || [];
    const result = await strapi.db.query('api::tag.tag').createMany({
      data: names.map((name, i) => ({ name, weight: i + 1 })),
    });
    const total = await strapi.db.query('api::tag.tag').count();
    return { count: result.count, ids: result.ids, total };
  },
  async roles() {
    const list = await roles().find();
    return list.map((r) => ({ id: r.id, name: r.name, type: r.type, nb_users: r.nb_users }));
  },
  async role(ctx) {
    return summary(await roles().findOne(ctx.params.id));
  },
  async roleCreate(ctx) {
    const { name, description } = ctx.request.body;
    const made = await roles().createRole({
      name,
      description,
      permissions: { 'api::tag': { controllers: { tag: { find: { enabled: true }, bulk: { enabled: true } } } } },
    });
    const role = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { name } });
    return { made: made === undefined ? 'undefined' : made, role: summary(await roles().findOne(role.id)) };
  },
  async roleUpdate(ctx) {
    const updated = await roles().updateRole(ctx.params.id, ctx.request.body);
    return { updated: updated === undefined ? 'undefined' : updated, role: summary(await roles().findOne(ctx.params.id)) };
  },
  async roleDelete(ctx) {
    const pub = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
    await roles().deleteRole(ctx.params.id, pub.id);
    return this.roles(ctx);
  },
}));
