'use strict';

module.exports = {
  routes: [
    {
      method: 'GET',
      path: '/notes/count',
      handler: 'note.count',
      config: { policies: ['global::is-authenticated'] },
    },
    {
      method: 'GET',
      path: '/notes/whoami',
      handler: 'note.whoami',
    },
    {
      method: 'PUT',
      path: '/notes/:id/archive',
      handler: 'note.archive',
      config: { middlewares: ['global::is-owner'] },
    },
  ],
};
