package e2e

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The tests in this file run real Strapi 4.26.2 from the oracle kit (../shared/strapi-oracle)
// on the CI PostgreSQL, beside Quarry. They run when QUARRY_TEST_STRAPI_ORACLE names the kit
// and QUARRY_TEST_POSTGRES_URL a server; the kit's npm install is cached in
// QUARRY_TEST_STRAPI_CACHE (default ~/.cache/quarry-strapi-oracle-e2e).

// Credentials the kit's Strapi is configured with (fixed, local-only test values).
const (
	oracleFullToken = "oracle0full0access0token0000000000000000000000000000000000000001"
	oracleSalt      = "oracle-api-token-salt"
	oracleJWTSecret = "oracle-users-permissions-jwt-secret"
)

type strapiOracle struct {
	kit, app string
	env      []string
	URL      string
	DBURL    string
}

// startStrapi runs the kit's Strapi on a fresh database for a copy of examples/blog (the
// copy is the test's to change; files maps paths in it to contents to add) and stops it, and
// drops the database, when the test ends.
func startStrapi(t *testing.T, files map[string]string) *strapiOracle {
	return startStrapiAfter(t, files, nil)
}

// startStrapiAfter is startStrapi on a database that, when before is set, is created empty
// and handed to before first (Strapi then starts on what before left in it).
func startStrapiAfter(t *testing.T, files map[string]string, before func(o *strapiOracle)) *strapiOracle {
	t.Helper()
	kit := os.Getenv("QUARRY_TEST_STRAPI_ORACLE")
	admin := os.Getenv("QUARRY_TEST_POSTGRES_URL")
	if kit == "" || admin == "" {
		t.Skip("QUARRY_TEST_STRAPI_ORACLE and QUARRY_TEST_POSTGRES_URL not both set")
	}
	kit, err := filepath.Abs(kit)
	if err != nil {
		t.Fatal(err)
	}
	cache := os.Getenv("QUARRY_TEST_STRAPI_CACHE")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "quarry-strapi-oracle-e2e")
	}
	app := filepath.Join(t.TempDir(), "blog")
	if out, err := exec.Command("cp", "-r", "../examples/blog", app).CombinedOutput(); err != nil {
		t.Fatalf("copy app: %v %s", err, out)
	}
	for name, content := range files {
		p := filepath.Join(app, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	u, err := url.Parse(pgDumpURL(admin))
	if err != nil {
		t.Fatal(err)
	}
	db := fmt.Sprintf("quarry_strapi_%d_%d", os.Getpid(), time.Now().UnixNano())
	port := freePort(t)
	o := &strapiOracle{kit: kit, app: app, URL: fmt.Sprintf("http://127.0.0.1:%d", port),
		env: []string{"ORACLE_CACHE_DIR=" + cache, fmt.Sprintf("ORACLE_PORT=%d", port), "ORACLE_PG_URL=" + u.String(), "ORACLE_PG_DB=" + db}}
	u.Path = "/" + db
	o.DBURL = u.String()
	t.Cleanup(func() {
		o.run(t, "stop.sh")
		if conn, err := sql.Open("pgx", admin); err == nil {
			conn.Exec("DROP DATABASE IF EXISTS " + db + " WITH (FORCE)")
			conn.Close()
		}
	})
	if before == nil {
		o.run(t, "start.sh", "--app", app, "--fresh")
		return o
	}
	conn, err := sql.Open("pgx", admin)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Exec("CREATE DATABASE " + db); err != nil {
		t.Fatal(err)
	}
	before(o)
	o.run(t, "start.sh", "--app", app)
	return o
}

// run runs one of the kit's scripts; start.sh only returns 0 once Strapi answers.
func (o *strapiOracle) run(t *testing.T, script string, args ...string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(o.kit, script), args...)
	cmd.Env = append(os.Environ(), o.env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		log, _ := exec.Command("tail", "-n", "60", filepath.Join(envValue(o.env, "ORACLE_CACHE_DIR"), "run", "strapi.log")).Output()
		t.Fatalf("%s %v: %v\n%s\nstrapi.log:\n%s", script, args, err, out.String(), log)
	}
}

func envValue(env []string, key string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, key+"="); ok {
			return v
		}
	}
	return ""
}

// server is Strapi as a server the helpers of server_test.go can call.
func (o *strapiOracle) server() *server { return &server{URL: o.URL, Token: oracleFullToken} }

// quarryEnv is the environment of a Quarry serving Strapi's database with Strapi's secrets.
func (o *strapiOracle) quarryEnv() []string {
	return []string{"DATABASE_CLIENT=postgres", "DATABASE_URL=" + o.DBURL, "API_TOKEN_SALT=" + oracleSalt,
		"JWT_SECRET=" + oracleJWTSecret, "LOG_LEVEL=warn"}
}

// recordedWrites are the write requests of blog_rest.json (recorded from Strapi), in order.
func recordedWrites(t *testing.T) []conformanceWrite {
	t.Helper()
	data, err := os.ReadFile("testdata/blog_rest.json")
	if err != nil {
		t.Fatal(err)
	}
	var all []conformanceWrite
	if err := json.Unmarshal(data, &all); err != nil {
		t.Fatal(err)
	}
	var out []conformanceWrite
	for _, c := range all {
		if c.Method != "GET" {
			out = append(out, c)
		}
	}
	return out
}

type conformanceWrite struct {
	Name   string          `json:"name"`
	Method string          `json:"method"`
	Path   string          `json:"path"`
	Body   json.RawMessage `json:"body"`
}

func (c conformanceWrite) send(t *testing.T, s *server) int {
	t.Helper()
	var body []byte
	if len(c.Body) > 0 && string(c.Body) != "null" {
		body = c.Body
	}
	status, _ := s.do(t, c.Method, c.Path, body)
	return status
}

// readBack are the reads that show every entry, with its components, relations and media.
var readBack = []string{
	"/api/articles?populate=*&publicationState=preview&sort=id&pagination[pageSize]=100",
	"/api/articles?populate[seo][populate]=*&populate[links][populate]=*&populate[blocks][populate]=*&publicationState=preview&sort=id&pagination[pageSize]=100",
	"/api/writers?populate=*&sort=id&pagination[pageSize]=100",
	"/api/tags?populate=*&sort=id&pagination[pageSize]=100",
	"/api/homepage?populate=*",
	"/api/pages?populate=*&locale=all&publicationState=preview&sort=id",
}

// TestBesideStrapi: on a database real Strapi created and seeded, Quarry's start changes no
// table, column, index or constraint; Quarry's writes are read back by Strapi exactly as
// Quarry reads them; and Strapi's schema sync after a content-type change succeeds.
func TestBesideStrapi(t *testing.T) {
	o := startStrapi(t, nil)
	strapi := o.server()
	writes := recordedWrites(t)
	half := len(writes) / 2
	for _, w := range writes[:half] {
		w.send(t, strapi)
	}

	before := pgDump(t, o.DBURL)
	if *update {
		if err := os.WriteFile(strapiSchemaGolden, []byte(before), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	q := serve(t, o.quarryEnv(), o.app, oracleFullToken)
	if after := pgDump(t, o.DBURL); after != before {
		t.Fatalf("Quarry's start changed Strapi's schema:\n%s", lineDiff(before, after))
	}

	for _, w := range writes[half:] {
		w.send(t, q)
	}
	quarryReads := map[string]string{}
	for _, p := range readBack {
		status, body := q.do(t, "GET", p, nil)
		if status != 200 {
			t.Fatalf("Quarry GET %s: %d %s", p, status, body)
		}
		quarryReads[p] = string(body)
	}

	// A content-type change makes Strapi sync its schema at its next start.
	schema := filepath.Join(o.app, "src/api/footer/content-types/footer/schema.json")
	raw, err := os.ReadFile(schema)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(raw), `"attributes": {`, `"attributes": {
    "motto": { "type": "string" },`, 1)
	if changed == string(raw) {
		t.Fatal("could not add an attribute to the footer schema")
	}
	if err := os.WriteFile(schema, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	o.run(t, "start.sh", "--app", o.app)
	if !strings.Contains(pgDump(t, o.DBURL), "motto character varying(255)") {
		t.Error("Strapi's schema sync did not add footers.motto")
	}
	for _, p := range readBack {
		status, body := strapi.do(t, "GET", p, nil)
		if status != 200 {
			t.Errorf("Strapi GET %s after Quarry's writes: %d %s", p, status, body)
			continue
		}
		if string(body) != quarryReads[p] {
			t.Errorf("Strapi reads Quarry's writes differently, GET %s\nstrapi: %s\nquarry: %s", p, body, quarryReads[p])
		}
	}
}

// TestBesideStrapiUpstream: Quarry in front of real Strapi. A custom route, a write to a
// type with lifecycles.js, the admin login and a content-manager write reach Strapi through
// Quarry; Quarry reads the content manager's write at once; a webhook created through the
// admin API gets from Quarry's write the payload Strapi sends for its own.
func TestBesideStrapiUpstream(t *testing.T) {
	o := startStrapi(t, map[string]string{
		"src/api/tag/routes/01-custom.js": `module.exports = { routes: [
  { method: 'GET', path: '/tags/featured', handler: 'tag.featured', config: { auth: false } },
] };
`,
		"src/api/tag/routes/tag.js": `module.exports = require('@strapi/strapi').factories.createCoreRouter('api::tag.tag');
`,
		"src/api/tag/controllers/tag.js": `module.exports = require('@strapi/strapi').factories.createCoreController('api::tag.tag', () => ({
  async featured(ctx) { ctx.body = { featured: 'from strapi' }; },
}));
`,
		"src/api/writer/content-types/writer/lifecycles.js": `module.exports = {
  beforeCreate(event) { event.params.data.bio = 'set by a lifecycle'; },
};
`,
	})
	strapi := o.server()
	env := append(o.quarryEnv(), "LOG_LEVEL=debug")
	q := serve(t, env, o.app, oracleFullToken, "--upstream", o.URL)

	if st, body := q.doAs(t, "", "GET", "/api/tags/featured", nil); st != 200 || string(body) != `{"featured":"from strapi"}` {
		t.Errorf("custom route through Quarry: %d %s", st, body)
	}
	if st, body := q.do(t, "POST", "/api/writers", []byte(`{"data":{"name":"Lee"}}`)); st != 200 || !strings.Contains(string(body), `"bio":"set by a lifecycle"`) {
		t.Errorf("write to a type with lifecycles through Quarry: %d %s", st, body)
	}

	// The admin panel's API: register the first admin, log in, write through the content manager.
	admin := []byte(`{"firstname":"Ada","lastname":"Admin","email":"ada@example.com","password":"Adm1nPassw0rd"}`)
	if st, body := q.doAs(t, "", "POST", "/admin/register-admin", admin); st != 200 && st != 201 {
		t.Fatalf("register-admin through Quarry: %d %s", st, body)
	}
	st, body := q.doAs(t, "", "POST", "/admin/login", []byte(`{"email":"ada@example.com","password":"Adm1nPassw0rd"}`))
	var login struct {
		Data struct{ Token string } `json:"data"`
	}
	if st != 200 || json.Unmarshal(body, &login) != nil || login.Data.Token == "" {
		t.Fatalf("admin login through Quarry: %d %s", st, body)
	}
	st, body = q.doAs(t, login.Data.Token, "POST", "/content-manager/collection-types/api::tag.tag", []byte(`{"name":"from the admin panel"}`))
	var created struct{ ID int64 }
	if (st != 200 && st != 201) || json.Unmarshal(body, &created) != nil || created.ID == 0 {
		t.Fatalf("content-manager write through Quarry: %d %s", st, body)
	}
	if st, body := q.do(t, "GET", fmt.Sprintf("/api/tags/%d", created.ID), nil); st != 200 || !strings.Contains(string(body), "from the admin panel") {
		t.Errorf("Quarry does not read the admin panel's write: %d %s", st, body)
	}

	// Settings edited in the admin panel show in Quarry's next request: an API token created
	// there works at once, and stops working at once when deleted.
	st, body = q.doAs(t, login.Data.Token, "POST", "/admin/api-tokens", []byte(`{"name":"ci","description":"","type":"read-only","lifespan":null}`))
	var tok struct {
		Data struct {
			ID        int64
			AccessKey string
		} `json:"data"`
	}
	if (st != 200 && st != 201) || json.Unmarshal(body, &tok) != nil || tok.Data.AccessKey == "" {
		t.Fatalf("create API token through Quarry: %d %s", st, body)
	}
	if st, body := q.doAs(t, tok.Data.AccessKey, "GET", "/api/tags", nil); st != 200 {
		t.Errorf("a token just created in the admin panel: %d %s", st, body)
	}
	if st, body := q.doAs(t, login.Data.Token, "DELETE", fmt.Sprintf("/admin/api-tokens/%d", tok.Data.ID), nil); st != 200 {
		t.Fatalf("delete API token through Quarry: %d %s", st, body)
	}
	if st, body := q.doAs(t, tok.Data.AccessKey, "GET", "/api/tags", nil); st != 401 {
		t.Errorf("a token just deleted in the admin panel: %d %s", st, body)
	}

	// A webhook as the admin panel stores it (its API refuses a receiver on loopback), which
	// Quarry picks up without a restart; Strapi loads webhooks at start.
	rc := newReceiver(t, 0)
	db, err := sql.Open("pgx", o.DBURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`INSERT INTO strapi_webhooks (name, url, headers, events, enabled) VALUES ('site', $1, '{"X-Site":"rebuild"}', '["entry.create","media.create"]', true)`, rc.URL); err != nil {
		t.Fatal(err)
	}
	o.run(t, "start.sh", "--app", o.app)
	time.Sleep(1100 * time.Millisecond) // Quarry reads the webhooks at most once a second
	if st, body := strapi.do(t, "POST", "/api/tags", []byte(`{"data":{"name":"via strapi"}}`)); st != 200 {
		t.Fatalf("write to Strapi: %d %s", st, body)
	}
	got := rc.wait(t, 1)
	if st, body := q.do(t, "POST", "/api/tags", []byte(`{"data":{"name":"via quarry"}}`)); st != 200 {
		t.Fatalf("write to Quarry: %d %s", st, body)
	}
	got = rc.wait(t, 2)
	fromStrapi, fromQuarry := got[0], got[1]
	if fromQuarry.Header.Get("X-Site") != "rebuild" || fromQuarry.Event != "entry.create" {
		t.Errorf("Quarry's delivery headers: %v", fromQuarry.Header)
	}
	if a, b := shapeOf(fromStrapi.Raw), shapeOf(fromQuarry.Raw); a != b {
		t.Errorf("webhook payloads differ:\nstrapi: %s\nquarry: %s", fromStrapi.Raw, fromQuarry.Raw)
	}

	// The same upload to each: media.create (Strapi's first upload also creates the
	// "API Uploads" folder, entry.create of plugin::upload.folder).
	png := pngOf(t, 20, 10)
	if st, body := strapi.upload(t, "/api/upload", filepart("files", "a.png", "image/png", png)); st != 200 && st != 201 {
		t.Fatalf("upload to Strapi: %d %s", st, body)
	}
	got = rc.wait(t, 4)
	if st, body := q.upload(t, "/api/upload", filepart("files", "a.png", "image/png", png)); st != 200 && st != 201 {
		t.Fatalf("upload to Quarry: %d %s", st, body)
	}
	var media []delivery
	for _, d := range rc.wait(t, 5) {
		if d.Event == "media.create" {
			media = append(media, d)
		}
	}
	if len(media) != 2 {
		t.Fatalf("media.create deliveries: %d", len(media))
	}
	fromStrapi, fromQuarry = media[0], media[1]
	if a, b := shapeOf(fromStrapi.Raw), shapeOf(fromQuarry.Raw); a != b {
		t.Errorf("media.create payloads differ:\nstrapi: %s\nquarry: %s", fromStrapi.Raw, fromQuarry.Raw)
	}
}

// shapeOf is a payload's keys, in their order, with the type of each value (values differ
// between two writes: ids, names, times, hashes).
func shapeOf(raw string) string {
	dec := json.NewDecoder(strings.NewReader(raw))
	var b strings.Builder
	var inObject []bool // per open container: an object?
	expectKey := false
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		if d, ok := tok.(json.Delim); ok {
			b.WriteString(d.String())
			switch d {
			case '{', '[':
				inObject = append(inObject, d == '{')
				expectKey = d == '{'
			default:
				inObject = inObject[:len(inObject)-1]
				expectKey = len(inObject) > 0 && inObject[len(inObject)-1]
			}
			continue
		}
		if expectKey {
			fmt.Fprintf(&b, "%q:", tok)
			expectKey = false
			continue
		}
		fmt.Fprintf(&b, "%T ", tok)
		expectKey = len(inObject) > 0 && inObject[len(inObject)-1]
	}
	return b.String()
}

// TestStrapiStartsOnQuarrysDatabase: Strapi starts on a database Quarry created and wrote,
// its schema sync changes nothing (the schema stays Strapi's own), and it reads Quarry's
// entries as Quarry does.
func TestStrapiStartsOnQuarrysDatabase(t *testing.T) {
	var quarryReads map[string]string
	var q *server
	o := startStrapiAfter(t, nil, func(o *strapiOracle) {
		env := o.quarryEnv()
		token := strings.TrimSpace(quarry(t, env, "tokens", "create", "--app", o.app, "--name", "e2e", "--type", "full-access"))
		q = serve(t, env, o.app, token)
		for _, w := range recordedWrites(t) {
			w.send(t, q)
		}
		quarryReads = map[string]string{}
		for _, p := range readBack {
			status, body := q.do(t, "GET", p, nil)
			if status != 200 {
				t.Fatalf("Quarry GET %s: %d %s", p, status, body)
			}
			quarryReads[p] = string(body)
		}
		if got, want := pgDump(t, o.DBURL), readGolden(t); got != want {
			t.Fatalf("Quarry's schema is not Strapi's:\n%s", lineDiff(want, got))
		}
	})
	if got, want := pgDump(t, o.DBURL), readGolden(t); got != want {
		t.Errorf("Strapi's schema sync changed Quarry's schema:\n%s", lineDiff(want, got))
	}
	strapi := o.server()
	for _, p := range readBack {
		status, body := strapi.do(t, "GET", p, nil)
		if status != 200 || string(body) != quarryReads[p] {
			t.Errorf("Strapi reads Quarry's database differently, GET %s: %d\nstrapi: %s\nquarry: %s", p, status, body, quarryReads[p])
		}
	}
}

func readGolden(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(strapiSchemaGolden)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
