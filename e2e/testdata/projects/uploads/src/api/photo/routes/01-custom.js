'use strict';

module.exports = {
  routes: [
    { method: 'POST', path: '/photos/inspect', handler: 'photo.inspect' },
    { method: 'POST', path: '/photos/:id/attach', handler: 'photo.attach' },
  ],
};
