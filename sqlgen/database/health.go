package database

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/sqlgen/sqlerr"
)

// Back-off of the dial gate: the first retry after a failed connection attempt waits
// minBackoff, each further failure doubles the wait up to maxBackoff, with ±25% jitter so
// that several Quarry processes do not dial in step.
const (
	minBackoff = 100 * time.Millisecond
	maxBackoff = 5 * time.Second
)

// dialGate bounds the connection attempts to a database that failed: while it backs off
// every attempt fails at once with sqlerr.ErrUnavailable (the request answers 503 without
// waiting), and after the wait a single attempt probes the database. A database that
// answers again resets it.
type dialGate struct {
	mu       sync.Mutex
	failures int
	next     time.Time // no attempt before
	probing  bool
	lastErr  error
	now      func() time.Time
	// onChange reports the database becoming unreachable, or reachable again after
	// failures attempts.
	onChange func(up bool, failures int, err error)
}

func (g *dialGate) enter() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.failures == 0 {
		return nil
	}
	if g.probing || g.now().Before(g.next) {
		return fmt.Errorf("%w: %v", sqlerr.ErrUnavailable, g.lastErr)
	}
	g.probing = true
	return nil
}

func (g *dialGate) done(err error) {
	g.mu.Lock()
	var changed, up bool
	failed := g.failures
	if err == nil {
		changed, up = g.failures > 0, true
		g.failures, g.probing, g.lastErr = 0, false, nil
	} else if errors.Is(err, context.Canceled) {
		// The client went away; that says nothing about the database.
		g.probing = false
	} else {
		changed = g.failures == 0
		g.failures++
		g.probing = false
		g.lastErr = err
		wait := maxBackoff
		if g.failures < 7 {
			wait = min(minBackoff<<(g.failures-1), maxBackoff)
		}
		wait = time.Duration(float64(wait) * (0.75 + rand.Float64()/2))
		g.next = g.now().Add(wait)
	}
	cb := g.onChange
	g.mu.Unlock()
	if changed && cb != nil {
		cb(up, failed, err)
	}
}

// retryAfter is how long a client should wait before retrying, rounded up to seconds.
func (g *dialGate) retryAfter() time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.failures == 0 {
		return time.Second
	}
	return max(time.Until(g.next).Round(time.Second), time.Second)
}

// maxDialing bounds the connection attempts in flight: when the database dies under load,
// every pooled connection fails at once and each request would dial before the first
// failure is known; the others wait for these few and then see the gate's verdict.
const maxDialing = 2

// gatedConnector passes every new connection through the gate.
type gatedConnector struct {
	driver.Connector
	gate    *dialGate
	dialing chan struct{}
}

func (c gatedConnector) Connect(ctx context.Context) (driver.Conn, error) {
	select {
	case c.dialing <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-c.dialing }()
	if err := c.gate.enter(); err != nil {
		return nil, err
	}
	conn, err := c.Connector.Connect(ctx)
	c.gate.done(err)
	return conn, err
}

// logLimiter logs each cause at most once a second, with the number of times it was
// left out since it was last logged: an outage under load must not flood the log.
type logLimiter struct {
	mu    sync.Mutex
	seen  map[string]*logEntry
	every time.Duration
}

type logEntry struct {
	last       time.Time
	suppressed int
}

func (l *logLimiter) allow(cause string, now time.Time) (ok bool, suppressed int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen == nil {
		l.seen = map[string]*logEntry{}
	}
	e := l.seen[cause]
	if e == nil {
		if len(l.seen) > 1000 { // causes carry error text; keep the map bounded
			clear(l.seen)
		}
		e = &logEntry{}
		l.seen[cause] = e
	}
	every := l.every
	if every == 0 {
		every = time.Second
	}
	if !e.last.IsZero() && now.Sub(e.last) < every {
		e.suppressed++
		return false, 0
	}
	n := e.suppressed
	e.last, e.suppressed = now, 0
	return true, n
}

// readyTimeout bounds the readiness probe: an unreachable host must not hold it longer
// than a load balancer's check interval.
const readyTimeout = 2 * time.Second

// Ready reports whether the database answers now (the readiness probe, /_ready).
func (db *DB) Ready(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	return db.PingContext(ctx)
}

// Unavailable turns an error meaning "the database cannot serve now" (unreachable,
// shutting down, locked by another writer for longer than the busy timeout) into a 503
// ServiceUnavailableError with Retry-After, and logs it at most once a second per cause.
// Any other error gives nil.
func (db *DB) Unavailable(log *slog.Logger, err error) *apierror.Error {
	if db == nil || !sqlerr.Unavailable(err) {
		return nil
	}
	retry := time.Second
	if db.gate != nil {
		retry = db.gate.retryAfter()
	}
	cause := sqlerr.Cause(err)
	if ok, n := db.logs.allow(cause, time.Now()); ok && log != nil {
		log.Error("database unavailable", "cause", cause, "suppressed", n, "err", err)
	}
	return apierror.ServiceUnavailable(int(retry / time.Second))
}

// BeginTxx starts a transaction. On SQLite, writers take turns in process first: one
// transaction at a time holds a connection (BEGIN IMMEDIATE takes the write lock), so the
// others wait here rather than in SQLite's busy handler, each holding a pooled connection
// that readers need. A writer that cannot get its turn within the busy timeout fails with
// sqlerr.ErrBusy (503). PostgreSQL transactions start directly.
func (db *DB) BeginTxx(ctx context.Context, opts *sql.TxOptions) (*sqlx.Tx, error) {
	wroteIn(ctx)
	sqlgen.NoteRead(ctx) // what a transaction reads is not known
	if db.writeTurn == nil {
		return db.DB.BeginTxx(ctx, opts)
	}
	wait := time.NewTimer(db.busyTimeout)
	defer wait.Stop()
	select {
	case db.writeTurn <- struct{}{}:
	case <-wait.C:
		return nil, fmt.Errorf("%w: waited %s for the other writers", sqlerr.ErrBusy, db.busyTimeout)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	conn, err := db.txPool.Connx(ctx)
	if err != nil {
		<-db.writeTurn
		return nil, err
	}
	st := db.trackSQLiteTx(conn)
	tx, err := conn.BeginTxx(ctx, opts)
	if err != nil {
		conn.Close()
		<-db.writeTurn
		return nil, err
	}
	if st != nil {
		st.tx = tx
		db.sqliteTx.Store(st)
	}
	// Conn.Close blocks until the transaction on it ends (commit, rollback, or its context
	// canceled), then returns the connection to the pool: the turn passes on then, or,
	// after a tracked commit, once Commit has attributed it (sqlitewrites.go).
	go func() {
		conn.Close()
		if st != nil {
			close(st.returned)
			if st.committing.Load() {
				<-st.finished
			}
		}
		<-db.writeTurn
	}()
	return tx, nil
}

// LockUnique takes, in tx, the transaction-scoped locks of unique values about to be
// checked and written (sqlgen.UniqueLock): a second writer of one of them waits until tx
// ends, then sees its row. Nothing to do on SQLite, whose writers take turns.
func (db *DB) LockUnique(ctx context.Context, tx *sqlx.Tx, keys []sqlgen.UniqueKey) error {
	for _, s := range sqlgen.UniqueLocks(db.Dialect, keys) {
		if _, err := tx.ExecContext(ctx, s.SQL, s.Args...); err != nil {
			return fmt.Errorf("lock unique value: %w", err)
		}
	}
	return nil
}
