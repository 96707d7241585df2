package sqlerr

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

// TestDeadlineInterruptsSQLite: a statement that would run for hours stops when its
// request's deadline passes (SQLite is interrupted through the context), and the error
// reads as the database being unavailable now (503), not as a bug (500).
func TestDeadlineInterruptsSQLite(t *testing.T) {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	var n int64
	err = db.QueryRowContext(ctx, `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c WHERE x < 1000000000000`).Scan(&n)
	if err == nil {
		t.Fatal("an endless statement ended")
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("interrupted after %s", took)
	}
	if !Unavailable(err) {
		t.Errorf("%v (%T) is not Unavailable", err, err)
	}
}
