module.exports = {
  "users-permissions": {
    config: {
      jwtSecret: "oracle-users-permissions-jwt-secret",
      register: { allowedFields: ["name", "age"] },
    },
  },
};
