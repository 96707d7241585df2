package database

import (
	"context"
	"database/sql"

	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/sqlgen"
)

// Snapshot begins a read-only transaction that sees one state of the database from its
// first read to its end while writers go on (an export, a backup): on SQLite a read
// transaction of the readers' pool (WAL keeps its snapshot and never blocks a writer), on
// PostgreSQL and MySQL a REPEATABLE READ one. Roll it back when done.
func (db *DB) Snapshot(ctx context.Context) (*sqlx.Tx, error) {
	if db.Dialect == sqlgen.SQLite && db.readers != nil {
		return db.readers.BeginTxx(ctx, &sql.TxOptions{ReadOnly: true})
	}
	return db.DB.BeginTxx(ctx, &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead})
}
