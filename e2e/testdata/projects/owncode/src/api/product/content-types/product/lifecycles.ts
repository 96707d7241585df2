export default {
  async beforeCreate(event) {
    const { data } = event.params;
    if (!data.slug && data.name) {
      data.slug = data.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    }
    const taken = await strapi.db.query('api::product.product').count({ where: { name: data.name } });
    if (taken > 0) {
      throw new Error('duplicate name ' + data.name);
    }
  },

  afterCreate(event) {
    strapi.log.info(`product ${event.result.id} created`);
  },
};
