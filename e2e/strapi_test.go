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
// copy is the test's to change) and stops it, and drops the database, when the test ends.
func startStrapi(t *testing.T) *strapiOracle {
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
	o.run(t, "start.sh", "--app", app, "--fresh")
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
	o := startStrapi(t)
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
