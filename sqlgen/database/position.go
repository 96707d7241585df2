package database

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/quarrycms/quarry/sqlgen"
)

// ErrNoPosition is Position's answer on an engine without an exact change position
// (MySQL): what depends on one (the response cache) stays off.
var ErrNoPosition = errors.New("the database has no exact change position")

// positionConn is SQLite's dedicated connection for PRAGMA data_version. The pragma's value
// is per connection (it changes when another connection commits), so one connection must
// answer every check; if it is lost and reopened, epoch changes, and every position taken
// on the old one counts as changed.
type positionConn struct {
	mu    sync.Mutex
	file  string
	db    *sql.DB
	conn  *sql.Conn
	epoch int
}

// Position is the database's change position now: a value that differs from an earlier one,
// as Unchanged compares them, whenever any write committed in between — through this
// process, another Quarry instance, Strapi or any other client of the database. A position
// taken before a read therefore vouches for everything the read saw.
func (db *DB) Position(ctx context.Context) (string, error) {
	q := sqlgen.ChangePosition(db.Dialect)
	if q == "" || (db.Dialect == sqlgen.SQLite && db.position == nil) {
		return "", ErrNoPosition
	}
	if db.Dialect != sqlgen.SQLite {
		var s string
		if err := db.DB.QueryRowContext(ctx, q).Scan(&s); err != nil {
			return "", fmt.Errorf("change position: %w", err)
		}
		return s, nil
	}
	p := db.position
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.conn == nil {
		if p.db == nil {
			v := url.Values{}
			v.Add("_pragma", "busy_timeout(5000)")
			d, err := sql.Open("sqlite", "file:"+p.file+"?"+v.Encode())
			if err != nil {
				return "", fmt.Errorf("change position: %w", err)
			}
			p.db = d
		}
		c, err := p.db.Conn(ctx)
		if err != nil {
			return "", fmt.Errorf("change position: %w", err)
		}
		p.conn = c
		p.epoch++
	}
	var n int64
	if err := p.conn.QueryRowContext(ctx, q).Scan(&n); err != nil {
		p.conn.Close()
		p.conn = nil
		return "", fmt.Errorf("change position: %w", err)
	}
	return strconv.Itoa(p.epoch) + ":" + strconv.FormatInt(n, 10), nil
}

// Unchanged reports whether no write committed between two positions Position returned,
// then taken before now.
func (db *DB) Unchanged(then, now string) bool {
	if then == now {
		return true
	}
	if db.Dialect != sqlgen.Postgres {
		return false
	}
	return snapshotsAgree(then, now)
}

// snapshotsAgree compares two PostgreSQL snapshots (xmin:xmax:xip,...), the earlier first:
// they agree when every transaction that had finished by the later one had also finished by
// the earlier one, i.e. each id the earlier one saw running (its list) or not yet started
// (from its xmax up to the later xmax) is still running in the later one. A transaction
// that only read never gets an id, so readers never disagree them; one that wrote and
// aborted does (conservatively). Ids are 64-bit (epoch included), so they never wrap.
func snapshotsAgree(then, now string) bool {
	_, xmax0, xip0, ok := parseSnapshot(then)
	if !ok {
		return false
	}
	_, xmax1, xip1, ok := parseSnapshot(now)
	if !ok || xmax1 < xmax0 || xmax1-xmax0 > 1024 {
		return false
	}
	running := make(map[uint64]bool, len(xip1))
	for _, x := range xip1 {
		running[x] = true
	}
	for _, x := range xip0 {
		if !running[x] {
			return false
		}
	}
	for x := xmax0; x < xmax1; x++ {
		if !running[x] {
			return false
		}
	}
	return true
}

func parseSnapshot(s string) (xmin, xmax uint64, xip []uint64, ok bool) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return 0, 0, nil, false
	}
	var err error
	if xmin, err = strconv.ParseUint(parts[0], 10, 64); err != nil {
		return 0, 0, nil, false
	}
	if xmax, err = strconv.ParseUint(parts[1], 10, 64); err != nil {
		return 0, 0, nil, false
	}
	if parts[2] != "" {
		for _, f := range strings.Split(parts[2], ",") {
			x, err := strconv.ParseUint(f, 10, 64)
			if err != nil {
				return 0, 0, nil, false
			}
			xip = append(xip, x)
		}
	}
	return xmin, xmax, xip, true
}
