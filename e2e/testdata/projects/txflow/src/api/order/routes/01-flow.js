'use strict';

module.exports = {
  routes: [
    { method: 'POST', path: '/orders/place', handler: 'order.place' },
    { method: 'POST', path: '/orders/draft', handler: 'order.draft' },
    { method: 'POST', path: '/orders/twice', handler: 'order.twice' },
    { method: 'GET', path: '/orders/knex', handler: 'order.knex' },
    { method: 'GET', path: '/orders/locales', handler: 'order.locales' },
  ],
};
