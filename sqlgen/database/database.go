// Package database opens the app's configured database (embedded SQLite by default,
// PostgreSQL or MySQL/MariaDB on request) and brings its tables up to the layout the schema needs.
package database

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/jmoiron/sqlx"
	_ "modernc.org/sqlite"

	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/schemas/projectconfig"
	"github.com/quarrycms/quarry/sqlgen"
)

func init() {
	// modernc registers "sqlite", which sqlx does not know; it uses '?' placeholders.
	sqlx.BindDriver("sqlite", sqlx.QUESTION)
}

// Config says which database to use.
type Config struct {
	Client   string // sqlite | postgres | mysql
	URL      string // postgres or mysql connection URL
	Filename string // sqlite file
	// FilenameDefault tells that no setting named the file (Filename is .tmp/data.db).
	FilenameDefault bool
	// BusyTimeout is how long a SQLite writer waits for another process's write lock
	// before the request answers 503 (DATABASE_BUSY_TIMEOUT, in milliseconds).
	BusyTimeout time.Duration
	// MmapSize is how many bytes of a SQLite file its connections read through a memory map
	// (PRAGMA mmap_size; QUARRY_SQLITE_MMAP_SIZE): zero means DefaultMmapSize, negative off.
	MmapSize int64
	// Log receives the connection state changes (unreachable, reachable again).
	Log *slog.Logger
	// PoolMin and PoolMax size the connection pool (0: the defaults).
	PoolMin, PoolMax int
	// ConnectWait is how long Open waits for a database that does not answer yet
	// (connection.acquireConnectionTimeout or pool.acquireTimeoutMillis, the smaller;
	// DefaultConnectWait in ConfigFor). Zero: one attempt.
	ConnectWait time.Duration
	// Replicas are PostgreSQL read replicas' connection URLs (connection.replicas in
	// config/database.*, or QUARRY_DATABASE_REPLICAS, comma-separated).
	Replicas []string
}

// DefaultBusyTimeout is SQLite's wait for the write lock when DATABASE_BUSY_TIMEOUT is
// not set.
const DefaultBusyTimeout = 5 * time.Second

// DefaultMmapSize is the part of a SQLite file read through a memory map when
// QUARRY_SQLITE_MMAP_SIZE is not set. Without it each of the read pool's connections keeps
// its own 2 MB page cache and reads every other page with a system call: at 10 000 articles
// a list's count and a populate=* page cost a quarter more CPU (bench/README.md, "SQLite").
// A map shares the operating system's page cache between connections; pages still in the
// write-ahead log are read as before.
const DefaultMmapSize = 256 << 20

// ConfigFor reads the project's database configuration (config/database.{js,ts,json} and
// its env override, through projectconfig) and the DATABASE_* environment variables.
//
// A database.js or .ts file is the project's own word, as in Strapi: its values (which read
// the environment through env()) are used as they are. With a database.json file or none,
// DATABASE_CLIENT, DATABASE_URL and DATABASE_FILENAME win over it, as they always have.
func ConfigFor(appDir string, proj *projectconfig.Project, typed *projectconfig.Database, getenv func(string) string) (Config, error) {
	var c Config
	fromScript := false
	if typed != nil {
		files := proj.Files("database")
		for _, f := range files {
			fromScript = fromScript || !strings.HasSuffix(f, ".json")
		}
		src := strings.Join(files, ", ")
		dc := typed.Connection
		switch dc.Client {
		case "", "sqlite", "sqlite3", "better-sqlite3", "@vscode/sqlite3":
			if dc.Client != "" {
				c.Client = "sqlite"
			}
			c.Filename = dc.Connection.Filename
		case "postgres", "pg":
			c.Client = "postgres"
			u, err := postgresURL(dc.Connection)
			if err != nil {
				return c, fmt.Errorf("%s: %w", src, err)
			}
			c.URL = u
		case "mysql", "mysql2":
			c.Client = "mysql"
			u, err := mysqlURL(dc.Connection)
			if err != nil {
				return c, fmt.Errorf("%s: %w", src, err)
			}
			c.URL = u
		}
		for _, ms := range []*projectconfig.FlexInt{dc.AcquireConnectionTimeout, dc.Pool.AcquireTimeoutMillis} {
			// knex takes the smallest of the two that are set.
			if w := time.Duration(ms.Int(0)) * time.Millisecond; ms != nil && w > 0 && (c.ConnectWait == 0 || w < c.ConnectWait) {
				c.ConnectWait = w
			}
		}
		c.PoolMin = dc.Pool.Min.Int(0)
		c.PoolMax = dc.Pool.Max.Int(0)
		c.Replicas = dc.Replicas
	}
	if v := getenv("QUARRY_DATABASE_REPLICAS"); v != "" {
		c.Replicas = nil
		for _, u := range strings.Split(v, ",") {
			if u = strings.TrimSpace(u); u != "" {
				c.Replicas = append(c.Replicas, u)
			}
		}
	}
	if !fromScript {
		if v := getenv("DATABASE_CLIENT"); v != "" {
			c.Client = v
		}
		if v := getenv("DATABASE_URL"); v != "" {
			c.URL = v
		}
		if v := getenv("DATABASE_FILENAME"); v != "" {
			c.Filename = v
		}
	}
	urlFrom := "DATABASE_URL"
	if fromScript || getenv("DATABASE_URL") == "" {
		urlFrom = "the connection URL of config/database"
	}
	if err := c.checkClient(urlFrom); err != nil {
		return c, err
	}
	if !fromScript && c.URL == "" && getenv("DATABASE_HOST") != "" {
		// Strapi's generated config/database.js reads these; without the file they mean the same.
		if err := c.urlFromEnv(getenv); err != nil {
			return c, err
		}
	}
	if c.ConnectWait == 0 {
		c.ConnectWait = DefaultConnectWait
	}
	if err := c.checkDatabaseName(getenv); err != nil {
		return c, err
	}
	c.BusyTimeout = DefaultBusyTimeout
	if v := getenv("DATABASE_BUSY_TIMEOUT"); v != "" {
		ms, err := strconv.Atoi(v)
		if err != nil || ms < 0 {
			return c, fmt.Errorf("DATABASE_BUSY_TIMEOUT: %q is not a number of milliseconds", v)
		}
		c.BusyTimeout = time.Duration(ms) * time.Millisecond
	}
	if v := getenv("QUARRY_SQLITE_MMAP_SIZE"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return c, fmt.Errorf("QUARRY_SQLITE_MMAP_SIZE: %q is not a number of bytes", v)
		}
		c.MmapSize = n
		if n == 0 {
			c.MmapSize = -1
		}
	}
	if c.Filename == "" {
		c.Filename = filepath.Join(".tmp", "data.db")
		c.FilenameDefault = true
	}
	// Strapi resolves the file against its working directory, the project folder.
	if !filepath.IsAbs(c.Filename) {
		c.Filename = filepath.Join(appDir, c.Filename)
	}
	return c, nil
}

// postgresURL turns knex's PostgreSQL connection into a pgx URL: connectionString when given
// (node-postgres lets the separate fields fill what it lacks; here it is taken whole, with
// schema and ssl added), else host, port, database, user and password.
func postgresURL(p projectconfig.DatabaseParams) (string, error) {
	var u *url.URL
	if p.ConnectionString != "" {
		var err error
		if u, err = url.Parse(p.ConnectionString); err != nil {
			return "", fmt.Errorf("connection.connection.connectionString: %w", err)
		}
	} else {
		host := p.Host
		if host == "" {
			host = "localhost"
		}
		port := p.Port.Int(5432)
		u = &url.URL{Scheme: "postgres", Host: net.JoinHostPort(host, strconv.Itoa(port)), Path: "/" + p.Database}
		if p.User != "" {
			if p.Password != "" {
				u.User = url.UserPassword(p.User, p.Password)
			} else {
				u.User = url.User(p.User)
			}
		}
	}
	q := u.Query()
	if q.Get("sslmode") == "" {
		// node-postgres: no TLS unless asked; ssl: true verifies the certificate,
		// {rejectUnauthorized: false} encrypts without verifying.
		switch {
		case !p.SSL.Enabled:
			q.Set("sslmode", "disable")
		case p.SSL.RejectUnauthorized:
			q.Set("sslmode", "verify-full")
		default:
			q.Set("sslmode", "require")
		}
	}
	if p.Schema != "" && q.Get("search_path") == "" {
		q.Set("search_path", string(p.Schema))
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// DB is an open database with its dialect.
type DB struct {
	*sqlx.DB
	Dialect sqlgen.Dialect
	// gate bounds the dial rate to a PostgreSQL server that fails (nil on SQLite).
	gate *dialGate
	// limit is MySQL's server-side statement bound in milliseconds (BoundStatements).
	limit *atomic.Int64
	idle  int // MySQL's idle connections kept (BoundStatements restores it)
	logs  logLimiter
	// writeTurn serializes SQLite's write transactions in process (see BeginTxx);
	// busyTimeout bounds the wait for a turn.
	writeTurn   chan struct{}
	busyTimeout time.Duration
	// replicas take a request's reads when they have caught up (replicas.go); nil: none.
	replicas *replicaSet
	// url is the PostgreSQL connection URL, for the settings listener (notify.go).
	url string
	// readers is SQLite's pool for reads outside transactions (nil elsewhere): under WAL
	// they see every committed write at once and never wait for a writer.
	readers *sqlx.DB
	// stmts keeps the readers' statements prepared (stmtcache.go; nil elsewhere).
	stmts *stmtCache
	// txPool is SQLite's one connection for write transactions (BeginTxx; nil elsewhere):
	// one connection, so that a commit can find it again afterwards (sqlitewrites.go).
	txPool *sqlx.DB
	// sqliteTx is SQLite's write transaction in progress when tracking is on.
	sqliteTx atomic.Pointer[sqliteTx]
	// steps are the position changes of SQLite commits whose tables are known.
	steps stepLog
	// position answers SQLite's change position (position.go); nil elsewhere.
	position *positionConn
	// writes are the tables recent write transactions wrote (writes.go), recorded by
	// Commit when tracking is on.
	writes   writeLog
	tracking atomic.Bool
	// writeRecord is sqlgen.WriteRecord for the server's version (set before tracking).
	writeRecord string
	// where names the database opened (Config.Describe).
	where string
}

// Open connects to the configured database.
func Open(ctx context.Context, c Config) (*DB, error) {
	d, err := sqlgen.ByName(c.Client)
	if err != nil {
		return nil, err
	}
	var db, readers, txPool *sqlx.DB
	var gate *dialGate
	var limit *atomic.Int64 // MySQL's statement bound (BoundStatements)
	switch d {
	case sqlgen.SQLite:
		if err := os.MkdirAll(filepath.Dir(c.Filename), 0o755); err != nil {
			return nil, fmt.Errorf("create database folder: %w", err)
		}
		q := url.Values{}
		// WAL and a busy timeout let `quarry tokens create` write while a server runs on the
		// same file; case_sensitive_like makes $contains case-sensitive as on PostgreSQL.
		// Readers never wait for a writer under WAL; a writer waits at most BusyTimeout for
		// another one (then the request answers 503).
		busy := c.BusyTimeout
		if busy == 0 {
			busy = DefaultBusyTimeout
		}
		for _, p := range []string{"journal_mode(WAL)", fmt.Sprintf("busy_timeout(%d)", busy.Milliseconds()), "foreign_keys(1)", "case_sensitive_like(1)", "synchronous(NORMAL)"} {
			q.Add("_pragma", p)
		}
		mmap := c.MmapSize
		if mmap == 0 {
			mmap = DefaultMmapSize
		}
		if mmap > 0 {
			q.Add("_pragma", fmt.Sprintf("mmap_size(%d)", mmap))
		}
		// Reads outside transactions get a pool of their own (query_only), so that they
		// never queue behind a write for a connection; write transactions run one at a time
		// (writeTurn) on a connection of their own (txPool), and the writers' pool takes the
		// statements outside one.
		rq := url.Values{"_pragma": append(slices.Clone(q["_pragma"]), "query_only(1)")}
		q.Set("_txlock", "immediate")
		db, err = sqlx.Open("sqlite", "file:"+c.Filename+"?"+q.Encode())
		if err != nil {
			return nil, fmt.Errorf("open sqlite %s: %w", c.Filename, err)
		}
		db.SetMaxOpenConns(2)
		if readers, err = sqlx.Open("sqlite", "file:"+c.Filename+"?"+rq.Encode()); err != nil {
			db.Close()
			return nil, fmt.Errorf("open sqlite %s: %w", c.Filename, err)
		}
		readers.SetMaxOpenConns(8)
		readers.SetMaxIdleConns(8)
		if txPool, err = sqlx.Open("sqlite", "file:"+c.Filename+"?"+q.Encode()); err != nil {
			db.Close()
			readers.Close()
			return nil, fmt.Errorf("open sqlite %s: %w", c.Filename, err)
		}
		txPool.SetMaxOpenConns(1)
		txPool.SetMaxIdleConns(1)
	case sqlgen.MySQL:
		gate = &dialGate{now: time.Now}
		limit = new(atomic.Int64)
		if db, err = openMySQL(c, gate, limit); err != nil {
			return nil, err
		}
	case sqlgen.Postgres:
		if c.URL == "" {
			return nil, errors.New("DATABASE_URL is required for postgres")
		}
		cfg, err := pgx.ParseConfig(c.URL)
		if err != nil {
			return nil, fmt.Errorf("open postgres: %w", err)
		}
		if cfg.ConnectTimeout == 0 {
			// An unreachable host (packets dropped) must not hold requests for the
			// kernel's minutes-long TCP timeout.
			cfg.ConnectTimeout = 5 * time.Second
		}
		gate = &dialGate{now: time.Now}
		db = sqlx.NewDb(sql.OpenDB(gatedConnector{Connector: stdlib.GetConnector(*cfg), gate: gate, dialing: make(chan struct{}, maxDialing)}), "pgx")
		db.SetMaxOpenConns(20)
		db.SetMaxIdleConns(20)
		if c.PoolMax > 0 {
			db.SetMaxOpenConns(c.PoolMax)
			db.SetMaxIdleConns(max(c.PoolMin, min(c.PoolMax, 20)))
		}
	}
	out := &DB{DB: db, Dialect: d, gate: gate, url: c.URL, readers: readers, txPool: txPool, where: c.Describe(), limit: limit, idle: 20}
	if c.PoolMax > 0 {
		out.idle = max(c.PoolMin, min(c.PoolMax, 20))
	}
	if len(c.Replicas) > 0 {
		if d != sqlgen.Postgres {
			db.Close()
			return nil, fmt.Errorf("read replicas need PostgreSQL (the database is %s)", d.Name())
		}
		if out.replicas, err = openReplicas(c.Replicas, c.PoolMax, c.Log); err != nil {
			db.Close()
			return nil, err
		}
	}
	if d == sqlgen.SQLite {
		out.stmts = newStmtCache(readers, stmtCacheSize)
		out.writeTurn = make(chan struct{}, 1)
		out.position = &positionConn{file: c.Filename}
		out.busyTimeout = c.BusyTimeout
		if out.busyTimeout == 0 {
			out.busyTimeout = DefaultBusyTimeout
		}
	}
	if d != sqlgen.SQLite {
		if err := waitReachable(ctx, db, gate, c, d.Name()); err != nil {
			db.Close()
			return nil, err
		}
	}
	if gate != nil {
		gate.onChange = func(up bool, failures int, err error) {
			if c.Log == nil {
				return
			}
			if up {
				// Warn, like the failure it ends, so that both show at the same level.
				c.Log.Warn("database reachable again", "failed_attempts", failures)
			} else {
				c.Log.Error("database unreachable; retrying with back-off", "err", err)
			}
		}
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to %s: %w", d.Name(), err)
	}
	return out, nil
}

// Migrate creates the tables, columns, indexes, unique constraints and foreign keys of the
// layout that are missing, and nothing else: on a database Strapi created it changes
// nothing. It never drops anything but index names earlier Quarry versions created, so it is
// safe to run from every command and concurrently with a running server.
func (db *DB) Migrate(ctx context.Context, s *schemas.Schema, log *slog.Logger) error {
	return db.MigrateWith(ctx, s, log, MigrateOptions{})
}

// MigrateWith is Migrate that also makes the schema changes Strapi's sync makes beyond
// additions (changes.go): those that lose nothing always, those that lose data with
// o.Lossy (else it stops and names them, unless o.PlanOnly). With o.CheckOnly it changes
// nothing and logs what differs.
func (db *DB) MigrateWith(ctx context.Context, s *schemas.Schema, log *slog.Logger, o MigrateOptions) error {
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.CheckOnly {
		return db.checkSchema(ctx, s, log)
	}
	layout := sqlgen.Layout(db.Dialect, s)
	have, err := db.inspect(ctx)
	if err != nil {
		return fmt.Errorf("inspect database: %w", err)
	}
	created := map[string]bool{}
	for _, t := range layout {
		cols := have.columns[t.Name]
		if len(cols) == 0 {
			if _, err := db.ExecContext(ctx, db.Dialect.CreateTable(t)); err != nil {
				return fmt.Errorf("create table %s: %w", t.Name, err)
			}
			created[t.Name] = true
			continue
		}
		for _, c := range t.Columns {
			if cols[c.Name] {
				continue
			}
			if _, err := db.ExecContext(ctx, db.Dialect.AddColumn(t.Name, c)); err != nil {
				return fmt.Errorf("add column %s.%s: %w", t.Name, c.Name, err)
			}
			log.Info("added column", "table", t.Name, "column", c.Name)
		}
	}
	if err := db.migrateChanges(ctx, s, o, log); err != nil {
		return err
	}
	// A SQLite rebuild dropped its table's indexes: they are created again below.
	if have, err = db.inspect(ctx); err != nil {
		return fmt.Errorf("inspect database: %w", err)
	}
	for _, name := range sqlgen.LegacyIndexes(s) {
		if have.indexes[name] && !have.constraintIndexes[name] {
			if _, err := db.ExecContext(ctx, db.Dialect.DropIndex(have.indexTables[name], name)); err != nil {
				return fmt.Errorf("drop index %s: %w", name, err)
			}
			log.Info("dropped an index Strapi does not know", "index", name)
		}
	}
	for _, t := range layout {
		for _, ix := range t.Indexes {
			switch {
			case have.constraintIndexes[ix.Name]:
				continue
			case have.indexes[ix.Name]:
				if !ix.Unique || db.Dialect != sqlgen.Postgres { // MySQL: a unique key is an index
					continue
				}
				if _, err := db.ExecContext(ctx, sqlgen.PostgresUniqueFromIndex(t.Name, ix.Name)); err != nil {
					log.Warn("could not turn a unique index into Strapi's constraint", "index", ix.Name, "err", err)
				}
			default:
				if _, err := db.ExecContext(ctx, db.Dialect.CreateIndex(t.Name, ix)); err != nil {
					return fmt.Errorf("create index %s: %w", ix.Name, err)
				}
			}
		}
	}
	if db.Dialect == sqlgen.SQLite {
		return nil // declared in CREATE TABLE
	}
	for _, t := range layout {
		for _, fk := range t.ForeignKeys {
			if have.constraints[t.Name][fk.Name] {
				continue
			}
			if old := have.foreignKeys[t.Name+"."+fk.Column+">"+fk.RefTable]; old != "" && db.Dialect == sqlgen.Postgres {
				if _, err := db.ExecContext(ctx, sqlgen.PostgresRenameConstraint(t.Name, old, fk.Name)); err != nil {
					return fmt.Errorf("rename foreign key %s: %w", old, err)
				}
				continue
			}
			if _, err := db.ExecContext(ctx, db.Dialect.AddForeignKey(t.Name, fk)); err != nil {
				if created[t.Name] {
					return fmt.Errorf("create foreign key %s: %w", fk.Name, err)
				}
				// An existing table may hold rows the key refuses; serving goes on without it.
				log.Warn("could not add a foreign key", "table", t.Name, "key", fk.Name, "err", err)
			}
		}
	}
	return nil
}

// StoredType returns a function telling the attribute type a stored column serves (for the
// schema loader's unmapped custom fields); tables are read once each, a missing one has none.
func (db *DB) StoredType(ctx context.Context) func(table, column string) (schemas.AttrType, bool) {
	cache := map[string]map[string]string{}
	return func(table, column string) (schemas.AttrType, bool) {
		cols, ok := cache[table]
		if !ok {
			var rows []struct {
				Name string `db:"name"`
				Type string `db:"type"`
			}
			var err error
			switch db.Dialect {
			case sqlgen.Postgres:
				err = db.SelectContext(ctx, &rows, `SELECT column_name AS name, data_type AS type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`, table)
			case sqlgen.MySQL:
				err = db.SelectContext(ctx, &rows, `SELECT column_name AS name, data_type AS type FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ?`, table)
			default:
				err = db.SelectContext(ctx, &rows, `SELECT name, type FROM pragma_table_info(?)`, table)
			}
			cols = map[string]string{}
			if err == nil {
				for _, r := range rows {
					cols[strings.ToLower(r.Name)] = r.Type
				}
			}
			cache[table] = cols
		}
		t, ok := cols[column]
		if !ok {
			return "", false
		}
		return sqlgen.AttrTypeOf(t)
	}
}

// schemaState is what a database holds: columns per table, index names, the indexes that
// back a unique or primary-key constraint, constraint names per table and, for PostgreSQL,
// the name of the foreign key per "table.column>referenced table".
type schemaState struct {
	columns           map[string]map[string]bool
	indexes           map[string]bool
	indexTables       map[string]string // index name -> its table
	constraintIndexes map[string]bool
	constraints       map[string]map[string]bool
	foreignKeys       map[string]string
}

// pair is a row of two names read while inspecting (table and column, table and index).
type pair struct {
	A string `db:"a"`
	B string `db:"b"`
}

func (db *DB) inspect(ctx context.Context) (*schemaState, error) {
	st := &schemaState{columns: map[string]map[string]bool{}, indexes: map[string]bool{}, indexTables: map[string]string{},
		constraintIndexes: map[string]bool{}, constraints: map[string]map[string]bool{}, foreignKeys: map[string]string{}}
	var cols, idx []pair
	if db.Dialect == sqlgen.Postgres {
		if err := db.SelectContext(ctx, &cols, `SELECT table_name AS a, column_name AS b FROM information_schema.columns WHERE table_schema = current_schema()`); err != nil {
			return nil, err
		}
		if err := db.SelectContext(ctx, &idx, `SELECT tablename AS a, indexname AS b FROM pg_indexes WHERE schemaname = current_schema()`); err != nil {
			return nil, err
		}
		var cons []struct {
			Table   string         `db:"tbl"`
			Name    string         `db:"name"`
			Type    string         `db:"contype"`
			Index   sql.NullString `db:"idx"`
			Column  sql.NullString `db:"col"`
			RefName sql.NullString `db:"ref"`
		}
		err := db.SelectContext(ctx, &cons, `SELECT c.conrelid::regclass::text AS tbl, c.conname AS name, c.contype::text AS contype,
			i.relname AS idx, a.attname AS col, r.relname AS ref
			FROM pg_constraint c
			LEFT JOIN pg_class i ON i.oid = c.conindid AND c.contype IN ('u', 'p')
			LEFT JOIN pg_attribute a ON c.contype = 'f' AND array_length(c.conkey, 1) = 1 AND a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
			LEFT JOIN pg_class r ON c.contype = 'f' AND r.oid = c.confrelid
			WHERE c.connamespace = current_schema()::regnamespace`)
		if err != nil {
			return nil, err
		}
		for _, c := range cons {
			tbl := strings.Trim(c.Table, `"`)
			if st.constraints[tbl] == nil {
				st.constraints[tbl] = map[string]bool{}
			}
			st.constraints[tbl][c.Name] = true
			if c.Index.Valid {
				st.constraintIndexes[c.Index.String] = true
			}
			if c.Type == "f" && c.Column.Valid && c.RefName.Valid {
				st.foreignKeys[tbl+"."+c.Column.String+">"+c.RefName.String] = c.Name
			}
		}
	} else if db.Dialect == sqlgen.MySQL {
		if err := db.inspectMySQL(ctx, st, &cols, &idx); err != nil {
			return nil, err
		}
	} else {
		if err := db.SelectContext(ctx, &cols, `SELECT m.name AS a, p.name AS b FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table'`); err != nil {
			return nil, err
		}
		if err := db.SelectContext(ctx, &idx, `SELECT tbl_name AS a, name AS b FROM sqlite_master WHERE type = 'index'`); err != nil {
			return nil, err
		}
	}
	for _, c := range cols {
		if st.columns[c.A] == nil {
			st.columns[c.A] = map[string]bool{}
		}
		st.columns[c.A][strings.ToLower(c.B)] = true
	}
	for _, i := range idx {
		st.indexes[i.B] = true
		st.indexTables[i.B] = i.A
	}
	return st, nil
}

func (db *DB) columns(ctx context.Context, table string) (map[string]bool, error) {
	st, err := db.inspect(ctx)
	if err != nil {
		return nil, err
	}
	return st.columns[table], nil
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
	return db.Commit(ctx, tx)
}
