'use strict';

module.exports = {
  routes: [
    { method: 'POST', path: '/tags/bulk', handler: 'tag.bulk' },
    // A tag editors' role, managed with the users-permissions role service.
    { method: 'GET', path: '/tags/roles', handler: 'tag.roles' },
    { method: 'GET', path: '/tags/roles/:id', handler: 'tag.role' },
    { method: 'POST', path: '/tags/roles', handler: 'tag.roleCreate' },
    { method: 'PUT', path: '/tags/roles/:id', handler: 'tag.roleUpdate' },
    { method: 'DELETE', path: '/tags/roles/:id', handler: 'tag.roleDelete' },
  ],
};
