'use strict';

const { sanitize } = require('@strapi/utils');

// The users-permissions plugin's own sanitizeUser, as projects copy it.
const sanitizeUser = (user, ctx) => {
  const { auth } = ctx.state;
  const userSchema = strapi.getModel('plugin::users-permissions.user');
  return sanitize.contentAPI.output(user, userSchema, { auth });
};

/**
 * Account actions the project adds to the users-permissions user controller, spread into it
 * by the extension (a common recipe for a "change my password" form).
 */
module.exports = {
  async changeMyPassword(ctx) {
    const { currentPassword, password } = ctx.request.body || {};
    if (!currentPassword || !password) {
      return ctx.badRequest('currentPassword and password are required');
    }
    const users = strapi.plugin('users-permissions').service('user');
    const user = await strapi.entityService.findOne('plugin::users-permissions.user', ctx.state.user.id);
    const ok = await users.validatePassword(currentPassword, user.password);
    if (!ok) {
      return ctx.badRequest('The current password is wrong');
    }
    await users.edit(user.id, { password });
    ctx.body = { ok: true, id: user.id, name: users.displayName(user) };
  },

  // The caller's role, as the authentication left the user (the project's
  // fetchAuthenticatedUser populates it).
  async myRole(ctx) {
    const { role } = ctx.state.user;
    ctx.body = { id: ctx.state.user.id, role: role ? role.name : null, type: role ? role.type : null };
  },

  // The caller with the role, sanitized as the plugin sanitizes a user.
  async safeMe(ctx) {
    const user = await strapi.query('plugin::users-permissions.user').findOne({
      where: { id: ctx.state.user.id },
      populate: ['role'],
    });
    ctx.body = await sanitizeUser(user, ctx);
  },

  // Answers the user as read, unsanitized: Strapi's answer leaks the password hash here.
  async rawMe(ctx) {
    const user = await strapi.query('plugin::users-permissions.user').findOne({ where: { id: ctx.state.user.id } });
    ctx.body = { id: user.id, username: user.username, password: user.password, hasPassword: Boolean(user.password) };
  },
};
