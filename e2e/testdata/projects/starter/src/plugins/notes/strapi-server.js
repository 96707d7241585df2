'use strict';

// A vendored plugin in the style of real ones: its helpers read the global strapi, and its
// bootstrap() hangs a client on strapi for the project's code.
const config = (key) => strapi.config.get(`plugin.notes.${key}`);

module.exports = {
  register() {
    if (config('loud')) strapi.log.info('notes: loud');
  },
  bootstrap({ strapi }) {
    strapi.notesClient = { ping: () => 'pong' };
  },
};
