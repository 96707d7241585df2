'use strict';

// Publishing an article (an update that sets publishedAt) tells whoever listens: the
// newsletter and the audit log subscribe to 'article.published' in bootstrap().
module.exports = {
  async afterUpdate(event) {
    const { data } = event.params;
    if (data && data.publishedAt) {
      await strapi.eventHub.emit('article.published', {
        id: event.result.id,
        title: event.result.title,
      });
    }
  },
};
