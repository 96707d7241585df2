'use strict';

const { createCoreRouter } = require('@strapi/strapi').factories;

// The audit log is read, never written, through the API.
module.exports = createCoreRouter('api::audit.audit', { only: ['find'] });
