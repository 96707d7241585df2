'use strict';

module.exports = {
  async logout(ctx) {
    ctx.cookies.set('token', null);
    ctx.cookies.set('token.sig', null);
    ctx.body = { loggedOut: true };
  },

  // The visitor's theme, signed with the app's keys so that it cannot be forged.
  async theme(ctx) {
    const { theme } = ctx.request.body || {};
    if (!['dark', 'light'].includes(theme)) {
      return ctx.badRequest('theme must be dark or light');
    }
    ctx.cookies.set('theme', theme, { httpOnly: false, sameSite: 'strict', path: '/api' });
    ctx.cookies.set('seen', 'yes');
    ctx.body = { theme };
  },

  async readTheme(ctx) {
    ctx.body = {
      signed: ctx.cookies.get('theme', { signed: true }) || null,
      raw: ctx.cookies.get('theme') || null,
      seen: ctx.cookies.get('seen') || null,
      quoted: ctx.cookies.get('quoted') || null,
      protocol: ctx.protocol,
      secure: ctx.secure,
    };
  },

  // A secure cookie needs https: over plain http the cookies package throws.
  async secure(ctx) {
    ctx.cookies.set('strict', 'yes', { secure: true });
    ctx.body = { set: true };
  },
};
