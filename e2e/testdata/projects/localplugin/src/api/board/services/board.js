module.exports = require('@strapi/strapi').factories.createCoreService('api::board.board');
