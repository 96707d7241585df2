'use strict';

module.exports = async (policyContext, config, { strapi }) => {
  const user = policyContext.state.user;
  if (!user) return false;
  const entry = await strapi.entityService.findOne('api::article.article', policyContext.params.id, { populate: ['author'] });
  return entry && entry.author && entry.author.id === user.id;
};
