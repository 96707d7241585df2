// Package respcache is the exact response cache: content-API GET responses and GraphQL query
// results served from memory while nothing in the database has changed since they were
// computed.
//
// # Exactness
//
// Every entry records the database's change position (database.DB.Position) taken before
// the reads that built it ran, and the tables those reads touched. A request first takes the
// position again; an entry is served only when the database says no write that touched one
// of its tables committed between the two (database.DB.Unchanged). A write that committed
// before a request started — whoever made it: this process, another Quarry instance, the
// Strapi admin, psql — has therefore moved the position, and an entry built before it from
// a table it wrote, or from tables not known, is not served.
//
// The tables: the compute function runs with a sqlgen.ReadSet in its context. Every plan it
// runs adds the plan's tables (sqlgen.PlanTables: each step's table, the link, morph and
// components tables it joins, the tables its filter and sort paths reach; a GraphQL answer
// gets the union over its root fields); any other read through the database while the set
// is there (outside transactions: every such read passes database.DB.reader) makes it "all
// tables". The locales and the core store are added to every set: the default locale is a
// setting answers depend on without reading it.
//
// PostgreSQL: the position is the current snapshot. A transaction gets an id when it first
// writes and the snapshot lists the ids still running, so two snapshots give exactly the
// write transactions that finished in between (reads never appear). Quarry's own write
// transactions (database.DB.Commit: REST and GraphQL writes, users-permissions, upload,
// i18n, tokens) record, just before their COMMIT, their id and the tables they wrote
// (which PostgreSQL counts itself, foreign keys' cascades included: sqlgen.WriteRecord);
// the process remembers them before the COMMIT is sent, and a NOTIFY queued in the same
// transaction tells the other instances when it commits. An entry is served when every
// transaction that finished since its snapshot is one of these and none wrote one of its
// tables. Any other — another database's, the Strapi admin's, psql's, a subtransaction's,
// an aborted one's, one whose notification has not arrived yet, one forgotten (the last
// 4096 are kept) — or more than 256 of them, and the entry misses, as any write would.
// Hence: a read that starts after a write committed never gets an answer built before it
// from a table the write touched, and an answer is kept across a write only when the write
// is known, by its own transaction's record, not to have touched the answer's tables.
//
// SQLite: the position is PRAGMA data_version on a connection that never writes. It says
// that some connection committed, not which or what it wrote. Quarry's write transactions
// run one at a time on one connection holding the write lock from BEGIN to COMMIT, so each
// of its commits can be attributed: the position just before COMMIT and just after differ
// by that commit alone when the writing connection saw no other commit in between (its own
// data_version, read in the transaction and again after the second position, unchanged),
// and SQLite's pre-update hook lists the tables it wrote. Those steps are remembered; an
// entry is served when remembered steps lead from its position to the current one and none
// wrote one of its tables. Any other commit to the file (another process: Strapi, sqlite3,
// a second Quarry instance) leaves a step no one vouches for, and every older entry misses
// once. MySQL has no cheap position that is exact, and the cache stays off there.
//
// A miss costs hit rate, never exactness: the next request refills the entry. The check is
// one small statement per cached request; a recorded write costs one more statement
// before its COMMIT, and its NOTIFY passes through PostgreSQL's notification queue lock at
// commit. Quarry's statements outside a transaction (locales, a token's hourly last-used
// stamp, role updates) run in a recorded transaction of their own while the cache is on;
// the settings-change notice is not recorded, and its drop purges the cache anyway.
//
// Settings Quarry keeps in process caches for up to a second (permissions, locales) may
// lag a write by that second, so an answer computed within Settle of the first sight of its
// position is kept only until then: once the settings caches have reloaded after the last
// write, answers are kept for good. Those caches' drops (a NOTIFY from another instance)
// purge the whole cache too.
//
// # What is cached
//
// Only answers the caller computed with status 200 and no NoStore mark: GET /api/<type>[/id]
// and single types, GraphQL queries without errors. The key is the exact request (path and
// raw query text, or the GraphQL request's body) plus the caller's effective permissions
// (CallerKey); a logged-in user's answers are keyed by the user, so nothing personal is
// shared between callers. Memory is bounded: entries over the per-entry cap are not kept,
// and the least recently used entries go when the total exceeds the cap.
//
// Clients get an ETag and Cache-Control: no-cache (private when the request carried
// credentials), and If-None-Match answers 304.
package respcache

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"hash/fnv"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/sqlgen"
)

// Source is the database's change position (database.DB).
type Source interface {
	Position(ctx context.Context) (string, error)
	// Unchanged reports whether no write touching tables committed between then and now.
	Unchanged(then, now string, tables sqlgen.Tables) bool
}

// Config sizes the cache.
type Config struct {
	// MaxBytes bounds the bodies kept, in total (default 64 MiB).
	MaxBytes int64
	// MaxEntryBytes is the largest body kept (default 1 MiB).
	MaxEntryBytes int
	// Settle is how long after a write process caches of settings may still show the old
	// settings (default 2 s: twice their one-second expiry).
	Settle time.Duration
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Defaults.
const (
	DefaultMaxBytes      = 64 << 20
	DefaultMaxEntryBytes = 1 << 20
	DefaultSettle        = 2 * time.Second
)

// Cache is the response cache; a nil *Cache serves every request by computing it.
type Cache struct {
	src      Source
	maxBytes int64
	maxEntry int
	settle   time.Duration
	now      func() time.Time

	mu    sync.Mutex
	lru   *simplelru.LRU[string, *entry]
	bytes int64
	// lastPos is the latest position seen, first seen at seen.
	lastPos string
	seen    time.Time

	hits, misses, stores, evictions atomic.Int64
}

type entry struct {
	key      string
	position string
	// tables are those the answer was computed from.
	tables sqlgen.Tables
	status int
	ctype  string
	etag   string
	body   []byte
	// until, when set, is when the entry stops being served (computed before settling).
	until time.Time
}

func (e *entry) size() int64 { return int64(len(e.body) + len(e.key) + 128) }

// New builds a cache on a change position source.
func New(src Source, c Config) *Cache {
	if c.MaxBytes <= 0 {
		c.MaxBytes = DefaultMaxBytes
	}
	if c.MaxEntryBytes <= 0 {
		c.MaxEntryBytes = DefaultMaxEntryBytes
	}
	if int64(c.MaxEntryBytes) > c.MaxBytes {
		c.MaxEntryBytes = int(c.MaxBytes)
	}
	if c.Settle <= 0 {
		c.Settle = DefaultSettle
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	rc := &Cache{src: src, maxBytes: c.MaxBytes, maxEntry: c.MaxEntryBytes, settle: c.Settle, now: c.Now}
	// The entry count is not the bound (bytes are): the LRU only orders the entries.
	l, _ := simplelru.NewLRU[string, *entry](1<<30, func(_ string, e *entry) { rc.bytes -= e.size() })
	rc.lru = l
	return rc
}

// Stats are the counters since start.
type Stats struct {
	Hits, Misses, Stores, Entries, Bytes int64
	// Evictions are entries dropped to keep the cache within its size.
	Evictions int64
}

// Stats reads the counters.
func (c *Cache) Stats() Stats {
	if c == nil {
		return Stats{}
	}
	c.mu.Lock()
	n, b := int64(c.lru.Len()), c.bytes
	c.mu.Unlock()
	return Stats{Hits: c.hits.Load(), Misses: c.misses.Load(), Stores: c.stores.Load(), Entries: n, Bytes: b, Evictions: c.evictions.Load()}
}

// Purge drops every entry (settings kept in process caches changed).
func (c *Cache) Purge() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.lru.Purge()
	c.bytes = 0
	c.mu.Unlock()
}

type flagKey struct{}

// NoStore marks the request's answer as not to be kept (a mutation, an answer with errors,
// anything depending on more than the key). Harmless outside a cached request.
func NoStore(ctx context.Context) {
	if f, ok := ctx.Value(flagKey{}).(*atomic.Bool); ok {
		f.Store(true)
	}
}

// Key joins the parts of a request's identity.
func Key(parts ...string) string {
	n := 0
	for _, p := range parts {
		n += len(p) + 8
	}
	var b strings.Builder
	b.Grow(n)
	for _, p := range parts {
		// Length-prefixed, so that no two part lists give the same key.
		b.WriteString(strconv.Itoa(len(p)))
		b.WriteByte(':')
		b.WriteString(p)
	}
	return b.String()
}

// CallerKey is what of the caller decides an answer: its kind, the permissions that apply
// (role or token type, and a digest of the allowed actions, so a permission change is a new
// key as soon as the permissions cache sees it) and, for a logged-in user, the user.
func CallerKey(c *ir.Caller) string {
	if c == nil {
		return "none"
	}
	var b strings.Builder
	switch c.Kind {
	case ir.PublicCaller:
		b.WriteString("public:")
	case ir.TokenCaller:
		b.WriteString("token:" + c.TokenType + ":")
		if c.TokenType != ir.TokenCustom {
			return b.String() // every token of the type may do the same
		}
	case ir.UserCaller:
		b.WriteString("user:" + strconv.FormatInt(c.UserID, 10) + ":")
	default:
		b.WriteString("kind" + strconv.Itoa(int(c.Kind)) + ":")
	}
	b.WriteString(strconv.FormatInt(c.RoleID, 10) + ":")
	actions := make([]string, 0, len(c.Actions))
	for a, ok := range c.Actions {
		if ok {
			actions = append(actions, a)
		}
	}
	sort.Strings(actions)
	h := sha256.New()
	for _, a := range actions {
		h.Write([]byte(a))
		h.Write([]byte{0})
	}
	b.WriteString(base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:16]))
	return b.String()
}

// Serve answers a cacheable request: from memory when an entry for key is still exact,
// else by running compute and keeping its answer. credentials says the request carried
// some (its answers are then private to the client).
func (c *Cache) Serve(w http.ResponseWriter, r *http.Request, key string, credentials bool, compute http.HandlerFunc) {
	if c == nil {
		compute(w, r)
		return
	}
	ctx := r.Context()
	pos, err := c.src.Position(ctx)
	if err != nil {
		// The database will answer the request itself (503 when it is down).
		compute(w, r)
		return
	}
	now := c.now()
	c.mu.Lock()
	if pos != c.lastPos {
		c.lastPos, c.seen = pos, now
	}
	settled := c.seen.Add(c.settle)
	e, ok := c.lru.Get(key)
	c.mu.Unlock()
	if ok && (e.until.IsZero() || now.Before(e.until)) && c.src.Unchanged(e.position, pos, e.tables) {
		c.hits.Add(1)
		c.write(w, r, e, credentials)
		return
	}
	c.misses.Add(1)
	flag := new(atomic.Bool)
	rec := &recorder{w: w, max: c.maxEntry, status: http.StatusOK}
	cctx, reads := sqlgen.WithReadSet(context.WithValue(ctx, flagKey{}, flag))
	compute(rec, r.WithContext(cctx))
	if rec.passed {
		return // too large: already written through
	}
	if rec.status != http.StatusOK || flag.Load() {
		rec.flush()
		return
	}
	tables := reads.Tables()
	if !tables.All {
		// Every answer also depends on settings Quarry keeps in process caches and consults
		// without reading them here (the locales, and the default locale kept in the core
		// store), whose changes Settle alone does not cover for entries computed long before.
		tables = sqlgen.TablesOf(append(tables.Names, sqlgen.LocalesTable, sqlgen.CoreStoreTable)...)
	}
	e = &entry{key: key, position: pos, tables: tables, status: rec.status, ctype: rec.Header().Get("Content-Type"), body: rec.body, etag: etag(rec.body)}
	if now.Before(settled) {
		e.until = settled
	}
	c.store(e)
	c.write(w, r, e, credentials)
}

func (c *Cache) store(e *entry) {
	c.stores.Add(1)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.Remove(e.key) // the eviction callback takes its bytes off
	c.lru.Add(e.key, e)
	c.bytes += e.size()
	for c.bytes > c.maxBytes && c.lru.Len() > 0 {
		c.lru.RemoveOldest()
		c.evictions.Add(1)
	}
}

func (c *Cache) write(w http.ResponseWriter, r *http.Request, e *entry, credentials bool) {
	h := w.Header()
	h.Set("ETag", e.etag)
	if credentials {
		h.Set("Cache-Control", "private, no-cache")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	if match(r.Header.Get("If-None-Match"), e.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if e.ctype != "" {
		h.Set("Content-Type", e.ctype)
	}
	h.Set("Content-Length", strconv.Itoa(len(e.body)))
	w.WriteHeader(e.status)
	if r.Method != http.MethodHead {
		w.Write(e.body)
	}
}

// match reports whether an If-None-Match header names the tag (weak comparison, as RFC
// 9110 asks for If-None-Match).
func match(header, tag string) bool {
	if header == "" {
		return false
	}
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == tag {
			return true
		}
	}
	return false
}

func etag(body []byte) string {
	h := fnv.New128a()
	h.Write(body)
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(body)))
	h.Write(n[:])
	return `"` + base64.RawURLEncoding.EncodeToString(h.Sum(nil)) + `"`
}

// recorder holds a computed answer until it is known to be kept; one larger than max is
// written through at once.
type recorder struct {
	w      http.ResponseWriter
	max    int
	status int
	body   []byte
	passed bool // written through
	wrote  bool
}

func (r *recorder) Header() http.Header { return r.w.Header() }

func (r *recorder) WriteHeader(status int) {
	if r.passed {
		r.w.WriteHeader(status)
		return
	}
	if !r.wrote {
		r.status = status
		r.wrote = true
	}
}

func (r *recorder) Write(p []byte) (int, error) {
	r.wrote = true
	if r.passed {
		return r.w.Write(p)
	}
	if len(r.body)+len(p) > r.max {
		r.flush()
		return r.w.Write(p)
	}
	r.body = append(r.body, p...)
	return len(p), nil
}

// flush writes what was held and passes the rest through.
func (r *recorder) flush() {
	if r.passed {
		return
	}
	r.passed = true
	r.w.WriteHeader(r.status)
	if len(r.body) > 0 {
		r.w.Write(r.body)
	}
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.w }
