module.exports = {
  rest: {
    defaultLimit: 25,
    maxLimit: 20,
    withCount: true,
  },
};
