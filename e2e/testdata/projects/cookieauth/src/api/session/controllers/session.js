'use strict';

const utils = require('@strapi/utils');

const { contentTypes, mapAsync, reduceAsync, pipeAsync, forEachAsync, parseMultipartData } = utils;
const { validateProfile, castProfile, validateIds } = require('../validation/profile');

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

  // @strapi/utils' plain helpers, as controllers reach for them.
  async helpers(ctx) {
    const note = strapi.getModel('api::note.note');
    const doubled = await mapAsync([1, 2, 3], async (n, i) => n * 2 + i);
    const curried = await mapAsync(['a', 'b'])((s) => s.toUpperCase());
    const sum = await reduceAsync([1, Promise.resolve(2), 3])(async (acc, n, i) => acc + n * (i + 1), 10);
    const piped = await pipeAsync((a, b) => a + b, async (n) => n * 10, (n) => `=${n}`)(2, 3);
    const seen = [];
    await forEachAsync([3, 1, 2], async (n) => { seen.push(n); }, { concurrency: 1 });
    ctx.body = {
      doubled, curried, sum, piped, seen,
      writable: contentTypes.getWritableAttributes(note),
      visible: contentTypes.getVisibleAttributes(note),
      nonWritable: contentTypes.getNonWritableAttributes(note),
      timestamps: contentTypes.getTimestamps(note),
      creators: contentTypes.getCreatorFields(note),
      scalars: contentTypes.getScalarAttributes(note),
      draft: contentTypes.isDraft({ publishedAt: null }, note),
      single: contentTypes.isSingleType(note),
      prefix: contentTypes.getContentTypeRoutePrefix(note),
      constants: contentTypes.constants,
      removeUndefined: utils.removeUndefined({ a: 1, b: undefined, c: null }),
      keysDeep: utils.keysDeep({ a: { b: 1, c: [1, 2] }, d: 'x' }),
      escaped: utils.escapeQuery('50%_off', '%_'),
      includes: utils.stringIncludes([1, 2, 3], '2'),
      common: utils.getCommonBeginning('/api/notes', '/api/news', '/api/n'),
      kebab: [utils.isKebabCase('my-note'), utils.isKebabCase('myNote'), utils.isCamelCase('myNote'), utils.startsWithANumber('1a')],
    };
  },

  // A v3-style multipart create: the entry in a JSON 'data' field, its files as files.<field>.
  async form(ctx) {
    const parsed = parseMultipartData(ctx);
    if (!parsed) {
      return;
    }
    const { data, files } = parsed;
    ctx.body = { data, files: Object.keys(files).map((k) => `${k}:${files[k].name}:${files[k].size}`) };
  },

  // yup from @strapi/utils, built at each request.
  async validate(ctx) {
    const schema = utils.yup.object({ theme: utils.yup.string().required() });
    await utils.validateYupSchema(schema)(ctx.query);
    ctx.body = { ok: true };
  },

  // What the body parser made of the request's body (a form, a text, JSON).
  async echo(ctx) {
    ctx.body = { type: typeof ctx.request.body, body: ctx.request.body };
  },

  // Short links: a redirect to where ?to says.
  async go(ctx) {
    ctx.redirect(ctx.query.to || '/');
  },

  // Back where the visitor came from (the same site only), permanently.
  async back(ctx) {
    ctx.status = 301;
    ctx.redirect('back', '/fallback');
  },

  async exportNotes(ctx) {
    ctx.attachment(ctx.query.name || 'notes export.csv');
    ctx.body = 'id,title\n1,first\n';
  },

  async negotiate(ctx) {
    ctx.append('X-Trace', 'a');
    ctx.append('X-Trace', 'b');
    ctx.vary('Accept');
    ctx.vary('Origin, accept');
    ctx.set('X-Gone', '1');
    ctx.remove('X-Gone');
    ctx.body = {
      html: ctx.accepts('html'),
      json: ctx.accepts('json'),
      best: ctx.accepts(['html', 'json']),
      request: ctx.request.accepts('text/plain'),
      path: ctx.href.slice(ctx.origin.length),
      search: ctx.search,
      protocol: ctx.origin.split(':')[0],
    };
  },

  async profile(ctx) {
    ctx.body = { data: await validateProfile(ctx.request.body) };
  },

  async castProfile(ctx) {
    ctx.body = { data: await castProfile(ctx.request.body, 'Invalid profile') };
  },

  async ids(ctx) {
    ctx.body = { ids: validateIds(ctx.request.body, 'Invalid ids').ids };
  },
};
