package graphql_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/parser/gqlschema"
	"github.com/quarrycms/quarry/parser/rest"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/sqlgen/database"
)

// seedSQL inserts n published articles, each with an author (who has a mentor) and two
// tags, directly in SQL (as planner/exec's statement-count test does).
func seedSQL(t *testing.T, db *database.DB, n int) {
	t.Helper()
	now := db.Dialect.Bind(time.Now())
	x := func(q string, args ...any) {
		if _, err := db.Exec(db.Rebind(q), args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for i := 1; i <= 3; i++ {
		x(`INSERT INTO tags (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)`, i, fmt.Sprintf("tag%d", i), now, now)
	}
	for i := 1; i <= n; i++ {
		x(`INSERT INTO writers (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)`, i, fmt.Sprintf("writer%d", i), now, now)
		if i > 1 {
			x(`INSERT INTO writers_mentor_links (writer_id, inv_writer_id) VALUES (?, ?)`, i, i-1)
		}
		x(`INSERT INTO articles (id, title, views, created_at, updated_at, published_at) VALUES (?, ?, ?, ?, ?, ?)`, i, fmt.Sprintf("article %d", i), i, now, now, now)
		x(`INSERT INTO articles_author_links (article_id, writer_id, article_order) VALUES (?, ?, 1)`, i, i)
		x(`INSERT INTO articles_tags_links (article_id, tag_id, tag_order) VALUES (?, 1, 1), (?, 2, 2)`, i, i)
	}
}

// TestStatementCountEqualsREST: a GraphQL query with two nested relation levels runs
// exactly the statements of its REST equivalent (root, count, one batched statement per
// populated attribute per level), whatever the number of rows; without meta.pagination it
// skips the count.
func TestStatementCountEqualsREST(t *testing.T) {
	engines := map[string]func(t *testing.T) database.Config{"sqlite": func(t *testing.T) database.Config {
		return database.Config{Client: "sqlite", Filename: filepath.Join(t.TempDir(), "t.db")}
	}}
	for client, v := range map[string]string{"postgres": "QUARRY_TEST_POSTGRES_URL", "mysql": "QUARRY_TEST_MYSQL_URL"} {
		if admin := os.Getenv(v); admin != "" {
			engines[client] = func(t *testing.T) database.Config {
				return database.Config{Client: client, URL: freshDatabase(t, client, admin)}
			}
		}
	}
	for name, open := range engines {
		t.Run(name, func(t *testing.T) { statementCountEqualsREST(t, open) })
	}
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
	name := fmt.Sprintf("quarry_graphql_%d_%d", os.Getpid(), time.Now().UnixNano())
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

func statementCountEqualsREST(t *testing.T, open func(t *testing.T) database.Config) {
	const restQuery = "populate[author][populate][mentor]=true&populate[tags]=true&pagination[pageSize]=100"
	const gqlQuery = `{ articles(pagination: {pageSize: 100}) { data { id attributes { title author { data { attributes { name mentor { data { attributes { name } } } } } } tags { data { attributes { name } } } } } %s } }`
	for _, n := range []int{1, 10, 100} {
		e := newEnvOn(t, gqlschema.DefaultConfig(), nil, open(t))
		seedSQL(t, e.db, n)

		q := &ir.Query{Model: "api::article.article", Op: ir.FindMany}
		if err := rest.Parse(restQuery, q); err != nil {
			t.Fatal(err)
		}
		p := &planner.Planner{Schema: e.schema, Config: planner.DefaultConfig()}
		pl, err := p.Read(q, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.runner.Run(context.Background(), e.db, pl)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Entries) != n {
			t.Fatalf("REST: %d entries", len(res.Entries))
		}

		withMeta := e.exec(fullAccess, fmt.Sprintf(gqlQuery, "meta { pagination { total } }"), nil)
		if strings.Contains(string(withMeta.Body), `"errors"`) || !strings.Contains(string(withMeta.Body), fmt.Sprintf(`"total":%d`, n)) {
			t.Fatalf("GraphQL: %.300s", withMeta.Body)
		}
		if n > 1 && !strings.Contains(string(withMeta.Body), `"mentor":{"data":{"attributes":{"name":"writer1"}}}`) {
			t.Fatalf("second level not populated: %.300s", withMeta.Body)
		}
		if withMeta.Statements != res.Statements || res.Statements != 5 {
			t.Errorf("n=%d: GraphQL %d statements, REST %d, want 5 (root, count, author, mentor, tags)", n, withMeta.Statements, res.Statements)
		}
		noMeta := e.exec(fullAccess, fmt.Sprintf(gqlQuery, ""), nil)
		if noMeta.Statements != res.Statements-1 {
			t.Errorf("n=%d: without meta.pagination %d statements, want %d (no count)", n, noMeta.Statements, res.Statements-1)
		}
		// Only the page is selected: no count needed either.
		pageOnly := e.exec(fullAccess, fmt.Sprintf(gqlQuery, "meta { pagination { page pageSize } }"), nil)
		if pageOnly.Statements != res.Statements-1 {
			t.Errorf("n=%d: page/pageSize only: %d statements, want %d", n, pageOnly.Statements, res.Statements-1)
		}
	}
}

// TestReleasedPagesOnPostgres: on PostgreSQL's native path a list's entries go back to later
// runs once its page is written (exec.Result.Release). Later answers must be whole, and a
// page whose values an extension resolver saw is never released: the strings it kept
// must not turn into another request's data.
func TestReleasedPagesOnPostgres(t *testing.T) {
	admin := os.Getenv("QUARRY_TEST_POSTGRES_URL")
	if admin == "" {
		t.Skip("QUARRY_TEST_POSTGRES_URL is not set")
	}
	cfg := gqlschema.DefaultConfig()
	var kept []string
	cfg.Extension().Use(gqlschema.SchemaExtension{
		TypeDefs: `extend type Article { kept: String }`,
		Resolvers: map[string]map[string]gqlschema.Resolver{"Article": {"kept": func(_ context.Context, p gqlschema.ResolveParams) (any, error) {
			title, _ := p.Parent["title"].(string)
			kept = append(kept, title)
			return title, nil
		}}},
	})
	e := newEnvOn(t, cfg, nil, database.Config{Client: "postgres", URL: freshDatabase(t, "postgres", admin)})
	seedSQL(t, e.db, 3)
	expect(t, "extension", e.q(`{ articles(sort: "id") { data { attributes { kept } } } }`),
		`{"data":{"articles":{"data":[{"attributes":{"kept":"article 1"}},{"attributes":{"kept":"article 2"}},{"attributes":{"kept":"article 3"}}]}}}`)
	for i := 0; i < 3; i++ {
		expect(t, "released pages", e.q(`{ a: articles(sort: "id:desc") { data { id attributes { title } } } b: articles(sort: "views") { data { attributes { title views } } } }`),
			`{"data":{"a":{"data":[{"id":"3","attributes":{"title":"article 3"}},{"id":"2","attributes":{"title":"article 2"}},{"id":"1","attributes":{"title":"article 1"}}]},"b":{"data":[{"attributes":{"title":"article 1","views":1}},{"attributes":{"title":"article 2","views":2}},{"attributes":{"title":"article 3","views":3}}]}}}`)
	}
	// The last run writes other titles where the first page's were.
	expect(t, "last", e.q(`{ articles(sort: "id:desc") { data { attributes { title } } } }`),
		`{"data":{"articles":{"data":[{"attributes":{"title":"article 3"}},{"attributes":{"title":"article 2"}},{"attributes":{"title":"article 1"}}]}}}`)
	if got := strings.Join(kept, ","); got != "article 1,article 2,article 3" {
		t.Errorf("values kept by the resolver became %q", got)
	}
}
