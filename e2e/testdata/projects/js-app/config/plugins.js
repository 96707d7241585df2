module.exports = ({ env }) => ({
  graphql: {
    config: {
      endpoint: env('GRAPHQL_ENDPOINT', '/graphql'),
      defaultLimit: 10,
      maxLimit: 50,
    },
  },
  'users-permissions': {
    config: {
      jwtSecret: env('JWT_SECRET'),
      jwt: { expiresIn: '7d' },
    },
  },
  sitemap: {
    enabled: true,
    config: { autoGenerate: true },
  },
});
