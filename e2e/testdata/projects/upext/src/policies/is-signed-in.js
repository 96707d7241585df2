'use strict';

// Only a signed-in user reaches the account routes the project adds.
module.exports = (policyContext) => Boolean(policyContext.state.user);
