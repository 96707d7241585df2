'use strict';

module.exports = {
  routes: [
    { method: 'GET', path: '/items/:id/label', handler: 'item.label', config: { auth: false } },
    { method: 'GET', path: '/items-notes/ping', handler: 'item.ping', config: { auth: false } },
    { method: 'GET', path: '/items-limited', handler: 'item.limited', config: { auth: false } },
  ],
};
