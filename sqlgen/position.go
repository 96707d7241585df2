package sqlgen

import "strconv"

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

// WritesChannel is the PostgreSQL NOTIFY channel on which Quarry instances tell each other
// which tables each of their write transactions wrote (see WriteRecord).
const WritesChannel = "quarry_writes"

// MaxWritePayload bounds the tables part of a WritesChannel payload: NOTIFY refuses payloads
// of 8000 bytes or more, so a longer list is sent as "*" (all tables).
const MaxWritePayload = 7900

// WriteRecord is the statement a PostgreSQL write transaction runs just before COMMIT, or ""
// on other engines. Its one row is the transaction's top-level id (NULL when it wrote
// nothing), the tables it wrote, comma-separated ("*": not known), and a count of no
// interest; when the transaction has an id it also queues, on WritesChannel ($1), the
// payload "<id>:<tables>", which PostgreSQL delivers to the other instances when (and only
// if) the transaction commits.
//
// The tables come from the database, not from the statements Quarry rendered: the
// transaction statistics functions (pg_stat_get_xact_tuples_*) count, for the running
// transaction (subtransactions included), the rows each table had inserted, updated or
// deleted — foreign keys' cascading deletes (link, morph and components tables) included,
// which no statement names. They are asked for the tables of the search path's schemas
// (where Quarry's unqualified names resolve) directly from pg_class: the
// pg_stat_xact_user_tables view also joins pg_index and aggregates every table's index
// counters, which cost about 1 ms of the server's CPU per write transaction, three times
// this query (bench/README.md, "Recording a write's tables"). The counts also
// hold those of the connection's earlier transactions not yet flushed to the statistics
// (PostgreSQL flushes a connection's at most once a second): a superset, which only
// invalidates more. With flush (PostgreSQL 15 and later) the statement also asks for the
// counts to be flushed as soon as the transaction ends (pg_stat_force_next_flush), so that
// the next transaction recorded on the connection starts from none. Counting off
// (track_counts) gives "*". TRUNCATE zeroes a table's counts, so a transaction that
// truncates must not be recorded with this; Quarry's do not truncate.
func WriteRecord(d Dialect, flush bool) string {
	if d != Postgres {
		return ""
	}
	n := "(SELECT count(*) FROM n)"
	if flush {
		n = "(SELECT count(*) FROM n, pg_stat_force_next_flush() f)"
	}
	return `WITH x AS (SELECT pg_current_xact_id_if_assigned()::text AS xid,
  CASE WHEN current_setting('track_counts')::boolean
    THEN (SELECT coalesce(string_agg(c.relname::text, ',' ORDER BY c.relname), '') FROM pg_class c
          WHERE c.relkind IN ('r', 'p')
            AND c.relnamespace IN (SELECT oid FROM pg_namespace WHERE nspname = ANY (current_schemas(false)))
            AND pg_stat_get_xact_tuples_inserted(c.oid) + pg_stat_get_xact_tuples_updated(c.oid) + pg_stat_get_xact_tuples_deleted(c.oid) > 0)
    ELSE '*' END AS tables),
n AS (SELECT pg_notify($1, xid || ':' || CASE WHEN octet_length(tables) > ` + strconv.Itoa(MaxWritePayload) + ` THEN '*' ELSE tables END) FROM x WHERE xid IS NOT NULL)
SELECT x.xid, x.tables, ` + n + ` FROM x`
}
