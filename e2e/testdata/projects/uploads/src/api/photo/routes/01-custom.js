'use strict';

module.exports = {
  routes: [{ method: 'POST', path: '/photos/inspect', handler: 'photo.inspect' }],
};
