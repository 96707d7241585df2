package database

import (
	"context"
	"fmt"
	"slices"

	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
)

// ExtraIndexState is one of sqlgen.QuarryIndexes and whether the database holds it.
type ExtraIndexState struct {
	sqlgen.ExtraIndex
	Present bool
}

// ExtraIndexes lists the optional indexes of the schema (see sqlgen.QuarryIndexes) whose
// tables exist, each with whether an index of its name exists.
func (db *DB) ExtraIndexes(ctx context.Context, s *schemas.Schema) ([]ExtraIndexState, error) {
	have, err := db.inspect(ctx)
	if err != nil {
		return nil, fmt.Errorf("inspect database: %w", err)
	}
	var out []ExtraIndexState
	list := sqlgen.QuarryIndexes(s)
	if db.Dialect == sqlgen.Postgres {
		list = append(list, sqlgen.PublishedIDIndexes(s)...)
		list = append(list, sqlgen.SortIndexes(s)...)
		var n int
		if err := db.GetContext(ctx, &n, `SELECT COUNT(*) FROM pg_available_extensions WHERE name = 'pg_trgm'`); err != nil {
			return nil, fmt.Errorf("look for pg_trgm: %w", err)
		}
		if n > 0 {
			list = append(list, sqlgen.TrigramIndexes(s)...)
		}
	}
	for _, x := range list {
		if have.columns[x.Table] == nil {
			continue
		}
		out = append(out, ExtraIndexState{ExtraIndex: x, Present: have.indexes[x.Index.Name]})
	}
	return out, nil
}

// ApplyExtraIndexes creates the optional indexes the database lacks and returns them. Only
// missing names are created, which is what makes it repeatable on MySQL (no IF NOT EXISTS);
// on SQLite and PostgreSQL the statements also carry IF NOT EXISTS against a concurrent run.
func (db *DB) ApplyExtraIndexes(ctx context.Context, s *schemas.Schema) ([]sqlgen.ExtraIndex, error) {
	return db.ApplyExtraIndexesProgress(ctx, s, nil)
}

// ApplyExtraIndexesProgress is ApplyExtraIndexes calling progress before each index is built
// (done of total) and once at the end.
func (db *DB) ApplyExtraIndexesProgress(ctx context.Context, s *schemas.Schema, progress func(done, total int)) ([]sqlgen.ExtraIndex, error) {
	list, err := db.ExtraIndexes(ctx, s)
	if err != nil {
		return nil, err
	}
	total := 0
	for _, x := range list {
		if !x.Present {
			total++
		}
	}
	var created []sqlgen.ExtraIndex
	trigram := false // pg_trgm created
	defer func() {
		if progress != nil && total > 0 {
			progress(len(created), total)
		}
	}()
	for _, x := range list {
		if x.Present {
			continue
		}
		if progress != nil {
			progress(len(created), total)
		}
		if x.Trigram && !trigram {
			if _, err := db.ExecContext(ctx, sqlgen.TrigramExtension); err != nil {
				return created, fmt.Errorf("create extension pg_trgm (for %s): %w", x.Index.Name, err)
			}
			trigram = true
		}
		if _, err := db.ExecContext(ctx, sqlgen.CreateExtraIndex(db.Dialect, x.ExtraIndex)); err != nil {
			return created, fmt.Errorf("create index %s on %s: %w", x.Index.Name, x.Table, err)
		}
		created = append(created, x.ExtraIndex)
	}
	return created, nil
}

// SortIndexed reports the attributes whose sort index (sqlgen.SortIndexes, PostgreSQL) the
// database holds, by the index's name: the planner's Config.SortIndexed, read once when the app
// opens the database rather than per request. An index dropped later leaves Quarry's ORDER BY on
// its expression, which orders as the column does: the answers stay the same, only unserved.
// Nil on SQLite and MySQL/MariaDB, which are offered none.
func (db *DB) SortIndexed(ctx context.Context, s *schemas.Schema) (map[*schemas.Attribute]bool, error) {
	if db.Dialect != sqlgen.Postgres {
		return nil, nil
	}
	list := sqlgen.SortIndexes(s)
	if len(list) == 0 {
		return nil, nil
	}
	var have []string
	if err := db.SelectContext(ctx, &have, `SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND indexname LIKE 'quarry%'`); err != nil {
		return nil, fmt.Errorf("look for Quarry's sort indexes: %w", err)
	}
	var out map[*schemas.Attribute]bool
	for _, x := range list {
		if slices.Contains(have, x.Index.Name) {
			if out == nil {
				out = map[*schemas.Attribute]bool{}
			}
			out[x.Sort] = true
		}
	}
	return out, nil
}
