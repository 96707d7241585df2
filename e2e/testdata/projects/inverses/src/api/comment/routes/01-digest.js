'use strict';

module.exports = {
  routes: [
    {
      method: 'GET',
      path: '/comments-digest',
      handler: 'comment.digest',
    },
  ],
};
