module.exports = require('@strapi/strapi').factories.createCoreRouter('api::tag.tag');
