'use strict';

const { createCoreController } = require('@strapi/strapi').factories;

module.exports = createCoreController('api::banner.banner', ({ strapi }) => ({
  // The headline as the site prints it.
  async text(ctx) {
    const banner = await strapi.entityService.findMany('api::banner.banner', { fields: ['headline', 'tone'] });
    if (!banner || !banner.headline) {
      ctx.body = { text: '' };
      return;
    }
    ctx.body = { text: banner.tone === 'loud' ? banner.headline.toUpperCase() + '!' : banner.headline };
  },
}));
