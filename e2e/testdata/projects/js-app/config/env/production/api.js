module.exports = ({ env }) => ({
  rest: {
    maxLimit: env.int('MAX_LIMIT', 100),
  },
});
