'use strict';

// Titles are stored trimmed (created one by one or many at once); every single entry read carries an excerpt of its body; bulk
// rewrites are marked, bulk deletes say they were seen.
module.exports = {
  beforeCreateMany(event) {
    for (const d of event.params.data) {
      d.title = d.title.trim();
    }
  },
  beforeUpdateMany(event) {
    event.params.data.body = `${event.params.data.body} (in bulk)`;
  },
  afterDeleteMany(event) {
    event.result.seen = true;
  },
  beforeCreate(event) {
    if (typeof event.params.data.title === 'string') {
      event.params.data.title = event.params.data.title.trim();
    }
  },
  afterFindOne(event) {
    if (event.result && typeof event.result.body === 'string') {
      event.result.excerpt = event.result.body.slice(0, 12);
    }
  },
};
