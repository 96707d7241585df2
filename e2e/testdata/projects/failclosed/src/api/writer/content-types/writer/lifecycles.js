const { errors } = require('@strapi/utils');
const { ApplicationError } = errors;

module.exports = {
  async beforeCreate(event) {
    const taken = await strapi.db.query('api::writer.writer').count({ where: { name: event.params.data.name } });
    if (taken > 0) throw new ApplicationError('A writer with this name exists');
  },
};
