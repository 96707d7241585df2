package exec_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/parser/rest"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/sqlgen/database"
)

// openBlogPostgres opens a fresh, uniquely named PostgreSQL database with the example
// app's layout (skipped without QUARRY_TEST_POSTGRES_URL).
func openBlogPostgres(t *testing.T) (*database.DB, *schemas.Schema) {
	t.Helper()
	admin := os.Getenv("QUARRY_TEST_POSTGRES_URL")
	if admin == "" {
		t.Skip("QUARRY_TEST_POSTGRES_URL not set")
	}
	s, err := schemas.Load("../../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	adb, err := database.Open(ctx, database.Config{Client: "postgres", URL: admin})
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("quarry_exec_%d_%d", os.Getpid(), time.Now().UnixNano())
	if _, err := adb.DB.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	db, err := database.Open(ctx, database.Config{Client: "postgres", URL: u.String()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		db.Close()
		adb.DB.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
		adb.Close()
	})
	if err := db.Migrate(ctx, s, nil); err != nil {
		t.Fatal(err)
	}
	return db, s
}

// sequentialOnly hides the database's native connection, so the plan runs statement by
// statement through database/sql.
type sequentialOnly struct{ exec.Queryer }

// TestNativeMatchesSequential runs the same plans on PostgreSQL through pgx's native batches
// and through database/sql one statement at a time: the result trees and the statements
// (as a multiset: the batches run them level by level) must be the same.
func TestNativeMatchesSequential(t *testing.T) {
	db, s := openBlogPostgres(t)
	seed(t, db, 30)
	for _, q := range []string{
		`INSERT INTO tags_owner_links (tag_id, writer_id) VALUES (1, 3), (2, 4)`,
		`INSERT INTO tags_parts_links (tag_id, writer_id, writer_order) VALUES (1, 2, 2), (1, 4, 1), (1, 1, 3), (2, 3, 1)`,
		// Every column type the native path decodes itself, and the values it leaves to
		// the driver (dates out of four-digit years, infinity).
		`UPDATE articles SET body = 'é"\' || repeat('x', 2000), summary = '', rating = 3.25, score = -0.5,
			big = 9007199254740993, publish_date = '2024-02-29', start_time = '10:20:30.12',
			event_at = '1999-12-31 23:59:59.999', featured = true, category = 'news',
			meta = '{"b": 1, "a": [1, 2.50, "x"], "aa": null}' WHERE id = 1`,
		`UPDATE articles SET rating = 99999999.99, score = 1e-7, big = -1, publish_date = '0099-01-01',
			start_time = '00:00:00', meta = 'null', featured = false WHERE id = 2`,
		`UPDATE articles SET rating = 0, publish_date = '0044-03-15 BC', start_time = '24:00:00',
			meta = '"s"', body = 'short' WHERE id = 3`,
		`UPDATE articles SET publish_date = 'infinity', start_time = '23:59:59.999999', meta = '[]' WHERE id = 4`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := any(db).(exec.NativeDB); !ok {
		t.Fatal("database.DB does not lend native connections")
	}
	p := &planner.Planner{Schema: s, Config: planner.Config{DefaultLimit: 25, MaxLimit: 1000, WithCount: true, MaxPopulateDepth: 10}}
	r := &exec.Runner{Dialect: db.Dialect, Cache: sqlgen.NewCache()}
	for _, query := range []string{
		"",
		"populate=*",
		"populate[author][populate][mentor]=true&populate[tags]=true&pagination[pageSize]=100",
		"populate[tags][populate][owner]=true&populate[tags][populate][parts]=true&populate[author][populate][mentor][count]=true&sort=id",
		"filters[title][$contains]=article 1&sort=views:desc&pagination[page]=2&pagination[pageSize]=3",
		"filters[id][$eq]=9999&populate=*",
	} {
		q := &ir.Query{Model: "api::article.article", Op: ir.FindMany}
		if err := rest.Parse(query, q); err != nil {
			t.Fatal(err)
		}
		pl, err := p.Read(q, nil)
		if err != nil {
			t.Fatal(err)
		}
		trace := func(into *[]string) context.Context {
			return exec.WithTrace(context.Background(), func(st sqlgen.Stmt, rows int, _ time.Duration) {
				*into = append(*into, fmt.Sprintf("%s %v -> %d", st.SQL, st.Args, rows))
			})
		}
		var nst, sst []string
		native, err := r.Run(trace(&nst), db, pl)
		if err != nil {
			t.Fatalf("%q native: %v", query, err)
		}
		seq, err := r.Run(trace(&sst), sequentialOnly{db}, pl)
		if err != nil {
			t.Fatalf("%q sequential: %v", query, err)
		}
		if native.Statements != seq.Statements || native.Total != seq.Total {
			t.Errorf("%q: native %d statements, total %d; sequential %d, %d", query, native.Statements, native.Total, seq.Statements, seq.Total)
		}
		if !reflect.DeepEqual(native.Entries, seq.Entries) {
			t.Errorf("%q: native and sequential results differ: %s", query, firstDiff(pl.Root, native.Entries, seq.Entries))
		}
		// A released result's memory is reused by the next run, which reads the same.
		native.Release()
		again, err := r.Run(context.Background(), db, pl)
		if err != nil {
			t.Fatalf("%q native again: %v", query, err)
		}
		if !reflect.DeepEqual(again.Entries, seq.Entries) {
			t.Errorf("%q: native after a release and sequential results differ: %s", query, firstDiff(pl.Root, again.Entries, seq.Entries))
		}
		sort.Strings(nst)
		sort.Strings(sst)
		if !reflect.DeepEqual(nst, sst) {
			t.Errorf("%q: traced statements differ:\nnative %q\nsequential %q", query, nst, sst)
		}
	}
}

// firstDiff names the first root-level value that differs between two results.
func firstDiff(s *plan.Select, a, b []*exec.Entry) string {
	if len(a) != len(b) {
		return fmt.Sprintf("%d entries, %d", len(a), len(b))
	}
	for i := range a {
		for j, c := range s.Columns {
			if !reflect.DeepEqual(a[i].Values[j], b[i].Values[j]) {
				return fmt.Sprintf("entry %d %s: %T %#v, %T %#v", a[i].ID, c.Name, a[i].Values[j], a[i].Values[j], b[i].Values[j], b[i].Values[j])
			}
		}
	}
	return "below the root"
}
