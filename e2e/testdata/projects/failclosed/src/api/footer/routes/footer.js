module.exports = require('@strapi/strapi').factories.createCoreRouter('api::footer.footer');
