package sqlgen

// ChangePosition is the statement whose one-row, one-column answer tells whether any write
// has committed since an earlier answer (the response cache's exactness rests on it), or ""
// when the engine has none that is both cheap and provably exact.
//
// PostgreSQL: the current snapshot (xmin:xmax:in-progress ids). A transaction gets an id when
// it first writes, and a snapshot lists which ids are still running, so two snapshots tell
// exactly whether a write transaction finished in between (see database.Unchanged). The WAL
// position (pg_current_wal_insert_lsn) is not used: a commit record enters the WAL before the
// transaction becomes visible to snapshots, so a read can take the new position and still
// miss the write it stands for.
//
// SQLite: PRAGMA data_version, on a connection of its own that never writes: its value
// changes whenever another connection, in this process or another, commits to the file.
func ChangePosition(d Dialect) string {
	switch d {
	case Postgres:
		return "SELECT pg_current_snapshot()::text"
	case SQLite:
		return "PRAGMA data_version"
	}
	return ""
}
