'use strict';

module.exports = {
  routes: [{ method: 'POST', path: '/tags/bulk', handler: 'tag.bulk' }],
};
