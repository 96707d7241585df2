package database

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/sqlgen"
)

// TestCommitRecordsWrites commits write transactions on PostgreSQL and checks what Commit
// remembers of each: its id with exactly the tables it wrote (a cascading delete's table
// included, an earlier transaction's not), nothing for one that wrote nothing, and the same
// record sent to a listener by NOTIFY.
func TestCommitRecordsWrites(t *testing.T) {
	db := openTestDB(t, "postgres")
	ctx := context.Background()
	trackedFamily(ctx, t, db)
	listener, err := pgx.Connect(ctx, db.url)
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Close(ctx)
	if _, err := listener.Exec(ctx, "LISTEN "+sqlgen.WritesChannel); err != nil {
		t.Fatal(err)
	}
	// run commits one transaction of statements through Commit and returns its id.
	run := func(stmts ...string) uint64 {
		t.Helper()
		var xid uint64
		err := db.InTx(ctx, func(tx *sqlx.Tx) error {
			for _, s := range stmts {
				if _, err := tx.ExecContext(ctx, s); err != nil {
					return err
				}
			}
			return tx.GetContext(ctx, &xid, "SELECT coalesce(pg_current_xact_id_if_assigned()::text, '0')::bigint")
		})
		if err != nil {
			t.Fatal(err)
		}
		return xid
	}
	// The first holds the set-up's counts too (not yet flushed to the statistics): a
	// superset; it asks for them to be flushed.
	if got, _ := db.writes.get(run("INSERT INTO others VALUES (0)")); got.All || !slices.Contains(got.Names, "others") {
		t.Errorf("the first transaction remembered %v", got)
	}
	if _, err := listener.WaitForNotification(ctx); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		stmts []string
		want  []string
	}{
		// The connection's earlier counts were flushed: only this transaction's tables.
		{[]string{"INSERT INTO others VALUES (1)"}, []string{"others"}},
		{[]string{"DELETE FROM parents WHERE id = 1"}, []string{"kids", "parents"}},
		{[]string{"UPDATE others SET n = 2", "UPDATE parents SET id = 5 WHERE id = 99"}, []string{"others"}},
	} {
		x := run(tc.stmts...)
		got, ok := db.writes.get(x)
		if !ok || got.All || !slices.Equal(got.Names, tc.want) {
			t.Errorf("%v: remembered %v (%v), want %v", tc.stmts, got, ok, tc.want)
		}
		wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		n, err := listener.WaitForNotification(wctx)
		cancel()
		if err != nil {
			t.Fatalf("%v: no notification: %v", tc.stmts, err)
		}
		if want := strings.Join(tc.want, ","); !strings.HasSuffix(n.Payload, ":"+want) {
			t.Errorf("%v: notified %q, want <xid>:%s", tc.stmts, n.Payload, want)
		}
	}
	if x := run("SELECT 1"); x != 0 {
		t.Errorf("a transaction that only read got id %d", x)
	}
	// A statement outside a transaction runs in a recorded one of its own: its notification
	// names its tables.
	if _, err := db.ExecContext(ctx, "UPDATE others SET n = 3"); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	n, err := listener.WaitForNotification(wctx)
	if err != nil {
		t.Fatalf("statement outside a transaction: no notification: %v", err)
	}
	id, tables, _ := strings.Cut(n.Payload, ":")
	x, _ := strconv.ParseUint(id, 10, 64)
	if got, ok := db.writes.get(x); tables != "others" || !ok || !slices.Equal(got.Names, []string{"others"}) {
		t.Errorf("statement outside a transaction: notified %q, remembered %v (%v)", n.Payload, got, ok)
	}
}

// trackedFamily creates parents, their kids (deleted with them) and unrelated others, then
// turns write tracking on.
func trackedFamily(ctx context.Context, t *testing.T, db *DB) {
	t.Helper()
	for _, s := range []string{
		"CREATE TABLE parents (id integer PRIMARY KEY)",
		"CREATE TABLE kids (parent_id integer REFERENCES parents (id) ON DELETE CASCADE)",
		"CREATE TABLE others (n integer)",
		"INSERT INTO parents VALUES (1), (2)",
		"INSERT INTO kids VALUES (1), (2)",
	} {
		if _, err := db.ExecContext(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.TrackWrites(ctx); err != nil {
		t.Fatal(err)
	}
}
