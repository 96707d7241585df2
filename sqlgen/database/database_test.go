package database

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/quarrycms/quarry/schemas"
)

func TestMigrateSQLiteIsIdempotent(t *testing.T) {
	s, err := schemas.Load("../../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := Open(ctx, Config{Client: "sqlite", Filename: filepath.Join(t.TempDir(), "x.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for i := 0; i < 2; i++ {
		if err := db.Migrate(ctx, s, nil); err != nil {
			t.Fatalf("migrate #%d: %v", i, err)
		}
	}
	cols, err := db.columns(ctx, "articles_author_links")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"id", "article_id", "writer_id", "article_order"} {
		if !cols[c] {
			t.Errorf("articles_author_links lacks %s (has %v)", c, cols)
		}
	}
}

// TestSQLiteLikeIsCaseSensitive guards the pragma that makes $contains case-sensitive on
// SQLite, as it is on PostgreSQL.
func TestSQLiteLikeIsCaseSensitive(t *testing.T) {
	db, err := Open(context.Background(), Config{Client: "sqlite", Filename: filepath.Join(t.TempDir(), "x.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(2)
	for i := 0; i < 3; i++ { // every pooled connection carries the pragma
		var n int
		if err := db.Get(&n, "SELECT 'Hello' LIKE '%hell%'"); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Fatal("LIKE matched across case")
		}
	}
}
