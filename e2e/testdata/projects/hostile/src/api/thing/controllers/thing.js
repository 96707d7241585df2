'use strict';

module.exports = require('@strapi/strapi').factories.createCoreController('api::thing.thing', ({ strapi }) => ({
  async loop() { for (;;) {} },
  async grow() { const a = []; for (;;) a.push({ x: 'y'.repeat(100) }); },
  async repeat() { return 'x'.repeat(2 ** 30).length; },
  async fill() { return new Array(1e9).fill(0).length; },
  async buffer() { return new Uint8Array(2 ** 33).length; },
  async fs() { return require('fs').readFileSync('/etc/passwd', 'utf8'); },
  async exit() { process.exit(1); },
  async throwString() { throw 'boom'; },
  async throwObject() { throw { code: 42 }; },
  async never() { await new Promise(() => {}); },
  async interval() { setInterval(() => {}, 0); await new Promise(() => {}); },
  async bigBuffer() { return Buffer.alloc(2 ** 30).length; },
  async bcryptCost() { return require('bcryptjs').hashSync('x', 31); },
  async fine(ctx) { ctx.body = { count: await strapi.db.query('api::thing.thing').count() }; },
}));
