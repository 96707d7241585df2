package database

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/sqlgen/sqlerr"
)

// WithNativeConn lends fn one of the pool's PostgreSQL connections as pgx's native
// connection, for a read plan: its statements then skip database/sql's per-statement and
// per-cell work and can be pipelined. The connection comes from the same pool (same
// configuration, dial gate and bounds) and from the same place a read in ctx would go: a
// caught-up replica's pool or the primary's (see WithReadRoute). It reports false, without
// calling fn, on a database that is not PostgreSQL.
//
// fn only reads, so when its connection fails (a pooled connection the server closed, a
// replica stopping) it runs once more, as database/sql reruns a statement on a bad
// connection: on the primary when a replica failed, which leaves the rotation and the rest
// of the request's reads.
func (db *DB) WithNativeConn(ctx context.Context, fn func(*pgx.Conn) error) (bool, error) {
	if db.Dialect != sqlgen.Postgres {
		return false, nil
	}
	target := db.reader(ctx)
	err := withNative(ctx, target, fn)
	if err == nil || ctx.Err() != nil || !sqlerr.Unavailable(err) {
		return true, err
	}
	if target != db.DB {
		db.replicaFailed(ctx, target, err)
		target = db.DB
	}
	return true, withNative(ctx, target, fn)
}

func withNative(ctx context.Context, pool *sqlx.DB, fn func(*pgx.Conn) error) error {
	conn, err := pool.Conn(ctx)
	if err != nil {
		return err
	}
	// Closing returns the connection to the pool; one that broke under fn is discarded
	// there (stdlib's connection reports itself invalid once pgx closed it).
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		c, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("postgres pool holds a %T, not a pgx connection", dc)
		}
		return fn(c.Conn())
	})
}

// replicaFailed takes the replica whose pool is target out of rotation and sends the rest
// of ctx's request to the primary.
func (db *DB) replicaFailed(ctx context.Context, target *sqlx.DB, err error) {
	if db.replicas != nil {
		for _, r := range db.replicas.list {
			if r.db == target {
				db.replicas.fail(r, err)
			}
		}
	}
	if rt, _ := ctx.Value(readRouteKey{}).(*readRoute); rt != nil {
		rt.mu.Lock()
		rt.target = nil
		rt.mu.Unlock()
	}
}
