module.exports = {
  routes: [
    { method: 'GET', path: '/products/stats', handler: 'product.stats' },
    { method: 'POST', path: '/products/:id/duplicate', handler: 'product.duplicate' },
  ],
};
