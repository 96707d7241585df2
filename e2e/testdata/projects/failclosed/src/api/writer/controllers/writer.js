'use strict';

// A controller that needs an npm module Quarry's sandbox does not provide: its overridden
// action is refused (the module is named), never answered by the core action.
const Stripe = require('stripe');
const _ = require('lodash');

const stripe = Stripe(process.env.STRIPE_KEY || 'sk_test_none');

module.exports = require('@strapi/strapi').factories.createCoreController('api::writer.writer', () => ({
  async find(ctx) {
    const { data } = await stripe.customers.list({ limit: 3 });
    return _.map(data, 'name');
  },
}));
