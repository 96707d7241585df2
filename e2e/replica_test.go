package e2e

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// newReplica starts a streaming replica of primary on its own loopback port: a base backup
// taken with pg_basebackup -R, so it follows the primary's WAL as a hot standby.
func newReplica(t *testing.T, primary *pgCluster) *pgCluster {
	t.Helper()
	r := &pgCluster{bin: primary.bin, dir: primary.dir, data: filepath.Join(primary.dir, fmt.Sprintf("replica-%d", freePort(t))), port: freePort(t)}
	r.run(t, "pg_basebackup", "-h", "127.0.0.1", "-p", strconv.Itoa(primary.port), "-U", "postgres",
		"-D", r.data, "-R", "-X", "stream", "--no-sync")
	r.start(t)
	t.Cleanup(func() { r.kill() })
	db := openPG(t, r.url())
	deadline := time.Now().Add(20 * time.Second)
	for {
		var inRecovery bool
		if err := db.QueryRow("SELECT pg_is_in_recovery()").Scan(&inRecovery); err == nil && inRecovery {
			return r
		} else if time.Now().After(deadline) {
			t.Fatalf("replica did not start as a standby: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// kill stops the cluster at once, whatever state it is in (cleanup after tests that stop it).
func (c *pgCluster) kill() {
	args := []string{filepath.Join(c.bin, "pg_ctl"), "-D", c.data, "-m", "immediate", "-w", "stop"}
	if os.Geteuid() == 0 {
		args = append([]string{"runuser", "-u", "postgres", "--"}, args...)
	}
	exec.Command(args[0], args[1:]...).Run()
}

func openPG(t *testing.T, url string) *sql.DB {
	t.Helper()
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// scrape reads one counter from a metrics listener.
func scrape(t *testing.T, addr, name string) float64 {
	t.Helper()
	res, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	for _, line := range strings.Split(string(body), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return f
		}
	}
	t.Fatalf("no %s in metrics:\n%s", name, body)
	return 0
}

// TestReadReplica runs Quarry on a primary with a real streaming replica: reads go to the
// replica when it has caught up; a write is read back at once on the next request (the
// replica serves it only after replaying it); a replica whose replay is paused is behind,
// so reads go to the primary and still see every write; a stopped replica leaves the
// rotation and reads go on from the primary without an error.
func TestReadReplica(t *testing.T) {
	primary := newCluster(t)
	replica := newReplica(t, primary)
	maddr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	env := []string{"DATABASE_CLIENT=postgres", "DATABASE_URL=" + primary.url(),
		"QUARRY_DATABASE_REPLICAS=" + replica.url(), "API_TOKEN_SALT=replica-salt", "LOG_LEVEL=warn"}
	token := strings.TrimSpace(quarry(t, env, "tokens", "create", "--app", "../examples/blog", "--name", "e2e", "--type", "full-access"))
	srv := serve(t, env, "../examples/blog", token, "--metrics-addr", maddr)

	// readYourWrites creates n tags, reading each back with the very next request.
	readYourWrites := func(phase string, n int) {
		t.Helper()
		for i := 0; i < n; i++ {
			name := fmt.Sprintf("%s-%d", phase, i)
			a := srv.sendAsync("POST", "/api/tags", `{"data":{"name":"`+name+`"}}`)
			if a.Status != 200 {
				t.Fatalf("%s: create: %s", phase, a)
			}
			var created struct {
				Data struct{ ID int } `json:"data"`
			}
			json.Unmarshal(a.Body, &created)
			got := srv.sendAsync("GET", fmt.Sprintf("/api/tags/%d", created.Data.ID), "")
			if got.Status != 200 || !strings.Contains(string(got.Body), `"name":"`+name+`"`) {
				t.Errorf("%s: stale read after an acknowledged write: %s", phase, got)
			}
			list := srv.sendAsync("GET", "/api/tags?filters[name][$eq]="+name, "")
			if !strings.Contains(string(list.Body), `"name":"`+name+`"`) {
				t.Errorf("%s: stale list after an acknowledged write: %s", phase, list)
			}
		}
	}

	readYourWrites("caught-up", 30)
	// With nothing written, reads go to the replica once it has replayed the last write.
	deadline := time.Now().Add(10 * time.Second)
	before := scrape(t, maddr, "quarry_replica_reads_total")
	for scrape(t, maddr, "quarry_replica_reads_total") < before+5 && time.Now().Before(deadline) {
		srv.sendAsync("GET", "/api/tags", "")
	}
	if got := scrape(t, maddr, "quarry_replica_reads_total"); got < before+5 {
		t.Fatalf("reads never went to the caught-up replica (%v)", got)
	}

	// Replay paused: the replica falls behind every write, and reads go to the primary.
	rdb := openPG(t, replica.url())
	if _, err := rdb.Exec("SELECT pg_wal_replay_pause()"); err != nil {
		t.Fatal(err)
	}
	behind := scrape(t, maddr, "quarry_replica_behind_total")
	readYourWrites("paused", 20)
	if got := scrape(t, maddr, "quarry_replica_behind_total"); got < behind+20 {
		t.Errorf("a paused replica was not seen as behind: %v → %v", behind, got)
	}
	if _, err := rdb.Exec("SELECT pg_wal_replay_resume()"); err != nil {
		t.Fatal(err)
	}

	// A stopped replica: no request fails, and every write is still read back.
	replica.stop(t)
	readYourWrites("stopped", 20)
	if got := scrape(t, maddr, "quarry_replica_failures_total"); got < 1 {
		t.Errorf("the stopped replica never left the rotation")
	}
	for i := 0; i < 20; i++ {
		if a := srv.sendAsync("GET", "/api/tags?populate=*", ""); a.Status != 200 {
			t.Fatalf("read with the replica down: %s", a)
		}
	}
}
