'use strict';

// A module required inside an action, where reading the file cannot see it: the request
// that reaches it answers 501 naming the module.
module.exports = require('@strapi/strapi').factories.createCoreController('api::footer.footer', () => ({
  async find(ctx) {
    const moment = require('moment');
    ctx.body = { year: moment().year() };
  },
}));
