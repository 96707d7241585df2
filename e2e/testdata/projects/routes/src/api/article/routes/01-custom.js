'use strict';
module.exports = {
  routes: [
    { method: 'GET', path: '/articles/featured', handler: 'article.featured' },
    { method: 'POST', path: '/articles/:id/like', handler: 'article.like', config: { auth: false } },
  ],
};
