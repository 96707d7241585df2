'use strict';

// Helpers shared by controllers, gathered from files that require this index back.
module.exports = {
  ...require('./text'),
  ...require('./people'),
  ...require('./stamp'),
};
