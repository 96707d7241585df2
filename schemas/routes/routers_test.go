package routes

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/schemas/jseval"
)

const (
	releaseSchema = `{"kind": "collectionType", "info": {"singularName": "release", "pluralName": "releases"}, "attributes": {}}`
	bannerSchema  = `{"kind": "singleType", "info": {"singularName": "banner", "pluralName": "banners"}, "attributes": {}}`
)

// TestWrappedCoreRouter: a router of the project's own over createCoreRouter's (getters over
// its prefix and routes, extra routes after the core ones), a `{ routes }` file spreading the
// core routes when Strapi reads them, and core routes written out as Strapi makes them, are
// each the type's core router (its actions, their config and positions) and custom routes.
// Reading the core routes while the file loads is where Strapi fails to start.
func TestWrappedCoreRouter(t *testing.T) {
	dir := project(t, map[string]string{
		"src/api/release/content-types/release/schema.json": releaseSchema,
		"src/api/release/routes/release.js": `const { createCoreRouter } = require('@strapi/strapi').factories;
const core = createCoreRouter('api::release.release', { prefix: '/v1', except: ['delete'], config: { find: { auth: false }, update: { policies: ['global::owner'] } } });
const wrap = (inner, extra = []) => {
  let routes;
  return {
    get prefix() { return inner.prefix; },
    get routes() { if (!routes) routes = inner.routes.concat(extra); return routes; },
  };
};
module.exports = wrap(core, [
  { method: 'GET', path: '/releases/latest', handler: 'release.latest', config: { auth: false } },
  { method: 'POST', path: '/releases/:id/ship', handler: 'api::release.release.ship', config: { middlewares: ['api::release.audit'] } },
]);`,
		"src/api/banner/content-types/banner/schema.json": bannerSchema,
		"src/api/banner/routes/banner.ts": `import { factories } from '@strapi/strapi';
const core = factories.createCoreRouter('api::banner.banner', { only: ['update', 'find'] });
const text = { method: 'GET', path: '/banner/text', handler: 'banner.text' };
export default { get routes() { return [text, ...core.routes]; } };`,
		"src/api/page/content-types/page/schema.json": `{"kind": "collectionType", "info": {"singularName": "page", "pluralName": "pages"}}`,
		"src/api/page/routes/page.js": `module.exports = { routes: [
  { method: 'GET', path: '/pages', handler: 'page.find', config: { auth: false } },
  { method: 'GET', path: '/pages/:slug', handler: 'page.findOne' },
  { method: 'GET', path: '/pages', handler: 'page.find', config: { prefix: '/v2' } },
] };`,
		"src/api/tag/content-types/tag/schema.json": `{"kind": "collectionType", "info": {"singularName": "tag", "pluralName": "tags"}}`,
		"src/api/tag/routes/tag.js": `const { createCoreRouter } = require('@strapi/strapi').factories;
module.exports = { routes: [...createCoreRouter('api::tag.tag').routes, { method: 'GET', path: '/tags/top', handler: 'tag.top' }] };`,
		"src/api/ghost/routes/ghost.js": `const { createCoreRouter } = require('@strapi/strapi').factories;
const core = createCoreRouter('api::ghost.ghost');
module.exports = { get routes() { return core.routes; } };`,
	})
	m, err := Load(context.Background(), dir, jseval.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	rel := m.Core["api::release.release"]
	if rel == nil {
		t.Fatalf("release: no core router; unreadable %q", m.Unreadable)
	}
	if rel.Prefix != "/v1" || !reflect.DeepEqual(rel.Only, []string{"find", "findOne", "create", "update"}) || rel.File != "src/api/release/routes/release.js" {
		t.Errorf("release router: %+v", rel)
	}
	if !m.IsPublic("api::release.release", "find") || m.IsPublic("api::release.release", "findOne") || m.IsCoreEnabled("api::release.release", "delete") {
		t.Error("release: config or except not honoured")
	}
	if got := rel.Config["update"].Policies; !reflect.DeepEqual(got, []any{"global::owner"}) {
		t.Errorf("release update policies: %v", got)
	}
	if want := map[string]int{"find": 0, "findOne": 1, "create": 2, "update": 3}; !reflect.DeepEqual(rel.Pos, want) {
		t.Errorf("release positions: %v", rel.Pos)
	}
	var custom []string
	for _, r := range m.Custom {
		custom = append(custom, strings.Join([]string{r.File, r.Prefix, r.Method, r.Path, r.Handler, string(rune('0' + r.Pos))}, " "))
	}
	want := []string{
		"src/api/banner/routes/banner.ts  GET /banner/text api::banner.banner.text 0",
		"src/api/page/routes/page.js  GET /pages/:slug api::page.page.findOne 1",
		"src/api/page/routes/page.js  GET /pages api::page.page.find 2",
		"src/api/release/routes/release.js /v1 GET /releases/latest api::release.release.latest 4",
		"src/api/release/routes/release.js /v1 POST /releases/:id/ship api::release.release.ship 5",
	}
	if !reflect.DeepEqual(custom, want) {
		t.Errorf("custom routes:\n got %q\nwant %q", custom, want)
	}
	if c := m.Custom[4].Config; !reflect.DeepEqual(c.Middlewares, []any{"api::release.audit"}) {
		t.Errorf("the extra route's config: %+v", c)
	}
	banner := m.Core["api::banner.banner"]
	if banner == nil || !reflect.DeepEqual(banner.Only, []string{"update", "find"}) || !reflect.DeepEqual(banner.Pos, map[string]int{"update": 1, "find": 2}) {
		t.Errorf("banner router: %+v", banner)
	}
	// Written out: the core find is the core router's; /pages/:slug is a custom route's path,
	// not the core findOne's (/pages/:id); a route with a prefix of its own is custom.
	page := m.Core["api::page.page"]
	if page == nil || !reflect.DeepEqual(page.Only, []string{"find"}) || !page.Public("find") {
		t.Errorf("page router: %+v", page)
	}
	if len(m.Unreadable) != 2 || !strings.HasPrefix(m.Unreadable[0], "src/api/ghost/routes/ghost.js (createCoreRouter('api::ghost.ghost'): the project has no content type") ||
		!strings.HasPrefix(m.Unreadable[1], "src/api/tag/routes/tag.js (createCoreRouter('api::tag.tag').routes is read while the file loads") {
		t.Errorf("unreadable: %q", m.Unreadable)
	}
	if code := m.CoreCode("api::tag.tag", "find"); len(code) == 0 || !strings.Contains(code[0].What, "route files Quarry could not read") {
		t.Errorf("tag find: %v", code)
	}
}

// TestPluginRoutesDiff: a users-permissions extension that puts routes first (unshift), one
// in the middle (splice), edits two in place (a policy added, a handler changed) and sets
// the list anew without one (filter) changes those routes only, each named as what it is.
func TestPluginRoutesDiff(t *testing.T) {
	dir := project(t, map[string]string{
		"src/policies/signed.js": `module.exports = (ctx) => Boolean(ctx.state.user);`,
		"src/extensions/users-permissions/strapi-server.js": `module.exports = (plugin) => {
  plugin.controllers.auth.logout = async (ctx) => { ctx.body = { ok: true }; };
  const list = plugin.routes['content-api'].routes;
  list.unshift(
    { method: 'POST', path: '/auth/logout', handler: 'auth.logout', config: { prefix: '' } },
    { method: 'GET', path: '/auth/ping', handler: 'auth.ping', config: { prefix: '' } });
  list.splice(12, 0, { method: 'GET', path: '/users/stats', handler: 'user.stats', config: { prefix: '' } });
  list.find((r) => r.handler === 'user.me').config.policies = ['global::signed'];
  list.find((r) => r.handler === 'user.count').handler = 'user.find';
  // Unreachable: the plugin's own GET /users/me and GET /users/:id come first.
  list.push({ method: 'GET', path: '/users/me', handler: 'user.meToo', config: { prefix: '' } });
  list.push({ method: 'GET', path: '/users/latest', handler: 'user.latest', config: { prefix: '' } });
  plugin.routes['content-api'].routes = list.filter((r) => r.handler !== 'role.deleteRole');
  return plugin;
};`,
	})
	m, err := Load(context.Background(), dir, jseval.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.LoadCode(context.Background(), CodeInput{}); err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for k, list := range m.Plugin {
		for _, c := range list {
			got[k] = append(got[k], c.What)
		}
	}
	want := map[string][]string{
		"users-permissions auth.logout":     {"the extension adds the route POST /auth/logout (auth.logout)"},
		"users-permissions auth.ping":       {"the extension adds the route GET /auth/ping (auth.ping)"},
		"users-permissions user.stats":      {"the extension adds the route GET /users/stats (user.stats)"},
		"users-permissions user.me":         {"the extension adds policies global::signed to user.me"},
		"users-permissions user.count":      {"the extension changes the handler of GET /users/count (user.count) to user.find"},
		"users-permissions role.deleteRole": {"the extension removes the route DELETE /roles/:role (role.deleteRole)"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("plugin code:\n got %q\nwant %q", got, want)
	}
	if len(m.PluginAll["users-permissions"]) > 0 {
		t.Errorf("every route of the plugin refused: %v", m.PluginAll)
	}
	var added []string
	for _, r := range m.LocalRoutes {
		added = append(added, r.Method+" "+r.Path+" "+r.Handler+" "+r.Extension)
	}
	ext := "src/extensions/users-permissions/strapi-server.js"
	if want := []string{
		"POST /api/auth/logout plugin::users-permissions.auth.logout " + ext,
		"GET /api/auth/ping plugin::users-permissions.auth.ping ",
		"GET /api/users/stats plugin::users-permissions.user.stats ",
	}; !reflect.DeepEqual(added, want) {
		t.Errorf("added routes:\n got %q\nwant %q", added, want)
	}
	// The policy added to user.me runs before the plugin's own action.
	for _, r := range m.PluginRoutes {
		if r.Handler == "user.me" && !reflect.DeepEqual(r.AddedPolicies, []any{"global::signed"}) {
			t.Errorf("user.me's added policies: %v", r.AddedPolicies)
		}
	}
	if code := m.CustomCode(m.LocalRoutes[0]); len(code) != 1 || !code[0].Runnable {
		t.Errorf("the logout route's code: %+v", code)
	}
}

// TestRegisterUnshiftedPluginRoutes: src/index's register() putting a route first among the
// plugin's and adding a policy to one of the plugin's own: the policy is the route's it was
// added to, not the one that was at its position before.
func TestRegisterUnshiftedPluginRoutes(t *testing.T) {
	dir := project(t, map[string]string{
		"src/policies/signed.js": `module.exports = (ctx) => Boolean(ctx.state.user);`,
		"src/index.js": `module.exports = {
  register({ strapi }) {
    const routes = strapi.plugin('users-permissions').routes['content-api'].routes;
    routes.unshift({ method: 'GET', path: '/users/export', handler: 'user.export', config: { prefix: '' } });
    routes.find((r) => r.handler === 'user.find').config.policies = ['global::signed'];
  },
};`,
	})
	m, err := Load(context.Background(), dir, jseval.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.LoadCode(context.Background(), CodeInput{}); err != nil {
		t.Fatal(err)
	}
	for _, r := range m.PluginRoutes {
		want := []any(nil)
		if r.Handler == "user.find" {
			want = []any{"global::signed"}
		}
		if !reflect.DeepEqual(r.AddedPolicies, want) {
			t.Errorf("%s %s: added policies %v", r.Method, r.Path, r.AddedPolicies)
		}
	}
	if got := m.Plugin["users-permissions user.find"]; len(got) != 1 || got[0].What != "register() adds policies global::signed to user.find" || !got[0].Runnable {
		t.Errorf("user.find: %+v", got)
	}
	if len(m.LocalRoutes) != 1 || m.LocalRoutes[0].Path != "/api/users/export" {
		t.Errorf("added: %+v", m.LocalRoutes)
	}
	if len(m.Plugin) != 2 {
		t.Errorf("plugin code: %v", m.Plugin)
	}
}

// TestListedThenCoreRouter: a `{ routes }` file listing core routes of a type that a later
// createCoreRouter file routes too keeps them as its custom routes (registered first, as in
// Strapi); a later list's core routes of a type routed already are custom routes.
func TestListedThenCoreRouter(t *testing.T) {
	dir := project(t, map[string]string{
		"src/api/release/content-types/release/schema.json": releaseSchema,
		"src/api/release/routes/01-list.js": `module.exports = { routes: [
  { method: 'GET', path: '/releases/top', handler: 'release.top' },
  { method: 'GET', path: '/releases', handler: 'release.find', config: { auth: false } },
] };`,
		"src/api/release/routes/02-core.js": `module.exports = require('@strapi/strapi').factories.createCoreRouter('api::release.release', { prefix: '/v2' });`,
		"src/api/release/routes/03-list.js": `module.exports = { routes: [{ method: 'DELETE', path: '/releases/:id', handler: 'release.delete' }] };`,
	})
	m, err := Load(context.Background(), dir, jseval.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if r := m.Core["api::release.release"]; r == nil || r.File != "src/api/release/routes/02-core.js" || r.Prefix != "/v2" || r.Only != nil {
		t.Fatalf("core router: %+v", r)
	}
	var custom []string
	for _, r := range m.Custom {
		custom = append(custom, r.File+" "+r.Method+" "+r.Path+" "+r.Handler)
	}
	if want := []string{
		"src/api/release/routes/01-list.js GET /releases/top api::release.release.top",
		"src/api/release/routes/01-list.js GET /releases api::release.release.find",
		"src/api/release/routes/03-list.js DELETE /releases/:id api::release.release.delete",
	}; !reflect.DeepEqual(custom, want) {
		t.Errorf("custom:\n got %q\nwant %q", custom, want)
	}
	if !m.Custom[1].Config.Public() {
		t.Error("the listed find lost its config")
	}
}

// TestExtensionReturnsCopy: Strapi keeps the plugin object an extension returns (awaited):
// routes set on a copy of its own count, as routes changed in place on the one it received.
func TestExtensionReturnsCopy(t *testing.T) {
	dir := project(t, map[string]string{
		"src/extensions/users-permissions/strapi-server.js": `module.exports = async (plugin) => {
  const api = plugin.routes['content-api'];
  return { ...plugin, routes: { ...plugin.routes, 'content-api': { ...api, routes: api.routes.filter((r) => r.handler !== 'user.count') } } };
};`,
	})
	m, err := Load(context.Background(), dir, jseval.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.LoadCode(context.Background(), CodeInput{}); err != nil {
		t.Fatal(err)
	}
	want := map[string][]Code{"users-permissions user.count": {{File: "src/extensions/users-permissions/strapi-server.js", What: "the extension removes the route GET /users/count (user.count)"}}}
	if !reflect.DeepEqual(m.Plugin, want) || len(m.LocalRoutes) > 0 {
		t.Errorf("plugin code %v, added %v", m.Plugin, m.LocalRoutes)
	}
}
