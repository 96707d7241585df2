module.exports = require('@strapi/strapi').factories.createCoreRouter('api::writer.writer');
