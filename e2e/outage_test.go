package e2e

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// pgCluster is a private PostgreSQL cluster the test starts and stops itself.
type pgCluster struct {
	bin, dir, data string
	port           int
}

// run runs a PostgreSQL server program; as root it runs as the postgres user, since
// PostgreSQL refuses to run as root.
func (c *pgCluster) run(t *testing.T, prog string, args ...string) {
	t.Helper()
	path := filepath.Join(c.bin, prog)
	var cmd *exec.Cmd
	if os.Geteuid() == 0 {
		cmd = exec.Command("runuser", append([]string{"-u", "postgres", "--", path}, args...)...)
	} else {
		cmd = exec.Command(path, args...)
	}
	cmd.Dir = c.dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", prog, args, err, out)
	}
}

func (c *pgCluster) start(t *testing.T) {
	t.Helper()
	c.run(t, "pg_ctl", "-D", c.data, "-l", filepath.Join(c.dir, "log"), "-w", "-t", "30",
		"-o", fmt.Sprintf("-p %d -c listen_addresses=127.0.0.1 -k %s -c fsync=off -c log_connections=on", c.port, c.dir), "start")
}

func (c *pgCluster) stop(t *testing.T) {
	t.Helper()
	c.run(t, "pg_ctl", "-D", c.data, "-m", "fast", "-w", "-t", "30", "stop")
}

func (c *pgCluster) url() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.port)
}

// newCluster initializes and starts a cluster in a temporary folder on a free loopback
// port, with the server programs of QUARRY_TEST_PG_BIN.
func newCluster(t *testing.T) *pgCluster {
	t.Helper()
	bin := os.Getenv("QUARRY_TEST_PG_BIN")
	if bin == "" {
		t.Skip("QUARRY_TEST_PG_BIN (the PostgreSQL server programs, e.g. /usr/lib/postgresql/15/bin) is not set")
	}
	reapClusters(bin)
	dir, err := os.MkdirTemp("", "quarry-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	// The owner's pid lets a later run stop this cluster if this test binary dies without
	// its clean-ups (a timeout's panic, a kill): pg_ctl's server outlives it otherwise.
	if err := os.WriteFile(filepath.Join(dir, "owner.pid"), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Fatalf("running as root needs the postgres user: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	c := &pgCluster{bin: bin, dir: dir, data: filepath.Join(dir, "data"), port: freePort(t)}
	c.run(t, "initdb", "-D", c.data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync")
	c.start(t)
	t.Cleanup(func() {
		cmd := exec.Command(filepath.Join(c.bin, "pg_ctl"), "-D", c.data, "-m", "immediate", "-w", "stop")
		if os.Geteuid() == 0 {
			cmd = exec.Command("runuser", "-u", "postgres", "--", filepath.Join(c.bin, "pg_ctl"), "-D", c.data, "-m", "immediate", "-w", "stop")
		}
		cmd.Run()
	})
	return c
}

// reapClusters stops and removes the clusters of earlier test binaries that died with them
// running (their owner.pid names a process that is gone).
func reapClusters(bin string) {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "quarry-pg-*"))
	for _, dir := range dirs {
		b, err := os.ReadFile(filepath.Join(dir, "owner.pid"))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 0 {
			continue
		}
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			continue // alive (or not ours to signal)
		}
		// The cluster's data folder and its replicas' (replica_test.go) each hold a
		// postmaster.pid while their server runs.
		pids, _ := filepath.Glob(filepath.Join(dir, "*", "postmaster.pid"))
		for _, p := range pids {
			args := []string{filepath.Join(bin, "pg_ctl"), "-D", filepath.Dir(p), "-m", "immediate", "-w", "stop"}
			if os.Geteuid() == 0 {
				args = append([]string{"runuser", "-u", "postgres", "--"}, args...)
			}
			exec.Command(args[0], args[1:]...).Run()
		}
		os.RemoveAll(dir)
	}
}

// TestPostgresOutage stops the database under a running server: every request fails fast
// with 503 and Retry-After in Strapi's envelope, /_ready says 503 while /_health stays 204,
// the server dials the dead address at a bounded rate and logs each cause at most once a
// second; when the database is back, the server serves again without a restart.
func TestPostgresOutage(t *testing.T) {
	cluster := newCluster(t)
	be := backend{Name: "postgres", Env: func(t *testing.T) []string {
		return []string{"DATABASE_CLIENT=postgres", "DATABASE_URL=" + cluster.url()}
	}}
	srv := start(t, be, "../examples/blog")
	if a := srv.sendAsync("POST", "/api/tags", `{"data":{"name":"kept"}}`); a.Status != 200 {
		t.Fatalf("create: %s", a)
	}
	if a := srv.sendAsync("GET", "/_ready", ""); a.Status != 204 {
		t.Fatalf("/_ready with the database up: %s", a)
	}

	cluster.stop(t)
	// A listener on the database's port counts the connection attempts while it is down
	// (and drops each at once, as a server that is not ready would).
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", cluster.port))
	if err != nil {
		t.Fatalf("listen on the stopped database's port: %v", err)
	}
	var dials atomic.Int64
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			dials.Add(1)
			c.Close()
		}
	}()
	logBefore := strings.Count(srv.log.String(), "database unavailable")

	const clients, window = 16, 3 * time.Second
	want := `{"data":null,"error":{"status":503,"name":"ServiceUnavailableError","message":"Service Unavailable","details":{}}}`
	var mu sync.Mutex
	var answers, bad int
	var slowest time.Duration
	var wg sync.WaitGroup
	deadline := time.Now().Add(window)
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; time.Now().Before(deadline); n++ {
				var a answer
				switch n % 3 {
				case 0:
					a = srv.sendAsync("GET", "/api/tags", "")
				case 1:
					a = srv.sendAsync("POST", "/api/tags", fmt.Sprintf(`{"data":{"name":"lost-%d-%d"}}`, i, n))
				default:
					a = srv.sendAsync("POST", "/graphql", `{"query":"{ tags { data { id } } }"}`)
				}
				mu.Lock()
				answers++
				slowest = max(slowest, a.Took)
				ra, _ := strconv.Atoi(a.Header.Get("Retry-After"))
				if a.Status != 503 || string(a.Body) != want || ra < 1 || ra > 10 {
					bad++
					if bad <= 5 {
						t.Errorf("during the outage: %s (Retry-After %q)", a, a.Header.Get("Retry-After"))
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if answers < 100 {
		t.Errorf("only %d answers in %s: requests do not fail fast", answers, window)
	}
	if slowest > 2*time.Second {
		t.Errorf("slowest answer during the outage took %s", slowest)
	}
	// Back-off from 100 ms doubling to 5 s: about six attempts in three seconds, not one
	// per request.
	t.Logf("outage: %d answers in %s, %d connection attempts, slowest %s", answers, window, dials.Load(), slowest)
	if n := dials.Load(); n > 15 {
		t.Errorf("%d connection attempts in %s for %d answers: the dial rate is not bounded", n, window, answers)
	}
	if n := strings.Count(srv.log.String(), "database unavailable") - logBefore; n > 5*int(window/time.Second+1) {
		t.Errorf("%d error lines for %d failed requests in %s: not rate limited", n, answers, window)
	}
	if !strings.Contains(srv.log.String(), "suppressed=") {
		t.Errorf("the log does not count the suppressed lines")
	}
	r := srv.sendAsync("GET", "/_ready", "")
	if r.Status != 503 || r.Header.Get("Retry-After") == "" {
		t.Errorf("/_ready during the outage: %s", r)
	}
	if r := srv.sendAsync("GET", "/_health", ""); r.Status != 204 {
		t.Errorf("/_health during the outage: %s", r)
	}

	l.Close()
	cluster.start(t)
	ready := time.Now().Add(20 * time.Second)
	for {
		r := srv.sendAsync("GET", "/_ready", "")
		if r.Status == 204 {
			break
		}
		if time.Now().After(ready) {
			t.Fatalf("not ready 20 s after the database came back: %s", r)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if a := srv.sendAsync("POST", "/api/tags", `{"data":{"name":"after"}}`); a.Status != 200 {
		t.Fatalf("write after recovery: %s", a)
	}
	a := srv.sendAsync("GET", "/api/tags?sort=id", "")
	if a.Status != 200 || !strings.Contains(string(a.Body), `"kept"`) || !strings.Contains(string(a.Body), `"after"`) || strings.Contains(string(a.Body), "lost-") {
		t.Errorf("after recovery: %s", a)
	}
	if !strings.Contains(srv.log.String(), "database reachable again") {
		t.Errorf("recovery not logged")
	}
}
