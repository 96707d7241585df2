module.exports = require('@strapi/strapi').factories.createCoreRouter('api::thing.thing');
