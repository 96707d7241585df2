package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestLogs reads a real server's log as JSON: a start-up summary, one access line per
// request with the honoured or generated X-Request-Id, and no secret anywhere in it.
func TestLogs(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			app := copyBlog(t)
			const salt, jwtSecret = "logs-salt-do-not-print", "logs-jwt-secret-do-not-print"
			env := append(be.Env(t), "API_TOKEN_SALT="+salt, "JWT_SECRET="+jwtSecret, "LOG_FORMAT=json", "LOG_LEVEL=info")
			token := strings.TrimSpace(quarry(t, env, "tokens", "create", "--app", app, "--name", "logs", "--type", "full-access"))
			srv := serve(t, env, app, token)

			const password = "pw-do-not-print-1"
			r := srv.call(t, "", "POST", "/api/auth/local/register", `{"username":"logger","email":"logger@example.com","password":"`+password+`"}`, "X-Request-Id: client-id-1")
			if r.Status != 200 {
				t.Fatalf("register: %s", r)
			}
			if got := r.Header.Get("X-Request-Id"); got != "client-id-1" {
				t.Errorf("X-Request-Id not honoured: %q", got)
			}
			var reg struct{ JWT string }
			json.Unmarshal(r.Body, &reg)
			r = srv.call(t, "", "POST", "/api/auth/local", `{"identifier":"logger","password":"`+password+`"}`)
			if r.Status != 200 {
				t.Fatalf("login: %s", r)
			}
			r = srv.call(t, reg.JWT, "GET", "/api/users/me?secret=query-do-not-print", "")
			if r.Status != 200 {
				t.Fatalf("me: %s", r)
			}
			r = srv.call(t, token, "GET", "/api/articles/7?populate=*", "", "X-Request-Id: bad id with spaces\u00e9")
			generated := r.Header.Get("X-Request-Id")
			if generated == "" || strings.Contains(generated, " ") {
				t.Errorf("an unsafe X-Request-Id must be replaced, got %q", generated)
			}
			r = srv.call(t, token, "GET", "/api/articles?populate=*", "")
			if r.Status != 200 {
				t.Fatalf("articles: %s", r)
			}
			r = srv.call(t, token, "POST", "/graphql", `{"query":"query Named { tags { data { id } } }"}`)
			if r.Status != 200 {
				t.Fatalf("graphql: %s", r)
			}

			lines := waitLines(t, srv, 7)
			var startup bool
			access := map[string]map[string]any{} // request_id or route → line
			for _, l := range lines {
				switch l["msg"] {
				case "quarry listening":
					startup = true
					for _, k := range []string{"url", "app", "database", "features"} {
						if l[k] == nil || l[k] == "" {
							t.Errorf("start-up summary lacks %s: %v", k, l)
						}
					}
					if !strings.Contains(l["database"].(string), be.Name) {
						t.Errorf("start-up summary database %v", l["database"])
					}
				case "request":
					access[l["request_id"].(string)] = l
					access[l["method"].(string)+" "+l["path"].(string)] = l
				}
			}
			if !startup {
				t.Errorf("no start-up summary")
			}
			if l := access["client-id-1"]; l == nil || l["route"] != "/api/auth/local/register" || l["status"] != float64(200) {
				t.Errorf("register's access line: %v", l)
			}
			if l := access[generated]; l == nil || l["route"] != "/api/{name}/{id}" {
				t.Errorf("generated request id %q has no access line: %v", generated, l)
			}
			if l := access["GET /api/articles"]; l == nil || l["sql_statements"].(float64) < 2 || l["bytes"].(float64) < 50 || l["duration_ms"] == nil {
				t.Errorf("list's access line: %v", l)
			}
			if l := access["POST /graphql"]; l == nil || l["graphql"] != "query" {
				t.Errorf("graphql's access line: %v", l)
			}
			log := srv.log.String()
			for _, secret := range []string{token, salt, jwtSecret, password, reg.JWT, "query-do-not-print", "Named"} {
				if secret != "" && strings.Contains(log, secret) {
					t.Errorf("the log holds %q", secret)
				}
			}
			if u := strings.TrimPrefix(srvDatabaseURL(env), "postgres://"); u != "" {
				if pu, err := url.Parse("postgres://" + u); err == nil {
					if p, ok := pu.User.Password(); ok && strings.Contains(log, p) {
						t.Errorf("the log holds the database password")
					}
				}
			}
		})
	}
}

func srvDatabaseURL(env []string) string {
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "DATABASE_URL="); ok {
			return v
		}
	}
	return ""
}

// waitLines parses the server's log as JSON lines once it holds at least n access lines;
// every line must be JSON.
func waitLines(t *testing.T, srv *server, n int) []map[string]any {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		var out []map[string]any
		count := 0
		sc := bufio.NewScanner(bytes.NewReader([]byte(srv.log.String())))
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Fatalf("log line is not JSON: %q", sc.Text())
			}
			if m["msg"] == "request" {
				count++
			}
			out = append(out, m)
		}
		if count >= n || time.Now().After(deadline) {
			return out
		}
		time.Sleep(50 * time.Millisecond)
	}
}
