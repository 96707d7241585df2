package e2e

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateLocalPlugin = flag.Bool("update-localplugin", false, "record testdata/localplugin_rest.json from the Strapi at QUARRY_ORACLE_URL (started with --fresh on testdata/projects/localplugin and ORACLE_GRANTS=testdata/projects/localplugin/config/permissions.json)")

// localPluginSteps use a local plugin's own content type (plugin::todo.task): through the
// plugin's routes (its controller and service over the entity service and the query engine)
// and through GraphQL's Shadow CRUD, which Strapi builds for plugin content types too.
var localPluginSteps = []ownCodeStep{
	{Name: "no tasks yet", Path: "/api/todo/tasks", As: "public"},
	{Name: "a board", Method: "POST", Path: "/api/boards", Body: `{"data":{"name":"Home"}}`},
	{Name: "a task on the board", Method: "POST", Path: "/api/todo/tasks", Body: `{"title":"Buy milk","board":1}`, As: "public"},
	{Name: "a task without a board", Method: "POST", Path: "/api/todo/tasks", Body: `{"title":"Call the plumber"}`, As: "public"},
	{Name: "a task without a title", Method: "POST", Path: "/api/todo/tasks", Body: `{"board":1}`, As: "public"},
	{Name: "a title too long", Method: "POST", Path: "/api/todo/tasks", Body: `{"title":"` + longTitle + `"}`, As: "public"},
	{Name: "the tasks with their boards", Path: "/api/todo/tasks", As: "public"},
	{Name: "a public admin route of the plugin", Path: "/todo/summary", As: "public"},
	{Name: "an admin route needing the admin's authentication", Path: "/todo/private", As: "public",
		Instead: &instead{Status: 501, Strapi: 401, Why: "the admin panel's authentication is Strapi's: Quarry refuses the plugin's admin routes that are not public",
			Body: `{"data":null,"error":{"status":501,"name":"NotImplementedError","message":"This route runs the project's own code, which Quarry does not run: src/plugins/todo/strapi-server.js: the local plugin todo's route handler plugin::todo.task.summary. Serve it beside Strapi (quarry serve --upstream).","details":{}}}`}},
	{Name: "the open tasks", Path: "/api/todo/tasks/open", As: "public"},
	{Name: "GraphQL: the plugin's tasks", Method: "POST", Path: "/graphql", As: "public",
		Body: `{"query":"{ todoTasks(sort: \"id\") { data { id attributes { title done board { data { id attributes { name } } } } } meta { pagination { total } } } }"}`},
	{Name: "GraphQL: one task, not granted", Method: "POST", Path: "/graphql", As: "public",
		Body: `{"query":"{ todoTask(id: 1) { data { id attributes { title } } } }"}`},
	{Name: "GraphQL: one task with the full-access token", Method: "POST", Path: "/graphql",
		Body: `{"query":"{ todoTask(id: 2) { data { id attributes { title done } } } }"}`},
	{Name: "GraphQL: a task made by a mutation", Method: "POST", Path: "/graphql", As: "public",
		Body: `{"query":"mutation { createTodoTask(data: { title: \"Water the plants\", done: true }) { data { id attributes { title done } } } }"}`},
	{Name: "GraphQL: filtered by the board", Method: "POST", Path: "/graphql", As: "public",
		Body: `{"query":"{ todoTasks(filters: { board: { name: { eq: \"Home\" } } }) { data { id attributes { title } } } }"}`},
	{Name: "the open tasks after the mutation", Path: "/api/todo/tasks/open", As: "public"},
	{Name: "the plugin's lifecycle capitalises a title", Method: "POST", Path: "/api/todo/tasks", Body: `{"title":"sweep the floor"}`, As: "public"},
	{Name: "GraphQL: the lifecycle refuses an empty title", Method: "POST", Path: "/graphql",
		Body: `{"query":"mutation { updateTodoTask(id: 1, data: { title: \"\" }) { data { id attributes { title } } } }"}`},
	{Name: "GraphQL: the lifecycle on a mutation's create", Method: "POST", Path: "/graphql",
		Body: `{"query":"mutation { createTodoTask(data: { title: \"feed the cat\" }) { data { id attributes { title } } } }"}`},
}

const longTitle = "This title is far too long for a task: it runs past the eighty characters the schema allows"

func TestLocalPluginContentType(t *testing.T) {
	replayProjectChecking(t, "localplugin", localPluginSteps, *updateLocalPlugin, "-update-localplugin", func(t *testing.T, routes string) {
		// Only the plugin's admin route that is not public is refused.
		for _, l := range strings.Split(routes, "\n") {
			if strings.Contains(l, " refused ") != strings.HasPrefix(l, "GET     /todo/private ") {
				t.Errorf("routes: %s", l)
			}
		}
	})
}

// TestLocalPluginLifecyclesNotRunnable: a local plugin content type whose lifecycles require
// a module Quarry does not provide is never written without them: a write from another
// route's code answers 501 and stores nothing.
func TestLocalPluginLifecyclesNotRunnable(t *testing.T) {
	app := copyProject(t, filepath.Join("testdata", "projects", "localplugin"))
	lc := filepath.Join(app, "src", "plugins", "todo", "server", "content-types", "task", "lifecycles.js")
	src, err := os.ReadFile(lc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lc, append([]byte("const stripe = require('stripe');\n"), src...), 0o644); err != nil {
		t.Fatal(err)
	}
	ctrl := `module.exports = require('@strapi/strapi').factories.createCoreController('api::board.board', ({ strapi }) => ({
  async find(ctx) {
    const task = await strapi.entityService.create('plugin::todo.task', { data: { title: 'through a board' } });
    ctx.body = { task };
  },
}));
`
	if err := os.WriteFile(filepath.Join(app, "src", "api", "board", "controllers", "board.js"), []byte(ctrl), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := start(t, backends()[0], app)
	st, body, _ := srv.send(t, "", "GET", "/api/boards", "", nil)
	if st != 501 || !strings.Contains(string(body), "stripe") {
		t.Fatalf("a write whose lifecycles Quarry cannot run: %d %s, want 501 naming the module", st, body)
	}
	st, body = srv.do(t, "POST", "/graphql", []byte(`{"query":"{ boards { data { id } } }"}`))
	if st != 200 || strings.Contains(string(body), "errors") {
		t.Fatalf("graphql boards: %d %s", st, body)
	}
	st, body = srv.do(t, "POST", "/graphql", []byte(`{"query":"mutation { createTodoTask(data: { title: \"x\" }) { data { id } } }"}`))
	if st != 501 && !strings.Contains(string(body), "NotImplementedError") {
		t.Fatalf("createTodoTask without its lifecycles: %d %s", st, body)
	}
}
