package database

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/sqlgen"
)

// Reads of a request go to a PostgreSQL read replica only when that replica has replayed
// everything the primary had written when the request's first read started: the request asks
// the primary for its current WAL position, then the replica whether it has replayed it. A
// replica that is behind serves nothing for that request (its reads go to the primary), so
// every read sees every write acknowledged before the request began — through this instance,
// another instance, the Strapi admin or psql alike — and a client reads its own writes on its
// next request wherever it lands. Writes, and everything after a write in the same request,
// run on the primary.
//
// A replica that fails (cannot connect, errors) is out of rotation for replicaBackoff; its
// reads fall back to the primary meanwhile.

// replicaBackoff is how long a failed replica stays out of rotation.
const replicaBackoff = 5 * time.Second

// replica is one read-only standby.
type replica struct {
	name      string // host:port, for logs
	db        *sqlx.DB
	downUntil atomic.Int64 // unix nanoseconds; 0: in rotation
}

func (r *replica) up(now time.Time) bool { return now.UnixNano() >= r.downUntil.Load() }

// replicaSet holds the replicas and a round-robin cursor.
type replicaSet struct {
	list []*replica
	next atomic.Uint32
	log  *slog.Logger
	// stats count the routing decisions (tests and metrics read them).
	toReplica, lagging, failed atomic.Int64
}

// openReplicas connects to the replica URLs (PostgreSQL only).
func openReplicas(urls []string, poolMax int, log *slog.Logger) (*replicaSet, error) {
	rs := &replicaSet{log: log}
	for _, u := range urls {
		cfg, err := pgx.ParseConfig(u)
		if err != nil {
			rs.close()
			return nil, fmt.Errorf("replica %s: %w", redactURL(u), err)
		}
		if cfg.ConnectTimeout == 0 {
			cfg.ConnectTimeout = 2 * time.Second
		}
		db := sqlx.NewDb(stdlib.OpenDB(*cfg), "pgx")
		n := 20
		if poolMax > 0 {
			n = poolMax
		}
		db.SetMaxOpenConns(n)
		db.SetMaxIdleConns(n)
		rs.list = append(rs.list, &replica{name: fmt.Sprintf("%s:%d", cfg.Host, cfg.Port), db: db})
	}
	return rs, nil
}

func (rs *replicaSet) close() {
	for _, r := range rs.list {
		r.db.Close()
	}
}

// fail takes a replica out of rotation.
func (rs *replicaSet) fail(r *replica, err error) {
	rs.failed.Add(1)
	r.downUntil.Store(time.Now().Add(replicaBackoff).UnixNano())
	if rs.log != nil {
		rs.log.Warn("read replica out of rotation; reads go to the primary", "replica", r.name, "for", replicaBackoff, "err", err)
	}
}

// pick returns a replica that has replayed the primary's current position, or nil.
func (db *DB) pickReplica(ctx context.Context) *sqlx.DB {
	rs := db.replicas
	now := time.Now()
	var lsn string
	start := rs.next.Add(1)
	for i := range rs.list {
		r := rs.list[(int(start)+i)%len(rs.list)]
		if !r.up(now) {
			continue
		}
		if lsn == "" {
			// The primary's position is read once per request, and only when a replica is
			// in rotation.
			if err := db.DB.QueryRowxContext(ctx, "SELECT pg_current_wal_lsn()::text").Scan(&lsn); err != nil {
				return nil
			}
		}
		var caughtUp sql.NullBool
		err := r.db.QueryRowxContext(ctx, "SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn", lsn).Scan(&caughtUp)
		switch {
		case err != nil:
			if ctx.Err() != nil {
				return nil
			}
			rs.fail(r, err)
		case !caughtUp.Valid:
			// Not a standby (pg_last_wal_replay_lsn is NULL on a primary): misconfigured.
			rs.fail(r, fmt.Errorf("not in recovery: not a replica"))
		case caughtUp.Bool:
			rs.toReplica.Add(1)
			return r.db
		default:
			rs.lagging.Add(1)
		}
	}
	return nil
}

// readRoute is one request's choice of where its reads go, made at its first read.
type readRoute struct {
	mu      sync.Mutex
	decided bool
	target  *sqlx.DB // nil: the primary
	wrote   bool
}

type readRouteKey struct{}

// WithReadRoute marks ctx as one request whose reads may go to a replica. Without it (CLI
// commands, background work) every read goes to the primary.
func WithReadRoute(ctx context.Context) context.Context {
	return context.WithValue(ctx, readRouteKey{}, &readRoute{})
}

// HasReplicas reports whether reads may go to replicas.
func (db *DB) HasReplicas() bool { return db.replicas != nil && len(db.replicas.list) > 0 }

// reader returns where a read in ctx goes. Every read outside a transaction passes here,
// so here a response cache's read set learns of reads outside plans (sqlgen.NoteRead).
func (db *DB) reader(ctx context.Context) *sqlx.DB {
	sqlgen.NoteRead(ctx)
	if db.readers != nil {
		return db.readers
	}
	if !db.HasReplicas() {
		return db.DB
	}
	rt, _ := ctx.Value(readRouteKey{}).(*readRoute)
	if rt == nil {
		return db.DB
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.wrote {
		return db.DB
	}
	if !rt.decided {
		rt.decided = true
		rt.target = db.pickReplica(ctx)
	}
	if rt.target == nil {
		return db.DB
	}
	return rt.target
}

// wroteIn sends the rest of ctx's request to the primary: a write's own reads must see it.
func wroteIn(ctx context.Context) {
	if rt, _ := ctx.Value(readRouteKey{}).(*readRoute); rt != nil {
		rt.mu.Lock()
		rt.wrote = true
		rt.mu.Unlock()
	}
}

// QueryxContext runs a read outside any transaction: on a caught-up replica when ctx allows
// it (see WithReadRoute), else on the primary. Plans run through it.
// On SQLite the statement runs prepared (stmtCache).
func (db *DB) QueryxContext(ctx context.Context, query string, args ...any) (rows *sqlx.Rows, err error) {
	r := db.reader(ctx)
	if db.stmts != nil && db.stmts.start(ctx, query, func(s *sqlx.Stmt) { rows, err = s.QueryxContext(ctx, args...) }) {
		return rows, err
	}
	return r.QueryxContext(ctx, query, args...)
}

// QueryRowxContext is QueryxContext for one row.
func (db *DB) QueryRowxContext(ctx context.Context, query string, args ...any) (row *sqlx.Row) {
	r := db.reader(ctx)
	if db.stmts != nil && db.stmts.start(ctx, query, func(s *sqlx.Stmt) { row = s.QueryRowxContext(ctx, args...) }) {
		return row
	}
	return r.QueryRowxContext(ctx, query, args...)
}

// SelectContext is QueryxContext scanned into a slice.
func (db *DB) SelectContext(ctx context.Context, dest any, query string, args ...any) error {
	return sqlx.SelectContext(ctx, db.reader(ctx), dest, query, args...)
}

// GetContext is QueryRowxContext scanned into one value.
func (db *DB) GetContext(ctx context.Context, dest any, query string, args ...any) error {
	return sqlx.GetContext(ctx, db.reader(ctx), dest, query, args...)
}

// ReplicaStats are the routing decisions so far: reads sent to a replica, requests whose
// replica was behind, and replica failures.
func (db *DB) ReplicaStats() (toReplica, lagging, failed int64) {
	if !db.HasReplicas() {
		return 0, 0, 0
	}
	return db.replicas.toReplica.Load(), db.replicas.lagging.Load(), db.replicas.failed.Load()
}

// redactURL drops the password of a connection URL for messages.
func redactURL(u string) string {
	if i := strings.Index(u, "@"); i >= 0 {
		if j := strings.Index(u, "://"); j >= 0 && j < i {
			return u[:j+3] + "…" + u[i:]
		}
	}
	return u
}

// QueryContext runs a statement on the primary (it may write: RETURNING).
func (db *DB) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	sqlgen.NoteRead(ctx)
	return db.DB.QueryContext(ctx, query, args...)
}

// QueryRowContext is QueryContext for one row.
func (db *DB) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	sqlgen.NoteRead(ctx)
	return db.DB.QueryRowContext(ctx, query, args...)
}

// ExecContext runs a statement outside a transaction on the primary; the rest of ctx's
// request reads from the primary too. When writes are tracked (TrackWrites) the statement
// runs in a transaction of its own committed through Commit, so that the response cache
// learns which tables it wrote rather than taking it for a write of every table.
func (db *DB) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	wroteIn(ctx)
	if !db.tracking.Load() {
		return db.DB.ExecContext(ctx, query, args...)
	}
	var res sql.Result
	err := db.InTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		res, err = tx.ExecContext(ctx, query, args...)
		return err
	})
	return res, err
}

// Close closes the primary's pool, SQLite's readers and the replicas'.
func (db *DB) Close() error {
	if db.replicas != nil {
		db.replicas.close()
	}
	if db.stmts != nil {
		db.stmts.close()
	}
	if db.readers != nil {
		db.readers.Close()
	}
	if db.txPool != nil {
		db.txPool.Close()
	}
	if p := db.position; p != nil {
		p.mu.Lock()
		if p.conn != nil {
			p.conn.Close()
		}
		if p.db != nil {
			p.db.Close()
		}
		p.mu.Unlock()
	}
	return db.DB.Close()
}
