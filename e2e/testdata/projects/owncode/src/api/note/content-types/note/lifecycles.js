'use strict';

const { errors } = require('@strapi/utils');

module.exports = {
  beforeCreate(event) {
    const { data } = event.params;
    if (data.title && data.title.toLowerCase().includes('forbidden')) {
      throw new errors.ApplicationError('This title is not allowed', { field: 'title' });
    }
    if (!data.body) {
      data.body = 'empty';
    }
  },

  beforeUpdate(event) {
    const { data } = event.params;
    if (typeof data.title === 'string') {
      data.title = data.title.trim();
    }
  },
};
