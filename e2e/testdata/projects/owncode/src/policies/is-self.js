'use strict';

module.exports = (policyContext) => {
  const { user } = policyContext.state;
  return Boolean(user) && String(user.id) === String(policyContext.params.id);
};
