'use strict';
// node-fetch as projects require it: the sandbox's fetch (the hosts config/quarry lists
// under fetch.allow). Outside a request there is no network and every call rejects.
function fetch(input, init) {
  if (typeof globalThis.__quarryFetch !== 'function') {
    return Promise.reject(new Error('node-fetch: the network is not available here under Quarry'));
  }
  return globalThis.__quarryFetch(input, init);
}
module.exports = fetch;
module.exports.default = fetch;
