package jseval

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestRecord(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	routes := map[string][]map[string]any{"users-permissions": {
		{"method": "GET", "path": "/users", "handler": "user.find", "config": map[string]any{"prefix": ""}},
		{"method": "PUT", "path": "/users/:id", "handler": "user.update", "config": map[string]any{"prefix": ""}},
	}}
	index := write("index.js", `module.exports = {
  register({ strapi }) {
    for (const r of strapi.plugins['users-permissions'].routes['content-api'].routes) {
      if (r.handler === 'user.find') r.config.middlewares = [...(r.config.middlewares || []), 'global::mine'];
    }
    strapi.plugin('graphql').service('extension').shadowCRUD('api::tag.tag').disableAction('delete').field('name').disableFilters();
    strapi.plugin('graphql').service('extension').use(({ nexus }) => ({ typeDefs: 'type X { a: Int }', resolvers: { Query: { x: () => 1 } } }));
    strapi.customFields.register({ name: 'x' });
  },
  async bootstrap({ strapi }) {
    const n = await strapi.db.query('api::tag.tag').count();
    strapi.db.lifecycles.subscribe({ models: ['api::tag.tag'], beforeCreate() {} });
    strapi.server.use(async (ctx, next) => next()).use(async (ctx, next) => next());
    strapi.server.app.on('error', () => {});
  },
};`)
	rec, err := Record(context.Background(), index, Options{Root: dir}, RecordInput{Export: "register", PluginRoutes: routes})
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Called || !rec.Touched || len(rec.Unsupported) != 0 || rec.Threw != "" {
		t.Fatalf("register: %+v", rec)
	}
	if mw, _ := rec.Routes["users-permissions"][0]["config"].(map[string]any)["middlewares"].([]any); len(mw) != 1 || mw[0] != "global::mine" {
		t.Errorf("routes after register: %v", rec.Routes)
	}
	if len(rec.Shadow) != 2 || rec.Shadow[0].Method != "disableAction" || rec.Shadow[1].Field != "name" || len(rec.GraphQLUses) != 1 {
		t.Errorf("graphql: %+v %v", rec.Shadow, rec.GraphQLUses)
	}
	rec, err = Record(context.Background(), index, Options{Root: dir}, RecordInput{Export: "bootstrap", PluginRoutes: routes})
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Subscriptions) != 1 || rec.Subscriptions[0].Models[0] != "api::tag.tag" || rec.Subscriptions[0].Hooks[0] != "beforeCreate" {
		t.Errorf("subscriptions: %+v", rec.Subscriptions)
	}
	if !slices.Contains(rec.Unsupported, "strapi.server.app") || slices.Contains(rec.Unsupported, "strapi.server.use") || len(rec.Data) == 0 {
		t.Errorf("bootstrap: unsupported %v data %v", rec.Unsupported, rec.Data)
	}
	if rec.ServerUses != 2 || rec.ServerUseCalls != 2 {
		t.Errorf("bootstrap: strapi.server.use: %d functions in %d calls, want 2 in 2", rec.ServerUses, rec.ServerUseCalls)
	}
	// A plugin extension: replaced controllers are named.
	ext := write("ext.js", `module.exports = (plugin) => {
  const me = plugin.controllers.user.me;
  plugin.controllers.user.me = async (ctx) => me(ctx);
  plugin.controllers.auth = { register() {} };
  plugin.routes['content-api'].routes.push({ method: 'GET', path: '/users/mine', handler: 'user.mine', config: {} });
  return plugin;
};`)
	rec, err = Record(context.Background(), ext, Options{Root: dir}, RecordInput{Plugin: "users-permissions", PluginRoutes: routes})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rec.Controllers, []string{"user.me", "auth"}) || len(rec.Routes["users-permissions"]) != 3 {
		t.Errorf("extension: controllers %v routes %v", rec.Controllers, rec.Routes)
	}
	// An empty register() touches nothing; a throwing one says what it threw.
	empty := write("empty.js", `module.exports = { register(/* { strapi } */) {}, bootstrap() { throw new Error('boom'); } };`)
	if rec, err := Record(context.Background(), empty, Options{Root: dir}, RecordInput{Export: "register"}); err != nil || !rec.Called || rec.Touched {
		t.Errorf("empty register: %+v %v", rec, err)
	}
	if rec, err := Record(context.Background(), empty, Options{Root: dir}, RecordInput{Export: "bootstrap"}); err != nil || rec.Threw != "boom" {
		t.Errorf("throwing bootstrap: %+v %v", rec, err)
	}
	// An endless loop is stopped by the time limit.
	loop := write("loop.js", `module.exports = { register() { for (;;) {} } };`)
	if _, err := Record(context.Background(), loop, Options{Root: dir, Timeout: 100e6}, RecordInput{Export: "register"}); err == nil {
		t.Error("endless register: no error")
	}
}

// TestRecordEventHub: strapi.eventHub is Strapi's API the runtime runs, not an unsupported
// one: the recording notes its use (listeners added, removed, events emitted).
func TestRecordEventHub(t *testing.T) {
	dir := t.TempDir()
	index := filepath.Join(dir, "index.js")
	src := `module.exports = {
  register() {},
  async bootstrap({ strapi }) {
    const off = strapi.eventHub.on('entry.create', async ({ entry }) => strapi.entityService.create('api::log.log', { data: { id: entry.id } }));
    strapi.eventHub.once('entry.update', () => {});
    strapi.eventHub.subscribe(() => {});
    off();
    await strapi.eventHub.emit('ready', { at: new Date() });
  },
};`
	if err := os.WriteFile(index, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for export, want := range map[string]bool{"register": false, "bootstrap": true} {
		rec, err := Record(context.Background(), index, Options{Root: dir}, RecordInput{Export: export})
		if err != nil {
			t.Fatal(err)
		}
		if rec.EventHub != want || len(rec.Unsupported) != 0 || len(rec.Data) != 0 || rec.Threw != "" {
			t.Errorf("%s: eventHub %v (want %v), unsupported %v, data %v, threw %q", export, rec.EventHub, want, rec.Unsupported, rec.Data, rec.Threw)
		}
	}
}
