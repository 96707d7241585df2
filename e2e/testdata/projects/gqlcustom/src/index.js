'use strict';

module.exports = {
  register({ strapi }) {
    const extension = strapi.plugin('graphql').service('extension');
    extension.use(({ strapi }) => {
      // The format service, read both ways projects read it.
      const { toEntityResponse } = strapi.plugin('graphql').service('format').returnTypes;
      const { toEntityResponseCollection } = strapi.service('plugin::graphql.format').returnTypes;
      return {
        typeDefs: `
          extend type Query {
            articleBySlug(slug: String!): ArticleEntityResponse
            articlesByTag(tag: String!): ArticleEntityResponseCollection
            featuredArticle: ArticleEntityResponse
            allArticles: ArticleEntityResponseCollection
          }
          extend type Mutation {
            readArticle(slug: String!): ArticleEntityResponse
          }
        `,
        resolvers: {
          Query: {
            async articleBySlug(parent, args) {
              const [entity] = await strapi.entityService.findMany('api::article.article', {
                filters: { slug: args.slug },
                limit: 1,
              });
              return toEntityResponse(entity || null, { args, resourceUID: 'api::article.article' });
            },
            async articlesByTag(parent, args) {
              const filters = { tags: { name: { $eq: args.tag } } };
              const nodes = await strapi.entityService.findMany('api::article.article', { filters, sort: { id: 'asc' } });
              return toEntityResponseCollection(nodes, {
                args: { filters, start: 0, limit: 10 },
                resourceUID: 'api::article.article',
              });
            },
            // A collection without info: meta has nothing to count.
            async allArticles() {
              return toEntityResponseCollection(await strapi.entityService.findMany('api::article.article', { sort: 'id' }));
            },
            // A value the resolver changes: its scalars are what the client gets.
            async featuredArticle() {
              const entity = await strapi.entityService.findOne('api::article.article', 2);
              return toEntityResponse({ ...entity, title: entity.title.toUpperCase() });
            },
          },
          Mutation: {
            async readArticle(parent, args) {
              const found = await strapi.db.query('api::article.article').findOne({ where: { slug: args.slug } });
              if (!found) return toEntityResponse(null);
              const entity = await strapi.entityService.update('api::article.article', found.id, {
                data: { views: (found.views || 0) + 1 },
              });
              return toEntityResponse(entity);
            },
          },
        },
        resolversConfig: {
          'Query.articleBySlug': { auth: false },
          'Query.articlesByTag': { auth: false },
          'Query.featuredArticle': { auth: false },
          'Query.allArticles': { auth: false },
          'Mutation.readArticle': { auth: false },
          // Resolver middlewares that change a generated query's args: the news section
          // lists only news, and tags come two at a time, by name.
          'Query.articles': {
            middlewares: [
              async (next, parent, args, context, info) =>
                next(parent, { ...args, filters: { ...(args.filters || {}), kind: { eq: 'news' } } }, context, info),
            ],
          },
          'Query.tags': {
            middlewares: [
              async (next, parent, args, context, info) =>
                next(parent, { ...args, sort: ['name:asc'], pagination: { page: (args.pagination && args.pagination.page) || 1, pageSize: 2 } }, context, info),
            ],
          },
        },
      };
    });
  },

  bootstrap() {},
};
