const handlers = ['loop', 'grow', 'repeat', 'fill', 'buffer', 'fs', 'exit', 'throwString', 'throwObject', 'never', 'interval', 'bigBuffer', 'bcryptCost', 'fine'];
module.exports = {
  routes: handlers.map((h) => ({ method: 'GET', path: `/things/hostile/${h}`, handler: `thing.${h}`, config: { auth: false } })),
};
