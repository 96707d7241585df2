module.exports = require('@strapi/strapi').factories.createCoreController('api::board.board');
