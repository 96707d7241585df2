package database

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/jmoiron/sqlx"
	"modernc.org/sqlite"

	"github.com/quarrycms/quarry/sqlgen"
)

// SQLite's record of which tables a commit wrote.
//
// SQLite's change position is PRAGMA data_version on a connection that never writes
// (position.go): it moves when any connection commits, and says nothing of what was
// written. Quarry's write transactions run one at a time on one connection (txPool) and
// hold the write lock from BEGIN IMMEDIATE to COMMIT, so a commit can be attributed:
//
//  1. in the transaction, before COMMIT: the writer's own data_version w1 (it moves only
//     when another connection commits) and the position a (no one else can commit now:
//     the lock is ours);
//  2. COMMIT, then the position b;
//  3. on the same connection again, its data_version w2.
//
// If w2 = w1, no other connection committed between the lock being taken and w2 being
// read, which is after b: b differs from a by this commit alone, whose tables SQLite's
// pre-update hook listed (every row it inserted, updated or deleted, foreign keys' cascades
// included; with a hook SQLite also never takes its truncate shortcut, which would skip it).
// Then a→b is remembered with those tables. Otherwise, or when anything in between fails,
// nothing is remembered, and a position step no commit of this process vouches for is a
// change of every table: another process's commit (Strapi, sqlite3, a second Quarry), a
// statement of this process outside a transaction, a reopened position connection.
//
// Unchanged then walks from the earlier position to the later along remembered steps.

// preUpdateHooker is the modernc driver connection's pre-update hook.
type preUpdateHooker interface {
	RegisterPreUpdateHook(sqlite.PreUpdateHookFn)
}

// sqliteTx is a tracked SQLite write transaction.
type sqliteTx struct {
	tx *sqlx.Tx
	// conn is the driver connection it runs on, to recognise it after the commit.
	conn any

	mu     sync.Mutex
	tables map[string]bool
	frozen bool

	// committing is set when Commit begins; the turn then passes on only after finished.
	committing atomic.Bool
	finished   chan struct{}
	// returned closes when the connection is back in txPool.
	returned chan struct{}
}

// note is the pre-update hook: every row change names its table.
func (t *sqliteTx) note(d sqlite.SQLitePreUpdateData) {
	if d.DatabaseName != "main" { // temp tables: no one else sees them
		return
	}
	t.mu.Lock()
	if !t.frozen {
		t.tables[d.TableName] = true
	}
	t.mu.Unlock()
}

// freeze ends the listing and returns the tables written.
func (t *sqliteTx) freeze() sqlgen.Tables {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.frozen = true
	names := make([]string, 0, len(t.tables))
	for n := range t.tables {
		names = append(names, n)
	}
	return sqlgen.TablesOf(names...)
}

// trackSQLiteTx hooks conn, before its transaction begins, to list the tables it writes.
// nil when tracking is off or the driver offers no hook.
func (db *DB) trackSQLiteTx(conn *sqlx.Conn) *sqliteTx {
	if !db.tracking.Load() {
		return nil
	}
	st := &sqliteTx{tables: map[string]bool{}, finished: make(chan struct{}), returned: make(chan struct{})}
	err := conn.Raw(func(dc any) error {
		h, ok := dc.(preUpdateHooker)
		if !ok {
			return fmt.Errorf("driver connection %T has no pre-update hook", dc)
		}
		st.conn = dc
		h.RegisterPreUpdateHook(st.note)
		return nil
	})
	if err != nil {
		return nil
	}
	return st
}

// commitSQLite commits a tracked transaction and remembers its position step (see above).
// The commit's outcome is tx.Commit's; failing to attribute it only leaves it unknown.
func (db *DB) commitSQLite(ctx context.Context, st *sqliteTx) error {
	var w1 int64
	if err := st.tx.QueryRowContext(ctx, "PRAGMA data_version").Scan(&w1); err != nil {
		return st.tx.Commit()
	}
	a, err := db.Position(ctx)
	if err != nil {
		return st.tx.Commit()
	}
	tables := st.freeze()
	st.committing.Store(true)
	defer close(st.finished)
	if err := st.tx.Commit(); err != nil {
		return err
	}
	ctx = context.WithoutCancel(ctx)
	b, err := db.Position(ctx)
	if err != nil || b == a {
		return nil
	}
	<-st.returned
	c, err := db.txPool.Connx(ctx)
	if err != nil {
		return nil
	}
	defer c.Close()
	same := false
	c.Raw(func(dc any) error {
		same = dc == st.conn
		return nil
	})
	var w2 int64
	if !same || c.QueryRowContext(ctx, "PRAGMA data_version").Scan(&w2) != nil || w2 != w1 {
		return nil
	}
	db.steps.add(a, step{to: b, tables: tables})
	return nil
}

// stepLog remembers SQLite position steps: from a position, the next one and the tables
// the one commit in between wrote.
type stepLog = recentLog[string, step]

type step struct {
	to     string
	tables sqlgen.Tables
}

// unchangedAlong reports whether remembered steps lead from then to now, none of them
// writing one of tables; at most limit steps are followed.
func unchangedAlong(l *stepLog, then, now string, tables sqlgen.Tables, limit int) bool {
	for at := then; limit > 0; limit-- {
		s, ok := l.get(at)
		if !ok || meetsFold(s.tables, tables) {
			return false
		}
		if s.to == now {
			return true
		}
		at = s.to
	}
	return false
}

// meetsFold is Tables.Meets with SQLite's rule for names: case does not matter.
func meetsFold(t, o sqlgen.Tables) bool {
	if t.All || o.All {
		return t.Meets(o)
	}
	for _, a := range t.Names {
		for _, b := range o.Names {
			if strings.EqualFold(a, b) {
				return true
			}
		}
	}
	return false
}
