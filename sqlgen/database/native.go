package database

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/quarrycms/quarry/sqlgen"
)

// WithNativeConn lends fn one of the pool's PostgreSQL connections as pgx's native
// connection, for a read plan: its statements then skip database/sql's per-statement and
// per-cell work and can be pipelined. The connection comes from the same pool (same
// configuration, dial gate and bounds) and from the same place a read in ctx would go: a
// caught-up replica's pool or the primary's (see WithReadRoute). It reports false, without
// calling fn, on a database that is not PostgreSQL.
func (db *DB) WithNativeConn(ctx context.Context, fn func(*pgx.Conn) error) (bool, error) {
	if db.Dialect != sqlgen.Postgres {
		return false, nil
	}
	conn, err := db.reader(ctx).Conn(ctx)
	if err != nil {
		return true, err
	}
	// Closing returns the connection to the pool; one that broke under fn is discarded
	// there (stdlib's connection reports itself invalid once pgx closed it).
	defer conn.Close()
	return true, conn.Raw(func(dc any) error {
		c, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("postgres pool holds a %T, not a pgx connection", dc)
		}
		return fn(c.Conn())
	})
}
