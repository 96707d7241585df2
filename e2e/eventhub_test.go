package e2e

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var updateEventHub = flag.Bool("update-eventhub", false, "record testdata/eventhub_rest.json from the Strapi at QUARRY_ORACLE_URL (started with --fresh on testdata/projects/eventhub and ORACLE_GRANTS=testdata/projects/eventhub/config/permissions.json)")

// eventHubSteps write articles and comments through the REST API, GraphQL, a custom route
// emitting a custom event, and the query engine, while bootstrap()'s strapi.eventHub
// listeners keep an audit log; the last step reads it.
var eventHubSteps = []ownCodeStep{
	{Name: "create a published article", Method: "POST", Path: "/api/articles", Body: `{"data":{"title":"Hello","body":"First post"}}`, As: "public"},
	{Name: "create a draft", Method: "POST", Path: "/api/articles", Body: `{"data":{"title":"Draft","body":"Not yet","publishedAt":null}}`, As: "public"},
	{Name: "publish the draft: its lifecycle emits article.published", Method: "PUT", Path: "/api/articles/2", Body: `{"data":{"publishedAt":"2024-05-01T10:00:00.000Z"}}`, As: "public"},
	{Name: "rename an article", Method: "PUT", Path: "/api/articles/1", Body: `{"data":{"title":"Hello again"}}`, As: "public"},
	{Name: "create a comment with a private ip", Method: "POST", Path: "/api/comments", Body: `{"data":{"body":"Nice post","author":"ann","ip":"10.0.0.1"}}`, As: "public"},
	{Name: "flag it: the controller emits comment.flagged", Method: "POST", Path: "/api/comments/2/flag", Body: `{"reason":"spam"}`, As: "public"},
	{Name: "flag it again: the once listener is gone", Method: "POST", Path: "/api/comments/2/flag", Body: `{"reason":"rude"}`, As: "public"},
	{Name: "a flag a listener refuses: its error is the answer", Method: "POST", Path: "/api/comments/2/flag", Body: `{"reason":"boom"}`, As: "public"},
	{Name: "the query engine announces nothing", Method: "POST", Path: "/api/comments/quiet", As: "public"},
	{Name: "create over GraphQL", Method: "POST", Path: "/graphql", Body: gqlBody(`mutation { createComment(data: { body: "Via GraphQL", author: "gql" }) { data { id attributes { body author } } } }`), As: "public"},
	{Name: "a comment with a file: the upload plugin's media.create, the folder's entry.create", Method: "POST", Path: "/api/comments", Form: []formPart{
		{Name: "data", Value: `{"body":"See the picture","author":"cat"}`},
		{Name: "files.attachment", File: "red.png", Type: "image/png"},
	}, As: "public"},
	{Name: "update the quiet one", Method: "PUT", Path: "/api/comments/3", Body: `{"data":{"author":"importer, edited"}}`, As: "public"},
	{Name: "delete a comment", Method: "DELETE", Path: "/api/comments/2", As: "public"},
	{Name: "delete an article", Method: "DELETE", Path: "/api/articles/1", As: "public"},
	{Name: "register a user: users-permissions' entity-service write", Method: "POST", Path: "/api/auth/local/register", Body: `{"username":"zoe","email":"zoe@example.com","password":"Secret123"}`, As: "public", Register: "zoe"},
	{Name: "the audit log", Path: "/api/audits?sort=id&pagination[pageSize]=100", As: "public", Pause: 500 * time.Millisecond},
}

// TestEventHub serves a project whose bootstrap() registers strapi.eventHub listeners (an
// audit log, a moderation queue) on every database, and compares each answer with real
// Strapi 4.26.2's (recorded with -update-eventhub): the listeners see the entity service's
// entry.create/update/delete with Strapi's payload (REST and GraphQL writes, not the query
// engine's), and the custom events a lifecycle and a controller emit, with on, once,
// addListener, removeListener, the function on() answers and a subscriber.
func TestEventHub(t *testing.T) {
	replayProject(t, "eventhub", eventHubSteps, *updateEventHub, "-update-eventhub")
}

// TestEventHubListenersFail: a listener of entry.create that throws is logged, and the write
// answers as in Strapi (which then stops on the rejection no one handles; Quarry lives on); a
// listener that never ends is stopped at the time limit, the write still answered, and from
// then on the writes its listeners would see are refused (501 naming them), never made
// without them, while reads and the query engine's writes are served.
func TestEventHubListenersFail(t *testing.T) {
	be := backends()[0]
	app := copyProject(t, filepath.Join("testdata", "projects", "eventhub"))
	index := filepath.Join(app, "src", "index.js")
	src, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	const at = "    strapi.eventHub.on('entry.create', record('entry.create'));\n"
	if !strings.Contains(string(src), at) {
		t.Fatal("eventhub's index.js has no entry.create listener")
	}
	bad := "    strapi.eventHub.on('entry.create', async ({ entry }) => {\n" +
		"      if (entry.body === 'explode') throw new Error('listener exploded');\n" +
		"      if (entry.body === 'loop') for (;;) {}\n" +
		"    });\n"
	// A listener of a custom event with a Date, and routes that add a listener while serving
	// a request and emit a function.
	bad += "    strapi.eventHub.on('dated', async ({ at }) => {\n" +
		"      await audit({ event: 'dated', note: `${at instanceof Date} ${at.toISOString()}` });\n" +
		"    });\n"
	if err := os.WriteFile(index, []byte(strings.Replace(string(src), at, bad+at, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	editFile(t, filepath.Join(app, "src", "api", "comment", "controllers", "comment.js"), "  async quiet(ctx) {",
		"  async probe(ctx) {\n"+
			"    if (ctx.params.what === 'dated') await strapi.eventHub.emit('dated', { at: new Date(0) });\n"+
			"    if (ctx.params.what === 'listen') strapi.eventHub.on('late', () => {});\n"+
			"    if (ctx.params.what === 'function') await strapi.eventHub.emit('dated', { at: new Date(0), then: () => 1 });\n"+
			"    ctx.body = { ok: ctx.params.what };\n"+
			"  },\n\n  async quiet(ctx) {")
	editFile(t, filepath.Join(app, "src", "api", "comment", "routes", "01-moderation.js"), "    { method: 'POST', path: '/comments/quiet', handler: 'comment.quiet' },",
		"    { method: 'POST', path: '/comments/quiet', handler: 'comment.quiet' },\n    { method: 'POST', path: '/comments/probe/:what', handler: 'comment.probe' },")
	editFile(t, filepath.Join(app, "config", "permissions.json"), `"api::comment.comment.quiet",`, `"api::comment.comment.quiet", "api::comment.comment.probe",`)
	limit := backend{Name: be.Name, Env: func(t *testing.T) []string {
		return append(be.Env(t), "QUARRY_PROJECT_CODE_TIMEOUT=2s")
	}}
	srv := start(t, limit, app)
	if st, b := srv.doAs(t, "", "POST", "/api/comments/probe/dated", nil); st != 200 {
		t.Errorf("a custom event with a Date: %d %s", st, b)
	}
	if st, b := srv.doAs(t, "", "GET", "/api/audits", nil); st != 200 || !strings.Contains(string(b), `"note":"true 1970-01-01T00:00:00.000Z"`) {
		t.Errorf("the Date as the listener saw it: %d %s", st, b)
	}
	if st, b := srv.doAs(t, "", "POST", "/api/comments/probe/listen", nil); st != 501 || !strings.Contains(string(b), "strapi.eventHub.on while serving a request") {
		t.Errorf("a listener added by a request: %d %s", st, b)
	}
	if st, b := srv.doAs(t, "", "POST", "/api/comments/probe/function", nil); st != 501 || !strings.Contains(string(b), "with a function in its arguments") {
		t.Errorf("a function emitted: %d %s", st, b)
	}
	if st, b := srv.doAs(t, "", "POST", "/api/comments", []byte(`{"data":{"body":"explode","author":"bob"}}`)); st != 200 || !strings.Contains(string(b), `"body":"explode"`) {
		t.Errorf("a write whose listener throws: %d %s", st, b)
	}
	if !logShows(srv, "strapi.eventHub listener failed", "listener exploded") {
		t.Errorf("the listener's failure is not logged:\n%s", srv.log.String())
	}
	// The throwing listener stopped the others of that event, as Strapi's hub stops.
	if st, b := srv.doAs(t, "", "GET", "/api/audits", nil); st != 200 || strings.Contains(string(b), `"explode"`) || strings.Contains(string(b), `"bob"`) {
		t.Errorf("audits after the throwing listener: %d %s", st, b)
	}
	started := time.Now()
	if st, b := srv.doAs(t, "", "POST", "/api/comments", []byte(`{"data":{"body":"loop","author":"bob"}}`)); st != 200 || !strings.Contains(string(b), `"body":"loop"`) {
		t.Errorf("a write whose listener never ends: %d %s", st, b)
	}
	if took := time.Since(started); took > 15*time.Second {
		t.Errorf("the endless listener held the write %s", took)
	}
	if st, b := srv.doAs(t, "", "POST", "/api/comments", []byte(`{"data":{"body":"after","author":"bob"}}`)); st != 501 || !strings.Contains(string(b), "strapi.eventHub listeners of entry.create") {
		t.Errorf("a write after the listeners were lost: %d %s", st, b)
	}
	if st, b := srv.doAs(t, "", "GET", "/api/comments?sort=id", nil); st != 200 || strings.Contains(string(b), `"after"`) || !strings.Contains(string(b), `"loop"`) {
		t.Errorf("the comments: %d %s", st, b)
	}
	if st, b := srv.doAs(t, "", "POST", "/api/comments/quiet", nil); st != 200 {
		t.Errorf("the query engine's write: %d %s", st, b)
	}
	if st, b := srv.doAs(t, "", "POST", "/api/comments/2/flag", []byte(`{"reason":"spam"}`)); st != 501 || !strings.Contains(string(b), "strapi.eventHub listeners of comment.flagged") {
		t.Errorf("a custom event after the listeners were lost: %d %s", st, b)
	}
}

// TestEventHubNotRun: where Quarry does not run bootstrap() (the runtime off, or beside
// Strapi, which runs it and its listeners), no route is served without the listeners.
func TestEventHubNotRun(t *testing.T) {
	be := backends()[0]
	app := copyProject(t, filepath.Join("testdata", "projects", "eventhub"))
	env := append(be.Env(t), "QUARRY_CREATE_DATABASE=1")
	for name, out := range map[string]string{
		"runtime off":   quarry(t, append(env, "QUARRY_PROJECT_CODE=off"), "routes", "--app", app),
		"beside Strapi": quarry(t, env, "routes", "--app", app, "--upstream", "http://127.0.0.1:1"),
	} {
		for _, line := range strings.Split(out, "\n") {
			f := strings.Fields(line)
			if len(f) < 3 || !strings.HasPrefix(f[1], "/api/") {
				continue
			}
			if f[2] != "refused" && f[2] != "forwarded" || !strings.Contains(line, "uses strapi.eventHub") {
				t.Errorf("%s: %s", name, line)
			}
		}
	}
}

// editFile replaces the one occurrence of old in the file at path with new.
func editFile(t *testing.T, path, old, new string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(src), old) != 1 {
		t.Fatalf("%s: %q is not there once", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(src), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// logShows waits a little for the server's log to show every one of want: the log reaches
// the test through a pipe, after the answer it was written before.
func logShows(srv *server, want ...string) bool {
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		log, all := srv.log.String(), true
		for _, w := range want {
			all = all && strings.Contains(log, w)
		}
		if all || time.Now().After(deadline) {
			return all
		}
	}
}

// TestEventHubBootstrapFailed: a bootstrap() that fails under Quarry after registering
// listeners leaves the server up (its reads served) with the entity service's writes refused
// (501 naming the listeners), never made without them; the query engine's still are.
func TestEventHubBootstrapFailed(t *testing.T) {
	be := backends()[0]
	app := copyProject(t, filepath.Join("testdata", "projects", "eventhub"))
	editFile(t, filepath.Join(app, "src", "index.js"), "    // The first start welcomes readers",
		"    throw new Error('no welcome today');\n    // The first start welcomes readers")
	srv := start(t, be, app)
	if !logShows(srv, "bootstrap() failed under Quarry", "no welcome today") {
		t.Errorf("the failed bootstrap() is not logged:\n%s", srv.log.String())
	}
	if st, b := srv.doAs(t, "", "GET", "/api/comments", nil); st != 200 {
		t.Errorf("a read: %d %s", st, b)
	}
	if st, b := srv.doAs(t, "", "POST", "/api/articles", []byte(`{"data":{"title":"x"}}`)); st != 501 || !strings.Contains(string(b), "strapi.eventHub listeners of entry.create") || !strings.Contains(string(b), "no welcome today") {
		t.Errorf("a write: %d %s", st, b)
	}
	if st, b := srv.doAs(t, "", "POST", "/api/comments/quiet", nil); st != 200 {
		t.Errorf("the query engine's write: %d %s", st, b)
	}
	if st, b := srv.doAs(t, "", "GET", "/api/articles", nil); st != 200 || !strings.Contains(string(b), `"data":[]`) {
		t.Errorf("the refused write wrote: %d %s", st, b)
	}
}
