'use strict';

// Every page listed says which locale it was listed in (i18n's decorator puts the locale —
// the one asked for, or the default — into the filters the query engine reads with), and
// lists show titles in capitals.
module.exports = {
  beforeFindMany(event) {
    event.state.where = JSON.stringify(event.params.where);
  },
  afterFindMany(event) {
    for (const page of event.result) {
      page.listedWith = event.state.where;
      if (typeof page.title === 'string') {
        page.title = page.title.toUpperCase();
      }
    }
  },
};
