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

// Unchanged reports whether no write that touched any of tables committed between two
// positions Position returned, then taken before now.
//
// On PostgreSQL the transactions that finished between the two snapshots are computed
// (finishedBetween); the positions agree for tables when every one of them is one whose
// written tables this process knows (a write transaction of this process, recorded before
// its COMMIT, or of another instance, received by NOTIFY: see Commit) and none wrote one of
// tables. Any other finished transaction — another database's, the Strapi admin's, psql's,
// a subtransaction's, one whose notification has not arrived yet — or more than
// maxFinished of them, and the positions differ, as with no tables known at all. Elsewhere
// any difference is a change.
func (db *DB) Unchanged(then, now string, tables sqlgen.Tables) bool {
	if then == now {
		return true
	}
	if db.Dialect == sqlgen.SQLite {
		return unchangedAlong(&db.steps, then, now, tables, maxFinished)
	}
	if db.Dialect != sqlgen.Postgres {
		return false
	}
	done, ok := finishedBetween(then, now, maxFinished)
	if !ok {
		return false
	}
	for _, x := range done {
		w, ok := db.writes.get(x)
		if !ok || w.Meets(tables) {
			return false
		}
	}
	return true
}

// maxFinished bounds the transactions Unchanged looks up between two snapshots; more, and
// it answers changed without looking.
const maxFinished = 256

// finishedBetween lists the transactions that finished between two PostgreSQL snapshots
// (xmin:xmax:xip,...), the earlier first: those the earlier one saw running (its list) or
// not yet started (from its xmax up to the later xmax) that the later one does not list as
// running. A transaction that only read never gets an id, so readers never appear; one
// that wrote and aborted does (Unchanged then assumes the worst of it). Subtransactions'
// ids are never listed as running, so they appear as finished as soon as they start. Ids
// are 64-bit (epoch included), so they never wrap. ok is false when the snapshots cannot be
// compared (unreadable, the later one older) or more than limit ids would be looked at.
func finishedBetween(then, now string, limit uint64) (done []uint64, ok bool) {
	_, xmax0, xip0, ok := parseSnapshot(then)
	if !ok {
		return nil, false
	}
	_, xmax1, xip1, ok := parseSnapshot(now)
	if !ok || xmax1 < xmax0 || xmax1-xmax0 > limit || uint64(len(xip0)) > limit {
		return nil, false
	}
	running := make(map[uint64]bool, len(xip1))
	for _, x := range xip1 {
		running[x] = true
	}
	for _, x := range xip0 {
		if !running[x] {
			done = append(done, x)
		}
	}
	for x := xmax0; x < xmax1; x++ {
		if !running[x] {
			done = append(done, x)
		}
	}
	return done, true
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
