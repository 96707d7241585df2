package database

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

// TestStmtCache runs more distinct reads than the cache keeps, from several goroutines at
// once, each reading its rows only after others have pushed its statement out: every read
// answers right, a statement in use is not closed under it, and a statement SQLite refuses
// answers its error.
func TestStmtCache(t *testing.T) {
	db := openTestDB(t, "sqlite")
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, "CREATE TABLE n (v integer)"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "INSERT INTO n VALUES (1), (2), (3)"); err != nil {
		t.Fatal(err)
	}
	db.stmts = newStmtCache(db.readers, 4)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 60; i++ {
				k := (g*7 + i) % 20
				rows, err := db.QueryxContext(ctx, fmt.Sprintf("SELECT v + %d FROM n WHERE v >= ? ORDER BY v", k), 2)
				if err != nil {
					t.Errorf("query %d: %v", k, err)
					return
				}
				var total int
				if i%5 == 0 {
					// Others evict the statement while these rows are still open.
					var once int
					db.QueryRowxContext(ctx, fmt.Sprintf("SELECT count(*) + %d FROM n", 100+i)).Scan(&once)
				}
				for rows.Next() {
					var v int
					if err := rows.Scan(&v); err != nil {
						t.Errorf("scan %d: %v", k, err)
					}
					total += v
				}
				if err := rows.Err(); err != nil {
					t.Errorf("rows %d: %v", k, err)
				}
				rows.Close()
				if want := 5 + 2*k; total != want {
					t.Errorf("query %d: got %d, want %d", k, total, want)
				}
				var c int
				if err := db.QueryRowxContext(ctx, "SELECT count(*) FROM n WHERE v > ?", k%3).Scan(&c); err != nil || c != 3-k%3 {
					t.Errorf("count %d: %d, %v", k, c, err)
				}
			}
		}()
	}
	wg.Wait()
	if _, err := db.QueryxContext(ctx, "SELECT nope FROM n"); err == nil {
		t.Error("a statement SQLite refuses answered no error")
	}
	if db.stmts.lru.Contains("SELECT nope FROM n") {
		t.Error("a statement SQLite refuses was kept")
	}
}
