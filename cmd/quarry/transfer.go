package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/quarrycms/quarry/transport/app"
	"github.com/quarrycms/quarry/transport/plugins/upload"
	"github.com/quarrycms/quarry/transport/transfer"
	"github.com/quarrycms/quarry/transport/transfer/archive"
)

func init() {
	helps["import"] = `Usage: quarry import -f FILE [--key KEY] [--force] [--only GROUPS] [--exclude GROUPS] [--app DIR]

Replaces the content of the app's database with a data file written by 'strapi export' (Strapi
4.6 and later) or 'quarry export': FILE.tar, .tar.gz, .tar.gz.enc (give its --key), or the same
archive unpacked into a folder. As 'strapi import' does, it deletes every entry (users, roles,
files and locales included; not the admin's users and tokens), creates the archive's entries
with new ids in archive order, links them, stores the files with the configured upload
provider and replaces the core store and the webhooks. It refuses an archive whose schemas
differ from the app's and names the types and attributes (--force imports anyway, leaving
out what the app does not have). It is one transaction: interrupted or failed, the database
is left as it was.

GROUPS is a comma-separated list of content (entries and their links), files (the media
files) and config (core store and webhooks).`
	helps["export"] = `Usage: quarry export [-f NAME] [--key KEY | --no-encrypt] [--no-compress] [--only GROUPS] [--exclude GROUPS] [--app DIR]

Writes the app's content as 'strapi export' does: NAME.tar.gz.enc (NAME defaults to
export_YYYYMMDDHHMMSS; .gz is left out with --no-compress, .enc with --no-encrypt, and an
encrypted archive needs --key). 'strapi import' and 'quarry import' read it. The archive
appears under its name only once complete.`
}

// signalContext is ctx ended by Ctrl-C or SIGTERM, so that a long command stops cleanly.
func signalContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
}

// interrupted turns a cancelled command's error into what it means for the user.
func interrupted(ctx context.Context, err error, what string) error {
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("interrupted: %s", what)
	}
	return err
}

func groupFlags(fs interface {
	String(name, value, usage string) *string
}) (only, exclude *string) {
	only = fs.String("only", "", "only these data groups (plus schemas): content, files, config")
	exclude = fs.String("exclude", "", "leave out these data groups: content, files, config")
	return
}

func parseFilter(only, exclude string) (transfer.Filter, error) {
	var f transfer.Filter
	var err error
	if f.Only, err = transfer.ParseGroups("only", only); err != nil {
		return f, err
	}
	if f.Exclude, err = transfer.ParseGroups("exclude", exclude); err != nil {
		return f, err
	}
	return f, f.Check()
}

// filesService is the app's media library for a transfer (nil when the upload plugin is off).
func filesService(ctx context.Context, a *app.App, log *slog.Logger) (*upload.Service, error) {
	if !a.PluginEnabled("upload") {
		return nil, nil
	}
	cfg, err := upload.ParseConfig(a.Dir, a.Config.JSON("plugins"), a.Getenv)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", strings.Join(a.Config.Files("plugins"), ", "), err)
	}
	return upload.NewFromConfig(ctx, cfg, a.Schema, a.DB, log)
}

func importData(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, log *slog.Logger, getenv func(string) string) error {
	fs := newFlags("import")
	dir := appFlag(fs)
	file := fs.String("file", "", "the data file (.tar, .tar.gz, .tar.gz.enc) or unpacked folder")
	fs.StringVar(file, "f", "", "shorthand for --file")
	key := fs.String("key", "", "the key of an encrypted (.enc) data file")
	fs.StringVar(key, "k", "", "shorthand for --key")
	force := fs.Bool("force", false, "do not ask, and import even when the schemas differ")
	only, exclude := groupFlags(fs)
	if _, err := parseFlags(fs, args, 0, stdout); err != nil {
		return err
	}
	if *file == "" {
		return &usageError{"import", errors.New("import needs the data file: -f FILE")}
	}
	filter, err := parseFilter(*only, *exclude)
	if err != nil {
		return &usageError{"import", err}
	}
	ar, err := archive.Open(*file, *key)
	if err != nil {
		return err
	}
	a, err := openAdminWith(ctx, *dir, getenv, log, false)
	if err != nil {
		return err
	}
	defer a.DB.Close()
	if !*force && isTerminal(os.Stdin) {
		fmt.Fprint(stderr, "The import will delete your existing data! Are you sure you want to proceed? (y/N) ")
		line, _ := bufio.NewReader(stdin).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
			return errors.New("import process aborted")
		}
	}
	files, err := filesService(ctx, a, log)
	if err != nil {
		return err
	}
	ctx, stop := signalContext(ctx)
	defer stop()
	p := newProgress("import", stderr, log, getenv)
	im := &transfer.Import{DB: a.DB, Schema: a.Schema, Files: files, Log: log, Filter: filter, Force: *force,
		Report: func(e transfer.Event) { p.update(e.Stage, e.Done, e.Total, e.Bytes, e.TotalBytes, e.Finished) }}
	res, err := im.Run(ctx, ar)
	p.done()
	if err != nil {
		return interrupted(ctx, err, "nothing was imported; the database is as it was")
	}
	for _, d := range res.Diffs {
		log.Warn("schema: " + d.String())
	}
	for _, w := range res.Warnings {
		log.Warn(w)
	}
	printCounts(stdout, "imported", res)
	return nil
}

func printCounts(w io.Writer, verb string, res *transfer.Result) {
	var parts []string
	for _, s := range []string{archive.Entities, archive.Links, archive.Assets, archive.Configuration} {
		if n, ok := res.Counts[s]; ok {
			parts = append(parts, fmt.Sprintf("%d %s", n, s))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "nothing")
	}
	fmt.Fprintf(w, "%s %s\n", verb, strings.Join(parts, ", "))
}

func exportData(ctx context.Context, args []string, stdout, stderr io.Writer, log *slog.Logger, getenv func(string) string) error {
	fs := newFlags("export")
	dir := appFlag(fs)
	file := fs.String("file", "", "the archive's name without extensions (default export_YYYYMMDDHHMMSS)")
	fs.StringVar(file, "f", "", "shorthand for --file")
	key := fs.String("key", "", "encrypt with this key (aes-128-ecb, as Strapi does)")
	fs.StringVar(key, "k", "", "shorthand for --key")
	noEncrypt := fs.Bool("no-encrypt", false, "do not encrypt the archive")
	noCompress := fs.Bool("no-compress", false, "do not gzip the archive")
	only, exclude := groupFlags(fs)
	if _, err := parseFlags(fs, args, 0, stdout); err != nil {
		return err
	}
	filter, err := parseFilter(*only, *exclude)
	if err != nil {
		return &usageError{"export", err}
	}
	if !*noEncrypt && *key == "" {
		return &usageError{"export", errors.New("an encrypted export needs --key KEY (or --no-encrypt)")}
	}
	if *noEncrypt {
		*key = ""
	}
	if *file == "" {
		*file = "export_" + time.Now().Format("20060102150405")
	}
	a, err := openAdmin(ctx, *dir, getenv, log)
	if err != nil {
		return err
	}
	defer a.DB.Close()
	files, err := filesService(ctx, a, log)
	if err != nil {
		return err
	}
	ctx, stop := signalContext(ctx)
	defer stop()
	w, err := archive.Create(*file, archive.WriteOptions{Compress: !*noCompress, Key: *key})
	if err != nil {
		return err
	}
	p := newProgress("export", stderr, log, getenv)
	ex := &transfer.Export{DB: a.DB, Schema: a.Schema, Files: files, Log: log, Filter: filter,
		Report: func(e transfer.Event) { p.update(e.Stage, e.Done, e.Total, e.Bytes, e.TotalBytes, e.Finished) }}
	res, err := ex.Run(ctx, w)
	p.done()
	if err != nil {
		w.Abort()
		return interrupted(ctx, err, "no archive was written")
	}
	if err := w.Close(ex.Metadata()); err != nil {
		return err
	}
	for _, warn := range res.Warnings {
		log.Warn(warn)
	}
	printCounts(stdout, "exported", res)
	fmt.Fprintf(stdout, "Export archive is in %s\n", w.Path)
	return nil
}
