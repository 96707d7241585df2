'use strict';

/**
 * A GraphQL resolver middleware given by name ('global::gql-cap-limit'): the module itself is
 * the middleware. It caps the limit argument before the resolver sees it.
 */
module.exports = (resolve, parent, args, context, info) =>
  resolve(parent, { ...args, limit: Math.min(args.limit || 10, 2) }, context, info);
