package database

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/quarrycms/quarry/sqlgen"
)

// Execer is what runs a statement: the database, a connection or a transaction.
type Execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// InsertID runs an insert rendered by sqlgen (sqlgen.Insert.Render) and returns the new
// row's id: the row the statement returns where the dialect has RETURNING, the driver's
// last-insert id where it has not. Every insert whose id is needed runs through here, so
// callers do not depend on which of the two the engine offers.
func InsertID(ctx context.Context, db Execer, s sqlgen.InsertStmt) (int64, error) {
	if s.ReturnsID {
		var id int64
		if err := db.QueryRowContext(ctx, s.SQL, s.Args...).Scan(&id); err != nil {
			return 0, err
		}
		return id, nil
	}
	res, err := db.ExecContext(ctx, s.SQL, s.Args...)
	if err != nil {
		return 0, err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("new row id: %w", err)
	}
	return id, nil
}
