package database

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/quarrycms/quarry/sqlgen"
)

// Settings (roles and permissions, API tokens, locales, webhooks, advanced settings) are
// cached in each process for a second. Several instances on one PostgreSQL database tell
// each other at once when one of them changes a setting: a NOTIFY on settingsChannel, which
// PostgreSQL delivers to every listening instance when the change commits, drops their
// caches. Elsewhere (SQLite, MySQL) the second's expiry is the bound.
const settingsChannel = "quarry_settings"

// SettingsChanged tells the other instances that this one changed a setting (after the
// change committed). Best effort: a failure only leaves their caches to expire.
func (db *DB) SettingsChanged(ctx context.Context) {
	if db.Dialect != sqlgen.Postgres {
		return
	}
	db.DB.ExecContext(context.WithoutCancel(ctx), "SELECT pg_notify($1, '')", settingsChannel)
}

// WatchSettings calls changed whenever another instance reports a settings change, and
// after every reconnection of its listener (what was sent meanwhile is lost). The same
// listener takes the other instances' announcements of the tables their write transactions
// wrote (sqlgen.WritesChannel, see Commit); one lost or late only leaves its transaction
// unknown. It returns at once; the listener stops with ctx. No-op except on PostgreSQL.
func (db *DB) WatchSettings(ctx context.Context, changed func(), log *slog.Logger) {
	if db.Dialect != sqlgen.Postgres || db.url == "" {
		return
	}
	go func() {
		backoff := 100 * time.Millisecond
		for ctx.Err() == nil {
			err := db.listen(ctx, changed)
			if ctx.Err() != nil {
				return
			}
			if log != nil {
				log.Warn("settings listener lost; caches expire within a second meanwhile", "err", err)
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(backoff):
			}
			backoff = min(backoff*2, 5*time.Second)
		}
	}()
}

func (db *DB) listen(ctx context.Context, changed func()) error {
	// The listener dials through the pool's gate: a database that is down is dialed at
	// the gate's bounded rate, whoever asks.
	if db.gate != nil {
		if err := db.gate.enter(); err != nil {
			return err
		}
	}
	conn, err := pgx.Connect(ctx, db.url)
	if db.gate != nil {
		db.gate.done(err)
	}
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	for _, ch := range []string{settingsChannel, sqlgen.WritesChannel} {
		if _, err := conn.Exec(ctx, "LISTEN "+ch); err != nil {
			return err
		}
	}
	changed() // anything sent while no listener was connected
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		if n.Channel == sqlgen.WritesChannel {
			db.noteWrites(n.Payload)
			continue
		}
		changed()
	}
}
