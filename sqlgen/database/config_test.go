package database

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/schemas/projectconfig"
)

func configOf(t *testing.T, file, src string, env map[string]string) (Config, error) {
	t.Helper()
	dir := t.TempDir()
	if file != "" {
		os.MkdirAll(filepath.Join(dir, "config"), 0o755)
		if err := os.WriteFile(filepath.Join(dir, "config", file), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	p, err := projectconfig.Load(context.Background(), projectconfig.Options{Dir: dir, LookupEnv: lookup})
	if err != nil {
		t.Fatal(err)
	}
	ty, err := p.Typed()
	if err != nil {
		t.Fatal(err)
	}
	c, err := ConfigFor(dir, p, ty.Database, func(k string) string { return env[k] })
	if err == nil && strings.HasPrefix(c.Filename, dir) {
		c.Filename = "DIR" + strings.TrimPrefix(c.Filename, dir)
	}
	return c, err
}

func TestConfigFor(t *testing.T) {
	// No database config: DATABASE_* as before.
	c, err := configOf(t, "", "", map[string]string{"DATABASE_CLIENT": "postgres", "DATABASE_URL": "postgres://x/y"})
	if err != nil || c.Client != "postgres" || c.URL != "postgres://x/y" {
		t.Errorf("env only: %+v %v", c, err)
	}
	c, _ = configOf(t, "", "", nil)
	if c.Client != "" || c.Filename != "DIR/.tmp/data.db" {
		t.Errorf("default: %+v", c)
	}
	// Strapi's generated database.js, fields and all.
	js := `const path = require('path');
module.exports = ({ env }) => ({ connection: { client: env('DATABASE_CLIENT', 'sqlite'),
  connection: env('DATABASE_CLIENT', 'sqlite') === 'sqlite' ? { filename: path.join(__dirname, '..', env('DATABASE_FILENAME', '.tmp/data.db')) } : {
    connectionString: env('DATABASE_URL'), host: env('DATABASE_HOST', 'localhost'), port: env.int('DATABASE_PORT', 5432),
    database: env('DATABASE_NAME', 'strapi'), user: env('DATABASE_USERNAME', 'strapi'), password: env('DATABASE_PASSWORD', 'p@ss'),
    ssl: env.bool('DATABASE_SSL', false) && { rejectUnauthorized: env.bool('DATABASE_SSL_REJECT_UNAUTHORIZED', true) },
    schema: env('DATABASE_SCHEMA', 'public') },
  pool: { min: 2, max: 10 } } });`
	c, err = configOf(t, "database.js", js, nil)
	if err != nil || c.Client != "sqlite" || c.Filename != "DIR/.tmp/data.db" {
		t.Errorf("sqlite: %+v %v", c, err)
	}
	c, err = configOf(t, "database.js", js, map[string]string{"DATABASE_CLIENT": "postgres", "DATABASE_SSL": "true", "DATABASE_SSL_REJECT_UNAUTHORIZED": "false"})
	if want := "postgres://strapi:p%40ss@localhost:5432/strapi?search_path=public&sslmode=require"; err != nil || c.URL != want || c.PoolMax != 10 {
		t.Errorf("postgres fields: %+v %v\nwant %s", c, err, want)
	}
	c, err = configOf(t, "database.js", js, map[string]string{"DATABASE_CLIENT": "postgres", "DATABASE_URL": "postgres://u@h:1/d?sslmode=prefer"})
	if want := "postgres://u@h:1/d?search_path=public&sslmode=prefer"; err != nil || c.URL != want {
		t.Errorf("postgres URL: %+v %v", c, err)
	}
	// A database.js is the project's word: DATABASE_URL does not override what it says.
	c, err = configOf(t, "database.js", `module.exports = { connection: { client: 'better-sqlite3', connection: { filename: 'db/x.db' } } };`,
		map[string]string{"DATABASE_CLIENT": "postgres", "DATABASE_URL": "postgres://x/y"})
	if err != nil || c.Client != "sqlite" || c.Filename != "DIR/db/x.db" {
		t.Errorf("better-sqlite3: %+v %v", c, err)
	}
	// MySQL and MariaDB: the same generated file with client mysql (or mysql2), its fields
	// or a connection string, and without a file the DATABASE_* variables.
	c, err = configOf(t, "database.js", js, map[string]string{"DATABASE_CLIENT": "mysql", "DATABASE_PORT": "3307"})
	if want := "mysql://strapi:p%40ss@localhost:3307/strapi"; err != nil || c.Client != "mysql" || c.URL != want {
		t.Errorf("mysql fields: %+v %v\nwant %s", c, err, want)
	}
	c, err = configOf(t, "database.js", js, map[string]string{"DATABASE_CLIENT": "mysql2", "DATABASE_SSL": "true", "DATABASE_SSL_REJECT_UNAUTHORIZED": "false"})
	if want := "mysql://strapi:p%40ss@localhost:5432/strapi?tls=skip-verify"; err != nil || c.Client != "mysql" || c.URL != want {
		t.Errorf("mysql2 ssl: %+v %v\nwant %s", c, err, want)
	}
	c, err = configOf(t, "database.js", js, map[string]string{"DATABASE_CLIENT": "mysql", "DATABASE_URL": "mysql://u:p@db:3306/cms"})
	if err != nil || c.URL != "mysql://u:p@db:3306/cms" {
		t.Errorf("mysql URL: %+v %v", c, err)
	}
	c, err = configOf(t, "", "", map[string]string{"DATABASE_CLIENT": "mysql", "DATABASE_HOST": "db", "DATABASE_NAME": "cms",
		"DATABASE_USERNAME": "u", "DATABASE_PASSWORD": "p w", "DATABASE_SSL": "true"})
	if want := "mysql://u:p%20w@db:3306/cms?tls=true"; err != nil || c.URL != want {
		t.Errorf("mysql env: %+v %v\nwant %s", c, err, want)
	}
	c, err = configOf(t, "", "", map[string]string{"DATABASE_CLIENT": "mysql", "DATABASE_URL": "mysql://root@127.0.0.1/x"})
	if err != nil || c.Client != "mysql" || c.URL != "mysql://root@127.0.0.1/x" {
		t.Errorf("mysql env URL: %+v %v", c, err)
	}
	if _, err = configOf(t, "", "", map[string]string{"DATABASE_CLIENT": "mysql", "DATABASE_HOST": "db", "DATABASE_PORT": "x"}); err == nil {
		t.Error("DATABASE_PORT=x accepted")
	}
}

// TestMySQLConfig: both URL forms give the driver settings Quarry's statements rely on.
func TestMySQLConfig(t *testing.T) {
	for _, in := range []string{"mysql://u:p@db:3307/cms?tls=false", "u:p@tcp(db:3307)/cms?multiStatements=true&interpolateParams=true&parseTime=false"} {
		cfg, err := mysqlConfig(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if cfg.User != "u" || cfg.Passwd != "p" || cfg.Addr != "db:3307" || cfg.DBName != "cms" {
			t.Errorf("%s: %+v", in, cfg)
		}
		if !cfg.ParseTime || cfg.MultiStatements || cfg.InterpolateParams || !cfg.ClientFoundRows || cfg.Loc.String() != "UTC" {
			t.Errorf("%s: driver settings %+v", in, cfg)
		}
	}
	if _, err := mysqlConfig("mysql://db/x?tls=maybe"); err == nil {
		t.Error("tls=maybe accepted")
	}
	if cfg, _ := mysqlConfig("mysql://db/x"); cfg.Addr != "db:3306" {
		t.Errorf("default port: %s", cfg.Addr)
	}
}

// SQLite reads through a memory map of DefaultMmapSize unless QUARRY_SQLITE_MMAP_SIZE says
// otherwise (0: off), on both the writers' and the readers' connections.
func TestSQLiteMmapSize(t *testing.T) {
	for _, tc := range []struct {
		env  string
		want int64
	}{{"", DefaultMmapSize}, {"0", 0}, {"1048576", 1 << 20}} {
		c, err := configOf(t, "", "", map[string]string{"QUARRY_SQLITE_MMAP_SIZE": tc.env})
		if err != nil {
			t.Fatalf("%q: %v", tc.env, err)
		}
		c.Filename = filepath.Join(t.TempDir(), "x.db")
		db, err := Open(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		for name, pool := range map[string]interface {
			QueryRowContext(context.Context, string, ...any) *sql.Row
		}{"writers": db.DB, "readers": db.readers} {
			var got int64
			if err := pool.QueryRowContext(context.Background(), "PRAGMA mmap_size").Scan(&got); err != nil || got != tc.want {
				t.Errorf("QUARRY_SQLITE_MMAP_SIZE=%q: %s' mmap_size %d (%v), want %d", tc.env, name, got, err, tc.want)
			}
		}
		db.Close()
	}
	if _, err := configOf(t, "", "", map[string]string{"QUARRY_SQLITE_MMAP_SIZE": "lots"}); err == nil {
		t.Error("QUARRY_SQLITE_MMAP_SIZE=lots accepted")
	}
}

// The newcomer's database settings (issue 28, item 8): a URL alone picks its engine, a URL
// of another engine than the client is named as such, an empty database name is named, and
// the start-up line describes the database actually opened.
func TestConfigForNewcomers(t *testing.T) {
	c, err := configOf(t, "", "", map[string]string{"DATABASE_URL": "postgres://u:secret@db:5432/app"})
	if err != nil || c.Client != "postgres" || c.Describe() != "postgres postgres://u:xxxxx@db:5432/app" {
		t.Errorf("DATABASE_URL alone: %+v %v %q", c, err, c.Describe())
	}
	if c, err = configOf(t, "", "", map[string]string{"DATABASE_URL": "mysql://root@db:3306/app"}); err != nil || c.Client != "mysql" {
		t.Errorf("mysql URL alone: %+v %v", c, err)
	}
	_, err = configOf(t, "", "", map[string]string{"DATABASE_CLIENT": "postgres", "DATABASE_URL": "mysql://root@db:3306/app"})
	if err == nil || !strings.Contains(err.Error(), "DATABASE_URL is a mysql URL") || !strings.Contains(err.Error(), "DATABASE_CLIENT=mysql") {
		t.Errorf("scheme against client: %v", err)
	}
	_, err = configOf(t, "", "", map[string]string{"DATABASE_CLIENT": "mysql", "DATABASE_URL": "mysql://root@db:3306/"})
	if err == nil || !strings.Contains(err.Error(), "names no database") {
		t.Errorf("mysql URL without a database: %v", err)
	}
	js := `module.exports = ({ env }) => ({ connection: { client: 'mysql', connection: {
  host: env('DATABASE_HOST', 'localhost'), database: env('DATABASE_NAME', 'strapi'), user: 'root' } } });`
	_, err = configOf(t, "database.js", js, map[string]string{"DATABASE_NAME": ""})
	if err == nil || !strings.Contains(err.Error(), "DATABASE_NAME") {
		t.Errorf("empty DATABASE_NAME: %v", err)
	}
	c, _ = configOf(t, "", "", nil)
	if got := c.Describe(); got != "sqlite DIR/.tmp/data.db" {
		t.Errorf("default describe: %q", got)
	}
}
