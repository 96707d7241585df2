/**
 * product controller: findOne answers by slug, as the shop's front-end asks for
 * /api/products/<slug>.
 */
import { factories } from '@strapi/strapi';
import _ from 'lodash';

export default factories.createCoreController('api::product.product', ({ strapi }) => ({
  async findOne(ctx) {
    const { id: slug } = ctx.params;
    const { query } = ctx;
    if (!query.filters) query.filters = {};
    query.filters.slug = { $eq: slug };
    const entity = await strapi.service('api::product.product').find(query);
    const { results } = await this.sanitizeOutput(entity, ctx);
    return this.transformResponse(results[0]);
  },

  async stats(ctx) {
    const total = await strapi.db.query('api::product.product').count();
    const visible = await strapi.entityService.count('api::product.product', { filters: { hidden: false } });
    ctx.body = { total, visible };
  },

  async duplicate(ctx) {
    const original = await strapi.entityService.findOne('api::product.product', ctx.params.id);
    if (!original) {
      return ctx.notFound('No such product');
    }
    const copy = await strapi.entityService.create('api::product.product', {
      data: { name: `${original.name} (copy)`, ..._.pick(original, ['price']), hidden: true },
    });
    const sanitized = await this.sanitizeOutput(copy, ctx);
    return this.transformResponse(sanitized);
  },
}));
