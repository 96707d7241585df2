'use strict';

module.exports = {
  register({ strapi }) {
    // The forum recipe: the authenticated user comes with the role (the project's code reads
    // ctx.state.user.role); a user whose username starts with "suspended-" is not let in.
    strapi.service('plugin::users-permissions.user').fetchAuthenticatedUser = async (id) => {
      const user = await strapi
        .query('plugin::users-permissions.user')
        .findOne({ where: { id }, populate: ['role'] });
      if (user && user.username.startsWith('suspended-')) {
        return null;
      }
      return user;
    };
  },

  bootstrap() {},
};
