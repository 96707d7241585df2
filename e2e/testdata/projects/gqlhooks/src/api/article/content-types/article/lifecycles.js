'use strict';

// Private articles stay out of every list unless the query itself asks about them (an
// editor's "private: true" filter); a private one read alone is not found. Every entry
// read carries its reading time, computed on the way out.
const asksPrivate = (where) => JSON.stringify(where || {}).includes('"private"');
const visible = (where) => (where ? { $and: [where, { private: false }] } : { private: false });
const minutes = (body) => (typeof body === 'string' ? Math.max(1, Math.ceil(body.split(/\s+/).length / 3)) : null);

module.exports = {
  beforeFindMany(event) {
    if (!asksPrivate(event.params.where)) {
      event.params.where = visible(event.params.where);
    }
  },
  afterFindMany(event) {
    for (const article of event.result) {
      article.readingTime = minutes(article.body);
    }
  },
  beforeCount(event) {
    if (!asksPrivate(event.params.where)) {
      event.params.where = visible(event.params.where);
    }
  },
  beforeFindOne(event) {
    event.params.where = visible(event.params.where);
  },
  afterFindOne(event) {
    if (event.result) {
      event.result.readingTime = minutes(event.result.body);
      if (typeof event.result.title === 'string') {
        event.result.title = event.result.title.toUpperCase();
      }
    }
  },
};
