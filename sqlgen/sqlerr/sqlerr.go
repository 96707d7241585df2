// Package sqlerr classifies the errors of the database drivers Quarry uses (pgx for
// PostgreSQL, modernc for SQLite, go-sql-driver for MySQL and MariaDB): a unique constraint refused a value, or the database
// cannot serve the request right now (unreachable, shutting down, locked by another
// writer). Callers turn the first into Strapi's 400 and the second into a 503.
package sqlerr

import (
	"context"
	"database/sql/driver"
	"errors"
	"net"
	"regexp"
	"strconv"
	"strings"
	"syscall"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
)

// ErrUnavailable marks an error as "the database cannot be reached now"; the connector
// returns it while it backs off from failed dials.
var ErrUnavailable = errors.New("database unavailable")

// ErrBusy marks an error as "the database is locked by another writer".
var ErrBusy = errors.New("database busy")

// Violation is a unique constraint that refused a write: its table and column where the
// driver says them, else the name of the unique index (MySQL names only the key).
type Violation struct {
	Table, Column string
	Index         string
}

var (
	pgKey       = regexp.MustCompile(`^Key \(("?)([^,)"]+)("?)\)=`)
	sqliteUniqu = regexp.MustCompile(`UNIQUE constraint failed: ([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)`)
	// MariaDB says "for key 'name'", MySQL 8 "for key 'table.name'".
	mysqlKey = regexp.MustCompile(`for key '(?:[A-Za-z0-9_-]+\.)?([A-Za-z0-9_-]+)'`)
)

// MySQL server error numbers.
const (
	myDupEntry          = 1062
	myTooManyConns      = 1040
	myServerShutdown    = 1053
	myAbortingConn      = 1152
	myNewAbortingConn   = 1184
	myLockWaitTimeout   = 1205
	myDeadlock          = 1213
	myConnKilled        = 1927 // MariaDB
	myServerGoingAway   = 4031 // MySQL 8: client idle too long, disconnected
	myUnknownComError   = 1047
	myQueryInterrupted  = 1317
	myReadOnlyTrans     = 1792
	myOptionPreventsRun = 1290 // --read-only: a replica or a failover in progress
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
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		if me.Number != myDupEntry {
			return Violation{}, false
		}
		v := Violation{}
		if m := mysqlKey.FindStringSubmatch(me.Message); m != nil {
			v.Index = m[1]
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
	// A request's deadline passed while the database worked on it (SQLite interrupted,
	// the driver gave up waiting): the database is too slow now, the request may be retried.
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var sqe *sqlite.Error
	if errors.As(err, &sqe) && sqe.Code()&0xff == 9 { // SQLITE_INTERRUPT
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
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		switch me.Number {
		case myTooManyConns, myServerShutdown, myAbortingConn, myNewAbortingConn, myConnKilled,
			myServerGoingAway, myUnknownComError, myQueryInterrupted, myReadOnlyTrans, myOptionPreventsRun,
			myLockWaitTimeout, myDeadlock: // retry later, as PostgreSQL's deadlock
			return true
		}
		return false
	}
	if errors.Is(err, mysql.ErrInvalidConn) {
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
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return "mysql " + strconv.Itoa(int(me.Number)) + ": " + me.Message
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
