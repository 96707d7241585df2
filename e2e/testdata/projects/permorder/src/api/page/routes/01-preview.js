'use strict';

module.exports = {
  routes: [
    { method: 'GET', path: '/pages/:id/preview', handler: 'page.preview' },
  ],
};
