'use strict';

module.exports = {
  'shop-tools': { enabled: true, resolve: './src/plugins/shop-tools' },
};
