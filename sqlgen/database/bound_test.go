package database

import (
	"context"
	"testing"
	"time"
)

// TestBoundStatements: after BoundStatements, a statement on MySQL/MariaDB is stopped by the
// server itself, even with no deadline of the client's; before it, none is.
func TestBoundStatements(t *testing.T) {
	db := openTestDB(t, "mysql")
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, "SELECT SLEEP(1.5)"); err != nil {
		t.Fatalf("unbounded: %v", err)
	}
	db.BoundStatements(500 * time.Millisecond)
	start := time.Now()
	var slept any
	err := db.QueryRowContext(ctx, "SELECT SLEEP(3)").Scan(&slept)
	took := time.Since(start)
	// MariaDB aborts the statement with an error; MySQL's max_execution_time makes SLEEP
	// return 1 early. Either way it ends well before its three seconds.
	if took > 2*time.Second {
		t.Errorf("a bounded statement ran %s (result %v, %v)", took, slept, err)
	}
}
