package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/transport/transfer"
	"github.com/quarrycms/quarry/transport/transfer/archive"
)

func init() {
	helps["backup"] = `Usage: quarry backup [-f FILE] [--key KEY] [--app DIR]

Takes a consistent copy of the app's data while a server keeps serving.

On SQLite the copy is the whole database file (VACUUM INTO: one snapshot; writers go on),
FILE defaulting to backup_YYYYMMDDHHMMSS.db. On PostgreSQL and MySQL it is the data archive
'quarry export' writes (content, files and configuration, from one snapshot), FILE
defaulting to backup_YYYYMMDDHHMMSS (.tar.gz, .tar.gz.enc with --key); the database's own
tools (pg_dump, mariadb-dump) copy everything else too (README, "Backups").

Restore with 'quarry restore -f FILE'.`
	helps["restore"] = `Usage: quarry restore -f FILE [--key KEY] [--app DIR]

Puts a backup back: a SQLite backup file (.db) replaces the database through SQLite's backup
API; a data archive (.tar, .tar.gz, .tar.gz.enc) is imported as 'quarry import --force'
does. Stop the servers of the app first: they would keep serving what they cached.`
}

func backup(ctx context.Context, args []string, stdout, stderr io.Writer, log *slog.Logger, getenv func(string) string) error {
	fs := newFlags("backup")
	dir := appFlag(fs)
	file := fs.String("file", "", "where to write the backup")
	fs.StringVar(file, "f", "", "shorthand for --file")
	key := fs.String("key", "", "encrypt an archive backup with this key (PostgreSQL, MySQL)")
	if _, err := parseFlags(fs, args, 0, stdout); err != nil {
		return err
	}
	a, err := openAdmin(ctx, *dir, getenv, log)
	if err != nil {
		return err
	}
	defer a.DB.Close()
	ctx, stop := signalContext(ctx)
	defer stop()
	stamp := time.Now().Format("20060102150405")
	p := newProgress("backup", stderr, log, getenv)
	if a.DB.Dialect == sqlgen.SQLite {
		if *file == "" {
			*file = "backup_" + stamp + ".db"
		}
		err := a.DB.BackupSQLite(ctx, *file, func(done, total int64) {
			p.update("database", done, total, done, total, done == total)
		})
		p.done()
		if err != nil {
			return interrupted(ctx, err, "no backup was written")
		}
		fmt.Fprintf(stdout, "backup written to %s\n", *file)
		return nil
	}
	if *file == "" {
		*file = "backup_" + stamp
	}
	base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(*file, ".enc"), ".gz"), ".tar")
	files, err := filesService(ctx, a, log)
	if err != nil {
		return err
	}
	w, err := archive.Create(base, archive.WriteOptions{Compress: true, Key: *key})
	if err != nil {
		return err
	}
	ex := &transfer.Export{DB: a.DB, Schema: a.Schema, Files: files, Log: log,
		Report: func(e transfer.Event) { p.update(e.Stage, e.Done, e.Total, e.Bytes, e.TotalBytes, e.Finished) }}
	res, err := ex.Run(ctx, w)
	p.done()
	if err != nil {
		w.Abort()
		return interrupted(ctx, err, "no backup was written")
	}
	if err := w.Close(ex.Metadata()); err != nil {
		return err
	}
	for _, warn := range res.Warnings {
		log.Warn(warn)
	}
	printCounts(stdout, "backed up", res)
	fmt.Fprintf(stdout, "backup written to %s\n", w.Path)
	return nil
}

func restore(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, log *slog.Logger, getenv func(string) string) error {
	fs := newFlags("restore")
	dir := appFlag(fs)
	file := fs.String("file", "", "the backup")
	fs.StringVar(file, "f", "", "shorthand for --file")
	key := fs.String("key", "", "the key of an encrypted archive")
	rest, err := parseFlags(fs, args, 0, stdout)
	if err != nil {
		return err
	}
	_ = rest
	if *file == "" {
		return &usageError{"restore", fmt.Errorf("restore needs the backup: -f FILE")}
	}
	st, err := os.Stat(*file)
	if err != nil {
		return err
	}
	if st.IsDir() || isArchiveName(*file) {
		return importData(ctx, []string{"--app", *dir, "-f", *file, "--key", *key, "--force"}, stdin, stdout, stderr, log, getenv)
	}
	a, err := openAdminWith(ctx, *dir, getenv, log, false)
	if err != nil {
		return err
	}
	defer a.DB.Close()
	if a.DB.Dialect != sqlgen.SQLite {
		return fmt.Errorf("%s is not a data archive; a %s database is restored with its own tools (README, \"Backups\")", *file, a.DB.Dialect.Name())
	}
	ctx, stop := signalContext(ctx)
	defer stop()
	if err := a.DB.RestoreSQLite(ctx, *file); err != nil {
		return interrupted(ctx, err, "the database is as it was")
	}
	fmt.Fprintf(stdout, "restored %s\n", *file)
	return nil
}

func isArchiveName(name string) bool {
	n := strings.ToLower(name)
	for _, s := range []string{".tar", ".tar.gz", ".tgz", ".tar.enc", ".tar.gz.enc"} {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	return false
}
