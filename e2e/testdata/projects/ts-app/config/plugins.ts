export default () => ({
  graphql: {
    enabled: false,
  },
});
