'use strict';

module.exports = {
  routes: [{ method: 'GET', path: '/items/search', handler: 'item.search' }],
};
