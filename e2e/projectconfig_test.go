package e2e

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha512"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The projects under testdata/projects are configured as real Strapi v4 projects are:
// config/*.js with a config/env/production override and a .env (js-app), config/*.ts
// (ts-app). These tests serve them with a real `quarry serve` and check that what their
// configuration says is what the server does.

// copyTestProject copies a test project into a temporary folder (serving writes .tmp/ and
// public/ into it).
func copyTestProject(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join("testdata", "projects", name)
	dst := filepath.Join(t.TempDir(), name)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// serveProject runs `quarry serve` on a project with only the backend's database variables
// set: everything else comes from the project's files.
func serveProject(t *testing.T, app string, env []string) *server {
	t.Helper()
	return launch(t, cleanEnv(), env, app, "")
}

// cleanEnv is the test process's environment without the variables a project's .env or
// config would otherwise lose to.
func cleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "DATABASE_"), k == "API_TOKEN_SALT", k == "JWT_SECRET", k == "NODE_ENV",
			k == "QUARRY_ENV", k == "HOST", k == "PORT", k == "ENV_PATH":
			continue
		}
		out = append(out, kv)
	}
	return out
}

// projectDB opens the database a backend's environment points at.
func projectDB(t *testing.T, env []string) (*sql.DB, string) {
	t.Helper()
	vars := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	driver, dsn := "sqlite", vars["DATABASE_FILENAME"]
	if vars["DATABASE_CLIENT"] == "postgres" {
		driver, dsn = "pgx", vars["DATABASE_URL"]
	} else if vars["DATABASE_CLIENT"] == "mysql" {
		driver, dsn = "mysql", mysqlDSN(t, vars["DATABASE_URL"])
	} else if _, err := os.Stat(dsn); err != nil {
		t.Fatalf("the SQLite file DATABASE_FILENAME names was not created: %v", err)
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, driver
}

// strapiToken inserts an API token row as Strapi writes it (access_key is
// HMAC-SHA512(admin.apiToken.salt, key) in hex) and returns the key.
func strapiToken(t *testing.T, db *sql.DB, driver, salt string) string {
	t.Helper()
	key := "strapi-made-token-0123456789abcdef"
	m := hmac.New(sha512.New, []byte(salt))
	m.Write([]byte(key))
	q := `INSERT INTO strapi_api_tokens (name, description, type, access_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`
	if driver == "pgx" {
		q = `INSERT INTO strapi_api_tokens (name, description, type, access_key, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)`
	}
	now := time.Now().UTC()
	if _, err := db.Exec(q, "made by strapi", "", "full-access", hex.EncodeToString(m.Sum(nil)), now, now); err != nil {
		t.Fatal(err)
	}
	return key
}

func pagination(t *testing.T, body []byte) (rows, pageSize int) {
	t.Helper()
	var v struct {
		Data []any `json:"data"`
		Meta struct {
			Pagination struct {
				PageSize int `json:"pageSize"`
			} `json:"pagination"`
		} `json:"meta"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	return len(v.Data), v.Meta.Pagination.PageSize
}

func createArticles(t *testing.T, s *server, prefix string, n int) {
	t.Helper()
	for i := range n {
		st, b := s.do(t, "POST", prefix+"/articles", []byte(fmt.Sprintf(`{"data":{"title":"a%03d"}}`, i)))
		if st != 200 {
			t.Fatalf("create: %d %s", st, b)
		}
	}
}

func TestJSProjectConfig(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			app := copyTestProject(t, "js-app")
			env := be.Env(t)
			s := serveProject(t, app, env)
			db, driver := projectDB(t, env) // database.js read DATABASE_* through env()
			// admin.js: apiToken.salt is env('API_TOKEN_SALT'), set only in .env.
			s.Token = strapiToken(t, db, driver, "js-app-salt-from-dotenv")
			if st, b := s.do(t, "GET", "/api/articles", nil); st != 200 {
				t.Fatalf("a token hashed with the .env salt: %d %s", st, b)
			}
			createArticles(t, s, "/api", 105)
			var n int
			if err := db.QueryRow(`SELECT COUNT(*) FROM articles`).Scan(&n); err != nil || n != 105 {
				t.Errorf("rows in the configured database: %d, %v", n, err)
			}
			// config/api.js says maxLimit 20; .env's NODE_ENV=production merges
			// config/env/production/api.js's 100 over it.
			st, b := s.do(t, "GET", "/api/articles?pagination[pageSize]=500", nil)
			if rows, size := pagination(t, b); st != 200 || rows != 100 || size != 100 {
				t.Errorf("pageSize=500: %d, %d rows, pageSize %d", st, rows, size)
			}
			if _, b := s.do(t, "GET", "/api/articles", nil); true {
				if rows, size := pagination(t, b); rows != 25 || size != 25 {
					t.Errorf("defaultLimit 25: %d rows, pageSize %d", rows, size)
				}
			}
			// routes/article.js: find has auth: false; 01-custom-article.js declares
			// /articles/featured, whose handler no controller defines: Strapi refuses
			// to start, Quarry refuses the route (fail closed) and serves the rest.
			if st, b := s.doAs(t, "", "GET", "/api/articles?pagination[pageSize]=1", nil); st != 200 {
				t.Errorf("find with auth: false, no token: %d %s", st, b)
			}
			if st, b := s.doAs(t, "", "GET", "/api/articles/1", nil); st != 403 {
				t.Errorf("findOne without auth: false, no token: %d %s", st, b)
			}
			if st, b := s.do(t, "GET", "/api/articles/featured", nil); st != 501 || !bytes.Contains(b, []byte(`"NotImplementedError"`)) {
				t.Errorf("custom route: %d %s", st, b)
			}
			// plugins.js: graphql.config.endpoint is env('GRAPHQL_ENDPOINT'), /gql in .env.
			st, b = s.do(t, "POST", "/gql", []byte(`{"query":"{ articles(pagination: {limit: 2}) { data { id } } }"}`))
			if st != 200 || !bytes.Contains(b, []byte(`"articles":{"data":[{"id":"1"},{"id":"2"}]}`)) {
				t.Errorf("POST /gql: %d %s", st, b)
			}
			// Nothing serves /graphql now: Strapi's router allows only the public middleware's
			// GET there, so a POST is its 405 (as POST to any unrouted path, seen with the oracle).
			if st, _ := s.do(t, "POST", "/graphql", []byte(`{"query":"{ articles { data { id } } }"}`)); st != 405 {
				t.Errorf("POST /graphql: %d, want 405 (the endpoint moved)", st)
			}
			// middlewares.js: strapi::body jsonLimit '4kb'.
			big := fmt.Sprintf(`{"data":{"title":"%s"}}`, strings.Repeat("x", 5000))
			if st, b := s.do(t, "POST", "/api/articles", []byte(big)); st != 413 {
				t.Errorf("a body over jsonLimit: %d %s", st, b)
			}
			log := s.log.String()
			for _, want := range []string{`plugins=sitemap`, `routes="GET /api/articles/featured, * /api/sitemap/*"`} {
				if !strings.Contains(log, want) {
					t.Errorf("start-up log lacks %s:\n%s", want, log)
				}
			}
		})
	}
}

func TestTSProjectConfig(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			app := copyTestProject(t, "ts-app")
			env := be.Env(t)
			if be.Name == "sqlite" {
				// database.ts's own default: dist/config/../../.tmp/data.db.
				env = []string{"DATABASE_CLIENT=sqlite"}
			}
			s := serveProject(t, app, env)
			if be.Name == "sqlite" {
				env = append(env, "DATABASE_FILENAME="+filepath.Join(app, ".tmp", "data.db"))
			}
			db, driver := projectDB(t, env)
			s.Token = strapiToken(t, db, driver, "ts-app-salt-from-dotenv")
			// api.ts: rest.prefix /rest, maxLimit 10.
			createArticles(t, s, "/rest", 12)
			st, b := s.do(t, "GET", "/rest/articles?pagination[pageSize]=500", nil)
			if rows, size := pagination(t, b); st != 200 || rows != 10 || size != 10 {
				t.Errorf("pageSize=500 under /rest: %d, %d rows, pageSize %d: %s", st, rows, size, b)
			}
			if st, b := s.do(t, "GET", "/api/articles", nil); st != 404 || !bytes.Contains(b, []byte(`"NotFoundError"`)) {
				t.Errorf("GET /api/articles with prefix /rest: %d %s", st, b)
			}
			if st, b := s.do(t, "GET", "/rest/users-permissions/roles", nil); st != 200 {
				t.Errorf("plugin routes move with the prefix: %d %s", st, b)
			}
			// plugins.ts: graphql enabled: false.
			if st, _ := s.do(t, "POST", "/graphql", []byte(`{"query":"{ articles { data { id } } }"}`)); st != 405 {
				t.Errorf("POST /graphql with graphql disabled: %d, want 405", st)
			}
			// plugins.ts: email enabled: false, which Strapi 4 ignores for its internal plugins
			// (the oracle keeps POST /api/email): the route stays, and the log says so.
			if st, b := s.do(t, "POST", "/rest/email", []byte(`{"to":"a@example.com","subject":"s","text":"t"}`)); st == 404 {
				t.Errorf("POST /rest/email with email's enabled: false: %d %s", st, b)
			}
			if log := s.log.String(); !strings.Contains(log, "email is one of Strapi's internal plugins") {
				t.Errorf("the start-up log does not say email's enabled: false is ignored:\n%s", log)
			}
		})
	}
}

// TestConfigErrorsStopStartUp: a wrong-typed key and an unreachable MySQL (once its
// acquireConnectionTimeout has passed) stop `quarry serve` with the file, the key, the value
// and what was expected.
func TestConfigErrorsStopStartUp(t *testing.T) {
	cases := []struct{ file, src, want string }{
		{"config/env/production/api.js", "module.exports = { rest: { maxLimit: 'many' } };",
			`config/env/production/api.js: rest.maxLimit is "many", expected an integer`},
		{"config/database.js", "module.exports = { connection: { client: 'mysql', connection: { host: '127.0.0.1', port: 1, database: 'quarry' }, acquireConnectionTimeout: 1000 } };",
			"connect to mysql: not reachable after waiting 1s (connection.acquireConnectionTimeout in config/database): database unavailable: dial tcp 127.0.0.1:1"},
		{"config/server.js", "module.exports = () => { while (true) {} };",
			"Could not load js config file config/server.js: evaluation took too long"},
	}
	for _, c := range cases {
		app := copyTestProject(t, "js-app")
		if err := os.WriteFile(filepath.Join(app, c.file), []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(binary, "serve", "--app", app, "--port", fmt.Sprint(freePort(t)))
		cmd.Env = append(cleanEnv(), "DATABASE_FILENAME="+filepath.Join(t.TempDir(), "x.db"))
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), c.want) {
			t.Errorf("%s: %v\n%s\nwant %s", c.file, err, out, c.want)
		}
	}
}
