'use strict';

module.exports = {
  routes: [
    { method: 'POST', path: '/session/logout', handler: 'session.logout' },
    { method: 'POST', path: '/session/theme', handler: 'session.theme' },
    { method: 'GET', path: '/session/theme', handler: 'session.readTheme' },
    { method: 'GET', path: '/session/secure', handler: 'session.secure' },
  ],
};
