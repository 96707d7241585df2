'use strict';

module.exports = {
  routes: [
    {
      method: 'GET',
      path: '/notes/count',
      handler: 'note.count',
      config: { policies: ['global::is-authenticated'] },
    },
  ],
};
