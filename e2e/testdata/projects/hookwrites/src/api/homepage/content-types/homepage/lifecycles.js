'use strict';

// The home page's reads are audited with how they were made.
module.exports = {
  async afterFindOne(event) {
    await strapi.entityService.create('api::audit.audit', {
      data: { action: 'homepage findOne', entry: event.result ? event.result.id : null, note: JSON.stringify(event.params) },
    });
  },
};
