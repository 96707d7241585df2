package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/quarrycms/quarry/sqlgen"
)

// indexesWarning heads the output: the indexes are the team's choice when Strapi shares the
// database, since Strapi removes them.
const indexesWarning = `-- Optional indexes: Quarry's queries use them, Strapi's layout lacks them (names quarry_*).
-- Strapi's schema sync (4.x) drops indexes it does not know on its next start: on a database
-- shared with Strapi they last until Strapi restarts, so a team sharing the database decides
-- whether to create them (again) after each Strapi start.
`

func indexes(ctx context.Context, args []string, stdout io.Writer, log *slog.Logger, getenv func(string) string) error {
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
		created, err := a.DB.ApplyExtraIndexes(ctx, a.Schema)
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
		fmt.Fprintf(stdout, "%s; -- %s; %s\n", sqlgen.CreateExtraIndex(a.DB.Dialect, x.ExtraIndex), state, x.Why)
	}
	return nil
}
