package e2e

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/quarrycms/quarry/transport/plugins/email/emailtest"
)

var updateStartup = flag.Bool("update-startup", false, "record testdata/startup_rest.json from the Strapi at QUARRY_ORACLE_URL (started with --fresh on testdata/projects/startup and ORACLE_GRANTS=testdata/projects/startup/config/permissions.json)")

// startupSteps read what the startup project's bootstrap() seeded and write through the
// lifecycle hooks it subscribed.
var startupSteps = []ownCodeStep{
	{Name: "the seeded categories", Path: "/api/categories?sort=id", As: "public"},
	{Name: "an event gets its slug", Method: "POST", Path: "/api/events", Body: `{"data":{"title":"Launch Party!","category":2}}`, As: "public"},
	{Name: "an event keeps its own slug", Method: "POST", Path: "/api/events", Body: `{"data":{"title":"Meetup","slug":"custom"}}`, As: "public"},
	{Name: "an event without title", Method: "POST", Path: "/api/events", Body: `{"data":{"slug":"untitled"}}`, As: "public"},
	{Name: "a blank title is refused", Method: "PUT", Path: "/api/events/1", Body: `{"data":{"title":"   "}}`, As: "public"},
	{Name: "a rename makes a new slug", Method: "PUT", Path: "/api/events/1", Body: `{"data":{"title":"Launch Party, again"}}`, As: "public"},
	{Name: "the events", Path: "/api/events?sort=id&populate[category][fields][0]=name", As: "public"},
	{Name: "retitle the untitled (updateMany)", Method: "POST", Path: "/api/events/retitle", Body: `{"title":"To be named"}`, As: "public"},
	{Name: "retitle again: nothing left", Method: "POST", Path: "/api/events/retitle", Body: `{}`, As: "public"},
	{Name: "clean up without prefix", Method: "POST", Path: "/api/events/cleanup", Body: `{}`, As: "public"},
	{Name: "clean up custom slugs (deleteMany)", Method: "POST", Path: "/api/events/cleanup", Body: `{"prefix":"cust"}`, As: "public"},
	{Name: "the events after", Path: "/api/events?sort=id&fields[0]=title&fields[1]=slug", As: "public"},
	{Name: "a token through strapi.plugins[...].services", Path: "/api/events/token", As: "public"},
	{Name: "no profiles yet", Path: "/api/profiles", As: "public"},
	{Name: "register ann", Method: "POST", Path: "/api/auth/local/register", Body: `{"username":"ann","email":"ann@example.com","password":"Secret123"}`, As: "public", Register: "ann"},
	{Name: "register bob", Method: "POST", Path: "/api/auth/local/register", Body: `{"username":"bob","email":"bob@example.com","password":"Secret123"}`, As: "public", Register: "bob"},
	{Name: "a profile for each", Path: "/api/profiles?sort=id&fields[0]=displayName", As: "ann"},
	{Name: "everyone may read profiles (granted by bootstrap())", Path: "/api/profiles?sort=id&fields[0]=displayName", As: "public"},
	{Name: "ann counts users (a whole controller replaced by an extension)", Path: "/api/users/count", As: "ann"},
	{Name: "ann reads herself (the plugin's own action, kept by the extension)", Path: "/api/users/me", As: "ann"},
	{Name: "nobody counts users", Path: "/api/users/count", As: "public"},
}

// TestStartupCode serves a project whose bootstrap() seeds content and subscribes lifecycle
// hooks (strapi.db.lifecycles.subscribe) on Quarry alone, on every database, and compares
// each answer with real Strapi 4.26.2's (recorded with -update-startup).
func TestStartupCode(t *testing.T) {
	replayProject(t, "startup", startupSteps, *updateStartup, "-update-startup")
}

// lateSubscription subscribes a hook after bootstrap()'s first use of data: the sandboxes that
// serve requests do not reach it, so the writes it applies to are refused, never run without it.
const lateSubscription = `'use strict';
module.exports = {
  async bootstrap({ strapi }) {
    const n = await strapi.entityService.count('api::category.category');
    strapi.db.lifecycles.subscribe({
      models: ['api::event.event'],
      beforeCreate(event) { event.params.data.slug = 'seen-' + n; },
    });
  },
};
`

func TestStartupCodeLateSubscription(t *testing.T) {
	be := backends()[0]
	app := copyProject(t, filepath.Join("testdata", "projects", "startup"))
	if err := os.WriteFile(filepath.Join(app, "src", "index.js"), []byte(lateSubscription), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := start(t, be, app)
	status, body, _ := srv.send(t, "", "POST", "/api/events", "application/json", []byte(`{"data":{"title":"x"}}`))
	if status != 501 || !strings.Contains(string(body), "after its first use of data") {
		t.Fatalf("got %d %s, want 501 naming the subscription", status, body)
	}
	status, body, _ = srv.send(t, "", "GET", "/api/events", "", nil)
	if status != 200 || !strings.Contains(string(body), `"total":0`) {
		t.Fatalf("the refused write stored something: %d %s", status, body)
	}
}

// eventMail is a lifecycles file as projects write it to announce new entries by e-mail.
const eventMail = `'use strict';
module.exports = {
  async afterCreate(event) {
    const { result } = event;
    await strapi.plugin('email').service('email').send({
      to: 'team@example.com',
      from: 'site@example.com',
      subject: 'New event: ' + result.title,
      text: 'See /events/' + result.slug,
    });
  },
};
`

// createEventMailing serves the startup project with lifecycles (an event's lifecycles file)
// and an email provider sending to an SMTP server on loopback, creates an event and answers
// the one mail that went out.
func createEventMailing(t *testing.T, lifecycles string) received {
	t.Helper()
	mail, err := emailtest.Start(emailtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mail.Close() })
	app := copyProject(t, filepath.Join("testdata", "projects", "startup"))
	files := map[string]string{
		"src/api/event/content-types/event/lifecycles.js": lifecycles,
		"config/plugins.json":                             fmt.Sprintf(`{"email":{"config":{"provider":"nodemailer","providerOptions":{"host":"127.0.0.1","port":%d}}}}`, mail.Port),
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(app, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := start(t, backends()[0], app)
	status, body, _ := srv.send(t, "", "POST", "/api/events", "application/json", []byte(`{"data":{"title":"Summer Fair"}}`))
	if status != 200 {
		t.Fatalf("create: %d %s", status, body)
	}
	return waitMail(t, mail, 1)
}

// TestProjectCodeSendsEmail: the project's code sends through the email plugin's service, with
// the project's provider configuration (SMTP to a real server on loopback).
func TestProjectCodeSendsEmail(t *testing.T) {
	got := createEventMailing(t, eventMail)
	if got.hdr["Subject"] != "New event: Summer Fair" || got.hdr["To"] != "<team@example.com>" || !strings.Contains(got.text, "/events/summer-fair") {
		t.Fatalf("mail: %v %q", got.hdr, got.text)
	}
}

// sanitizingFind is a controller override as Strapi's documentation teaches it: the query
// sanitized for the caller, then read as the system through the entity service.
const sanitizingFind = `'use strict';
const { createCoreController } = require('@strapi/strapi').factories;
module.exports = createCoreController('api::event.event', ({ strapi }) => ({
  async find(ctx) {
    const query = await this.sanitizeQuery(ctx);
    const entries = await strapi.entityService.findMany('api::event.event', query);
    return this.transformResponse(await this.sanitizeOutput(entries, ctx));
  },
  async create(ctx) {
    const data = await this.sanitizeInput(ctx.request.body.data, ctx);
    const entry = await strapi.entityService.create('api::event.event', { data });
    return this.transformResponse(await this.sanitizeOutput(entry, ctx));
  },
}));
`

// TestSanitizeQueryRefuses: where Strapi's sanitizeQuery silently drops a filter on a private
// field or through a relation the caller may not read (and the system read then answers every
// entry), Quarry answers as the REST API does to the same query.
func TestSanitizeQueryRefuses(t *testing.T) {
	app := copyProject(t, filepath.Join("testdata", "projects", "startup"))
	schema := filepath.Join(app, "src", "api", "category", "content-types", "category", "schema.json")
	b, err := os.ReadFile(schema)
	if err != nil {
		t.Fatal(err)
	}
	b = []byte(strings.Replace(string(b), `"position": { "type": "integer" }`, `"position": { "type": "integer" }, "secret": { "type": "string", "private": true }`, 1))
	// The public may not read categories: a filter through event.category is one Strapi drops.
	perms := `{"public": ["api::event.event.find", "api::event.event.create"]}`
	files := map[string]string{"src/api/event/controllers/event.js": sanitizingFind,
		"src/api/category/content-types/category/schema.json": string(b), "config/permissions.json": perms}
	for name, src := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(app, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(app, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := start(t, backends()[0], app)
	if status, body, _ := srv.send(t, "", "POST", "/api/events", "application/json", []byte(`{"data":{"title":"A","category":1}}`)); status != 200 {
		t.Fatalf("create: %d %s", status, body)
	}
	status, body, _ := srv.send(t, "", "GET", "/api/events?filters[title][$eq]=A", "", nil)
	if status != 200 || !strings.Contains(string(body), `"title":"A"`) {
		t.Fatalf("allowed filter: %d %s", status, body)
	}
	// sanitizeInput drops, as Strapi's does, the relation the caller may not read and the
	// timestamps; the system write after it stores the rest.
	status, body, _ = srv.send(t, "", "POST", "/api/events", "application/json", []byte(`{"data":{"title":"B","category":2,"createdAt":"2000-01-01T00:00:00.000Z"}}`))
	if status != 200 || strings.Contains(string(body), "2000-01-01") {
		t.Fatalf("sanitized create: %d %s", status, body)
	}
	status, body, _ = srv.send(t, srv.Token, "GET", "/api/events?filters[title][$eq]=B&populate=category", "", nil)
	if status != 200 || !strings.Contains(string(body), `"category":{"data":null}`) {
		t.Errorf("the sanitized create kept the category: %d %s", status, body)
	}
	for _, q := range []string{"filters[category][secret][$null]=true", "filters[category][name][$eq]=News"} {
		status, body, _ = srv.send(t, "", "GET", "/api/events?"+q, "", nil)
		if status != 400 && status != 403 {
			t.Errorf("%s: %d %s, want the REST API's refusal", q, status, body)
		}
	}
}

// TestQueryEngineManyHooks: updateMany on a model whose lifecycles file has beforeUpdateMany
// runs the hook before it writes, as Strapi's query engine does (what it leaves in
// event.params.data is written).
func TestQueryEngineManyHooks(t *testing.T) {
	app := copyProject(t, filepath.Join("testdata", "projects", "startup"))
	hooks := "module.exports = { beforeUpdateMany(event) { event.params.data.title = 'hooked'; } };\n"
	if err := os.WriteFile(filepath.Join(app, "src", "api", "event", "content-types", "event", "lifecycles.js"), []byte(hooks), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := start(t, backends()[0], app)
	if status, body, _ := srv.send(t, "", "POST", "/api/events", "application/json", []byte(`{"data":{"slug":"x"}}`)); status != 200 {
		t.Fatalf("create: %d %s", status, body)
	}
	status, body, _ := srv.send(t, "", "POST", "/api/events/retitle", "application/json", []byte(`{}`))
	if status != 200 || !strings.Contains(string(body), `"count":`) {
		t.Fatalf("retitle: %d %s, want its count", status, body)
	}
	if _, body, _ = srv.send(t, "", "GET", "/api/events", "", nil); strings.Contains(string(body), `"title":null`) || !strings.Contains(string(body), `"title":"hooked"`) {
		t.Fatalf("updateMany did not write what beforeUpdateMany left: %s", body)
	}
}

// TestProjectCodeFetch: the project's code reaches the hosts config/quarry allows with
// axios (a lifecycle hook asking a front-end to revalidate, as many projects do) and fetch
// (a controller reading another service), and is refused every other host.
func TestProjectCodeFetch(t *testing.T) {
	var mu sync.Mutex
	var revalidated []string
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/revalidate":
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			revalidated = append(revalidated, r.Header.Get("X-Secret")+" "+r.Header.Get("Content-Type")+" "+string(b))
			mu.Unlock()
			w.Write([]byte(`{"revalidated":true}`))
		case "/weather":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"city":%q,"degrees":21}`, r.URL.Query().Get("city"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer front.Close()
	host := strings.TrimPrefix(front.URL, "http://")
	app := copyProject(t, filepath.Join("testdata", "projects", "startup"))
	files := map[string]string{
		"config/quarry.json": fmt.Sprintf(`{"fetch":{"allow":[%q]}}`, host),
		"src/api/event/content-types/event/lifecycles.js": fmt.Sprintf(`'use strict';
const axios = require('axios');
module.exports = {
  async afterCreate(event) {
    try {
      await axios.post(%q + '/api/revalidate', { model: 'event', id: event.result.id }, { headers: { 'x-secret': 's3' } });
    } catch (e) {
      strapi.log.error('revalidate failed: ' + e.message);
    }
  },
};
`, front.URL),
		"src/api/event/routes/02-fetch.js": `module.exports = { routes: [
  { method: 'GET', path: '/events/weather', handler: 'weather.show', config: { auth: false } },
  { method: 'GET', path: '/events/elsewhere', handler: 'weather.elsewhere', config: { auth: false } },
] };
`,
		"src/api/event/controllers/weather.js": fmt.Sprintf(`'use strict';
module.exports = {
  async show(ctx) {
    const res = await fetch(%q + '/weather?city=' + encodeURIComponent(ctx.query.city));
    ctx.body = { ok: res.ok, status: res.status, type: res.headers.get('content-type'), data: await res.json() };
  },
  async elsewhere(ctx) {
    try {
      await fetch('https://example.com/');
      ctx.body = { reached: true };
    } catch (e) {
      ctx.body = { refused: e.message };
    }
  },
};
`, front.URL),
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(app, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := start(t, backends()[0], app)
	if status, body, _ := srv.send(t, "", "POST", "/api/events", "application/json", []byte(`{"data":{"title":"Fair"}}`)); status != 200 {
		t.Fatalf("create: %d %s", status, body)
	}
	mu.Lock()
	got := strings.Join(revalidated, "|")
	mu.Unlock()
	if got != `s3 application/json {"model":"event","id":1}` {
		t.Errorf("revalidate calls: %q", got)
	}
	status, body, _ := srv.send(t, "", "GET", "/api/events/weather?city=Lyon", "", nil)
	if want := `{"ok":true,"status":200,"type":"application/json","data":{"city":"Lyon","degrees":21}}`; status != 200 || string(body) != want {
		t.Errorf("weather: %d %s, want %s", status, body, want)
	}
	status, body, _ = srv.send(t, "", "GET", "/api/events/elsewhere", "", nil)
	if status != 200 || !strings.Contains(string(body), "Quarry refuses fetch to example.com") {
		t.Errorf("elsewhere: %d %s, want the refusal", status, body)
	}
}

// TestAppMiddlewares: the startup project's own app-level middlewares (config/middlewares:
// a header set after every answer, from the middleware's config, and a user agent turned
// away before anything runs) run around the content API and GraphQL, as Strapi 4.26.2 runs
// them (its answers, seen with the oracle: x-site on every answer, the bot's 403 with the
// middleware's body); TestStartupCode replays the rest through them.
func TestAppMiddlewares(t *testing.T) {
	app := copyProject(t, filepath.Join("testdata", "projects", "startup"))
	srv := start(t, backends()[0], app)
	get := func(path, agent string) (int, string, http.Header) {
		req, err := http.NewRequest("GET", srv.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if agent != "" {
			req.Header.Set("User-Agent", agent)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	status, body, h := get("/api/categories?fields[0]=name", "")
	if status != 200 || h.Get("X-Site") != "startup" || !strings.Contains(body, `"name":"News"`) || h.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("categories: %d %v %s", status, h, body)
	}
	status, body, h = get("/api/categories", "BadBot/1.0")
	if status != 403 || body != `{"error":"bots are not welcome"}` || h.Get("X-Site") != "startup" {
		t.Errorf("bot: %d %v %s", status, h, body)
	}
	status, _, h = get("/api/events/999", "")
	if status != 404 || h.Get("X-Site") != "startup" {
		t.Errorf("missing: %d %v", status, h)
	}
	// A media file that is not there: the chain runs around the 404.
	if status, _, h = get("/uploads/x.png", ""); status != 404 || h.Get("X-Site") != "startup" {
		t.Errorf("missing upload: %d %v", status, h)
	}
	if st, b, _ := srv.send(t, "", "DELETE", "/uploads/x.png", "", nil); st != 501 || !strings.Contains(string(b), "GET and HEAD only") {
		t.Errorf("DELETE outside the API: %d %s", st, b)
	}
	// A multipart body travels through the chain (its fields and files go on to the upload
	// route); another non-JSON body is refused.
	png, err := os.ReadFile(filepath.Join("testdata", "projects", "red.png"))
	if err != nil {
		t.Fatal(err)
	}
	form, ctype := multipartBody(t, filepart("files", "red.png", "image/png", png), field("fileInfo", `{"caption":"through the chain"}`))
	st, b, hd := srv.send(t, srv.Token, "POST", "/api/upload", ctype, form)
	if st != 200 || hd.Get("X-Site") != "startup" || !strings.Contains(string(b), `"caption":"through the chain"`) {
		t.Fatalf("upload through the chain: %d %v %s", st, hd, b)
	}
	// The stored file comes back through the chain too: the middlewares' header and refusal
	// apply, and its bytes are sent as they are (they never enter the sandbox).
	var uploaded []struct {
		URL string `json:"url"`
	}
	if err := json.Unmarshal(b, &uploaded); err != nil || len(uploaded) != 1 {
		t.Fatalf("upload answer: %v %s", err, b)
	}
	status, body, h = get(uploaded[0].URL, "")
	if status != 200 || h.Get("X-Site") != "startup" || body != string(png) || h.Get("Content-Type") != "image/png" {
		t.Errorf("media file through the chain: %d %v (%d bytes, want %d)", status, h, len(body), len(png))
	}
	if status, body, _ = get(uploaded[0].URL, "BadBot/1.0"); status != 403 || body != `{"error":"bots are not welcome"}` {
		t.Errorf("media file for a bot: %d %s", status, body)
	}
	// A text body travels through the chain as koa-body parses it (a string); the core create
	// after it takes it as no payload, as Strapi's does.
	if st, b, _ := srv.send(t, srv.Token, "POST", "/api/events", "text/plain", []byte("hello")); st != 400 || !strings.Contains(string(b), `Missing \"data\" payload`) {
		t.Errorf("text body: %d %s", st, b)
	}
	if st, b, _ := srv.send(t, srv.Token, "POST", "/api/events", "application/x-www-form-urlencoded", []byte("data[name]=x")); st != 400 || !strings.Contains(string(b), `Missing \"data\" payload`) {
		t.Errorf("form body to a core create: %d %s", st, b)
	}
	if status, _, _ = get("/_health", ""); status != 204 {
		t.Errorf("health: %d", status)
	}
	if out := quarry(t, srv.Env, "routes", "--app", app); !strings.Contains(out, "app-level middlewares (config/middlewares: global::site-header, global::block-bots), run by Quarry") {
		t.Errorf("quarry routes does not say the app-level middlewares run:\n%s", out)
	}
}

var updateReadHooks = flag.Bool("update-readhooks", false, "record testdata/readhooks_rest.json from the Strapi at QUARRY_ORACLE_URL (started with --fresh on testdata/projects/readhooks and ORACLE_GRANTS=testdata/projects/readhooks/config/permissions.json)")

// readHooksSteps read a model whose lifecycle hooks run on reads: the REST API's find and
// findOne through Strapi's steps, and the entity service's and query engine's reads of a
// custom controller, each with what the hooks filter out and add.
var readHooksSteps = []ownCodeStep{
	{Name: "the list: hidden and drafts out, reading times in", Path: "/api/articles?sort=id", As: "public"},
	{Name: "a filtered list", Path: "/api/articles?filters[title][$contains]=e&sort[0]=title:desc&fields[0]=title&fields[1]=body", As: "public"},
	{Name: "a page of one", Path: "/api/articles?sort=id&pagination[page]=2&pagination[pageSize]=1", As: "public"},
	{Name: "without the count", Path: "/api/articles?sort=id&pagination[start]=1&pagination[limit]=5&pagination[withCount]=false", As: "public"},
	{Name: "fields without body: no reading time", Path: "/api/articles?sort=id&fields[0]=title", As: "public"},
	{Name: "one article: an excerpt, seen", Path: "/api/articles/1", As: "public"},
	{Name: "the hidden one by id (findOne has no filter hook)", Path: "/api/articles/2", As: "public"},
	{Name: "one article, a field", Path: "/api/articles/3?fields[0]=title", As: "public"},
	{Name: "no such article", Path: "/api/articles/99", As: "public"},
	{Name: "too many at once: beforeFindMany refuses", Path: "/api/articles?pagination[pageSize]=60", As: "public"},
	{Name: "a draft by id (findOne reads drafts)", Path: "/api/articles/4", As: "public"},
	{Name: "a bad filter", Path: "/api/articles?filters[nope][$eq]=1", As: "public"},
	{Name: "the stats: entity service and query engine", Path: "/api/articles/stats", As: "public"},
	{Name: "the list with the full-access token", Path: "/api/articles?sort=id&publicationState=preview", As: ""},
}

// TestReadHooks serves a project whose lifecycle hooks run on reads (beforeFindMany adding a
// filter, afterFindMany and afterFindOne adding fields, a subscriber's afterFindOne) on every
// database, and compares each answer with real Strapi 4.26.2's (recorded with -update-readhooks).
func TestReadHooks(t *testing.T) {
	replayProject(t, "readhooks", readHooksSteps, *updateReadHooks, "-update-readhooks")
}

// functionSubscriber adds a subscriber function, which Strapi calls on every event of every
// model: on the articles' reads it marks each listed entry.
const functionSubscriber = `
    strapi.db.lifecycles.subscribe((event) => {
      if (event.action === 'afterFindMany' && event.model.uid === 'api::article.article') {
        event.result.forEach((a) => { a.listed = true; });
      }
    });
`

// lateReadHook subscribes a read hook after bootstrap()'s first use of data, which the
// sandboxes that serve requests do not reach.
const lateReadHook = `
    await strapi.db.query('api::article.article').count();
    strapi.db.lifecycles.subscribe({
      models: ['api::article.article'],
      afterFindMany(event) { event.result.forEach((a) => { a.late = true; }); },
    });
`

// TestReadHooksSubscribers: a function subscriber runs on the reads of the core find and
// findOne (every event they reach is one Quarry runs), while the routes whose events it would
// see elsewhere (users-permissions' user routes) stay refused; a read hook subscribed after
// bootstrap()'s first use of data refuses the reads it applies to.
func TestReadHooksSubscribers(t *testing.T) {
	be := backends()[0]
	withIndex := func(t *testing.T, extra string) string {
		app := copyProject(t, filepath.Join("testdata", "projects", "readhooks"))
		index := filepath.Join(app, "src", "index.js")
		src, err := os.ReadFile(index)
		if err != nil {
			t.Fatal(err)
		}
		const at = "    const n = await"
		if !strings.Contains(string(src), at) {
			t.Fatal("readhooks' index.js has no count")
		}
		if err := os.WriteFile(index, []byte(strings.Replace(string(src), at, extra+at, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		return app
	}
	t.Run("function", func(t *testing.T) {
		app := withIndex(t, functionSubscriber)
		srv := start(t, be, app)
		out := quarry(t, srv.Env, "routes", "--app", app)
		for _, line := range strings.Split(out, "\n") {
			f := strings.Fields(line)
			if len(f) < 3 {
				continue
			}
			switch f[0] + " " + f[1] {
			case "GET /api/articles", "GET /api/articles/:id":
				if !strings.Contains(line, "project code run by Quarry") {
					t.Errorf("not run by Quarry: %s", line)
				}
			case "GET /api/users", "POST /api/auth/local/register":
				if f[2] != "refused" {
					t.Errorf("not refused: %s", line)
				}
			}
		}
		status, body, _ := srv.send(t, "", "GET", "/api/articles?sort=id&fields[0]=title", "", nil)
		want := `{"data":[{"id":1,"attributes":{"title":"Hello world","listed":true}},{"id":3,"attributes":{"title":"Second thoughts","listed":true}}],"meta":{"pagination":{"page":1,"pageSize":25,"pageCount":1,"total":2}}}`
		if status != 200 || string(body) != want {
			t.Errorf("got %d %s\nwant 200 %s", status, body, want)
		}
		if status, body, _ := srv.send(t, "", "GET", "/api/users", "", nil); status != 501 {
			t.Errorf("GET /api/users: %d %s, want 501", status, body)
		}
	})
	t.Run("late", func(t *testing.T) {
		app := withIndex(t, lateReadHook)
		srv := start(t, be, app)
		status, body, _ := srv.send(t, "", "GET", "/api/articles", "", nil)
		if status != 501 || !strings.Contains(string(body), "after its first use of data") {
			t.Errorf("got %d %s, want 501 naming the subscription", status, body)
		}
	})
}
