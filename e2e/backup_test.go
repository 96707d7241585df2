package e2e

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestBackupRestore: `quarry backup` copies the database while the server serves (SQLite: an
// online copy; PostgreSQL and MariaDB: the data archive), and `quarry restore` brings that
// state back: what was written after the backup is gone, what was before is there, and the
// token made before the backup still works.
func TestBackupRestore(t *testing.T) {
	written := regexp.MustCompile(`backup written to (\S+)`)
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			app := copyProject(t, "../examples/blog")
			env := append(be.Env(t), "API_TOKEN_SALT=quarry-e2e-salt", "LOG_LEVEL=warn")
			token := strings.TrimSpace(quarry(t, env, "tokens", "create", "--app", app, "--name", "e2e", "--type", "full-access"))
			srv := serve(t, env, app, token)
			if st, b := srv.do(t, "POST", "/api/tags", []byte(`{"data":{"name":"before the backup"}}`)); st != 200 {
				t.Fatalf("create: %d %s", st, b)
			}
			file := filepath.Join(t.TempDir(), "site")
			if be.Name == "sqlite" {
				file += ".db"
			}
			out := quarry(t, env, "backup", "--app", app, "-f", file) // while serving
			m := written.FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("backup said: %s", out)
			}
			if st, b := srv.do(t, "POST", "/api/tags", []byte(`{"data":{"name":"after the backup"}}`)); st != 200 {
				t.Fatalf("create: %d %s", st, b)
			}
			stopServer(srv)
			quarry(t, env, "restore", "--app", app, "-f", m[1])
			srv = serve(t, env, app, token)
			st, b := srv.do(t, "GET", "/api/tags?fields[0]=name", nil)
			if st != 200 || !strings.Contains(string(b), "before the backup") || strings.Contains(string(b), "after the backup") {
				t.Errorf("after restore: %d %s", st, b)
			}
		})
	}
}
