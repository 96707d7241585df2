'use strict';

const { loud } = require('.');

module.exports = {
  badge: (user) => '[' + require('./index').loud(user.username) + ']',
  textHelperWhenLoaded: () => typeof loud,
};
