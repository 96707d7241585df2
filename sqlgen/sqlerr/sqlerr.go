// Package sqlerr classifies the errors of the database drivers Quarry uses (pgx for
// PostgreSQL, modernc for SQLite): a unique constraint refused a value, or the database
// cannot serve the request right now (unreachable, shutting down, locked by another
// writer). Callers turn the first into Strapi's 400 and the second into a 503.
package sqlerr

import (
	"database/sql/driver"
	"errors"
	"net"
	"regexp"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
)

// ErrUnavailable marks an error as "the database cannot be reached now"; the connector
// returns it while it backs off from failed dials.
var ErrUnavailable = errors.New("database unavailable")

// ErrBusy marks an error as "the database is locked by another writer".
var ErrBusy = errors.New("database busy")

// Violation is a unique constraint that refused a write.
type Violation struct {
	Table, Column string
}

var (
	pgKey       = regexp.MustCompile(`^Key \(("?)([^,)"]+)("?)\)=`)
	sqliteUniqu = regexp.MustCompile(`UNIQUE constraint failed: ([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)`)
)

// Unique reports whether err is a unique-constraint violation, and on which column when
// the driver says so (a composite key leaves Column empty).
func Unique(err error) (Violation, bool) {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		if pe.Code != "23505" {
			return Violation{}, false
		}
		v := Violation{Table: pe.TableName}
		if m := pgKey.FindStringSubmatch(pe.Detail); m != nil {
			v.Column = m[2]
		}
		return v, true
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		if se.Code()&0xff != 19 { // SQLITE_CONSTRAINT
			return Violation{}, false
		}
		m := sqliteUniqu.FindStringSubmatch(se.Error())
		if m == nil {
			return Violation{}, false
		}
		return Violation{Table: m[1], Column: m[2]}, true
	}
	return Violation{}, false
}

// Busy reports whether err says another writer holds the database's write lock for
// longer than the configured wait (SQLite's SQLITE_BUSY and SQLITE_LOCKED).
func Busy(err error) bool {
	if errors.Is(err, ErrBusy) {
		return true
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		c := se.Code() & 0xff
		return c == 5 || c == 6
	}
	return false
}

// Unavailable reports whether err means the database cannot serve requests now: it is
// unreachable, refuses connections, is shutting down or starting, or is locked (Busy).
// The request can be retried later; it is not the client's fault nor a bug.
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrUnavailable) || Busy(err) || errors.Is(err, driver.ErrBadConn) {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case strings.HasPrefix(pe.Code, "08"), // connection exception
			pe.Code == "57P01", pe.Code == "57P02", pe.Code == "57P03", // shutdown, crash, starting
			pe.Code == "53300",                     // too many connections
			pe.Code == "40P01", pe.Code == "40001": // deadlock, serialization: retry later
			return true
		}
		return false
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return true
	}
	// pgx's own network failures (a connection that died under a statement) say whether
	// a retry is safe; any error of that kind is the connection's, not the statement's.
	// Network errors of other origins (an SMTP server, a client's body) are not matched:
	// they are no database outage.
	var retryable interface{ SafeToRetry() bool }
	if errors.As(err, &retryable) || pgconn.Timeout(err) {
		return true
	}
	return strings.Contains(err.Error(), "conn closed")
}

// Cause is a short, stable description of an unavailability for rate-limited logs: the
// same outage gives the same cause whatever the request.
func Cause(err error) string {
	switch {
	case Busy(err):
		return "database is locked by another writer"
	case errors.Is(err, ErrUnavailable):
		return "database unreachable (backing off)"
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return "postgres " + pe.Code + ": " + pe.Message
	}
	for _, e := range []error{syscall.ECONNREFUSED, syscall.ECONNRESET, syscall.EPIPE} {
		if errors.Is(err, e) {
			return e.Error()
		}
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "timeout"
	}
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	return msg
}
