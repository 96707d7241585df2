'use strict';

// The corporate starter's page-populate middleware, trimmed to this project's schema.
const populate = {
  contentSections: {
    populate: {
      buttons: {
        populate: true,
      },
    },
  },
  seo: {
    fields: ['metaTitle', 'metaDescription'],
  },
};

module.exports = (config, { strapi }) => {
  return async (ctx, next) => {
    ctx.query = {
      populate,
      filters: { slug: ctx.query.filters.slug },
      locale: ctx.query.locale,
    };

    console.log('page-populate-middleware.js: ctx.query = ', ctx.query);

    await next();
  };
};
