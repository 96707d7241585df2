package respcache

import (
	"context"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/sqlgen"
)

// counter is a change position moved by hand.
type counter struct{ n atomic.Int64 }

func (c *counter) Position(context.Context) (string, error) {
	return strings.Repeat("x", int(c.n.Load())), nil
}
func (c *counter) Unchanged(then, now string, _ sqlgen.Tables) bool { return then == now }

// tableLog is a change position whose writes each name the tables they wrote.
type tableLog struct {
	mu     sync.Mutex
	writes []sqlgen.Tables
}

func (l *tableLog) write(t sqlgen.Tables) {
	l.mu.Lock()
	l.writes = append(l.writes, t)
	l.mu.Unlock()
}

func (l *tableLog) Position(context.Context) (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strconv.Itoa(len(l.writes)), nil
}

func (l *tableLog) Unchanged(then, now string, t sqlgen.Tables) bool {
	a, _ := strconv.Atoi(then)
	b, _ := strconv.Atoi(now)
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, w := range l.writes[a:b] {
		if w.Meets(t) {
			return false
		}
	}
	return true
}

func TestServeInvalidatesByTable(t *testing.T) {
	src := &tableLog{}
	now := time.Unix(0, 0)
	c := New(src, Config{Now: func() time.Time { return now }})
	runs := map[string]int{}
	// Each key's answer reads what reads says: a plan's tables, or a read outside plans.
	get := func(key string, reads func(ctx context.Context)) string {
		w := httptest.NewRecorder()
		c.Serve(w, httptest.NewRequest("GET", "/"+key, nil), key, false, func(w http.ResponseWriter, r *http.Request) {
			runs[key]++
			reads(r.Context())
			w.Write([]byte(key + strconv.Itoa(runs[key])))
		})
		return w.Body.String()
	}
	plan := func(names ...string) func(context.Context) {
		return func(ctx context.Context) { sqlgen.ReadSetOf(ctx).Add(sqlgen.TablesOf(names...)) }
	}
	untracked := func(ctx context.Context) { sqlgen.NoteRead(ctx) }
	warm := func() {
		get("tags", plan("tags"))
		get("articles", plan("articles", "articles_tags_links", "tags"))
		get("writers", plan("writers"))
		get("other", untracked)
	}
	// Answers computed within Settle of a new position expire then: a second round past it
	// leaves every key with an answer kept for good.
	settle := func() {
		now = now.Add(time.Minute)
		warm()
	}
	warm()
	settle()
	for _, step := range []struct {
		write sqlgen.Tables
		// missed lists the keys that must compute again after the write.
		missed []string
	}{
		{sqlgen.TablesOf("tags"), []string{"tags", "articles", "other"}},
		{sqlgen.TablesOf("writers"), []string{"writers", "other"}},
		{sqlgen.TablesOf("articles_tags_links", "comments"), []string{"articles", "other"}},
		{sqlgen.Tables{}, nil}, // wrote no table (a row lock)
		{sqlgen.TablesOf(sqlgen.LocalesTable), []string{"tags", "articles", "writers", "other"}},
		{sqlgen.AllTables, []string{"tags", "articles", "writers", "other"}},
	} {
		before := maps.Clone(runs)
		src.write(step.write)
		now = now.Add(time.Minute)
		warm()
		for key, n := range runs {
			want := before[key]
			if slices.Contains(step.missed, key) {
				want++
			}
			if n != want {
				t.Errorf("after a write to %v: %s computed %d times, want %d", step.write, key, n-before[key], want-before[key])
			}
		}
		settle()
	}
}

func serve(c *Cache, key string, r *http.Request, body string, runs *int) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	c.Serve(w, r, key, false, func(w http.ResponseWriter, r *http.Request) {
		*runs++
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(body))
	})
	return w
}

func TestServeHitsUntilPositionMoves(t *testing.T) {
	src := &counter{}
	c := New(src, Config{})
	runs := 0
	r := httptest.NewRequest("GET", "/api/tags", nil)
	first := serve(c, "k", r, `{"a":1}`, &runs)
	second := serve(c, "k", r, `{"a":2}`, &runs)
	if runs != 1 || second.Body.String() != `{"a":1}` {
		t.Fatalf("second request ran %d times, answered %s", runs, second.Body)
	}
	tag := first.Header().Get("ETag")
	if tag == "" || second.Header().Get("ETag") != tag || second.Header().Get("Cache-Control") != "no-cache" {
		t.Fatalf("headers %v", second.Header())
	}
	cond := httptest.NewRequest("GET", "/api/tags", nil)
	cond.Header.Set("If-None-Match", tag)
	if w := serve(c, "k", cond, "", &runs); w.Code != http.StatusNotModified || w.Body.Len() != 0 {
		t.Fatalf("If-None-Match: %d %q", w.Code, w.Body)
	}
	src.n.Add(1) // a write committed
	if w := serve(c, "k", r, `{"a":3}`, &runs); runs != 2 || w.Body.String() != `{"a":3}` {
		t.Fatalf("after a write: ran %d times, answered %s", runs, w.Body)
	}
}

func TestNotKept(t *testing.T) {
	c := New(&counter{}, Config{MaxBytes: 1000, MaxEntryBytes: 10})
	r := httptest.NewRequest("GET", "/x", nil)
	for _, tc := range []struct {
		name string
		fn   http.HandlerFunc
	}{
		{"error status", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(404); w.Write([]byte("no")) }},
		{"marked", func(w http.ResponseWriter, r *http.Request) { NoStore(r.Context()); w.Write([]byte("m")) }},
		{"too large", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("0123456789abc")) }},
	} {
		runs := 0
		for i := 0; i < 2; i++ {
			w := httptest.NewRecorder()
			c.Serve(w, r, tc.name, false, func(w http.ResponseWriter, r *http.Request) { runs++; tc.fn(w, r) })
			if tc.name == "too large" && w.Body.String() != "0123456789abc" {
				t.Fatalf("%s: body %q", tc.name, w.Body)
			}
		}
		if runs != 2 {
			t.Errorf("%s: kept (ran %d times)", tc.name, runs)
		}
	}
	if s := c.Stats(); s.Entries != 0 {
		t.Fatalf("entries %+v", s)
	}
}

func TestBoundedBytes(t *testing.T) {
	c := New(&counter{}, Config{MaxBytes: 2000, MaxEntryBytes: 500})
	r := httptest.NewRequest("GET", "/x", nil)
	body := strings.Repeat("b", 400)
	for i := 0; i < 50; i++ {
		runs := 0
		serve(c, "key"+string(rune('A'+i)), r, body, &runs)
	}
	s := c.Stats()
	if s.Bytes > 2000 || s.Entries == 0 || s.Entries > 4 {
		t.Fatalf("stats %+v", s)
	}
	if s.Evictions != s.Stores-s.Entries { // every entry stored and not held was evicted
		t.Errorf("evictions %d, want %d (stats %+v)", s.Evictions, s.Stores-s.Entries, s)
	}
	runs := 0
	serve(c, "keyA", r, body, &runs) // the oldest went first
	if runs != 1 {
		t.Fatal("the least recently used entry was kept")
	}
}

func TestCallerKey(t *testing.T) {
	acts := map[string]bool{"api::tag.tag.find": true}
	u1 := CallerKey(&ir.Caller{Kind: ir.UserCaller, UserID: 1, RoleID: 1, Actions: acts})
	u2 := CallerKey(&ir.Caller{Kind: ir.UserCaller, UserID: 2, RoleID: 1, Actions: acts})
	pub := CallerKey(&ir.Caller{Kind: ir.PublicCaller, RoleID: 2, Actions: acts})
	pub2 := CallerKey(&ir.Caller{Kind: ir.PublicCaller, RoleID: 2, Actions: map[string]bool{"api::tag.tag.find": true, "api::tag.tag.findOne": true}})
	full1 := CallerKey(&ir.Caller{Kind: ir.TokenCaller, TokenType: ir.TokenFullAccess, TokenID: 1})
	full2 := CallerKey(&ir.Caller{Kind: ir.TokenCaller, TokenType: ir.TokenFullAccess, TokenID: 2})
	if u1 == u2 || u1 == pub || pub == pub2 || full1 != full2 || full1 == pub {
		t.Fatalf("keys: %q %q %q %q %q", u1, u2, pub, pub2, full1)
	}
}

// TestSettle: an answer computed right after a write (when settings caches may still be
// reloading) is served only until they have settled; one computed later is kept.
func TestSettle(t *testing.T) {
	src := &counter{}
	src.n.Store(1)
	clock := time.Unix(1000, 0)
	c := New(src, Config{Settle: 2 * time.Second, Now: func() time.Time { return clock }})
	r := httptest.NewRequest("GET", "/x", nil)
	runs := 0
	serve(c, "k", r, "a", &runs)
	clock = clock.Add(time.Second)
	serve(c, "k", r, "a", &runs)
	if runs != 1 {
		t.Fatal("not served within the settle time")
	}
	clock = clock.Add(1500 * time.Millisecond)
	serve(c, "k", r, "a", &runs)
	clock = clock.Add(time.Hour)
	serve(c, "k", r, "a", &runs)
	if runs != 2 {
		t.Fatalf("ran %d times: want once before settling, once after", runs)
	}
}
