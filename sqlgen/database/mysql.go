package database

import (
	"context"
	"crypto/tls"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/schemas/projectconfig"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/sqlgen/sqlerr"
)

// mysqlURL turns knex's mysql/mysql2 connection into a mysql:// URL (openMySQL reads it):
// connectionString when given, else host, port, database, user and password.
func mysqlURL(p projectconfig.DatabaseParams) (string, error) {
	if p.ConnectionString != "" {
		if _, err := mysqlConfig(p.ConnectionString); err != nil {
			return "", fmt.Errorf("connection.connection.connectionString: %w", err)
		}
		return p.ConnectionString, nil
	}
	host := p.Host
	if host == "" {
		host = "localhost"
	}
	u := &url.URL{Scheme: "mysql", Host: net.JoinHostPort(host, strconv.Itoa(p.Port.Int(3306))), Path: "/" + p.Database}
	if p.User != "" {
		if p.Password != "" {
			u.User = url.UserPassword(p.User, p.Password)
		} else {
			u.User = url.User(p.User)
		}
	}
	if p.SSL.Enabled {
		q := url.Values{}
		// mysql2: ssl true verifies the server's certificate; {rejectUnauthorized: false}
		// encrypts without verifying.
		if p.SSL.RejectUnauthorized {
			q.Set("tls", "true")
		} else {
			q.Set("tls", "skip-verify")
		}
		u.RawQuery = q.Encode()
	}
	return u.String(), nil
}

// mysqlConfig reads a MySQL connection URL (mysql://user:password@host:port/db?param=value,
// as DATABASE_URL gives it to Strapi) or a Go driver DSN (user:password@tcp(host:port)/db),
// and sets what Quarry's statements rely on whatever the URL says: times in UTC, bind
// parameters sent apart from the text, one statement per query, found rows as the affected
// count (as PostgreSQL counts them), and Strapi's connection collation.
func mysqlConfig(s string) (*mysql.Config, error) {
	var cfg *mysql.Config
	if strings.HasPrefix(s, "mysql://") || strings.HasPrefix(s, "mariadb://") {
		u, err := url.Parse(s)
		if err != nil {
			return nil, err
		}
		cfg = mysql.NewConfig()
		cfg.Net = "tcp"
		cfg.Addr = u.Host
		if u.Port() == "" {
			cfg.Addr = net.JoinHostPort(u.Hostname(), "3306")
		}
		cfg.DBName = strings.TrimPrefix(u.Path, "/")
		if u.User != nil {
			cfg.User = u.User.Username()
			cfg.Passwd, _ = u.User.Password()
		}
		q := u.Query()
		switch v := q.Get("tls"); {
		case v == "" && (q.Get("ssl") == "true" || q.Get("sslmode") == "require"):
			cfg.TLS = &tls.Config{ServerName: u.Hostname()}
		case v == "true":
			cfg.TLS = &tls.Config{ServerName: u.Hostname()}
		case v == "skip-verify":
			cfg.TLS = &tls.Config{InsecureSkipVerify: true} // asked for: {rejectUnauthorized: false}
		case v == "" || v == "false":
		default:
			return nil, fmt.Errorf("tls=%q: use true, skip-verify or false", v)
		}
	} else {
		var err error
		if cfg, err = mysql.ParseDSN(s); err != nil {
			return nil, err
		}
	}
	cfg.ParseTime = true
	cfg.Loc = time.UTC
	cfg.InterpolateParams = false
	cfg.MultiStatements = false
	cfg.ClientFoundRows = true
	cfg.Collation = "utf8mb4_unicode_ci"
	if cfg.Params == nil {
		cfg.Params = map[string]string{}
	}
	// Datetimes are stored as UTC wall-clock times, as Strapi stores them.
	cfg.Params["time_zone"] = "'+00:00'"
	if cfg.Timeout == 0 {
		// An unreachable host must not hold requests for the kernel's TCP timeout.
		cfg.Timeout = 5 * time.Second
	}
	cfg.Logger = mysqlQuiet{}
	return cfg, nil
}

// mysqlQuiet drops the driver's own log lines (a connection the server closed): the error
// it returns reaches the request, which answers 503 and logs it rate-limited.
type mysqlQuiet struct{}

func (mysqlQuiet) Print(...any) {}

// openMySQL opens a pool whose connections release their named locks when a transaction
// ends (see lockConn).
func openMySQL(c Config, gate *dialGate, limit *atomic.Int64) (*sqlx.DB, error) {
	if c.URL == "" {
		return nil, fmt.Errorf("DATABASE_URL (or DATABASE_HOST and DATABASE_NAME) is required for mysql")
	}
	cfg, err := mysqlConfig(c.URL)
	if err != nil {
		return nil, fmt.Errorf("open mysql: %w", err)
	}
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, fmt.Errorf("open mysql: %w", err)
	}
	db := sqlx.NewDb(sql.OpenDB(gatedConnector{Connector: lockConnector{Connector: conn, limit: limit}, gate: gate, dialing: make(chan struct{}, maxDialing)}), "mysql")
	db.SetMaxOpenConns(20)
	db.SetMaxIdleConns(20)
	// Below the server's wait_timeout (8 hours by default, often lowered by hosts).
	db.SetConnMaxLifetime(30 * time.Minute)
	if c.PoolMax > 0 {
		db.SetMaxOpenConns(c.PoolMax)
		db.SetMaxIdleConns(max(c.PoolMin, min(c.PoolMax, 20)))
	}
	return db, nil
}

// MySQL's named locks (GET_LOCK, sqlgen's UniqueLock) belong to the session, not the
// transaction. PostgreSQL's advisory locks of the unique-value guarantee end with their
// transaction; here the connection that took one releases its locks as soon as its
// transaction commits or rolls back, before the pool hands it to anyone else. A connection
// knows it holds locks because it ran a statement starting with sqlgen.MySQLLockPrefix.

type lockConnector struct {
	driver.Connector
	// limit is the server-side bound on a statement, in milliseconds (0: none), set by
	// BoundStatements: a statement whose client left (its context passed, the driver closed
	// the connection) would otherwise run on in the server.
	limit *atomic.Int64
}

func (c lockConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		// Whatever refused the connection (the network, the server starting or shutting
		// down, too many connections), the request can be served later: 503, as pgx's
		// connect errors on PostgreSQL.
		return nil, fmt.Errorf("%w: %w", sqlerr.ErrUnavailable, err)
	}
	// Each statement sees what was committed before it, as on PostgreSQL: under InnoDB's
	// default REPEATABLE READ, a writer that read anything before waiting for a unique
	// value's lock would check the value against its stale snapshot and miss the row the
	// lock's previous holder committed. (MySQL and MariaDB name the variable differently;
	// the statement is the same on both.)
	if _, err := conn.(driver.ExecerContext).ExecContext(ctx, "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED", nil); err != nil {
		conn.Close()
		return nil, fmt.Errorf("%w: %w", sqlerr.ErrUnavailable, err)
	}
	if ms := c.limit.Load(); ms > 0 {
		// MariaDB's max_statement_time (seconds, every statement); MySQL 8 knows only
		// max_execution_time (milliseconds, SELECT).
		ex := conn.(driver.ExecerContext)
		if _, err := ex.ExecContext(ctx, fmt.Sprintf("SET SESSION max_statement_time = %g", float64(ms)/1000), nil); err != nil {
			if _, err := ex.ExecContext(ctx, fmt.Sprintf("SET SESSION max_execution_time = %d", ms), nil); err != nil {
				conn.Close()
				return nil, fmt.Errorf("%w: %w", sqlerr.ErrUnavailable, err)
			}
		}
	}
	return &lockConn{Conn: conn}, nil
}

// lockConn forwards every interface go-sql-driver's connection has, so database/sql keeps
// its fast paths.
type lockConn struct {
	driver.Conn
	locked, bad atomic.Bool
}

func (c *lockConn) note(query string) {
	if strings.HasPrefix(query, sqlgen.MySQLLockPrefix) {
		c.locked.Store(true)
	}
}

// release runs after a transaction ended. When it fails the connection is marked bad, so
// the pool drops it rather than hand its locks to the next request (the server frees them
// with the session); the transaction's own outcome stands.
func (c *lockConn) release() {
	if !c.locked.Load() {
		return
	}
	if _, err := c.Conn.(driver.ExecerContext).ExecContext(context.Background(), sqlgen.MySQLReleaseLocks, nil); err != nil {
		c.bad.Store(true)
		return
	}
	c.locked.Store(false)
}

func (c *lockConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	tx, err := c.Conn.(driver.ConnBeginTx).BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return lockTx{Tx: tx, c: c}, nil
}

func (c *lockConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	c.note(query)
	return c.Conn.(driver.ConnPrepareContext).PrepareContext(ctx, query)
}

func (c *lockConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	c.note(query)
	return c.Conn.(driver.ExecerContext).ExecContext(ctx, query, args)
}

func (c *lockConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	c.note(query)
	return c.Conn.(driver.QueryerContext).QueryContext(ctx, query, args)
}

func (c *lockConn) Ping(ctx context.Context) error { return c.Conn.(driver.Pinger).Ping(ctx) }

// ResetSession also releases locks a statement outside any transaction took.
func (c *lockConn) ResetSession(ctx context.Context) error {
	c.release()
	if c.bad.Load() {
		return driver.ErrBadConn
	}
	return c.Conn.(driver.SessionResetter).ResetSession(ctx)
}

func (c *lockConn) IsValid() bool { return !c.bad.Load() && c.Conn.(driver.Validator).IsValid() }

func (c *lockConn) CheckNamedValue(nv *driver.NamedValue) error {
	return c.Conn.(driver.NamedValueChecker).CheckNamedValue(nv)
}

type lockTx struct {
	driver.Tx
	c *lockConn
}

func (t lockTx) Commit() error {
	defer t.c.release()
	return t.Tx.Commit()
}

func (t lockTx) Rollback() error {
	defer t.c.release()
	return t.Tx.Rollback()
}

// inspectMySQL reads the current database's columns, indexes (unique keys are indexes on
// MySQL) and foreign keys from information_schema.
func (db *DB) inspectMySQL(ctx context.Context, st *schemaState, cols, idx *[]pair) error {
	if err := db.SelectContext(ctx, cols, `SELECT table_name AS a, column_name AS b FROM information_schema.columns WHERE table_schema = DATABASE()`); err != nil {
		return err
	}
	if err := db.SelectContext(ctx, idx, `SELECT DISTINCT table_name AS a, index_name AS b FROM information_schema.statistics WHERE table_schema = DATABASE() AND index_name <> 'PRIMARY'`); err != nil {
		return err
	}
	var fks []pair
	if err := db.SelectContext(ctx, &fks, `SELECT table_name AS a, constraint_name AS b FROM information_schema.table_constraints WHERE table_schema = DATABASE() AND constraint_type = 'FOREIGN KEY'`); err != nil {
		return err
	}
	for _, f := range fks {
		if st.constraints[f.A] == nil {
			st.constraints[f.A] = map[string]bool{}
		}
		st.constraints[f.A][f.B] = true
	}
	return nil
}

// urlFromEnv builds the connection URL of a postgres or mysql client from DATABASE_HOST,
// DATABASE_PORT, DATABASE_NAME, DATABASE_USERNAME, DATABASE_PASSWORD and DATABASE_SSL, the
// variables Strapi's generated config/database.js reads, for a project without that file.
func (c *Config) urlFromEnv(getenv func(string) string) error {
	p := projectconfig.DatabaseParams{Host: getenv("DATABASE_HOST"), Database: getenv("DATABASE_NAME"),
		User: getenv("DATABASE_USERNAME"), Password: getenv("DATABASE_PASSWORD")}
	if v := getenv("DATABASE_PORT"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 || n > 65535 {
			return fmt.Errorf("DATABASE_PORT: %q is not a port number", v)
		}
		port := projectconfig.FlexInt(n)
		p.Port = &port
	}
	if v := getenv("DATABASE_SSL"); v != "" {
		on, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("DATABASE_SSL: %q is not true or false", v)
		}
		p.SSL.Enabled = on
		p.SSL.RejectUnauthorized = getenv("DATABASE_SSL_REJECT_UNAUTHORIZED") != "false"
	}
	if p.Database == "" {
		p.Database = "strapi" // the generated file's default
	}
	var err error
	switch c.Client {
	case "mysql", "mysql2":
		c.URL, err = mysqlURL(p)
	case "postgres", "pg", "postgresql":
		c.URL, err = postgresURL(p)
	}
	return err
}

// BoundStatements bounds every later statement of the server's pool on the MySQL/MariaDB
// server by d (0: none): connections made from now on set it for their session, and the idle
// ones, made before (by the start-up's schema changes, which must not be cut), are dropped.
// Other databases need none: pgx cancels a statement on the PostgreSQL server when its
// context passes, and SQLite is interrupted in process.
func (db *DB) BoundStatements(d time.Duration) {
	if db.Dialect != sqlgen.MySQL || db.limit == nil {
		return
	}
	db.limit.Store(d.Milliseconds())
	db.DB.SetMaxIdleConns(0)
	db.DB.SetMaxIdleConns(db.idle)
}
