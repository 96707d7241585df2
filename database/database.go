// Package database opens the app's configured database (embedded SQLite by default,
// PostgreSQL on request) and brings its tables up to the layout the schema needs.
package database

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/jmoiron/sqlx"
	_ "modernc.org/sqlite"

	"quarry/schemas"
	"quarry/sqlgen"
)

func init() {
	// modernc registers "sqlite", which sqlx does not know; it uses '?' placeholders.
	sqlx.BindDriver("sqlite", sqlx.QUESTION)
}

// Config says which database to use. Environment variables win over config/database.json.
type Config struct {
	Client   string // sqlite | postgres
	URL      string // postgres connection URL
	Filename string // sqlite file
}

type fileConfig struct {
	Connection struct {
		Client     string `json:"client"`
		Connection struct {
			Filename         string `json:"filename"`
			ConnectionString string `json:"connectionString"`
		} `json:"connection"`
	} `json:"connection"`
}

// ConfigFor reads config/database.json (if any) and the DATABASE_* environment variables.
func ConfigFor(appDir string, getenv func(string) string) (Config, error) {
	var c Config
	data, err := os.ReadFile(filepath.Join(appDir, "config", "database.json"))
	switch {
	case err == nil:
		var fc fileConfig
		if err := json.Unmarshal(data, &fc); err != nil {
			return c, fmt.Errorf("config/database.json: %w", err)
		}
		c.Client = fc.Connection.Client
		c.Filename = fc.Connection.Connection.Filename
		c.URL = fc.Connection.Connection.ConnectionString
	case !errors.Is(err, fs.ErrNotExist):
		return c, fmt.Errorf("read config/database.json: %w", err)
	}
	if v := getenv("DATABASE_CLIENT"); v != "" {
		c.Client = v
	}
	if v := getenv("DATABASE_URL"); v != "" {
		c.URL = v
	}
	if v := getenv("DATABASE_FILENAME"); v != "" {
		c.Filename = v
	}
	if c.Filename == "" {
		c.Filename = filepath.Join(".tmp", "data.db")
	}
	if !filepath.IsAbs(c.Filename) {
		c.Filename = filepath.Join(appDir, c.Filename)
	}
	return c, nil
}

// DB is an open database with its dialect.
type DB struct {
	*sqlx.DB
	Dialect *sqlgen.Dialect
}

// Open connects to the configured database.
func Open(ctx context.Context, c Config) (*DB, error) {
	d, err := sqlgen.ByName(c.Client)
	if err != nil {
		return nil, err
	}
	var db *sqlx.DB
	switch d {
	case sqlgen.SQLite:
		if err := os.MkdirAll(filepath.Dir(c.Filename), 0o755); err != nil {
			return nil, fmt.Errorf("create database folder: %w", err)
		}
		q := url.Values{}
		// WAL and a busy timeout let `quarry tokens create` write while a server runs on the
		// same file; case_sensitive_like makes $contains case-sensitive as on PostgreSQL.
		for _, p := range []string{"journal_mode(WAL)", "busy_timeout(10000)", "foreign_keys(1)", "case_sensitive_like(1)", "synchronous(NORMAL)"} {
			q.Add("_pragma", p)
		}
		q.Set("_txlock", "immediate")
		db, err = sqlx.Open("sqlite", "file:"+c.Filename+"?"+q.Encode())
		if err != nil {
			return nil, fmt.Errorf("open sqlite %s: %w", c.Filename, err)
		}
		// One writer at a time is SQLite's rule; readers still run in parallel under WAL.
		db.SetMaxOpenConns(8)
	case sqlgen.Postgres:
		if c.URL == "" {
			return nil, errors.New("DATABASE_URL is required for postgres")
		}
		db, err = sqlx.Open("pgx", c.URL)
		if err != nil {
			return nil, fmt.Errorf("open postgres: %w", err)
		}
		db.SetMaxOpenConns(20)
		db.SetMaxIdleConns(20)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to %s: %w", d.Name, err)
	}
	return &DB{DB: db, Dialect: d}, nil
}

// Migrate creates missing tables, columns and indexes. It never drops anything, so it is safe
// to run from every command and concurrently with a running server.
func (db *DB) Migrate(ctx context.Context, s *schemas.Schema, log *slog.Logger) error {
	for _, t := range sqlgen.Layout(db.Dialect, s) {
		have, err := db.columns(ctx, t.Name)
		if err != nil {
			return fmt.Errorf("inspect table %s: %w", t.Name, err)
		}
		if len(have) == 0 {
			if _, err := db.ExecContext(ctx, db.Dialect.CreateTable(t)); err != nil {
				return fmt.Errorf("create table %s: %w", t.Name, err)
			}
		} else {
			for _, c := range t.Columns {
				if have[c.Name] {
					continue
				}
				if _, err := db.ExecContext(ctx, db.Dialect.AddColumn(t.Name, c)); err != nil {
					return fmt.Errorf("add column %s.%s: %w", t.Name, c.Name, err)
				}
				if log != nil {
					log.Info("added column", "table", t.Name, "column", c.Name)
				}
			}
		}
		for _, ix := range t.Indexes {
			if _, err := db.ExecContext(ctx, db.Dialect.CreateIndex(t.Name, ix)); err != nil {
				return fmt.Errorf("create index %s: %w", ix.Name, err)
			}
		}
	}
	return nil
}

func (db *DB) columns(ctx context.Context, table string) (map[string]bool, error) {
	var names []string
	var err error
	if db.Dialect == sqlgen.Postgres {
		err = db.SelectContext(ctx, &names, `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`, table)
	} else {
		err = db.SelectContext(ctx, &names, `SELECT name FROM pragma_table_info(?)`, table)
	}
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(names))
	for _, n := range names {
		out[strings.ToLower(n)] = true
	}
	return out, nil
}

// InTx runs fn in one transaction: committed when fn returns nil, rolled back otherwise.
func (db *DB) InTx(ctx context.Context, fn func(tx *sqlx.Tx) error) error {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}
