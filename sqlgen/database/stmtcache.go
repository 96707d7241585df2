package database

import (
	"context"
	"sync"

	"github.com/hashicorp/golang-lru/v2/simplelru"
	"github.com/jmoiron/sqlx"
)

// stmtCacheSize bounds the SQL texts kept prepared. A plan's statements differ by page size
// and by the number of parents a populate level asks about, so a few hundred texts cover a
// project's hot requests; a text evicted is prepared again when it comes back.
const stmtCacheSize = 256

// stmtCache keeps SQLite's read statements prepared, by SQL text, on the readers' pool.
// modernc's driver runs a prepared statement by binding and stepping it, where a statement
// sent as text is parsed and planned on every run: about a tenth of the CPU of a populate
// request at 10 000 articles, more on small tables (bench/README.md). database/sql prepares
// each kept statement once per connection that runs it and finalizes it when the statement
// is closed and no rows read from it any longer. SQLite re-prepares a statement by itself
// when the schema changes under it (another process's migration, say).
type stmtCache struct {
	pool *sqlx.DB

	mu  sync.Mutex
	lru *simplelru.LRU[string, *keptStmt]
}

// keptStmt is a statement with the queries starting on it: an evicted one is closed only
// once none is (rows already read from it keep it open by themselves).
type keptStmt struct {
	stmt    *sqlx.Stmt
	users   int
	evicted bool
}

func newStmtCache(pool *sqlx.DB, size int) *stmtCache {
	c := &stmtCache{pool: pool}
	c.lru, _ = simplelru.NewLRU[string, *keptStmt](size, func(_ string, k *keptStmt) {
		k.evicted = true
		if k.users == 0 {
			k.stmt.Close()
		}
	})
	return c
}

// start runs fn on query's kept statement, preparing it first when it is not kept; ok is
// false when it cannot be prepared (the caller then sends the text, and gets its error).
func (c *stmtCache) start(ctx context.Context, query string, fn func(*sqlx.Stmt)) (ok bool) {
	c.mu.Lock()
	k, found := c.lru.Get(query)
	if !found {
		c.mu.Unlock()
		st, err := c.pool.PreparexContext(ctx, query)
		if err != nil {
			return false
		}
		c.mu.Lock()
		if k, found = c.lru.Get(query); found {
			// Prepared twice at once: keep the first.
			st.Close()
		} else {
			k = &keptStmt{stmt: st}
			c.lru.Add(query, k)
		}
	}
	k.users++
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		k.users--
		if k.evicted && k.users == 0 {
			k.stmt.Close()
		}
		c.mu.Unlock()
	}()
	fn(k.stmt)
	return true
}

// close closes every kept statement.
func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.Purge()
}
