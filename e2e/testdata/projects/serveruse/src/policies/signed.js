'use strict';

// Lets a hook in only with the shared signature.
module.exports = (policyContext) => policyContext.request.query.sig === 'ok';
