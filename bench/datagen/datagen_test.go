package datagen_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"github.com/quarrycms/quarry/bench/datagen"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen/database"
)

func generate(t *testing.T, seed uint64) (*database.DB, datagen.Stats) {
	t.Helper()
	s, err := schemas.Load("../../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := database.Open(ctx, database.Config{Client: "sqlite", Filename: filepath.Join(t.TempDir(), "g.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(ctx, s, nil); err != nil {
		t.Fatal(err)
	}
	st, err := datagen.Generate(ctx, db, s, datagen.Options{Articles: 200, Seed: seed,
		Token: &datagen.Token{Name: "t", Key: "k", Salt: "s"}})
	if err != nil {
		t.Fatal(err)
	}
	return db, st
}

// digest hashes every row of every generated table in id order.
func digest(t *testing.T, db *database.DB, st datagen.Stats) string {
	t.Helper()
	h := sha256.New()
	for _, table := range slices.Sorted(maps.Keys(st.Rows)) {
		fmt.Fprintln(h, table, st.Rows[table])
	}
	for _, table := range []string{"articles", "writers", "tags", "files", "articles_components", "articles_tags_links",
		"components_shared_seos", "components_shared_links_tag_links", "files_related_morphs", "writers_mentor_links"} {
		rows, err := db.Queryx(`SELECT * FROM "` + table + `" ORDER BY id`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			vals, err := rows.SliceScan()
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(h, "%s %v\n", table, vals)
		}
		rows.Close()
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// TestDeterministic: the same seed gives the same database; another seed another one.
func TestDeterministic(t *testing.T) {
	a, sa := generate(t, 7)
	b, sb := generate(t, 7)
	c, sc := generate(t, 8)
	da, db, dc := digest(t, a, sa), digest(t, b, sb), digest(t, c, sc)
	if da != db {
		t.Error("two runs with seed 7 differ")
	}
	if da == dc {
		t.Error("seeds 7 and 8 give the same data")
	}
	if sa.Rows["articles"] != 200 || sa.Rows["writers"] != 10 || sa.Rows["tags"] != 50 {
		t.Errorf("unexpected counts: %v", sa.Rows)
	}
}

// TestLinksResolve: every link, component and media row points at an existing row (SQLite
// enforces the declared foreign keys; this also covers the component and morph joins).
func TestLinksResolve(t *testing.T) {
	db, _ := generate(t, 1)
	for _, q := range []string{
		`SELECT COUNT(*) FROM articles_components c LEFT JOIN components_shared_seos s ON s.id = c.component_id WHERE c.component_type = 'shared.seo' AND s.id IS NULL`,
		`SELECT COUNT(*) FROM articles_components c LEFT JOIN components_shared_links s ON s.id = c.component_id WHERE c.component_type = 'shared.link' AND s.id IS NULL`,
		`SELECT COUNT(*) FROM articles_components c LEFT JOIN components_shared_quotes s ON s.id = c.component_id WHERE c.component_type = 'shared.quote' AND s.id IS NULL`,
		`SELECT COUNT(*) FROM files_related_morphs m LEFT JOIN files f ON f.id = m.file_id WHERE f.id IS NULL`,
		`SELECT COUNT(*) FROM articles_author_links l LEFT JOIN writers w ON w.id = l.writer_id WHERE w.id IS NULL`,
		`SELECT COUNT(*) FROM (SELECT article_id FROM articles_author_links GROUP BY article_id HAVING COUNT(*) > 1) x`,
	} {
		var n int
		if err := db.Get(&n, q); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Errorf("%d dangling or duplicate rows: %s", n, q)
		}
	}
}

func TestRefusesFilledDatabase(t *testing.T) {
	db, _ := generate(t, 1)
	s, _ := schemas.Load("../../examples/blog")
	if _, err := datagen.Generate(context.Background(), db, s, datagen.Options{Articles: 10}); err == nil {
		t.Fatal("generated into a database that already holds articles")
	}
}
