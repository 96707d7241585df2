'use strict';

// A product's files go with it: the cover and manuals are read before the delete and
// removed through the upload service (files and their formats, then the rows) after it.
module.exports = {
  async beforeDelete(event) {
    const { id } = event.params.where;
    const product = await strapi.entityService.findOne('api::product.product', id, {
      populate: { cover: true, manuals: true },
    });
    event.state.media = product ? [product.cover, ...(product.manuals || [])].filter(Boolean) : [];
  },

  async afterDelete(event) {
    const upload = strapi.plugin('upload').service('upload');
    for (const file of event.state.media || []) {
      await upload.remove(file);
    }
  },
};
