'use strict';

module.exports = {
  todo: { enabled: true, resolve: './src/plugins/todo' },
};
