module.exports = require('@strapi/strapi').factories.createCoreRouter('api::board.board');
