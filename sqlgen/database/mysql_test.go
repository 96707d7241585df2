package database

import (
	"context"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/sqlgen"
)

// TestMySQLLocksEndWithTransaction: a unique-value lock taken in a transaction is released
// when it commits or rolls back, as PostgreSQL's transaction-scoped locks are, although MySQL's
// named locks belong to the session: another connection takes it at once afterwards, and
// waits while the transaction is open.
func TestMySQLLocksEndWithTransaction(t *testing.T) {
	db := openTestDB(t, "mysql")
	ctx := context.Background()
	keys := []sqlgen.UniqueKey{{Table: "articles", Column: "code", Value: "x"}}
	lockName := func() string {
		var n string
		if err := db.GetContext(ctx, &n, "SELECT CONCAT('quarry-unique-', ?)", sqlgen.UniqueLockKeys(keys)[0]); err != nil {
			t.Fatal(err)
		}
		return n
	}()
	free := func() bool {
		var f int
		if err := db.GetContext(ctx, &f, "SELECT IS_FREE_LOCK(?)", lockName); err != nil {
			t.Fatal(err)
		}
		return f == 1
	}
	for _, commit := range []bool{true, false} {
		tx, err := db.BeginTxx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.LockUnique(ctx, tx, keys); err != nil {
			t.Fatal(err)
		}
		if free() {
			t.Fatal("lock free while its transaction is open")
		}
		// A second writer waits for the first one's transaction.
		got := make(chan time.Duration, 1)
		go func() {
			start := time.Now()
			err := db.InTx(ctx, func(tx2 *sqlx.Tx) error { return db.LockUnique(ctx, tx2, keys) })
			if err != nil {
				t.Error(err)
			}
			got <- time.Since(start)
		}()
		time.Sleep(300 * time.Millisecond)
		if commit {
			err = tx.Commit()
		} else {
			err = tx.Rollback()
		}
		if err != nil {
			t.Fatal(err)
		}
		if waited := <-got; waited < 250*time.Millisecond {
			t.Errorf("second writer waited %s, not for the first transaction", waited)
		}
		if !free() {
			t.Errorf("lock still held after the transaction ended (commit %v)", commit)
		}
	}
}
