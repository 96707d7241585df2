'use strict';

const { errors } = require('@strapi/utils');

/**
 * A GraphQL resolver middleware, given by name with options in resolversConfig
 * ({ name: 'global::gql-no-hidden', options }): the GraphQL plugin calls this factory with the
 * options, and the function it returns with (resolve, parent, args, context, info).
 */
module.exports = (options) => async (resolve, parent, args, context, info) => {
  if (args.filters && args.filters.hidden) throw new errors.ForbiddenError(options.message);
  return resolve(parent, args, context, info);
};
