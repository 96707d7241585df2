package e2e

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// answer is one response read by a goroutine (which must not call t.Fatal).
type answer struct {
	Status int
	Header http.Header
	Body   []byte
	Took   time.Duration
	Err    error
}

func (a answer) String() string {
	if a.Err != nil {
		return "error: " + a.Err.Error()
	}
	return fmt.Sprintf("%d %.300s", a.Status, a.Body)
}

// sendAsync is a request any goroutine may send; contentType "" sends JSON when there is a body.
func (s *server) sendAsync(method, path, body string) answer {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.URL+path, rd)
	if err != nil {
		return answer{Err: err}
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+s.Token)
	start := time.Now()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return answer{Err: err, Took: time.Since(start)}
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return answer{Status: res.StatusCode, Header: res.Header, Body: b, Took: time.Since(start), Err: err}
}

// parallel sends n requests at once (released together) and returns their answers in order.
func parallel(n int, req func(i int) answer) []answer {
	out := make([]answer, n)
	var ready, done sync.WaitGroup
	gate := make(chan struct{})
	for i := 0; i < n; i++ {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			ready.Done()
			<-gate
			out[i] = req(i)
		}()
	}
	ready.Wait()
	close(gate)
	done.Wait()
	return out
}

// uniqueApp is examples/blog with a unique attribute in a component (shared.seo.canonical).
func uniqueApp(t *testing.T) string {
	t.Helper()
	app := authApp(t, nil)
	path := filepath.Join(app, "src/components/shared/seo.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	doc["attributes"].(map[string]any)["canonical"] = map[string]any{"type": "string", "unique": true}
	out, _ := json.MarshalIndent(doc, "", "  ")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return app
}

// checkRace checks the answers of writers racing for one unique value: exactly one
// succeeded, every other one got Strapi's 400 naming the attribute, none a 5xx.
func checkRace(t *testing.T, what string, answers []answer, path []string, graphqlFrom int) {
	t.Helper()
	jp, _ := json.Marshal(path)
	won := 0
	for i, a := range answers {
		switch {
		case a.Err != nil:
			t.Errorf("%s #%d: %v", what, i, a.Err)
		case i >= graphqlFrom:
			// GraphQL answers 200 with the error in errors[].
			if a.Status != 200 {
				t.Errorf("%s #%d (GraphQL): %s", what, i, a)
			} else if bytes.Contains(a.Body, []byte(`"errors"`)) {
				if !bytes.Contains(a.Body, []byte(`"message":"This attribute must be unique"`)) ||
					!bytes.Contains(a.Body, []byte(`"path":`+string(jp))) || !bytes.Contains(a.Body, []byte(`"code":"BAD_USER_INPUT"`)) {
					t.Errorf("%s #%d (GraphQL): %s", what, i, a)
				}
			} else {
				won++
			}
		case a.Status == 200:
			won++
		case a.Status == 400:
			want := `{"data":null,"error":{"status":400,"name":"ValidationError","message":"This attribute must be unique","details":{"errors":[{"path":` + string(jp) + `,"message":"This attribute must be unique","name":"ValidationError"}]}}}`
			if string(a.Body) != want {
				t.Errorf("%s #%d: %s\nwant %s", what, i, a, want)
			}
		default:
			t.Errorf("%s #%d: %s", what, i, a)
		}
	}
	if won != 1 {
		t.Errorf("%s: %d writers succeeded, want exactly 1", what, won)
	}
}

func countRows(t *testing.T, db *sql.DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := db.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// TestUniqueUnderConcurrency races 24 writers (REST and GraphQL) for one value of a
// `unique` string, of a `uid`, of a unique attribute of a component, and updates racing to
// take one value, on a real server per database, and counts what was stored: every value
// exactly once, every loser a 400 "This attribute must be unique", never a 500.
func TestUniqueUnderConcurrency(t *testing.T) {
	const writers, rounds = 24, 4
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			srv := start(t, be, uniqueApp(t))
			db := openDB(t, srv)
			q := func(s string) string { return rebind(srv, s) }
			gqlCreate := func(data string) answer {
				b, _ := json.Marshal(map[string]string{"query": "mutation { createArticle(data: " + data + ") { data { id } } }"})
				return srv.sendAsync("POST", "/graphql", string(b))
			}
			for round := 0; round < rounds; round++ {
				code := fmt.Sprintf("dup-%d", round)
				answers := parallel(writers, func(i int) answer {
					if i >= writers-4 {
						return gqlCreate(fmt.Sprintf(`{title: "Code %d", slug: "code-%d-%d", code: %q}`, i, round, i, code))
					}
					return srv.sendAsync("POST", "/api/articles", fmt.Sprintf(`{"data":{"title":"Code %d","slug":"code-%d-%d","code":%q}}`, i, round, i, code))
				})
				checkRace(t, "unique code "+code, answers, []string{"code"}, writers-4)
				if n := countRows(t, db, q(`SELECT COUNT(*) FROM articles WHERE code = ?`), code); n != 1 {
					t.Errorf("code %s stored %d times", code, n)
				}

				slug := fmt.Sprintf("same-slug-%d", round)
				answers = parallel(writers, func(i int) answer {
					if i >= writers-4 {
						return gqlCreate(fmt.Sprintf(`{title: "Slug %d", slug: %q}`, i, slug))
					}
					return srv.sendAsync("POST", "/api/articles", fmt.Sprintf(`{"data":{"title":"Slug %d","slug":%q}}`, i, slug))
				})
				checkRace(t, "uid "+slug, answers, []string{"slug"}, writers-4)
				if n := countRows(t, db, q(`SELECT COUNT(*) FROM articles WHERE slug = ?`), slug); n != 1 {
					t.Errorf("slug %s stored %d times", slug, n)
				}

				canonical := fmt.Sprintf("https://example.com/%d", round)
				answers = parallel(writers, func(i int) answer {
					return srv.sendAsync("POST", "/api/articles", fmt.Sprintf(`{"data":{"title":"Seo %d","slug":"seo-%d-%d","seo":{"metaTitle":"m","canonical":%q}}}`, i, round, i, canonical))
				})
				checkRace(t, "component canonical "+canonical, answers, []string{"seo", "canonical"}, writers)
				if n := countRows(t, db, q(`SELECT COUNT(*) FROM components_shared_seos WHERE canonical = ?`), canonical); n != 1 {
					t.Errorf("canonical %s stored %d times", canonical, n)
				}
			}

			// Updates: each writer moves its own entry to the same code.
			ids := make([]int64, writers)
			for i := range ids {
				a := srv.sendAsync("POST", "/api/articles", fmt.Sprintf(`{"data":{"title":"Upd %d","slug":"upd-%d"}}`, i, i))
				if a.Status != 200 {
					t.Fatalf("seed: %s", a)
				}
				var e struct{ Data struct{ ID int64 } }
				json.Unmarshal(a.Body, &e)
				ids[i] = e.Data.ID
			}
			for round := 0; round < rounds; round++ {
				code := fmt.Sprintf("moved-%d", round)
				answers := parallel(writers, func(i int) answer {
					return srv.sendAsync("PUT", fmt.Sprintf("/api/articles/%d", ids[i]), fmt.Sprintf(`{"data":{"code":%q}}`, code))
				})
				checkRace(t, "update to code "+code, answers, []string{"code"}, writers)
				if n := countRows(t, db, q(`SELECT COUNT(*) FROM articles WHERE code = ?`), code); n != 1 {
					t.Errorf("code %s stored %d times by updates", code, n)
				}
			}
			if t.Failed() {
				return
			}
			// A value taken by a writer Quarry's locks do not see (Strapi beside it) still
			// answers 400, from the uid's database constraint.
			if _, err := db.Exec(q(`INSERT INTO articles (title, slug, created_at, updated_at) VALUES (?, ?, ?, ?)`), "Outside", "taken-outside", time.Now(), time.Now()); err != nil {
				t.Fatal(err)
			}
			a := srv.sendAsync("PUT", fmt.Sprintf("/api/articles/%d", ids[0]), `{"data":{"slug":"taken-outside"}}`)
			if a.Status != 400 || !strings.Contains(string(a.Body), `"path":["slug"]`) {
				t.Errorf("taken slug: %s", a)
			}
		})
	}
}

// sqliteLocker builds and starts the sqlitelock helper on file: a second process holding
// SQLite's write lock until release is called.
func sqliteLocker(t *testing.T, file string) (release func()) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "sqlitelock")
	build := exec.Command("go", "build", "-o", bin, "./testdata/sqlitelock")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build sqlitelock: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, file)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || strings.TrimSpace(line) != "locked" {
		cmd.Process.Kill()
		t.Fatalf("sqlitelock: %q %v", line, err)
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			stdin.Close()
			cmd.Wait()
		})
	}
	t.Cleanup(release)
	return release
}

// TestSQLiteWriteLockHeld has a second process hold SQLite's write lock: a write waits
// DATABASE_BUSY_TIMEOUT, then answers 503 with Retry-After; reads are answered meanwhile;
// once the lock is released, writes succeed again.
func TestSQLiteWriteLockHeld(t *testing.T) {
	file := filepath.Join(t.TempDir(), "data.db")
	be := backend{Name: "sqlite", Env: func(t *testing.T) []string {
		return []string{"DATABASE_CLIENT=sqlite", "DATABASE_FILENAME=" + file, "DATABASE_BUSY_TIMEOUT=1000"}
	}}
	srv := start(t, be, "../examples/blog")
	if a := srv.sendAsync("POST", "/api/tags", `{"data":{"name":"before"}}`); a.Status != 200 {
		t.Fatalf("create: %s", a)
	}
	release := sqliteLocker(t, file)

	// More writers than the server has connections wait at once.
	const waiting = 12
	var wg sync.WaitGroup
	writes := make([]answer, waiting)
	for i := range writes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			writes[i] = srv.sendAsync("POST", "/api/tags", fmt.Sprintf(`{"data":{"name":"blocked-%d"}}`, i))
		}()
	}
	// Readers are not blocked by the waiting writers nor by the other process.
	time.Sleep(200 * time.Millisecond)
	for i := 0; i < 5; i++ {
		r := srv.sendAsync("GET", "/api/tags", "")
		if r.Status != 200 || !strings.Contains(string(r.Body), `"name":"before"`) || r.Took > 500*time.Millisecond {
			t.Errorf("read while locked: %s (took %s)", r, r.Took)
		}
		g := srv.sendAsync("POST", "/graphql", `{"query":"{ tags { data { id } } }"}`)
		if g.Status != 200 || g.Took > 500*time.Millisecond {
			t.Errorf("GraphQL read while locked: %s (took %s)", g, g.Took)
		}
	}
	if r := srv.sendAsync("GET", "/_ready", ""); r.Status != 204 {
		t.Errorf("/_ready while another process writes: %s", r)
	}
	wg.Wait()
	want := `{"data":null,"error":{"status":503,"name":"ServiceUnavailableError","message":"Service Unavailable","details":{}}}`
	for _, write := range writes {
		if write.Status != 503 || write.Header.Get("Retry-After") == "" || string(write.Body) != want {
			t.Errorf("write while locked: %s (Retry-After %q), want %s", write, write.Header.Get("Retry-After"), want)
		}
		if write.Took < 900*time.Millisecond || write.Took > 5*time.Second {
			t.Errorf("a write waited %s, want about DATABASE_BUSY_TIMEOUT (1s) or twice that", write.Took)
		}
	}
	// GraphQL writes answer the same way.
	g := srv.sendAsync("POST", "/graphql", `{"query":"mutation { createTag(data: {name: \"gql\"}) { data { id } } }"}`)
	if g.Status != 503 || g.Header.Get("Retry-After") == "" || string(g.Body) != want {
		t.Errorf("GraphQL write while locked: %s", g)
	}

	release()
	if a := srv.sendAsync("POST", "/api/tags", `{"data":{"name":"after"}}`); a.Status != 200 {
		t.Fatalf("write after release: %s", a)
	}
	r := srv.sendAsync("GET", "/api/tags?sort=id", "")
	if strings.Contains(string(r.Body), `"blocked`) || strings.Contains(string(r.Body), `"gql"`) || !strings.Contains(string(r.Body), `"after"`) {
		t.Errorf("stored tags: %s", r)
	}
}

// TestUsersUniqueUnderConcurrency races registrations and POST /api/users for one
// username and e-mail: exactly one user is stored, the others get Strapi's 400.
func TestUsersUniqueUnderConcurrency(t *testing.T) {
	const writers = 16
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			app := authApp(t, map[string]string{"plugins.json": `{"users-permissions": {"config": {"jwtSecret": "` + testJWTSecret + `", "ratelimit": {"max": 100000}}}}`})
			srv := start(t, be, app)
			db := openDB(t, srv)
			for round := 0; round < 3; round++ {
				name := fmt.Sprintf("racer%d", round)
				answers := parallel(writers, func(i int) answer {
					body := fmt.Sprintf(`{"username":%q,"email":"%s@example.com","password":"secret-pw-1"}`, name, name)
					if i%2 == 1 {
						// Other case: the same identity for Strapi's lower-cased comparison.
						body = fmt.Sprintf(`{"username":"other%d-%d","email":"%s@EXAMPLE.com","password":"secret-pw-1"}`, round, i, strings.ToUpper(name))
					}
					return srv.sendAsync("POST", "/api/auth/local/register", body)
				})
				won := 0
				for _, a := range answers {
					switch {
					case a.Status == 200:
						won++
					case a.Status == 400 && strings.Contains(string(a.Body), `"message":"Email or Username are already taken"`):
					default:
						t.Errorf("register %s: %s", name, a)
					}
				}
				if won != 1 {
					t.Errorf("register %s: %d succeeded, want 1", name, won)
				}
				if n := countRows(t, db, rebind(srv, `SELECT COUNT(*) FROM up_users WHERE email = ?`), name+"@example.com"); n != 1 {
					t.Errorf("%s@example.com stored %d times", name, n)
				}

				admin := fmt.Sprintf("admin%d", round)
				answers = parallel(writers, func(i int) answer {
					return srv.sendAsync("POST", "/api/users", fmt.Sprintf(`{"username":%q,"email":"%s-%d@example.com","password":"secret-pw-1","role":1}`, admin, admin, i))
				})
				won = 0
				for _, a := range answers {
					switch {
					case a.Status == 201 || a.Status == 200:
						won++
					case a.Status == 400 && strings.Contains(string(a.Body), `"message":"This attribute must be unique"`):
					default:
						t.Errorf("create user %s: %s", admin, a)
					}
				}
				if won != 1 {
					t.Errorf("create user %s: %d succeeded, want 1", admin, won)
				}
				if n := countRows(t, db, rebind(srv, `SELECT COUNT(*) FROM up_users WHERE username = ?`), admin); n != 1 {
					t.Errorf("username %s stored %d times", admin, n)
				}
			}
		})
	}
}

// TestMultipartRefusedEarly sends multipart creates whose body never ends: a part that can
// only be refused (a file not named files.<media attribute>, a `data` that is no JSON
// object) is answered at once, without waiting for the rest of the body.
func TestMultipartRefusedEarly(t *testing.T) {
	srv := start(t, backends()[0], "../examples/blog")
	for _, c := range []struct {
		name, head, want string
	}{
		{"file without the files. prefix", "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n",
			`"name":"BadRequestError","message":"When using multipart/form-data you need to provide your files by prefixing them with the 'files'.`},
		{"file for no media attribute", "--B\r\nContent-Disposition: form-data; name=\"files.title\"; filename=\"a.bin\"\r\n\r\n",
			`"message":"Invalid file key files.title: it names no media attribute"`},
		{"file for a missing component attribute", "--B\r\nContent-Disposition: form-data; name=\"files.seo.nope\"; filename=\"a.bin\"\r\n\r\n",
			`"message":"Invalid file key files.seo.nope: it names no media attribute"`},
		{"data that is not JSON", "--B\r\nContent-Disposition: form-data; name=\"data\"\r\n\r\n{not json\r\n--B\r\nContent-Disposition: form-data; name=\"files.cover\"; filename=\"a.png\"\r\n\r\n",
			`"message":"Invalid 'data' field. 'data' should be a valid JSON."`},
		{"data that never ends", "--B\r\nContent-Disposition: form-data; name=\"data\"\r\n\r\n",
			`"status":413,"name":"PayloadTooLargeError"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			pr, pw := io.Pipe()
			defer pw.CloseWithError(io.ErrClosedPipe)
			go func() {
				if _, err := pw.Write([]byte(c.head)); err != nil {
					return
				}
				chunk := make([]byte, 64<<10)
				for { // a file that never ends
					if _, err := pw.Write(chunk); err != nil {
						return
					}
				}
			}()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/api/articles", pr)
			req.Header.Set("Content-Type", "multipart/form-data; boundary=B")
			req.Header.Set("Authorization", "Bearer "+srv.Token)
			start := time.Now()
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("no answer before the body ended: %v", err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			if res.StatusCode >= 500 || res.StatusCode < 400 || !strings.Contains(string(b), c.want) {
				t.Errorf("got %d %s, want %s", res.StatusCode, b, c.want)
			}
			if took := time.Since(start); took > 3*time.Second {
				t.Errorf("answered after %s", took)
			}
		})
	}
}
