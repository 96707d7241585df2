// Package e2e runs a real `quarry serve` process per database and talks to it over HTTP,
// the way users meet the product.
package e2e

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	_ "github.com/jackc/pgx/v5/stdlib"
)

// binary is the quarry binary built once for the package's tests.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "quarry-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "quarry")
	if runtime.GOOS == "windows" {
		binary += ".exe"
	}
	build := exec.Command("go", "build", "-o", binary, "github.com/quarrycms/quarry/cmd/quarry")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build quarry:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// server is a running quarry serve.
type server struct {
	URL   string
	Token string // full-access
	Env   []string
	App   string
	cmd   *exec.Cmd
	log   *bytes.Buffer
}

// backend names a database to run against.
type backend struct {
	Name string
	Env  func(t *testing.T) []string
}

// backends lists SQLite always, PostgreSQL when QUARRY_TEST_POSTGRES_URL is set and MySQL
// (or MariaDB) when QUARRY_TEST_MYSQL_URL is set.
func backends() []backend {
	out := []backend{{Name: "sqlite", Env: func(t *testing.T) []string {
		return []string{"DATABASE_CLIENT=sqlite", "DATABASE_FILENAME=" + filepath.Join(t.TempDir(), "data.db")}
	}}}
	if u := os.Getenv("QUARRY_TEST_POSTGRES_URL"); u != "" {
		out = append(out, backend{Name: "postgres", Env: func(t *testing.T) []string {
			return []string{"DATABASE_CLIENT=postgres", "DATABASE_URL=" + freshPostgres(t, u)}
		}})
	}
	if u := os.Getenv("QUARRY_TEST_MYSQL_URL"); u != "" {
		out = append(out, backend{Name: "mysql", Env: func(t *testing.T) []string {
			return []string{"DATABASE_CLIENT=mysql", "DATABASE_URL=" + freshMySQL(t, u)}
		}})
	}
	return out
}

// mysqlDSN turns a mysql:// URL into the Go driver's DSN, with times read as UTC.
func mysqlDSN(t *testing.T, s string) string {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	cfg := mysql.NewConfig()
	cfg.Net, cfg.Addr, cfg.DBName = "tcp", u.Host, strings.TrimPrefix(u.Path, "/")
	if u.User != nil {
		cfg.User = u.User.Username()
		cfg.Passwd, _ = u.User.Password()
	}
	cfg.ParseTime, cfg.Loc = true, time.UTC
	cfg.Params = map[string]string{"time_zone": "'+00:00'"}
	return cfg.FormatDSN()
}

// freshMySQL creates a uniquely named database on the server of admin (a mysql:// URL, as
// DATABASE_URL takes it) and drops it when the test ends; it returns the database's URL.
func freshMySQL(t *testing.T, admin string) string {
	t.Helper()
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("mysql", mysqlDSN(t, admin))
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("quarry_e2e_%d_%d", os.Getpid(), time.Now().UnixNano())
	if _, err := db.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() {
		db.Exec("DROP DATABASE IF EXISTS " + name)
		db.Close()
	})
	u.Path = "/" + name
	return u.String()
}

// freshPostgres creates a uniquely named database and drops it when the test ends.
func freshPostgres(t *testing.T, admin string) string {
	t.Helper()
	db, err := sql.Open("pgx", admin)
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("quarry_e2e_%d_%d", os.Getpid(), time.Now().UnixNano())
	if _, err := db.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() {
		db.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
		db.Close()
	})
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// quarry runs a quarry subcommand with the test's environment and returns its stdout.
func quarry(t *testing.T, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("quarry %v: %v\n%s", args, err, errb.String())
	}
	return out.String()
}

// start runs `quarry serve` for app on a backend, with a full-access token.
func start(t *testing.T, be backend, app string) *server {
	t.Helper()
	env := append(be.Env(t), "API_TOKEN_SALT=quarry-e2e-salt", "LOG_LEVEL=warn")
	token := strings.TrimSpace(quarry(t, env, "tokens", "create", "--app", app, "--name", "e2e", "--type", "full-access"))
	return serve(t, env, app, token)
}

// serve runs `quarry serve` for app with env (and extra arguments) added to the test's
// environment and waits for it to be healthy; token is the one the server's requests send.
func serve(t *testing.T, env []string, app, token string, args ...string) *server {
	t.Helper()
	return launch(t, os.Environ(), env, app, token, args...)
}

// launch runs `quarry serve` for app with base+env as its environment, stops it when the test
// ends (printing its log if the test failed) and waits for /_health.
func launch(t *testing.T, base, env []string, app, token string, args ...string) *server {
	t.Helper()
	port := freePort(t)
	cmd := exec.Command(binary, append([]string{"serve", "--app", app, "--host", "127.0.0.1", "--port", fmt.Sprint(port)}, args...)...)
	cmd.Env = append(base, env...)
	log := &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{URL: fmt.Sprintf("http://127.0.0.1:%d", port), Token: token, Env: env, App: app, cmd: cmd, log: log}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
		if t.Failed() {
			t.Logf("server log:\n%s", log.String())
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get(s.URL + "/_health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusNoContent {
				return s
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("server did not become healthy:\n%s", log.String())
	return nil
}

// do sends a request with the full-access token and returns status and body.
func (s *server) do(t *testing.T, method, path string, body []byte) (int, []byte) {
	t.Helper()
	return s.doAs(t, s.Token, method, path, body)
}

func (s *server) doAs(t *testing.T, token, method, path string, body []byte) (int, []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}
