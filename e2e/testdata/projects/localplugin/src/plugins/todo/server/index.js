'use strict';

/**
 * A local plugin keeping tasks in a content type of its own, as plugins generated with
 * `strapi generate` do: routes, a controller and a service over plugin::todo.task.
 */
module.exports = () => ({
  register() {},
  bootstrap() {},
  contentTypes: require('./content-types'),
  routes: {
    'content-api': {
      type: 'content-api',
      routes: [
        { method: 'GET', path: '/tasks', handler: 'task.find' },
        { method: 'GET', path: '/tasks/open', handler: 'task.open' },
        { method: 'POST', path: '/tasks', handler: 'task.create' },
      ],
    },
    // An admin router's route made public, as plugins listing their routes in an array do:
    // served at /todo/summary, outside the content API, without authentication.
    admin: {
      type: 'admin',
      routes: [
        { method: 'GET', path: '/summary', handler: 'task.summary', config: { auth: false, policies: [] } },
        { method: 'GET', path: '/private', handler: 'task.summary', config: { policies: [] } },
      ],
    },
  },
  controllers: {
    task: ({ strapi }) => ({
      async find(ctx) {
        const tasks = await strapi.entityService.findMany('plugin::todo.task', {
          sort: { id: 'asc' },
          populate: { board: { fields: ['name'] } },
        });
        ctx.body = { data: tasks };
      },
      async summary(ctx) {
        ctx.body = { tasks: await strapi.db.query('plugin::todo.task').count(), type: ctx.state.route.info.type };
      },
      async open(ctx) {
        ctx.body = await strapi.plugin('todo').service('tasks').open();
      },
      async create(ctx) {
        const { title, board } = ctx.request.body || {};
        const task = await strapi.entityService.create('plugin::todo.task', { data: { title, board } });
        ctx.body = { data: task };
      },
    }),
  },
  services: {
    tasks: ({ strapi }) => ({
      async open() {
        const [items, count] = await Promise.all([
          strapi.db.query('plugin::todo.task').findMany({ where: { done: false }, select: ['title'], orderBy: { id: 'asc' } }),
          strapi.db.query('plugin::todo.task').count({ where: { done: false } }),
        ]);
        return { open: count, titles: items.map((t) => t.title) };
      },
    }),
  },
});
