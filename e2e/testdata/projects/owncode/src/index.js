'use strict';

module.exports = {
  /**
   * Users see only themselves: the users-permissions plugin's own routes get the project's
   * middleware and policy, as the plugin's documentation suggests for register().
   */
  register({ strapi }) {
    const routes = strapi.plugins['users-permissions'].routes['content-api'].routes;
    const find = routes.find((r) => r.handler === 'user.find' && r.method === 'GET');
    find.config.middlewares = [...(find.config.middlewares || []), 'global::only-self'];
    const findOne = routes.find((r) => r.handler === 'user.findOne');
    findOne.config.policies = [...(findOne.config.policies || []), 'global::is-self'];
  },

  bootstrap() {},
};
