'use strict';

module.exports = {
  routes: [
    { method: 'POST', path: '/articles/:id/copy', handler: 'article.copy' },
    { method: 'POST', path: '/articles/bulk', handler: 'article.bulk' },
  ],
};
