package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/quarrycms/quarry/sqlgen/database"
	"github.com/quarrycms/quarry/transport/app"
)

func init() {
	helps["migrate"] = `Usage: quarry migrate [--plan | --apply] [--app DIR]

Brings the database's schema to the app's schemas as Strapi 4.26's schema sync does: a
column whose attribute changed type is altered, a column or table whose attribute, type,
component or relation is gone is dropped (a renamed collectionName is a new table and a
dropped one). Every start makes the changes that lose nothing; one that would lose data
(dropping values, a type the values may not survive) stops the start and is named.

--plan (the default) prints the SQL of every pending change, each marked with the rows it
touches; --apply makes them all (in one transaction on PostgreSQL and SQLite).
QUARRY_SCHEMA_CHANGES=apply makes 'quarry serve' apply them at start instead.`
}

func migrate(ctx context.Context, args []string, stdout, stderr io.Writer, log *slog.Logger, getenv func(string) string) error {
	fs := newFlags("migrate")
	dir := appFlag(fs)
	fs.Bool("plan", false, "print the pending changes' SQL (the default)")
	apply := fs.Bool("apply", false, "make the pending changes, those that lose data too")
	if _, err := parseFlags(fs, args, 0, stdout); err != nil {
		return err
	}
	if err := checkAppDir(*dir); err != nil {
		return err
	}
	a, err := app.OpenWith(ctx, *dir, getenv, log, app.Options{Migrate: database.MigrateOptions{PlanOnly: true}})
	if err != nil {
		return openHint(err)
	}
	defer a.DB.Close()
	plan, err := a.DB.PlanChanges(ctx, a.Schema)
	if err != nil {
		return err
	}
	if len(plan.Changes) == 0 {
		fmt.Fprintln(stdout, "-- the schema is up to date")
		return nil
	}
	if !*apply {
		for _, c := range plan.Changes {
			fmt.Fprintf(stdout, "-- %s\n", c)
		}
		for _, s := range plan.Statements(true) {
			fmt.Fprintf(stdout, "%s;\n", s)
		}
		return nil
	}
	ctx, stop := signalContext(ctx)
	defer stop()
	p := newProgress("migrate", stderr, log, getenv)
	err = a.DB.ApplyChanges(ctx, plan, true, func(done, total int) {
		p.update("statements", int64(done), int64(total), 0, 0, done == total)
	})
	p.done()
	if err != nil {
		return interrupted(ctx, err, "the schema is as it was (MySQL: the statements before the interruption were made)")
	}
	for _, c := range plan.Changes {
		fmt.Fprintf(stdout, "applied: %s\n", c)
	}
	// Open again: the layout is recorded and the indexes of rebuilt tables made.
	a2, err := app.Open(ctx, *dir, getenv, log)
	if err != nil {
		return err
	}
	a2.DB.Close()
	return nil
}
