module.exports = [
  'strapi::logger',
  'strapi::errors',
  'strapi::security',
  'strapi::cors',
  'strapi::poweredBy',
  'strapi::query',
  {
    name: 'strapi::body',
    config: {
      jsonLimit: '4kb',
    },
  },
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
];
