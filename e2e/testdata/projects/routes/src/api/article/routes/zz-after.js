'use strict';
module.exports = {
  routes: [
    { method: 'GET', path: '/articles/special', handler: 'article.featured' },
    { method: 'GET', path: '/stats/articles', handler: 'article.featured' },
  ],
};
