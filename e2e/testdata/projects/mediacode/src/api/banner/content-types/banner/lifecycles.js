'use strict';

// A banner's image goes before the banner does, in the same delete.
module.exports = {
  async beforeDelete(event) {
    const banner = await strapi.db.query('api::banner.banner').findOne({
      where: event.params.where,
      populate: ['image'],
    });
    if (banner && banner.image) {
      await strapi.plugin('upload').service('upload').remove(banner.image);
    }
  },
};
