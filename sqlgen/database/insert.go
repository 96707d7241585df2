package database

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/quarrycms/quarry/sqlgen"
)

// Execer is what runs a statement: the database, a connection or a transaction.
type Execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
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

// InsertIDs runs a multi-row insert rendered by sqlgen.InsertRowsReturning of n rows and
// returns the new rows' ids in the order of the rows. Where the dialect returns them, they are
// sorted: every engine here takes an insert's ids from its sequence in the order of the
// VALUES rows, while RETURNING promises no order. Without RETURNING (MySQL and MariaDB in the
// subset both share) the driver reports the first id and InnoDB gives a multi-row VALUES
// insert, whose row count it knows beforehand, consecutive ids stepped by
// auto_increment_increment (read in the same session, as a replication setup may change it).
func InsertIDs(ctx context.Context, db Execer, s sqlgen.InsertStmt, n int) ([]int64, error) {
	if s.ReturnsID {
		rows, err := db.QueryContext(ctx, s.SQL, s.Args...)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		ids := make([]int64, 0, n)
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return nil, err
			}
			ids = append(ids, id)
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
		if len(ids) != n {
			return nil, fmt.Errorf("new row ids: %d rows inserted, %d ids returned", n, len(ids))
		}
		slices.Sort(ids)
		return ids, nil
	}
	res, err := db.ExecContext(ctx, s.SQL, s.Args...)
	if err != nil {
		return nil, err
	}
	first, err := res.LastInsertId()
	if err != nil {
		return nil, fmt.Errorf("new row id: %w", err)
	}
	step := int64(1)
	if n > 1 {
		if err := db.QueryRowContext(ctx, "SELECT @@auto_increment_increment").Scan(&step); err != nil {
			return nil, fmt.Errorf("auto_increment_increment: %w", err)
		}
	}
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = first + int64(i)*step
	}
	return ids, nil
}
