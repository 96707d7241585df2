'use strict';

const { createCoreController } = require('@strapi/strapi').factories;
const { errors } = require('@strapi/utils');

module.exports = createCoreController('api::order.order', ({ strapi }) => ({
  // Order, then stock: an order the stock cannot cover is undone with the transaction.
  async place(ctx) {
    const { product, qty } = ctx.request.body || {};
    const events = [];
    try {
      const order = await strapi.db.transaction(async ({ onCommit, onRollback }) => {
        onCommit(() => events.push('committed'));
        onRollback(() => events.push('rolled back'));
        const item = await strapi.entityService.findOne('api::product.product', product);
        if (!item) {
          throw new errors.NotFoundError('No such product');
        }
        const created = await strapi.entityService.create('api::order.order', {
          data: { product, qty, total: item.price * qty },
        });
        if (item.stock < qty) {
          throw new errors.ApplicationError('Out of stock', { stock: item.stock, order: created.id });
        }
        await strapi.entityService.update('api::product.product', product, { data: { stock: item.stock - qty } });
        return created;
      });
      ctx.body = { id: order.id, qty: order.qty, total: order.total, events };
    } catch (e) {
      if (e instanceof errors.ApplicationError) {
        ctx.status = 409;
        ctx.body = { error: e.message, details: e.details, events };
        return;
      }
      throw e;
    }
  },

  // A transaction without a callback, ended by hand: what it wrote goes when rolled back.
  async draft(ctx) {
    const t = await strapi.db.transaction();
    const order = await strapi.db.query('api::order.order').create({ data: { qty: 0, note: 'draft' } });
    const inside = await strapi.db.query('api::order.order').count({ where: { note: 'draft' } });
    if (ctx.request.body && ctx.request.body.keep) {
      await t.commit();
    } else {
      await t.rollback();
    }
    const after = await strapi.db.query('api::order.order').count({ where: { note: 'draft' } });
    ctx.body = { created: Boolean(order.id), inside, after };
  },

  // A transaction inside another is the outer one: its commit does not end it.
  async twice(ctx) {
    const out = await strapi.db.transaction(async () => {
      await strapi.entityService.create('api::order.order', { data: { qty: 1, note: 'outer' } });
      await strapi.db.transaction(async ({ commit }) => {
        await strapi.entityService.create('api::order.order', { data: { qty: 2, note: 'inner' } });
        await commit();
      });
      if (ctx.request.body && ctx.request.body.fail) {
        throw new errors.ValidationError('undo both');
      }
      return strapi.db.query('api::order.order').count({ where: { note: { $in: ['outer', 'inner'] } } });
    });
    ctx.body = { count: out };
  },

  // The knex transaction itself.
  async knex(ctx) {
    await strapi.db.transaction(async ({ trx }) => {
      await trx('orders').where({ id: 1 }).first();
    });
    ctx.body = { ok: true };
  },

  // The locales a shop offers, through i18n's services.
  async locales(ctx) {
    const locales = strapi.plugin('i18n').service('locales');
    const types = strapi.plugin('i18n').service('content-types');
    const all = await locales.find();
    let invalid = null;
    try {
      await types.getValidLocale('xx');
    } catch (e) {
      invalid = `${e.name}: ${e.message}`;
    }
    ctx.body = {
      codes: all.map((l) => l.code).sort(),
      default: await locales.getDefaultLocale(),
      flagged: (await locales.setIsDefault(all)).map((l) => `${l.code}:${l.isDefault}`).sort(),
      fr: (await locales.findByCode('fr')).name,
      byId: Boolean(await locales.findById(all[0].id)),
      count: await locales.count(),
      frCount: await locales.count({ code: 'fr' }),
      valid: [await types.getValidLocale(), await types.getValidLocale('fr')],
      invalid,
      localized: types.isLocalizedContentType(strapi.getModel('api::order.order')),
    };
  },
}));
