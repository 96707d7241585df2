'use strict';

module.exports = {
  routes: [
    { method: 'POST', path: '/comments/:id/flag', handler: 'comment.flag' },
    { method: 'POST', path: '/comments/quiet', handler: 'comment.quiet' },
  ],
};
