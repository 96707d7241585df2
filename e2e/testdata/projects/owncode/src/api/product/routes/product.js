module.exports = require('@strapi/strapi').factories.createCoreRouter('api::product.product');
