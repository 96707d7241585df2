module.exports = {
  routes: [
    { method: 'GET', path: '/products/stats', handler: 'product.stats' },
  ],
};
