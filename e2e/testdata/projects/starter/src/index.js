'use strict';

// As Strapi's templates write it: the seed's modules at the top of the file, used only on a
// database's first run.
const fs = require('fs');
const path = require('path');
const mime = require('mime-types');

async function isFirstRun() {
  const pluginStore = strapi.store({ environment: strapi.config.environment, type: 'type', name: 'setup' });
  const initHasRun = await pluginStore.get({ key: 'initHasRun' });
  await pluginStore.set({ key: 'initHasRun', value: true });
  return !initHasRun;
}

function fileInfo(name) {
  const filePath = path.join('data', 'uploads', name);
  return { path: filePath, name, size: fs.statSync(filePath).size, type: mime.lookup(filePath) };
}

async function importSeedData() {
  // The seed's data sits beside the project: read first, so that without it nothing is made.
  const seed = JSON.parse(fs.readFileSync(path.join('data', 'data.json'), 'utf8'));
  for (const shelf of seed.shelves) {
    await strapi.entityService.create('api::shelf.shelf', { data: shelf, files: { cover: fileInfo(shelf.cover) } });
  }
}

module.exports = {
  register({ strapi }) {
    // Helpers hung on strapi for the project's controllers, as real projects do.
    strapi.catalog = {
      label(item) { return item ? `${item.title} (#${item.id})` : 'nothing'; },
    };
    // A query of the project's own that takes the place of Shadow CRUD's.
    strapi.plugin('graphql').service('extension').use(({ nexus }) => ({
      types: [
        nexus.extendType({
          type: 'Query',
          definition(t) {
            t.field('maker', { type: 'String', args: { id: 'ID' }, resolve: (parent, args) => `maker ${args.id}` });
          },
        }),
      ],
      resolversConfig: { 'Query.maker': { auth: false } },
    }));
    // The tutorials' override of a generated query: its SDL merges into Shadow CRUD's field
    // (the argument is added to id), and its resolver answers through the format service.
    strapi.service('plugin::graphql.extension').use(({ strapi }) => ({
      typeDefs: `
        type Query {
          item(title: String): ItemEntityResponse
        }
      `,
      resolvers: {
        Query: {
          item: {
            resolve: async (parent, args) => {
              const { toEntityResponse } = strapi.service('plugin::graphql.format').returnTypes;
              const found = await strapi.services['api::item.item'].find({ filters: { title: args.title } });
              return toEntityResponse(found.results[0]);
            },
          },
        },
      },
      resolversConfig: { 'Query.item': { auth: false } },
    }));
  },

  async bootstrap() {
    if (await isFirstRun()) {
      try {
        console.log('Setting up the template...');
        await importSeedData();
        console.log('Ready to go');
      } catch (error) {
        console.log('Could not import seed data');
      }
    }
  },
};
