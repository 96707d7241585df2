'use strict';

const { errors } = require('@strapi/utils');

// Hidden articles never leave the API, whoever asks; every list entry carries its reading
// time and every single entry an excerpt, computed on the way out.
const visible = (where) => (where ? { $and: [where, { hidden: false }] } : { hidden: false });

module.exports = {
  beforeFindMany(event) {
    if (event.params.limit > 50) {
      throw new errors.ValidationError('At most 50 articles at once');
    }
    event.params.where = visible(event.params.where);
  },
  afterFindMany(event) {
    for (const article of event.result) {
      if (typeof article.body === 'string') {
        article.readingTime = Math.max(1, Math.ceil(article.body.split(/\s+/).length / 3));
      }
    }
  },
  beforeCount(event) {
    event.params.where = visible(event.params.where);
  },
  afterFindOne(event) {
    if (event.result && typeof event.result.body === 'string') {
      event.result.excerpt = event.result.body.slice(0, 12);
    }
  },
};
