'use strict';
// axios as projects call it (axios(config), axios.get/post/…, axios.create), over the
// sandbox's fetch: the hosts config/quarry lists under fetch.allow, nothing else. Outside a
// request (reading the project's files) there is no network and every call rejects.

function fetchOf() {
  if (typeof globalThis.__quarryFetch !== 'function') {
    throw new Error('axios: the network is not available here under Quarry');
  }
  return globalThis.__quarryFetch;
}

function isObject(v) { return v !== null && typeof v === 'object'; }

function encode(v) { return encodeURIComponent(v).replace(/%3A/gi, ':').replace(/%24/g, '$').replace(/%2C/gi, ',').replace(/%20/g, '+').replace(/%5B/gi, '[').replace(/%5D/gi, ']'); }

function serializeParams(params) {
  var parts = [];
  Object.keys(params).forEach(function (k) {
    var v = params[k];
    if (v === null || v === undefined) return;
    var key = k;
    var list = v;
    if (Array.isArray(v)) key = k + '[]'; else list = [v];
    list.forEach(function (x) {
      if (x instanceof Date) x = x.toISOString();
      else if (isObject(x)) x = JSON.stringify(x);
      parts.push(encode(key) + '=' + encode(x));
    });
  });
  return parts.join('&');
}

function buildURL(config) {
  var url = config.url || '';
  if (config.baseURL && !/^[a-z][a-z\d+\-.]*:\/\//i.test(url)) {
    url = config.baseURL.replace(/\/+$/, '') + '/' + url.replace(/^\/+/, '');
  }
  if (config.params && isObject(config.params)) {
    var q = serializeParams(config.params);
    if (q) url += (url.indexOf('?') >= 0 ? '&' : '?') + q;
  }
  return url;
}

function mergeConfig(a, b) {
  var out = Object.assign({}, a, b);
  out.headers = Object.assign({}, (a && a.headers) || {}, (b && b.headers) || {});
  return out;
}

function axiosError(message, code, config, response) {
  var e = new Error(message);
  e.name = 'AxiosError';
  e.isAxiosError = true;
  e.code = code;
  e.config = config;
  if (response) { e.response = response; e.status = response.status; }
  e.toJSON = function () { return { message: e.message, name: e.name, code: e.code, status: e.status }; };
  return e;
}

function request(defaults, config) {
  config = mergeConfig(defaults, config);
  var method = String(config.method || 'get').toUpperCase();
  var headers = {};
  Object.keys(config.headers).forEach(function (k) {
    var v = config.headers[k];
    if (v === undefined || v === null) return;
    if (['common', 'get', 'post', 'put', 'patch', 'delete', 'head'].indexOf(k.toLowerCase()) >= 0) return;
    headers[k] = String(v);
  });
  var hasType = Object.keys(headers).some(function (k) { return k.toLowerCase() === 'content-type'; });
  var body;
  if (config.data !== undefined && config.data !== null && method !== 'GET' && method !== 'HEAD') {
    if (typeof config.data === 'string') {
      body = config.data;
      if (!hasType) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    } else {
      body = JSON.stringify(config.data);
      if (!hasType) headers['Content-Type'] = 'application/json';
    }
  }
  if (!Object.keys(headers).some(function (k) { return k.toLowerCase() === 'accept'; })) {
    headers.Accept = 'application/json, text/plain, */*';
  }
  return Promise.resolve().then(function () {
    return fetchOf()(buildURL(config), { method: method, headers: headers, body: body });
  }).then(function (res) {
    return res.text().then(function (text) {
      var data = text;
      if (config.responseType !== 'text' && text !== '') {
        try { data = JSON.parse(text); } catch (e) { data = text; }
      }
      var hdrs = {};
      res.headers.forEach(function (v, k) { hdrs[k] = v; });
      var response = { data: data, status: res.status, statusText: res.statusText, headers: hdrs, config: config, request: {} };
      var valid = typeof config.validateStatus === 'function' ? config.validateStatus(res.status) : (res.status >= 200 && res.status < 300);
      if (!valid) {
        throw axiosError('Request failed with status code ' + res.status, res.status >= 500 ? 'ERR_BAD_RESPONSE' : 'ERR_BAD_REQUEST', config, response);
      }
      return response;
    });
  }, function (e) {
    throw axiosError(e && e.message ? e.message : String(e), 'ERR_NETWORK', config);
  });
}

function create(defaults) {
  defaults = mergeConfig({ headers: {} }, defaults || {});
  var instance = function (urlOrConfig, config) {
    if (typeof urlOrConfig === 'string') return request(defaults, Object.assign({}, config, { url: urlOrConfig }));
    return request(defaults, urlOrConfig || {});
  };
  instance.defaults = defaults;
  instance.request = function (config) { return request(defaults, config || {}); };
  ['get', 'delete', 'head', 'options'].forEach(function (m) {
    instance[m] = function (url, config) { return request(defaults, Object.assign({}, config, { url: url, method: m })); };
  });
  ['post', 'put', 'patch'].forEach(function (m) {
    instance[m] = function (url, data, config) { return request(defaults, Object.assign({}, config, { url: url, method: m, data: data })); };
  });
  instance.create = function (more) { return create(mergeConfig(defaults, more || {})); };
  instance.isAxiosError = function (e) { return !!(e && e.isAxiosError); };
  instance.interceptors = {
    request: { use: function () { throw new Error('axios interceptors are not provided by Quarry'); } },
    response: { use: function () { throw new Error('axios interceptors are not provided by Quarry'); } }
  };
  return instance;
}

var axios = create({});
axios.default = axios;
axios.AxiosError = function AxiosError(message) { return axiosError(message); };
module.exports = axios;
