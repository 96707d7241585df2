package bench

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/sqlgen/database"
)

// ReplayDB is a database/sql database that answers each query with the rows the real
// database gave the first time it saw that query (same SQL, same bind values), from memory.
// Running Quarry over it leaves out the database engine (whose allocations would count in a
// pure-Go driver such as modernc's SQLite), so the figures are Quarry's own work: SQL
// rendering, database/sql and sqlx, scanning, stitching, encoding. Writes are not supported.
func ReplayDB(real *database.DB) *database.DB {
	c := &replayConnector{real: real.DB.DB, byText: map[string][]*recorded{}}
	db := sql.OpenDB(c)
	db.SetMaxIdleConns(8)
	return &database.DB{DB: sqlx.NewDb(db, real.DriverName()), Dialect: real.Dialect}
}

type replayConnector struct {
	real   *sql.DB
	mu     sync.RWMutex
	byText map[string][]*recorded
}

type recorded struct {
	args []any
	cols []string
	rows [][]driver.Value
}

func (c *replayConnector) Connect(context.Context) (driver.Conn, error) {
	return &replayConn{c: c}, nil
}
func (c *replayConnector) Driver() driver.Driver { return replayDriver{} }

type replayDriver struct{}

func (replayDriver) Open(string) (driver.Conn, error) {
	return nil, errors.New("replay: open through the connector")
}

type replayConn struct{ c *replayConnector }

var errReplayWrite = errors.New("replay: the replay database is read-only")

func (c *replayConn) Prepare(string) (driver.Stmt, error) {
	return nil, errors.New("replay: prepared statements are not supported")
}
func (c *replayConn) Close() error              { return nil }
func (c *replayConn) Begin() (driver.Tx, error) { return nil, errReplayWrite }

// CheckNamedValue accepts every bind value as is (the real driver converts them).
func (c *replayConn) CheckNamedValue(*driver.NamedValue) error { return nil }

// ExecContext pretends a write (such as a token's last-used timestamp) succeeded: the
// replay database serves read benchmarks only.
func (c *replayConn) ExecContext(context.Context, string, []driver.NamedValue) (driver.Result, error) {
	return driver.RowsAffected(1), nil
}

func (c *replayConn) QueryContext(ctx context.Context, query string, nv []driver.NamedValue) (driver.Rows, error) {
	rc := c.c
	rc.mu.RLock()
	for _, r := range rc.byText[query] {
		if sameArgs(r.args, nv) {
			rc.mu.RUnlock()
			return &replayRows{r: r}, nil
		}
	}
	rc.mu.RUnlock()
	r, err := rc.record(ctx, query, nv)
	if err != nil {
		return nil, err
	}
	return &replayRows{r: r}, nil
}

func (c *replayConnector) record(ctx context.Context, query string, nv []driver.NamedValue) (*recorded, error) {
	args := make([]any, len(nv))
	for i, v := range nv {
		args[i] = v.Value
	}
	rs, err := c.real.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	cols, err := rs.Columns()
	if err != nil {
		return nil, err
	}
	r := &recorded{args: args, cols: cols}
	for rs.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]driver.Value, len(cols))
		for i, v := range vals {
			row[i] = v
		}
		r.rows = append(r.rows, row)
	}
	if err := rs.Err(); err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.byText[query] = append(c.byText[query], r)
	c.mu.Unlock()
	return r, nil
}

// sameArgs compares bind values without allocating for the kinds plans use.
func sameArgs(a []any, nv []driver.NamedValue) bool {
	if len(a) != len(nv) {
		return false
	}
	for i, x := range a {
		y := nv[i].Value
		switch xv := x.(type) {
		case int64:
			if yv, ok := y.(int64); !ok || yv != xv {
				return false
			}
		case int:
			if yv, ok := y.(int); !ok || yv != xv {
				return false
			}
		case float64:
			if yv, ok := y.(float64); !ok || yv != xv {
				return false
			}
		case string:
			if yv, ok := y.(string); !ok || yv != xv {
				return false
			}
		case bool:
			if yv, ok := y.(bool); !ok || yv != xv {
				return false
			}
		case []byte:
			if yv, ok := y.([]byte); !ok || !bytes.Equal(xv, yv) {
				return false
			}
		case time.Time:
			if yv, ok := y.(time.Time); !ok || !yv.Equal(xv) {
				return false
			}
		case []int64:
			yv, ok := y.([]int64)
			if !ok || len(yv) != len(xv) {
				return false
			}
			for j := range xv {
				if xv[j] != yv[j] {
					return false
				}
			}
		case nil:
			if y != nil {
				return false
			}
		default:
			return false
		}
	}
	return true
}

type replayRows struct {
	r *recorded
	i int
}

func (r *replayRows) Columns() []string { return r.r.cols }
func (r *replayRows) Close() error      { return nil }

func (r *replayRows) Next(dest []driver.Value) error {
	if r.i >= len(r.r.rows) {
		return io.EOF
	}
	copy(dest, r.r.rows[r.i])
	r.i++
	return nil
}
