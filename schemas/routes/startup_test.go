package routes

import (
	"context"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/schemas/jseval"
)

// TestSeedingBootstrapModules: Strapi's templates seed a fresh database from bootstrap()
// with Node's fs and npm modules required at the top of src/bootstrap.js; that alone does not
// refuse every route (register() is Strapi's default), while a controller requiring fs, and
// lifecycles subscribed from an index.js that lacks a module, stay refused.
func TestSeedingBootstrapModules(t *testing.T) {
	files := map[string]string{
		"src/bootstrap.js": `'use strict';
const fs = require('fs');
const path = require('node:path');
const mime = require('mime-types');
module.exports = async () => {
  const store = strapi.store({ type: 'type', name: 'setup' });
  if (await store.get({ key: 'initHasRun' })) return;
  const p = path.join('data', 'uploads', 'a.jpg');
  await strapi.plugin('upload').service('upload').upload({ files: { path: p, size: fs.statSync(p).size, type: mime.lookup(p) }, data: {} });
};`,
		"src/index.js": `'use strict';
const bootstrap = require('./bootstrap');
module.exports = { register() {}, bootstrap };`,
		"src/api/tag/content-types/tag/schema.json": `{"kind":"collectionType","collectionName":"tags","info":{"singularName":"tag","pluralName":"tags"},"attributes":{"name":{"type":"string"}}}`,
		"src/api/tag/controllers/tag.js": `const fs = require('fs');
module.exports = require('@strapi/strapi').factories.createCoreController('api::tag.tag', () => ({
  async find(ctx) { ctx.body = fs.readFileSync('tags.json', 'utf8'); },
}));`,
	}
	m := loadCode(t, files, CodeInput{})
	if len(m.Global) > 0 {
		t.Fatalf("every route refused: %+v", m.Global)
	}
	if len(m.NotRun) != 1 || !strings.Contains(m.NotRun[0].What, "bootstrap() is not run") {
		t.Errorf("bootstrap() noted as %+v", m.NotRun)
	}
	code := m.CoreCode("api::tag.tag", "find")
	if len(code) == 0 || code[0].Runnable || !strings.Contains(code[0].What, "'fs'") {
		t.Errorf("tag find: %+v, want refused for 'fs'", code)
	}

	files["src/index.js"] = `'use strict';
const bootstrap = require('./bootstrap');
module.exports = {
  register({ strapi }) { strapi.db.lifecycles.subscribe({ models: ['api::tag.tag'], beforeCreate() {} }); },
  bootstrap,
};`
	m = loadCode(t, files, CodeInput{})
	hooks := m.Hooks("api::tag.tag", Events("create"))
	if len(hooks) == 0 || hooks[0].Runnable {
		t.Errorf("beforeCreate of a src/index.js lacking modules: %+v, want refused", hooks)
	}
}

// TestCommentedSubscribe: a strapi.db.lifecycles.subscribe left in a comment of
// src/index.ts is no subscription; it refused every route of the models as one Quarry could
// not follow.
func TestCommentedSubscribe(t *testing.T) {
	m := loadCode(t, map[string]string{
		"src/api/tag/content-types/tag/schema.json": `{"kind":"collectionType","collectionName":"tags","info":{"singularName":"tag","pluralName":"tags"},"attributes":{"name":{"type":"string"}}}`,
		"src/index.ts": `export default {
  register() {},
  bootstrap({ strapi }) {
    // strapi.db.lifecycles.subscribe({
    //   models: ['admin::user'],
    //   afterCreate() {},
    // });
    /* strapi.db.lifecycles.subscribe({ afterUpdate() {} }); */
  },
};`,
	}, CodeInput{})
	if hooks := m.Hooks("api::tag.tag", Events("find")); len(hooks) > 0 || len(m.Global) > 0 {
		t.Errorf("a commented-out subscribe: hooks %+v, global %+v", hooks, m.Global)
	}
}

// TestAppMiddlewareLackingModule: an app-level middleware whose file requires a module Quarry
// does not provide runs on every request: every route is refused (forwarded with
// --upstream), where they were listed as served and each answered 501.
func TestAppMiddlewareLackingModule(t *testing.T) {
	m := loadCode(t, map[string]string{
		"src/api/tag/content-types/tag/schema.json": `{"kind":"collectionType","collectionName":"tags","info":{"singularName":"tag","pluralName":"tags"},"attributes":{"name":{"type":"string"}}}`,
		"src/middlewares/rate-limit.js": `const rateLimit = require('express-rate-limit');
module.exports = () => rateLimit({ max: 100 });`,
		"src/middlewares/trail.js": `module.exports = () => async (ctx, next) => next();`,
	}, CodeInput{Middlewares: []any{"strapi::errors", "global::trail", "global::rate-limit"}})
	if len(m.Global) != 1 || !strings.Contains(m.Global[0].What, "global::rate-limit (it requires 'express-rate-limit'") {
		t.Errorf("global: %+v", m.Global)
	}
}

// TestProvidersRegistryReplaced: an extension replacing users-permissions' providers
// registry (a custom OAuth provider) refuses the routes that use it, connect and the
// provider callback, where it refused every route of the project.
func TestProvidersRegistryReplaced(t *testing.T) {
	m := loadCode(t, map[string]string{
		"src/api/tag/content-types/tag/schema.json": `{"kind":"collectionType","collectionName":"tags","info":{"singularName":"tag","pluralName":"tags"},"attributes":{"name":{"type":"string"}}}`,
		"src/extensions/users-permissions/strapi-server.js": `module.exports = (plugin) => {
  plugin.services['providers-registry'] = () => ({ getAll() { return {}; }, run() { return null; } });
  return plugin;
};`,
	}, CodeInput{})
	if len(m.Global) > 0 {
		t.Fatalf("every route refused: %+v", m.Global)
	}
	for _, h := range []string{"auth.connect", "auth.callback"} {
		if len(m.Plugin["users-permissions "+h]) == 0 {
			t.Errorf("%s not refused", h)
		}
	}
	if c := m.Plugin["users-permissions user.me"]; len(c) > 0 {
		t.Errorf("user.me refused: %+v", c)
	}
}

// TestGraphQLExtensionByUID: register() reaching the GraphQL extension service as
// strapi.service('plugin::graphql.extension') extends the schema like
// strapi.plugin('graphql').service('extension'); it was read as a use of data and the
// extension (its resolversConfig included) never applied.
func TestGraphQLExtensionByUID(t *testing.T) {
	m := loadCode(t, map[string]string{
		"src/index.js": `module.exports = {
  register({ strapi }) {
    const extensionService = strapi.service('plugin::graphql.extension');
    extensionService.use(() => ({ typeDefs: 'type Query { hello: String }', resolversConfig: { 'Query.articles': { auth: false } } }));
  },
};`,
	}, CodeInput{})
	if len(m.GraphQL) != 1 || !strings.Contains(m.GraphQL[0].What, "resolversConfig Query.articles") {
		t.Errorf("GraphQL uses: %+v", m.GraphQL)
	}
}

// loadCode reads a project made of files as the routes model does at start.
func loadCode(t *testing.T, files map[string]string, in CodeInput) *Model {
	t.Helper()
	dir := project(t, files)
	m, err := Load(context.Background(), dir, jseval.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.LoadCode(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestExtensionMiddlewareOwnFile: a middleware a plugin extension adds is judged by the
// modules of the file that exports it, not by everything the extension file requires (here a
// replaced service needing an OAuth library), where every route was refused for the latter.
func TestExtensionMiddlewareOwnFile(t *testing.T) {
	m := loadCode(t, map[string]string{
		"src/api/tag/content-types/tag/schema.json": `{"kind":"collectionType","collectionName":"tags","info":{"singularName":"tag","pluralName":"tags"},"attributes":{"name":{"type":"string"}}}`,
		"src/extensions/users-permissions/strapi-server.js": `const { cookieJwt } = require('./server/middlewares');
module.exports = (plugin) => {
  plugin.middlewares.cookieJwt = cookieJwt;
  plugin.services['providers-registry'] = require('./server/services/providers-registry');
  return plugin;
};`,
		"src/extensions/users-permissions/server/middlewares/index.js": `module.exports = { cookieJwt: require('./cookie-jwt') };`,
		"src/extensions/users-permissions/server/middlewares/cookie-jwt.js": `const _ = require('lodash/fp');
module.exports = () => async (ctx, next) => { const t = ctx.cookies.get('token'); if (t) ctx.request.header.authorization = 'Bearer ' + t; await next(); };`,
		"src/extensions/users-permissions/server/services/providers-registry.js": `const purest = require('purest');
module.exports = () => ({ getAll() { return {}; }, run() { return purest; } });`,
	}, CodeInput{Middlewares: []any{"strapi::errors", "plugin::users-permissions.cookieJwt", "strapi::body"}})
	if len(m.Global) > 0 {
		t.Fatalf("every route refused: %+v", m.Global)
	}
	if len(m.AppMiddlewares) != 1 || m.AppMiddlewares[0].Name != "plugin::users-permissions.cookieJwt" {
		t.Errorf("app middlewares: %+v", m.AppMiddlewares)
	}
	if len(m.Plugin["users-permissions auth.callback"]) == 0 {
		t.Errorf("the provider callback is not refused for the replaced registry")
	}
}
