package e2e

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// stopServer stops a running quarry serve (its database is then the test's to change).
func stopServer(s *server) {
	s.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
	}
}

// editSchema rewrites a schema file of app, failing when old is not in it.
func editSchema(t *testing.T, app, rel, old, new string) {
	t.Helper()
	p := filepath.Join(app, rel)
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), old) {
		t.Fatalf("%s does not hold %q", rel, old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(raw), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

const articleSchema = "src/api/article/content-types/article/schema.json"

const noteSchema = `{
  "kind": "collectionType",
  "collectionName": "notes",
  "info": { "singularName": "note", "pluralName": "notes", "displayName": "Note" },
  "options": { "draftAndPublish": false },
  "attributes": { "text": { "type": "string" } }
}`

// quarryFails runs a quarry command that must fail and returns its output.
func quarryFails(t *testing.T, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("quarry %v succeeded:\n%s", args, out)
	}
	return string(out)
}

// TestSchemaChanges: on every database, an attribute's type change that loses nothing is made
// at start; a removed attribute holding values, a removed type and a renamed collectionName
// stop the start naming them; quarry migrate --plan prints the SQL and --apply makes them,
// after which the API serves the new schema.
func TestSchemaChanges(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			app := filepath.Join(t.TempDir(), "blog")
			if out, err := exec.Command("cp", "-r", "../examples/blog", app).CombinedOutput(); err != nil {
				t.Fatalf("copy app: %v %s", err, out)
			}
			notes := filepath.Join(app, "src/api/note/content-types/note/schema.json")
			os.MkdirAll(filepath.Dir(notes), 0o755)
			os.WriteFile(notes, []byte(noteSchema), 0o644)
			q := start(t, be, app)
			for _, w := range []struct{ path, body string }{
				{"/api/articles", `{"data":{"title":"Hello","views":120,"summary":"kept until dropped"}}`},
				{"/api/notes", `{"data":{"text":"remember"}}`},
			} {
				if st, body := q.do(t, "POST", w.path, []byte(w.body)); st != 200 {
					t.Fatalf("POST %s: %d %s", w.path, st, body)
				}
			}
			stopServer(q)

			// integer -> string loses nothing: made at the next start.
			editSchema(t, app, articleSchema, `"views": { "type": "integer", "min": 0, "max": 100000, "default": 0 }`, `"views": { "type": "string" }`)
			q = serve(t, q.Env, app, q.Token)
			if st, body := q.do(t, "GET", "/api/articles/1", nil); st != 200 || !strings.Contains(string(body), `"views":"120"`) {
				t.Fatalf("after integer -> string: %d %s", st, body)
			}
			stopServer(q)

			// Dropping a column and a table that hold values, and a renamed collection.
			editSchema(t, app, articleSchema, `"summary": { "type": "text" },`, ``)
			editSchema(t, app, "src/api/note/content-types/note/schema.json", `"collectionName": "notes"`, `"collectionName": "memos"`)
			out := quarryFails(t, q.Env, "serve", "--app", app, "--port", fmt.Sprint(freePort(t)))
			for _, want := range []string{"drop column articles.summary (loses data: 1 rows hold values)", "drop table notes (loses data: 1 rows hold values)"} {
				if !strings.Contains(out, want) {
					t.Errorf("start did not stop naming %q:\n%s", want, out)
				}
			}
			plan := quarry(t, q.Env, "migrate", "--app", app)
			if !strings.Contains(plan, "DROP TABLE IF EXISTS") || !strings.Contains(plan, "summary") {
				t.Errorf("plan:\n%s", plan)
			}
			quarry(t, q.Env, "migrate", "--apply", "--app", app)
			if plan := quarry(t, q.Env, "migrate", "--app", app); !strings.Contains(plan, "up to date") {
				t.Errorf("after --apply:\n%s", plan)
			}
			q = serve(t, q.Env, app, q.Token)
			if st, body := q.do(t, "GET", "/api/articles/1", nil); st != 200 || strings.Contains(string(body), "summary") || !strings.Contains(string(body), `"views":"120"`) {
				t.Errorf("after --apply: %d %s", st, body)
			}
			if st, body := q.do(t, "GET", "/api/notes", nil); st != 200 || !strings.Contains(string(body), `"total":0`) {
				t.Errorf("the renamed collection: %d %s", st, body)
			}
		})
	}
}

// TestSchemaChangesLikeStrapi: the same changes made by real Strapi's schema sync and by
// quarry migrate --apply, each on a copy of one database Strapi created and filled, leave the
// same schema (PostgreSQL).
func TestSchemaChangesLikeStrapi(t *testing.T) {
	o := startStrapi(t, nil)
	strapi := o.server()
	for _, w := range recordedWrites(t)[:12] {
		w.send(t, strapi)
	}
	o.run(t, "stop.sh", "--strapi-only")
	admin := os.Getenv("QUARRY_TEST_POSTGRES_URL")
	conn, err := sql.Open("pgx", admin)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	clone := o.dbName() + "_q"
	if _, err := conn.Exec("CREATE DATABASE " + clone + " TEMPLATE " + o.dbName()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Exec("DROP DATABASE IF EXISTS " + clone + " WITH (FORCE)") })

	editSchema(t, o.app, articleSchema, `"views": { "type": "integer", "min": 0, "max": 100000, "default": 0 }`, `"views": { "type": "string" }`)
	editSchema(t, o.app, articleSchema, `"summary": { "type": "text" },`, ``)
	editSchema(t, o.app, articleSchema, `"rating": { "type": "decimal" },`, `"rating": { "type": "float" },`)
	o.run(t, "start.sh", "--app", o.app)

	u, _ := url.Parse(o.DBURL)
	u.Path = "/" + clone
	env := []string{"DATABASE_CLIENT=postgres", "DATABASE_URL=" + u.String(), "LOG_LEVEL=warn"}
	quarry(t, env, "migrate", "--apply", "--app", o.app)
	if got, want := pgDump(t, u.String()), pgDump(t, o.DBURL); got != want {
		t.Errorf("quarry's schema after the changes is not Strapi's:\n%s", lineDiff(want, got))
	}
}
