package sqlerr

import (
	"database/sql"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
	_ "modernc.org/sqlite"
)

func TestUniqueSQLite(t *testing.T) {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE articles (id INTEGER PRIMARY KEY, slug TEXT, CONSTRAINT articles_slug_unique UNIQUE (slug))`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO articles (slug) VALUES ('a')`); err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`INSERT INTO articles (slug) VALUES ('a')`)
	v, ok := Unique(fmt.Errorf("insert: %w", err))
	if !ok || v.Table != "articles" || v.Column != "slug" {
		t.Fatalf("Unique(%v) = %+v, %v", err, v, ok)
	}
	if Unavailable(err) {
		t.Error("a constraint violation is not an outage")
	}
}

func TestUniquePostgres(t *testing.T) {
	err := fmt.Errorf("insert into articles: %w", &pgconn.PgError{Code: "23505", TableName: "articles",
		ConstraintName: "articles_slug_unique", Detail: `Key (slug)=(hello) already exists.`})
	v, ok := Unique(err)
	if !ok || v.Table != "articles" || v.Column != "slug" {
		t.Fatalf("Unique = %+v, %v", v, ok)
	}
	if _, ok := Unique(&pgconn.PgError{Code: "23503"}); ok {
		t.Error("a foreign-key violation is not a unique one")
	}
}

// TestUniqueMySQL: MariaDB names the key, MySQL 8 the table and the key; neither names the
// column, so the violation carries the index name.
func TestUniqueMySQL(t *testing.T) {
	for _, msg := range []string{"Duplicate entry 'hello' for key 'articles_slug_unique'",
		"Duplicate entry 'hello' for key 'articles.articles_slug_unique'"} {
		v, ok := Unique(fmt.Errorf("insert into articles: %w", &mysql.MySQLError{Number: 1062, Message: msg}))
		if !ok || v.Index != "articles_slug_unique" {
			t.Errorf("Unique(%s) = %+v, %v", msg, v, ok)
		}
	}
	if _, ok := Unique(&mysql.MySQLError{Number: 1452, Message: "Cannot add or update a child row"}); ok {
		t.Error("a foreign-key violation is not a unique one")
	}
	if Unavailable(&mysql.MySQLError{Number: 1062}) {
		t.Error("a duplicate is not an outage")
	}
}

func TestUnavailable(t *testing.T) {
	for _, err := range []error{
		&mysql.MySQLError{Number: 1053, Message: "Server shutdown in progress"},
		&mysql.MySQLError{Number: 1040, Message: "Too many connections"},
		fmt.Errorf("query: %w", mysql.ErrInvalidConn),
		fmt.Errorf("query: %w", ErrUnavailable),
		&pgconn.PgError{Code: "57P01"},
		&pgconn.PgError{Code: "08006"},
		fmt.Errorf("query tags: %w", &pgconn.ConnectError{}),
	} {
		if !Unavailable(err) {
			t.Errorf("Unavailable(%v) = false", err)
		}
	}
	for _, err := range []error{nil, errors.New("boom"), &pgconn.PgError{Code: "22P02"}, sql.ErrNoRows,
		&mysql.MySQLError{Number: 1064, Message: "You have an error in your SQL syntax"},
		// A network failure of something else (an SMTP server) is no database outage.
		fmt.Errorf("send mail: %w", &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}),
		errors.New("read body: unexpected EOF")} {
		if Unavailable(err) {
			t.Errorf("Unavailable(%v) = true", err)
		}
	}
}
