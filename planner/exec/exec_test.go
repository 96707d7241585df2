package exec_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/parser/rest"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen/database"
)

// openBlog opens a fresh SQLite database with the example app's layout.
func openBlog(t *testing.T) (*database.DB, *schemas.Schema) {
	t.Helper()
	return openBlogOn(t, database.Config{Client: "sqlite", Filename: filepath.Join(t.TempDir(), "t.db")})
}

// openBlogOn opens c with the example app's layout.
func openBlogOn(t *testing.T, c database.Config) (*database.DB, *schemas.Schema) {
	t.Helper()
	s, err := schemas.Load("../../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := database.Open(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(ctx, s, nil); err != nil {
		t.Fatal(err)
	}
	return db, s
}

// engines are the databases the statement counts are checked on: SQLite always,
// PostgreSQL and MySQL when QUARRY_TEST_POSTGRES_URL and QUARRY_TEST_MYSQL_URL name a
// server (each test gets a uniquely named database, dropped when it ends).
func engines(t *testing.T) map[string]func(t *testing.T) database.Config {
	out := map[string]func(t *testing.T) database.Config{
		"sqlite": func(t *testing.T) database.Config {
			return database.Config{Client: "sqlite", Filename: filepath.Join(t.TempDir(), "t.db")}
		},
	}
	for client, env := range map[string]string{"postgres": "QUARRY_TEST_POSTGRES_URL", "mysql": "QUARRY_TEST_MYSQL_URL"} {
		admin := os.Getenv(env)
		if admin == "" {
			continue
		}
		out[client] = func(t *testing.T) database.Config {
			return database.Config{Client: client, URL: freshDatabase(t, client, admin)}
		}
	}
	return out
}

// freshDatabase creates a uniquely named database on the server of the admin URL and
// returns its URL; it is dropped when the test ends.
func freshDatabase(t *testing.T, client, admin string) string {
	t.Helper()
	ctx := context.Background()
	db, err := database.Open(ctx, database.Config{Client: client, URL: admin})
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("quarry_exec_%d_%d", os.Getpid(), time.Now().UnixNano())
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		db.ExecContext(ctx, "DROP DATABASE "+name)
		db.Close()
	})
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// seed inserts n published articles, each with an author (who has a mentor) and two tags,
// directly in SQL, so the read path is tested on its own.
func seed(t *testing.T, db *database.DB, n int) {
	t.Helper()
	now := db.Dialect.Bind(time.Now())
	exec := func(q string, args ...any) {
		if _, err := db.Exec(db.Rebind(q), args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for i := 1; i <= 3; i++ {
		exec(`INSERT INTO tags (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)`, i, fmt.Sprintf("tag%d", i), now, now)
	}
	for i := 1; i <= n; i++ {
		exec(`INSERT INTO writers (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)`, i, fmt.Sprintf("writer%d", i), now, now)
		if i > 1 {
			exec(`INSERT INTO writers_mentor_links (writer_id, inv_writer_id) VALUES (?, ?)`, i, i-1)
		}
		exec(`INSERT INTO articles (id, title, views, created_at, updated_at, published_at) VALUES (?, ?, ?, ?, ?, ?)`, i, fmt.Sprintf("article %d", i), i, now, now, now)
		exec(`INSERT INTO articles_author_links (article_id, writer_id, article_order) VALUES (?, ?, 1)`, i, i)
		exec(`INSERT INTO articles_tags_links (article_id, tag_id, tag_order) VALUES (?, 1, 1), (?, 2, 2)`, i, i)
	}
}

func run(t *testing.T, db *database.DB, s *schemas.Schema, query string) *exec.Result {
	t.Helper()
	q := &ir.Query{Model: "api::article.article", Op: ir.FindMany}
	if err := rest.Parse(query, q); err != nil {
		t.Fatal(err)
	}
	p := &planner.Planner{Schema: s, Config: planner.Config{DefaultLimit: 25, MaxLimit: 1000, WithCount: true, MaxPopulateDepth: 10}}
	pl, err := p.Read(q, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := &exec.Runner{Dialect: db.Dialect}
	res, err := r.Run(context.Background(), db, pl)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestStatementCountIndependentOfRows shows the number of SQL statements of a request
// depends on its populate shape only: 1, 10 and 100 entries with two populate levels.
func TestStatementCountIndependentOfRows(t *testing.T) {
	for name, open := range engines(t) {
		t.Run(name, func(t *testing.T) { statementCounts(t, open) })
	}
}

func statementCounts(t *testing.T, open func(t *testing.T) database.Config) {
	const query = "populate[author][populate][mentor]=true&populate[tags]=true&pagination[pageSize]=1000"
	counts := map[int]int{}
	for _, n := range []int{1, 10, 100} {
		db, s := openBlogOn(t, open(t))
		seed(t, db, n)
		res := run(t, db, s, query)
		if len(res.Entries) != n {
			t.Fatalf("n=%d: got %d entries", n, len(res.Entries))
		}
		last := res.Entries[n-1]
		if len(last.Kids) != 2 || len(last.Kids[0].Entries) != 1 || len(last.Kids[1].Entries) != 2 {
			t.Fatalf("n=%d: populate not stitched: %+v", n, last.Kids)
		}
		if n > 1 && len(last.Kids[0].Entries[0].Kids[0].Entries) != 1 {
			t.Fatalf("n=%d: second level not stitched", n)
		}
		counts[n] = res.Statements
	}
	// root + count + author + author.mentor + tags
	for n, c := range counts {
		if c != 5 {
			t.Errorf("n=%d: %d statements, want 5", n, c)
		}
	}
}

func TestMain(m *testing.M) { os.Exit(m.Run()) }

// TestSharedParentsStitched: tags 1 and 2 are reached from every article, so the tag level
// holds several entries per tag id; each of them gets the tag's children, in link order,
// and counts land on every parent too.
func TestSharedParentsStitched(t *testing.T) {
	db, s := openBlog(t)
	seed(t, db, 4)
	for _, q := range []string{
		`INSERT INTO tags_owner_links (tag_id, writer_id) VALUES (1, 3), (2, 4)`,
		`INSERT INTO tags_parts_links (tag_id, writer_id, writer_order) VALUES (1, 2, 2), (1, 4, 1), (1, 1, 3), (2, 3, 1)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	res := run(t, db, s, "populate[tags][populate][owner]=true&populate[tags][populate][parts]=true&populate[author][populate][mentor][count]=true&sort=id")
	wantParts := map[int64][]int64{1: {4, 2, 1}, 2: {3}}
	wantOwner := map[int64]int64{1: 3, 2: 4}
	for _, a := range res.Entries {
		tags := a.Kids[0].Entries // the populate's order
		if len(tags) != 2 || len(a.Kids[0].Steps) != 2 {
			t.Fatalf("article %d: %d tags, %d steps", a.ID, len(tags), len(a.Kids[0].Steps))
		}
		for _, tag := range tags {
			if o := tag.Kids[0].Entries; len(o) != 1 || o[0].ID != wantOwner[tag.ID] {
				t.Errorf("article %d, tag %d: owner %v", a.ID, tag.ID, o)
			}
			var parts []int64
			for _, p := range tag.Kids[1].Entries {
				parts = append(parts, p.ID)
			}
			if fmt.Sprint(parts) != fmt.Sprint(wantParts[tag.ID]) || len(tag.Kids[1].Steps) != len(parts) {
				t.Errorf("article %d, tag %d: parts %v, want %v", a.ID, tag.ID, parts, wantParts[tag.ID])
			}
		}
		author := a.Kids[1].Entries[0]
		if want := int64(min(a.ID-1, 1)); author.Kids[0].Count != want {
			t.Errorf("article %d: mentor count %d, want %d", a.ID, author.Kids[0].Count, want)
		}
	}
}
