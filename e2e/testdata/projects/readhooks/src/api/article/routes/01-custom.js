'use strict';

module.exports = {
  routes: [{ method: 'GET', path: '/articles/stats', handler: 'article.stats' }],
};
