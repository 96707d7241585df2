package database

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/sqlgen"
)

// TestSQLiteCommitSteps commits through Quarry and beside it on SQLite and checks what the
// positions say per table: a tracked commit moves the position only for the tables it wrote
// (a cascade's and a whole-table delete's included, a rolled-back one's not at all), while
// another connection's commit is a change of every table.
func TestSQLiteCommitSteps(t *testing.T) {
	db := openTestDB(t, "sqlite")
	ctx := context.Background()
	trackedFamily(ctx, t, db)
	pos := func() string {
		t.Helper()
		p, err := db.Position(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	run := func(stmts ...string) {
		t.Helper()
		if err := db.InTx(ctx, func(tx *sqlx.Tx) error {
			for _, s := range stmts {
				if _, err := tx.ExecContext(ctx, s); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	parents, kids, others := sqlgen.TablesOf("parents"), sqlgen.TablesOf("kids"), sqlgen.TablesOf("others")
	expect := func(what, then, now string, tables sqlgen.Tables, want bool) {
		t.Helper()
		if got := db.Unchanged(then, now, tables); got != want {
			t.Errorf("%s: Unchanged(%s, %s, %v) = %v, want %v", what, then, now, tables.Names, got, want)
		}
	}

	p0 := pos()
	run("INSERT INTO others VALUES (1)")
	p1 := pos()
	if p1 == p0 {
		t.Fatal("a commit left the position where it was")
	}
	expect("insert into others", p0, p1, parents, true)
	expect("insert into others", p0, p1, others, false)
	expect("insert into others", p0, p1, sqlgen.TablesOf("OTHERS"), false)
	expect("insert into others", p0, p1, sqlgen.AllTables, false)

	run("DELETE FROM parents WHERE id = 1")
	p2 := pos()
	expect("cascading delete", p1, p2, kids, false)
	expect("cascading delete", p1, p2, others, true)
	expect("two commits", p0, p2, sqlgen.TablesOf("writers"), true)
	expect("two commits", p0, p2, kids, false)

	run("DELETE FROM others") // SQLite's truncate shortcut, unless a hook is set
	p3 := pos()
	expect("whole-table delete", p2, p3, others, false)
	expect("whole-table delete", p2, p3, parents, true)

	// Rolled back: nothing committed, nothing moves.
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO parents VALUES (9)"); err != nil {
		t.Fatal(err)
	}
	tx.Rollback()
	if p := pos(); p != p3 {
		t.Errorf("a rolled-back transaction moved the position from %s to %s", p3, p)
	}

	// A statement outside a transaction runs in one of its own when tracked.
	if _, err := db.ExecContext(ctx, "INSERT INTO others VALUES (2)"); err != nil {
		t.Fatal(err)
	}
	p4 := pos()
	expect("statement outside a transaction", p3, p4, parents, true)
	expect("statement outside a transaction", p3, p4, others, false)

	// Another connection's commit: which tables it wrote is not known.
	other, err := sql.Open("sqlite", "file:"+db.position.file)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.ExecContext(ctx, "INSERT INTO others VALUES (3)"); err != nil {
		t.Fatal(err)
	}
	p5 := pos()
	expect("another connection's commit", p4, p5, parents, false)
	expect("across another connection's commit", p3, p5, parents, false)
	run("INSERT INTO others VALUES (4)")
	p6 := pos()
	expect("a tracked commit after another's", p5, p6, parents, true)
	expect("across another connection's commit", p4, p6, parents, false)
}

// TestSQLiteStepsExactUnderRace races another connection's commits against Quarry's and
// checks every pair of positions the per-table rule calls unchanged for the other
// connection's table: that table's content, read exactly at each position, must be the
// same. The bar is zero stale answers.
func TestSQLiteStepsExactUnderRace(t *testing.T) {
	db := openTestDB(t, "sqlite")
	ctx := context.Background()
	for _, s := range []string{"CREATE TABLE theirs (n integer)", "CREATE TABLE ours (n integer)"} {
		if _, err := db.ExecContext(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.TrackWrites(ctx); err != nil {
		t.Fatal(err)
	}
	other, err := sql.Open("sqlite", "file:"+db.position.file+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	deadline := time.Now().Add(3 * time.Second)
	var wg sync.WaitGroup
	var theirs, ours atomic.Int64
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 0; time.Now().Before(deadline); i++ {
			if _, err := other.ExecContext(ctx, "INSERT INTO theirs VALUES (?)", i); err != nil {
				t.Error(err)
				return
			}
			theirs.Add(1)
			time.Sleep(time.Duration(i%3) * time.Millisecond)
		}
	}()
	go func() {
		defer wg.Done()
		for i := 0; time.Now().Before(deadline); i++ {
			if err := db.InTx(ctx, func(tx *sqlx.Tx) error {
				_, err := tx.ExecContext(ctx, "INSERT INTO ours VALUES (?)", i)
				return err
			}); err != nil {
				t.Error(err)
				return
			}
			ours.Add(1)
		}
	}()
	// sample reads the other's table exactly at a position: one taken before and after the
	// read agree.
	type sample struct {
		pos   string
		count int
	}
	var samples []sample
	for time.Now().Before(deadline) {
		p, err := db.Position(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var n int
		if err := db.readers.QueryRowContext(ctx, "SELECT count(*) FROM theirs").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if q, _ := db.Position(ctx); q == p {
			samples = append(samples, sample{p, n})
		}
	}
	wg.Wait()
	var vouched, stale int
	for i := range samples {
		for j := i + 1; j < len(samples) && j < i+50; j++ {
			if db.Unchanged(samples[i].pos, samples[j].pos, sqlgen.TablesOf("theirs")) {
				vouched++
				if samples[i].count != samples[j].count {
					stale++
				}
			}
		}
	}
	t.Logf("%d commits beside, %d tracked, %d exact samples, %d pairs called unchanged", theirs.Load(), ours.Load(), len(samples), vouched)
	if stale > 0 {
		t.Fatalf("%d stale answers", stale)
	}
	if vouched == 0 {
		t.Fatal(fmt.Sprintf("no pair was called unchanged: the test proved nothing"))
	}
}
