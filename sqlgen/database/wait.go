package database

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/quarrycms/quarry/sqlgen/sqlerr"
)

// DefaultConnectWait is how long start-up waits for a database that does not answer yet
// when the project sets no connection.acquireConnectionTimeout: knex's default, which
// Strapi keeps. docker-compose starts the database and the server together; the server
// waits for it as Strapi does instead of exiting.
const DefaultConnectWait = 60 * time.Second

func (g *dialGate) reset() {
	g.mu.Lock()
	g.failures, g.probing, g.lastErr, g.next = 0, false, nil, time.Time{}
	g.mu.Unlock()
}

// waitReachable pings the database until it answers, for at most c.ConnectWait when the
// failure is one a database still starting gives (refused, unknown host, reset, "starting
// up"), logging progress; any other failure (a wrong password, a missing database) is
// returned at once.
func waitReachable(ctx context.Context, db interface{ PingContext(context.Context) error }, gate *dialGate, c Config, name string) error {
	start := time.Now()
	deadline := start.Add(c.ConnectWait)
	var lastLog time.Time
	for attempt := 1; ; attempt++ {
		err := db.PingContext(ctx)
		if err == nil {
			if attempt > 1 && c.Log != nil {
				c.Log.Info("database reachable", "database", c.Describe(), "waited", time.Since(start).Round(100*time.Millisecond).String())
			}
			return nil
		}
		if c.ConnectWait <= 0 || !stillStarting(err) || ctx.Err() != nil {
			return fmt.Errorf("connect to %s: %w", name, err)
		}
		if !time.Now().Before(deadline) {
			return fmt.Errorf("connect to %s: not reachable after waiting %s (connection.acquireConnectionTimeout in config/database): %w",
				name, c.ConnectWait.Round(time.Second), err)
		}
		if c.Log != nil && time.Since(lastLog) >= 5*time.Second {
			lastLog = time.Now()
			c.Log.Warn("database not reachable yet; waiting for it", "database", c.Describe(), "attempt", attempt,
				"waited", time.Since(start).Round(time.Second).String(), "gives_up_after", c.ConnectWait.String(), "err", err)
		}
		if gate != nil {
			gate.reset() // the next ping dials again rather than meeting the gate's back-off
		}
		pause := min(time.Duration(attempt)*250*time.Millisecond, 2*time.Second, time.Until(deadline))
		select {
		case <-ctx.Done():
			return fmt.Errorf("connect to %s: %w", name, ctx.Err())
		case <-time.After(max(pause, 0)):
		}
	}
}

// stillStarting tells the failures of a database that is not up yet from those waiting
// would not cure. A timeout is not one: the connection already waited connect_timeout for
// a host that drops packets or a port that does not speak the protocol.
func stillStarting(err error) bool {
	var dns *net.DNSError
	var pe *pgconn.PgError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EHOSTUNREACH),
		errors.Is(err, syscall.ENETUNREACH), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, mysql.ErrInvalidConn), errors.Is(err, sqlerr.ErrUnavailable):
		return true
	case errors.As(err, &dns):
		return true
	case errors.As(err, &pe):
		return pe.Code == "57P03" // cannot_connect_now: the server is starting up
	}
	return false
}
