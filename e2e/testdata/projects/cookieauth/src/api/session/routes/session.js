'use strict';

module.exports = {
  routes: [
    { method: 'POST', path: '/session/logout', handler: 'session.logout' },
    { method: 'POST', path: '/session/theme', handler: 'session.theme' },
    { method: 'GET', path: '/session/theme', handler: 'session.readTheme' },
    { method: 'GET', path: '/session/secure', handler: 'session.secure' },
    { method: 'GET', path: '/session/helpers', handler: 'session.helpers' },
    { method: 'POST', path: '/session/form', handler: 'session.form' },
    { method: 'GET', path: '/session/validate', handler: 'session.validate' },
    { method: 'GET', path: '/session/go', handler: 'session.go' },
    { method: 'POST', path: '/session/echo', handler: 'session.echo' },
    { method: 'GET', path: '/session/back', handler: 'session.back' },
    { method: 'GET', path: '/session/export', handler: 'session.exportNotes' },
    { method: 'GET', path: '/session/negotiate', handler: 'session.negotiate' },
    { method: 'POST', path: '/session/profile', handler: 'session.profile' },
    { method: 'POST', path: '/session/profile/cast', handler: 'session.castProfile' },
    { method: 'POST', path: '/session/ids', handler: 'session.ids' },
  ],
};
