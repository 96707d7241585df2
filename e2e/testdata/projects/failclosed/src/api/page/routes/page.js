module.exports = require('@strapi/strapi').factories.createCoreRouter('api::page.page');
