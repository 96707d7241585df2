'use strict';

const { createCoreRouter } = require('@strapi/strapi').factories;

// The core routes of releases, with the list open to everyone.
const coreRouter = createCoreRouter('api::release.release', {
  config: {
    find: { auth: false },
  },
});

// Wraps a router so that it lists routes of its own after the core ones (the router's
// routes are read once, when Strapi registers them).
const withExtraRoutes = (inner, extra = []) => {
  let all;
  return {
    get prefix() {
      return inner.prefix;
    },
    get routes() {
      if (!all) {
        all = inner.routes.concat(extra);
      }
      return all;
    },
  };
};

module.exports = withExtraRoutes(coreRouter, [
  {
    method: 'GET',
    path: '/releases/:id/notes',
    handler: 'release.notes',
    config: { auth: false },
  },
  {
    method: 'GET',
    path: '/releases/latest',
    handler: 'release.latest',
    config: { auth: false },
  },
]);
