module.exports = require('./server');
