'use strict';

const { errors } = require('@strapi/utils');

// Tasks are written in sentence case, and nobody adds a task that is already done twice.
module.exports = {
  beforeCreate(event) {
    const { data } = event.params;
    if (typeof data.title === 'string' && data.title.length > 0) {
      data.title = data.title.charAt(0).toUpperCase() + data.title.slice(1);
    }
  },
  async beforeUpdate(event) {
    if (event.params.data.title === '') {
      throw new errors.ApplicationError('A task needs a title');
    }
  },
};
