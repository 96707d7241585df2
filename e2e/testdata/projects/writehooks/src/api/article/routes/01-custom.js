'use strict';

module.exports = {
  routes: [{ method: 'POST', path: '/articles/:id/copy', handler: 'article.copy' }],
};
