package database

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/sqlgen"
)

// writeLogSize bounds the write transactions (PostgreSQL) and commit steps (SQLite)
// remembered with their tables; one forgotten is unknown, which only costs the response
// cache a miss.
const writeLogSize = 4096

// writeLog remembers which tables recent write transactions wrote, by top-level transaction
// id: those of this process (recorded before their COMMIT) and those other instances
// announced on sqlgen.WritesChannel. The response cache's per-table check reads it
// (Unchanged).
type writeLog = recentLog[uint64, sqlgen.Tables]

// recentLog is a map that keeps the writeLogSize most recently added keys, oldest first
// out.
type recentLog[K comparable, V any] struct {
	mu   sync.Mutex
	m    map[K]V
	ring [writeLogSize]K
	next int
}

func (l *recentLog[K, V]) add(k K, v V) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m == nil {
		l.m = make(map[K]V, writeLogSize)
	}
	if _, ok := l.m[k]; ok {
		l.m[k] = v
		return
	}
	if len(l.m) == writeLogSize {
		delete(l.m, l.ring[l.next])
	}
	l.ring[l.next] = k
	l.next = (l.next + 1) % writeLogSize
	l.m[k] = v
}

func (l *recentLog[K, V]) get(k K) (V, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	v, ok := l.m[k]
	return v, ok
}

// TrackWrites makes Commit record the tables each write transaction wrote, for the
// response cache (see Commit): on PostgreSQL for this process's and the other instances',
// on SQLite for this process's (sqlitewrites.go). Statements outside a transaction then
// run in one of their own (ExecContext). The response cache turns it on; without it Commit
// only commits. MySQL: nothing to record.
func (db *DB) TrackWrites(ctx context.Context) error {
	if db.Dialect == sqlgen.SQLite {
		db.tracking.Store(true)
		return nil
	}
	if db.Dialect != sqlgen.Postgres {
		return nil
	}
	var version int
	if err := db.DB.QueryRowContext(ctx, "SELECT current_setting('server_version_num')::int").Scan(&version); err != nil {
		return fmt.Errorf("track writes: %w", err)
	}
	db.writeRecord = sqlgen.WriteRecord(db.Dialect, version >= 150000)
	db.tracking.Store(true)
	return nil
}

// Commit commits a transaction begun with BeginTxx. On PostgreSQL, when TrackWrites is on,
// it first runs sqlgen.WriteRecord in the transaction: the transaction's id and the tables
// it wrote are remembered here before the COMMIT is sent (so no read of this process that
// can see the commit finds the id unknown), and the same goes to the other instances by a
// NOTIFY that PostgreSQL delivers when the transaction commits. On SQLite it remembers the
// step of the change position its commit made, with the tables SQLite's pre-update hook
// saw it write (commitSQLite). Transactions committed otherwise stay unknown: the response
// cache treats them as having written every table.
func (db *DB) Commit(ctx context.Context, tx *sqlx.Tx) error {
	if st := db.sqliteTx.Load(); st != nil && st.tx == tx {
		return db.commitSQLite(ctx, st)
	}
	if db.Dialect == sqlgen.Postgres && db.tracking.Load() {
		var xid sql.NullString
		var tables string
		var sent int
		if err := tx.QueryRowxContext(ctx, db.writeRecord, sqlgen.WritesChannel).Scan(&xid, &tables, &sent); err != nil {
			tx.Rollback() // the failed statement aborted it
			return fmt.Errorf("record the transaction's writes: %w", err)
		}
		if xid.Valid {
			if x, err := strconv.ParseUint(xid.String, 10, 64); err == nil {
				db.writes.add(x, parseTables(tables))
			}
		}
	}
	return tx.Commit()
}

// parseTables reads WriteRecord's list of tables ("*": all).
func parseTables(s string) sqlgen.Tables {
	if s == "*" {
		return sqlgen.AllTables
	}
	if s == "" {
		return sqlgen.Tables{}
	}
	return sqlgen.TablesOf(strings.Split(s, ",")...)
}

// noteWrites takes a WritesChannel payload ("<xid>:<tables>") from another instance (or
// this one: harmless). A payload it cannot read is dropped: its transaction stays unknown.
func (db *DB) noteWrites(payload string) {
	id, tables, ok := strings.Cut(payload, ":")
	if !ok {
		return
	}
	x, err := strconv.ParseUint(id, 10, 64)
	if err != nil {
		return
	}
	db.writes.add(x, parseTables(tables))
}
