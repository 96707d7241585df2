package database

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/quarrycms/quarry/sqlgen"
)

// Describe names the database a configuration opens, without its password: the engine and
// the file or the redacted URL. Start-up lines and CLI commands print it, so a user sees
// which database is in use rather than a guess.
func (c Config) Describe() string {
	d, err := sqlgen.ByName(c.Client)
	if err != nil {
		return c.Client
	}
	if d == sqlgen.SQLite {
		return "sqlite " + c.Filename
	}
	if u, err := url.Parse(c.URL); err == nil && u.Host != "" {
		u.RawQuery = ""
		return d.Name() + " " + u.Redacted()
	}
	if d == sqlgen.MySQL {
		if cfg, err := mysqlConfig(c.URL); err == nil { // a driver DSN: name host and database only
			return fmt.Sprintf("mysql %s/%s", cfg.Addr, cfg.DBName)
		}
	}
	return d.Name()
}

// Where names the database db opened (Config.Describe).
func (db *DB) Where() string { return db.where }

// schemeClient is the client a connection URL's scheme names ("" for none or another).
func schemeClient(u string) string {
	scheme, _, ok := strings.Cut(u, "://")
	if !ok {
		return ""
	}
	switch strings.ToLower(scheme) {
	case "postgres", "postgresql":
		return "postgres"
	case "mysql", "mariadb":
		return "mysql"
	case "sqlite", "file":
		return "sqlite"
	}
	return ""
}

// checkClient settles the client from DATABASE_URL when DATABASE_CLIENT is unset (a URL
// alone used to run on SQLite without a word) and refuses a URL whose scheme names another
// engine than the client, which the driver would otherwise misread as keyword/value text.
func (c *Config) checkClient(urlFrom string) error {
	sc := schemeClient(c.URL)
	if c.Client == "" {
		if sc != "" && sc != "sqlite" {
			c.Client = sc
		}
		return nil
	}
	d, err := sqlgen.ByName(c.Client)
	if err != nil {
		return fmt.Errorf("DATABASE_CLIENT: %w", err)
	}
	if c.URL != "" && sc != "" && sc != d.Name() && d != sqlgen.SQLite {
		return fmt.Errorf("%s is a %s URL (%s://…) but the client is %s (DATABASE_CLIENT or config/database): set DATABASE_CLIENT=%s, or give a %s URL",
			urlFrom, sc, strings.SplitN(c.URL, "://", 2)[0], d.Name(), sc, d.Name())
	}
	return nil
}

// checkDatabaseName refuses a MySQL connection that names no database, which MySQL would
// only report at the first CREATE TABLE ("No database selected").
func (c *Config) checkDatabaseName(getenv func(string) string) error {
	if d, err := sqlgen.ByName(c.Client); err != nil || d != sqlgen.MySQL || c.URL == "" {
		return nil
	}
	cfg, err := mysqlConfig(c.URL)
	if err != nil || cfg.DBName != "" {
		return nil
	}
	if getenv("DATABASE_URL") == "" {
		return fmt.Errorf("the MySQL connection names no database: DATABASE_NAME (in the environment or .env, or connection.database in config/database) is empty; set it to the database to use")
	}
	return fmt.Errorf("the MySQL connection names no database: give DATABASE_URL a /DATABASE path (mysql://user@host:3306/strapi)")
}
