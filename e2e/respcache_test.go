package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestResponseCacheExact proves the response cache exact under concurrent writers: two
// `quarry serve` processes share one database (SQLite file or PostgreSQL) with the cache on,
// readers keep the cache of both hot, and writers change entries through the first
// instance, through the second and through plain SQL from this process (another process on
// the SQLite file). After every acknowledged write, reads through both instances (REST list,
// REST findOne, GraphQL, and for the first tag its owner's entry with the tag populated,
// which reads tags through a link table) must show it: stale reads are counted, and the bar
// is zero. The readers' hit rate shows the cache is really used.
func TestResponseCacheExact(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) { cacheExactness(t, be) })
	}
}

func cacheExactness(t *testing.T, be backend) {
	env := append(be.Env(t), "API_TOKEN_SALT=cache-salt", "LOG_LEVEL=warn", "QUARRY_DEBUG_STATEMENTS=1", "QUARRY_RESPONSE_CACHE=on")
	const app = "../examples/blog"
	token := strings.TrimSpace(quarry(t, env, "tokens", "create", "--app", app, "--name", "e2e", "--type", "full-access"))
	a := serve(t, env, app, token)
	b := serve(t, env, app, token)
	db := openDB(t, a)

	const owners = 4
	ids := make([]int, owners)
	for i := range ids {
		r := a.sendAsync("POST", "/api/tags", fmt.Sprintf(`{"data":{"name":"w%d-0"}}`, i))
		if r.Status != 200 {
			t.Fatalf("create: %s", r)
		}
		var created struct {
			Data struct{ ID int } `json:"data"`
		}
		if err := json.Unmarshal(r.Body, &created); err != nil {
			t.Fatal(err)
		}
		ids[i] = created.Data.ID
	}
	// A writer owns the first tag: its answer with the tag populated reads the tags through
	// a link table, and must follow the tag's writes as the tag's own answers do.
	r := a.sendAsync("POST", "/api/writers", fmt.Sprintf(`{"data":{"name":"owner","ownedTag":%d}}`, ids[0]))
	if r.Status != 200 {
		t.Fatalf("create writer: %s", r)
	}
	var writer struct {
		Data struct{ ID int } `json:"data"`
	}
	if err := json.Unmarshal(r.Body, &writer); err != nil {
		t.Fatal(err)
	}
	owner := "/api/writers/" + strconv.Itoa(writer.Data.ID) + "?populate[ownedTag]=true"
	const list = "/api/tags?pagination[pageSize]=100&sort=id"
	gql := func(id int) string {
		return fmt.Sprintf(`{"query":"{ tag(id: %d) { data { attributes { name } } } }"}`, id)
	}
	// nameIn finds tag id's name in a REST list, a REST entry or a GraphQL answer.
	nameIn := func(body []byte, id int) string {
		var l struct {
			Data json.RawMessage `json:"data"`
		}
		if json.Unmarshal(body, &l) != nil {
			return "unreadable: " + string(body)
		}
		type entry struct {
			ID         int `json:"id"`
			Attributes struct {
				Name string `json:"name"`
			} `json:"attributes"`
		}
		var many []entry
		if json.Unmarshal(l.Data, &many) == nil {
			for _, e := range many {
				if e.ID == id {
					return e.Attributes.Name
				}
			}
			return "absent"
		}
		var w struct {
			Attributes struct {
				OwnedTag struct {
					Data *entry `json:"data"`
				} `json:"ownedTag"`
			} `json:"attributes"`
		}
		if json.Unmarshal(l.Data, &w) == nil && w.Attributes.OwnedTag.Data != nil {
			if w.Attributes.OwnedTag.Data.ID != id {
				return "absent"
			}
			return w.Attributes.OwnedTag.Data.Attributes.Name
		}
		var one entry
		if json.Unmarshal(l.Data, &one) == nil && one.Attributes.Name != "" {
			return one.Attributes.Name
		}
		var g struct {
			Tag struct {
				Data entry `json:"data"`
			} `json:"tag"`
		}
		if json.Unmarshal(l.Data, &g) == nil {
			return g.Tag.Data.Attributes.Name
		}
		return "unreadable: " + string(body)
	}

	var (
		stop                 = make(chan struct{})
		wg                   sync.WaitGroup
		checks, stale, fails atomic.Int64
		hits, reads          atomic.Int64
		writes               [3]atomic.Int64
	)
	// Readers keep every key of both instances hot, so that a stale entry, if the cache
	// kept one, would be there to be served.
	for r := 0; r < 4; r++ {
		wg.Add(1)
		go func(r int) {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				s := []*server{a, b}[(r+n)%2]
				var ans answer
				switch n % 4 {
				case 0:
					ans = s.sendAsync("GET", list, "")
				case 1:
					ans = s.sendAsync("GET", "/api/tags/"+strconv.Itoa(ids[n%owners]), "")
				case 2:
					ans = s.sendAsync("GET", owner, "")
				default:
					ans = s.sendAsync("POST", "/graphql", gql(ids[n%owners]))
				}
				if ans.Status == 200 {
					reads.Add(1)
					if ans.Header.Get("X-Quarry-Statements") == "0" {
						hits.Add(1)
					}
				}
			}
		}(r)
	}
	q := rebind(a, "UPDATE tags SET name = ?, updated_at = ? WHERE id = ?")
	for w := 0; w < owners; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			id := ids[w]
			for n := 1; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				name := fmt.Sprintf("w%d-%d", w, n)
				via := (w + n) % 3
				switch via {
				case 0, 1:
					s := []*server{a, b}[via]
					r := s.sendAsync("PUT", "/api/tags/"+strconv.Itoa(id), `{"data":{"name":"`+name+`"}}`)
					if r.Status != 200 {
						fails.Add(1)
						t.Errorf("write through instance %d: %s", via, r)
						return
					}
				case 2:
					if _, err := db.Exec(q, name, time.Now().UTC(), id); err != nil {
						fails.Add(1)
						t.Errorf("write through SQL: %v", err)
						return
					}
				}
				writes[via].Add(1)
				// The write is acknowledged: every read that starts now must see it.
				reads := []struct{ method, path, body string }{
					{"GET", list, ""},
					{"GET", "/api/tags/" + strconv.Itoa(id), ""},
					{"POST", "/graphql", gql(id)},
				}
				if w == 0 {
					reads = append(reads, struct{ method, path, body string }{"GET", owner, ""})
				}
				for _, s := range []*server{a, b} {
					for _, rd := range reads {
						ans := s.sendAsync(rd.method, rd.path, rd.body)
						checks.Add(1)
						if ans.Status != 200 {
							fails.Add(1)
							t.Errorf("read %s %s: %s", rd.method, rd.path, ans)
							continue
						}
						if got := nameIn(ans.Body, id); got != name {
							if stale.Add(1) <= 10 {
								t.Errorf("stale read after a write through %s: %s %s %s answers %q, want %q",
									[]string{"instance A", "instance B", "SQL"}[via], s.URL, rd.method, rd.path, got, name)
							}
						}
					}
				}
			}
		}(w)
	}
	time.Sleep(6 * time.Second)
	close(stop)
	wg.Wait()
	rate := 0.0
	if reads.Load() > 0 {
		rate = float64(hits.Load()) / float64(reads.Load())
	}
	t.Logf("%s: writes through A %d, B %d, SQL %d; %d checked reads after them, %d stale; background reads %d, %.0f%% from the cache",
		be.Name, writes[0].Load(), writes[1].Load(), writes[2].Load(), checks.Load(), stale.Load(), reads.Load(), 100*rate)
	if stale.Load() > 0 {
		t.Fatalf("%d stale reads", stale.Load())
	}
	if writes[0].Load() == 0 || writes[1].Load() == 0 || writes[2].Load() == 0 || checks.Load() < 30 {
		t.Fatalf("too little load to prove anything")
	}

	// Without writers, repeated reads come from the cache: hit-rate sanity.
	var quiet, quietHits int
	for i := 0; i < 30; i++ {
		for _, s := range []*server{a, b} {
			ans := s.sendAsync("GET", list, "")
			quiet++
			if ans.Header.Get("X-Quarry-Statements") == "0" {
				quietHits++
			}
		}
	}
	t.Logf("%s: without writers here, %d of %d reads came from the cache", be.Name, quietHits, quiet)
	if be.Name == "mysql" {
		// MySQL has no exact change position: the cache stays off.
		if quietHits > 0 || hits.Load() > 0 {
			t.Errorf("the cache answered on MySQL")
		}
		return
	}
	// On PostgreSQL any write transaction of the server (other databases' too, e.g. other
	// tests') moves the position, so only SQLite's rate is held to nearly all.
	if (be.Name == "sqlite" && quietHits < quiet-4) || quietHits == 0 {
		t.Errorf("without writes, %d of %d reads came from the cache", quietHits, quiet)
	}
}

// TestResponseCacheByTable checks the per-table rule with two instances on one database:
// a write through Quarry to tags leaves a cached answer about writers (which reads no tag) a
// hit on the writing instance, while the tags' answer misses and shows the write on both; a
// write in plain SQL, to a table no answer reads, makes every answer miss (who wrote what is
// not known).
//
// PostgreSQL: the other instance learns the write's tables by NOTIFY, so the writers'
// answer stays a hit there too once it has arrived. Another database's write transaction
// on the same server (or autovacuum's) also makes the writers' answer miss, so the hits are
// asked of some rounds, not all; the misses of every round.
//
// SQLite: nothing else commits to the file, so the writing instance keeps the writers'
// answer in every round; to the other instance (another process) the write is a commit of
// unknown tables, and its answers miss.
func TestResponseCacheByTable(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		cacheByTable(t, []string{"DATABASE_CLIENT=sqlite", "DATABASE_FILENAME=" + filepath.Join(t.TempDir(), "data.db")})
	})
	t.Run("postgres", func(t *testing.T) {
		admin := os.Getenv("QUARRY_TEST_POSTGRES_URL")
		if admin == "" {
			t.Skip("QUARRY_TEST_POSTGRES_URL is not set")
		}
		// A server of its own, when the test can start one, has no other database's writes
		// to make the writers' answer miss.
		url := ""
		if os.Getenv("QUARRY_TEST_PG_BIN") != "" {
			url = newCluster(t).url()
		} else {
			url = freshPostgres(t, admin)
		}
		cacheByTable(t, []string{"DATABASE_CLIENT=postgres", "DATABASE_URL=" + url})
	})
}

func cacheByTable(t *testing.T, dbEnv []string) {
	sqlite := dbEnv[0] == "DATABASE_CLIENT=sqlite"
	env := append(dbEnv, "API_TOKEN_SALT=cache-salt",
		"LOG_LEVEL=warn", "QUARRY_DEBUG_STATEMENTS=1", "QUARRY_RESPONSE_CACHE=on")
	const app = "../examples/blog"
	token := strings.TrimSpace(quarry(t, env, "tokens", "create", "--app", app, "--name", "e2e", "--type", "full-access"))
	a := serve(t, env, app, token)
	b := serve(t, env, app, token)
	db := openDB(t, a)
	if _, err := db.Exec("CREATE TABLE e2e_scratch (n integer)"); err != nil {
		t.Fatal(err)
	}
	r := a.sendAsync("POST", "/api/tags", `{"data":{"name":"t-0"}}`)
	if r.Status != 200 {
		t.Fatalf("create tag: %s", r)
	}
	var tag struct {
		Data struct{ ID int } `json:"data"`
	}
	if err := json.Unmarshal(r.Body, &tag); err != nil {
		t.Fatal(err)
	}
	if r := a.sendAsync("POST", "/api/writers", `{"data":{"name":"w"}}`); r.Status != 200 {
		t.Fatalf("create writer: %s", r)
	}
	const tags, writers = "/api/tags", "/api/writers"
	// get reads path and reports whether the answer came from the cache.
	get := func(s *server, path string) (answer, bool) {
		t.Helper()
		ans := s.sendAsync("GET", path, "")
		if ans.Status != 200 {
			t.Fatalf("GET %s: %s", path, ans)
		}
		return ans, ans.Header.Get("X-Quarry-Statements") == "0"
	}
	warm := func() {
		for _, s := range []*server{a, b} {
			for _, p := range []string{tags, writers} {
				get(s, p)
				get(s, p)
			}
		}
	}
	var hitsA, hitsB, rounds int
	for n := 1; n <= 40; n++ {
		rounds++
		warm()
		name := fmt.Sprintf("t-%d", n)
		if r := a.sendAsync("PUT", "/api/tags/"+strconv.Itoa(tag.Data.ID), `{"data":{"name":"`+name+`"}}`); r.Status != 200 {
			t.Fatalf("update tag: %s", r)
		}
		// The writing instance knows its write before it commits.
		if _, hit := get(a, writers); hit {
			hitsA++
		}
		if ans, hit := get(a, tags); hit || !strings.Contains(string(ans.Body), `"`+name+`"`) {
			t.Fatalf("round %d: instance A answers %s from the cache (%v) after a write to tags", n, ans, hit)
		}
		// The other learns it by NOTIFY; until it arrives its answers miss.
		time.Sleep(100 * time.Millisecond)
		if _, hit := get(b, writers); hit {
			hitsB++
		}
		if ans, hit := get(b, tags); hit || !strings.Contains(string(ans.Body), `"`+name+`"`) {
			t.Fatalf("round %d: instance B answers %s from the cache (%v) after a write to tags", n, ans, hit)
		}

		// A write nobody announced: every answer misses.
		warm()
		insert := "INSERT INTO e2e_scratch VALUES ($1)"
		if sqlite {
			insert = "INSERT INTO e2e_scratch VALUES (?)"
		}
		if _, err := db.Exec(insert, n); err != nil {
			t.Fatal(err)
		}
		for _, s := range []*server{a, b} {
			for _, p := range []string{tags, writers} {
				if ans, hit := get(s, p); hit {
					t.Fatalf("round %d: %s answers %s from the cache after a write in plain SQL", n, p, ans)
				}
			}
		}
		if (hitsA >= 3 && hitsB >= 3) || (sqlite && rounds == 5) {
			break
		}
	}
	t.Logf("in %d rounds, the writers' answer stayed cached after a write to tags %d times on the writing instance, %d on the other", rounds, hitsA, hitsB)
	if sqlite {
		if hitsA != rounds {
			t.Errorf("a write to tags made the writers' answer miss on the writing instance in %d of %d rounds", rounds-hitsA, rounds)
		}
		return
	}
	if hitsA == 0 || hitsB == 0 {
		t.Errorf("a write to tags never left the writers' answer cached (instance A %d, B %d of %d rounds)", hitsA, hitsB, rounds)
	}
}
