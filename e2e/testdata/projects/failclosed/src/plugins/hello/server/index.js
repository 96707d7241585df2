module.exports = {
  register() {},
  routes: {
    'content-api': {
      type: 'content-api',
      routes: [{ method: 'GET', path: '/greeting', handler: 'hello.greet', config: { auth: false } }],
    },
  },
  controllers: { hello: { greet(ctx) { ctx.body = { hello: 'world' }; } } },
};
