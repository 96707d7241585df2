'use strict';

module.exports = {
  routes: [
    { method: 'POST', path: '/events/retitle', handler: 'event.retitle' },
    { method: 'POST', path: '/events/cleanup', handler: 'event.cleanup' },
    { method: 'GET', path: '/events/token', handler: 'event.token' },
  ],
};
