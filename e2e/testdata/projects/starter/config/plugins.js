'use strict';

module.exports = {
  notes: { enabled: true, resolve: './src/plugins/notes', config: { loud: false } },
};
