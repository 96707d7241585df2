export default () => ({
  graphql: {
    enabled: false,
  },
  email: {
    enabled: false,
  },
});
