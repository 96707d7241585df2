package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/quarrycms/quarry/sqlgen"
)

// indexesWarning heads the output: the indexes are the team's choice when Strapi shares the
// database, since Strapi's schema sync removes them (sqlgen.StrapiSync says when).
const indexesWarning = `-- Optional indexes: Quarry's queries use them, Strapi's layout lacks them (names quarry_*).
-- Each comment says what it serves and its measured effect (PostgreSQL, 10 000 articles).
-- Strapi's schema sync drops those it sees (it drops indexes its layout does not define):
-- ` + sqlgen.StrapiSync + `.
-- On a database shared with Strapi a team decides whether to create them, and again after such a start.
`

func indexes(ctx context.Context, args []string, stdout, stderr io.Writer, log *slog.Logger, getenv func(string) string) error {
	fs := newFlags("indexes")
	dir := appFlag(fs)
	apply := fs.Bool("apply", false, "create the indexes the database lacks")
	if _, err := parseFlags(fs, args, 0, stdout); err != nil {
		return err
	}
	a, err := openAdmin(ctx, *dir, getenv, log)
	if err != nil {
		return err
	}
	defer a.DB.Close()
	fmt.Fprint(stdout, indexesWarning)
	if *apply {
		ctx, stop := signalContext(ctx)
		defer stop()
		p := newProgress("indexes", stderr, log, getenv)
		created, err := a.DB.ApplyExtraIndexesProgress(ctx, a.Schema, func(done, total int) {
			p.update("indexes", int64(done), int64(total), 0, 0, done == total)
		})
		p.done()
		if err != nil && ctx.Err() != nil {
			// Each index is one statement: those listed were made, the one interrupted was not.
			err = fmt.Errorf("interrupted: the indexes listed were created, the others not: %w", err)
		}
		for _, x := range created {
			fmt.Fprintf(stdout, "created %s on %s\n", x.Index.Name, x.Table)
		}
		if err != nil {
			return err
		}
		if len(created) == 0 {
			fmt.Fprintln(stdout, "nothing to create: every index exists")
		}
		return nil
	}
	list, err := a.DB.ExtraIndexes(ctx, a.Schema)
	if err != nil {
		return err
	}
	for _, x := range list {
		state := "missing"
		if x.Present {
			state = "present"
		}
		// Every quarry_* index is outside Strapi's layout; the line says whether Strapi's sync
		// sees it, for whoever reads one alone.
		if x.Kept {
			state += "; kept by Strapi's schema sync (it does not see it)"
		} else {
			state += "; dropped by Strapi's schema sync"
		}
		fmt.Fprintf(stdout, "%s; -- %s; %s\n", sqlgen.CreateExtraIndex(a.DB.Dialect, x.ExtraIndex), state, x.Why)
	}
	return nil
}
