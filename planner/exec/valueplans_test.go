package exec_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/sqlgen/database"
)

// TestValuePlans checks that on PostgreSQL a root whose condition has a LIKE or a relation
// filter is planned with its values every time (no generic plan, however often its prepared
// statement runs), that child steps and plain roots keep PostgreSQL's default, and that the
// connection's setting is back to its own afterwards.
func TestValuePlans(t *testing.T) {
	admin := os.Getenv("QUARRY_TEST_POSTGRES_URL")
	if admin == "" {
		t.Skip("QUARRY_TEST_POSTGRES_URL is not set")
	}
	// One connection, so the prepared statements counted below are the ones the runs used.
	db, s := openBlogOn(t, database.Config{Client: "postgres", URL: freshDatabase(t, "postgres", admin), PoolMax: 1})
	seedVaried(t, db)
	for range 12 {
		run(t, db, s, "filters[title][$containsi]=go&filters[author][name][$startsWith]=writer&populate[tags]=true&pagination[pageSize]=5")
		run(t, db, s, "filters[title][$containsi]=go&pagination[page]=2&pagination[pageSize]=2") // with its separate count
		run(t, db, s, "filters[views][$gt]=3&pagination[pageSize]=5")
	}
	ctx := context.Background()
	var mode string
	if err := db.QueryRowxContext(ctx, "SHOW plan_cache_mode").Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if mode != "auto" {
		t.Errorf("plan_cache_mode after the runs = %q, want the connection's own auto", mode)
	}
	rows, err := db.QueryxContext(ctx, `SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE 'SELECT%' AND statement NOT LIKE '%pg_prepared_statements%'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var like, child, plain int
	for rows.Next() {
		var stmt string
		var generic, custom int64
		if err := rows.Scan(&stmt, &generic, &custom); err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.Contains(stmt, "LIKE"):
			like++
			if generic != 0 {
				t.Errorf("%s: %d generic plans, want every execution planned with its values", stmt, generic)
			}
		case strings.Contains(stmt, "ANY("):
			child++
			if generic == 0 {
				t.Errorf("%s: no generic plan in %d executions: child steps keep PostgreSQL's default", stmt, custom)
			}
		case strings.Contains(stmt, `"views" >`):
			plain++
			if generic == 0 {
				t.Errorf("%s: no generic plan in %d executions: a plain condition keeps PostgreSQL's default", stmt, custom)
			}
		}
	}
	if like < 3 || child < 1 || plain < 1 {
		t.Errorf("prepared statements seen: %d with LIKE (want the page, the later page and its count), %d child, %d plain", like, child, plain)
	}
}
