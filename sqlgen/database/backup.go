package database

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"time"

	"modernc.org/sqlite"

	"github.com/quarrycms/quarry/sqlgen"
)

// BackupSQLite writes a consistent copy of a SQLite database to path (which must not exist)
// while the database serves: VACUUM INTO reads one snapshot in one read transaction, so
// writers go on and the copy is compact. progress, when set, is called about every 200 ms
// with the bytes written so far and the database's size. The copy appears under path only
// once complete.
func (db *DB) BackupSQLite(ctx context.Context, path string, progress func(done, total int64)) error {
	if db.Dialect != sqlgen.SQLite {
		return fmt.Errorf("a file backup needs SQLite (the database is %s)", db.Dialect.Name())
	}
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("%s exists; a backup does not overwrite", path)
	}
	var total int64
	if err := db.QueryRowContext(ctx, sqlgen.SQLitePageBytes).Scan(&total); err != nil {
		return fmt.Errorf("size of the database: %w", err)
	}
	tmp := path + ".partial"
	os.Remove(tmp)
	done := make(chan struct{})
	if progress != nil {
		go func() {
			tick := time.NewTicker(200 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-done:
					return
				case <-tick.C:
					if st, err := os.Stat(tmp); err == nil {
						progress(st.Size(), total)
					}
				}
			}
		}()
	}
	s := sqlgen.SQLiteVacuumInto(tmp)
	_, err := db.DB.ExecContext(ctx, s.SQL, s.Args...)
	close(done)
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("backup: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	if progress != nil {
		if st, err := os.Stat(path); err == nil {
			progress(st.Size(), st.Size())
		}
	}
	return nil
}

// backupConn is what modernc's connections offer for SQLite's online backup API.
type backupConn interface {
	NewRestore(srcURI string) (*sqlite.Backup, error)
}

// RestoreSQLite replaces the database's content with the SQLite file at path (a backup),
// through SQLite's online backup API: one step, under the write lock, so a reader sees the
// old database or the new one. The file is checked first (PRAGMA quick_check).
func (db *DB) RestoreSQLite(ctx context.Context, path string) error {
	if db.Dialect != sqlgen.SQLite {
		return fmt.Errorf("a file restore needs SQLite (the database is %s)", db.Dialect.Name())
	}
	if _, err := os.Stat(path); err != nil {
		return err
	}
	src, err := sql.Open("sqlite", "file:"+path+"?mode=ro&"+url.Values{"_pragma": {"query_only(1)"}}.Encode())
	if err != nil {
		return err
	}
	var check string
	err = src.QueryRowContext(ctx, sqlgen.SQLiteQuickCheck).Scan(&check)
	src.Close()
	if err != nil {
		return fmt.Errorf("%s is not a SQLite database: %w", path, err)
	}
	if check != "ok" {
		return fmt.Errorf("%s is damaged: %s", path, check)
	}
	conn, err := db.txPool.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		bc, ok := dc.(backupConn)
		if !ok {
			return errors.New("the SQLite driver has no backup API")
		}
		b, err := bc.NewRestore(path)
		if err != nil {
			return fmt.Errorf("restore: %w", err)
		}
		if _, err := b.Step(-1); err != nil {
			b.Finish()
			return fmt.Errorf("restore: %w", err)
		}
		return b.Finish()
	})
}
