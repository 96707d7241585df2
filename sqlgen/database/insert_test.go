package database

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/sqlgen"
)

// openTestDB opens a fresh database of a kind: SQLite in a temporary folder, PostgreSQL or
// MySQL as a uniquely named database on QUARRY_TEST_POSTGRES_URL's or QUARRY_TEST_MYSQL_URL's
// server (dropped afterwards).
func openTestDB(t *testing.T, kind string) *DB {
	t.Helper()
	ctx := context.Background()
	cfg := Config{Client: "sqlite", Filename: filepath.Join(t.TempDir(), "x.db")}
	if kind == "postgres" {
		base := os.Getenv("QUARRY_TEST_POSTGRES_URL")
		if base == "" {
			t.Skip("QUARRY_TEST_POSTGRES_URL is not set")
		}
		admin, err := sqlx.Open("pgx", base)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 6)
		_, _ = rand.Read(buf)
		name := "quarry_database_" + hex.EncodeToString(buf)
		if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
			admin.Close()
			t.Fatalf("create database: %v", err)
		}
		t.Cleanup(func() {
			if _, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
				t.Errorf("drop database %s: %v", name, err)
			}
			admin.Close()
		})
		u, err := url.Parse(base)
		if err != nil {
			t.Fatal(err)
		}
		u.Path = "/" + name
		cfg = Config{Client: "postgres", URL: u.String()}
	}
	if kind == "mysql" {
		base := os.Getenv("QUARRY_TEST_MYSQL_URL")
		if base == "" {
			t.Skip("QUARRY_TEST_MYSQL_URL is not set")
		}
		admin, err := Open(ctx, Config{Client: "mysql", URL: base})
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 6)
		_, _ = rand.Read(buf)
		name := "quarry_database_" + hex.EncodeToString(buf)
		if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
			admin.Close()
			t.Fatalf("create database: %v", err)
		}
		t.Cleanup(func() {
			if _, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name); err != nil {
				t.Errorf("drop database %s: %v", name, err)
			}
			admin.Close()
		})
		u, err := url.Parse(base)
		if err != nil {
			t.Fatal(err)
		}
		u.Path = "/" + name
		cfg = Config{Client: "mysql", URL: u.String()}
	}
	db, err := Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestInsertID(t *testing.T) {
	for _, kind := range []string{"sqlite", "postgres", "mysql"} {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			db := openTestDB(t, kind)
			d := db.Dialect
			table := sqlgen.Table{Name: "things", Columns: []sqlgen.Column{{Name: "id", Type: "id"}, {Name: "name", Type: "varchar(255)"}}}
			if _, err := db.ExecContext(ctx, d.CreateTable(table)); err != nil {
				t.Fatal(err)
			}
			id, err := InsertID(ctx, db, sqlgen.Insert{Table: "things", Columns: []string{"name"}, Values: []any{"a"}}.Render(d))
			if err != nil || id != 1 {
				t.Fatalf("first insert: id %d, %v", id, err)
			}
			err = db.InTx(ctx, func(tx *sqlx.Tx) error {
				id, err = InsertID(ctx, tx, sqlgen.Insert{Table: "things"}.Render(d))
				return err
			})
			if err != nil || id != 2 {
				t.Fatalf("default-values insert in a transaction: id %d, %v", id, err)
			}
			if kind == "sqlite" {
				// The driver's last-insert id, as on an engine without RETURNING.
				st := sqlgen.InsertStmt{Stmt: sqlgen.Insert{Table: "things", Columns: []string{"name"}, Values: []any{"c"}}.Plain(d)}
				if id, err = InsertID(ctx, db, st); err != nil || id != 3 {
					t.Fatalf("insert without RETURNING: id %d, %v", id, err)
				}
			}
		})
	}
}
