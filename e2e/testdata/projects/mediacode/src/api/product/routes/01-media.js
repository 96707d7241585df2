'use strict';

// A small media library of the shop's own, over the upload plugin's service.
module.exports = {
  routes: [
    { method: 'GET', path: '/media', handler: 'media.list' },
    { method: 'POST', path: '/media', handler: 'media.create' },
    { method: 'GET', path: '/media/page', handler: 'media.page' },
    { method: 'GET', path: '/media/settings', handler: 'media.settings' },
    { method: 'GET', path: '/media/products/:id', handler: 'media.product' },
    { method: 'GET', path: '/media/:id', handler: 'media.show' },
    { method: 'GET', path: '/media/:id/raw', handler: 'media.raw' },
    { method: 'GET', path: '/media/:id/related', handler: 'media.related' },
    { method: 'PUT', path: '/media/:id/rename', handler: 'media.rename' },
    { method: 'PUT', path: '/media/:id', handler: 'media.edit' },
    { method: 'DELETE', path: '/media/:id', handler: 'media.destroy' },
    { method: 'DELETE', path: '/media/:id/legacy', handler: 'media.destroyLegacy' },
    { method: 'POST', path: '/media/:id/drop', handler: 'media.drop' },
    { method: 'POST', path: '/media/:id/purge', handler: 'media.purge' },
  ],
};
