import { factories } from '@strapi/strapi';

export default factories.createCoreService('api::product.product', ({ strapi }) => ({
  async find(params) {
    const filters = { ...(params.filters || {}), hidden: { $ne: true } };
    return super.find({ ...params, filters });
  },
}));
