module.exports = {
  routes: [
    { method: 'GET', path: '/tags/count', handler: 'tag.count', config: { auth: false } },
  ],
};
