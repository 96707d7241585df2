package sqlgen

import sq "github.com/Masterminds/squirrel"

// The statements of the benchmark data generator (bench/datagen) besides its rows, which
// it writes with InsertRows: it checks the tables are empty, and once rows were written
// with explicit ids it brings the engine's id sequences and statistics up to date.

// TableCount counts the rows of table.
func TableCount(d Dialect, table string) Stmt {
	return build(d, sq.Select("COUNT(*)").From(d.Quote(table)))
}

// IDSequenceReset moves the id sequence of table past its rows, after rows were inserted
// with explicit ids; ok is false where the engine needs nothing (SQLite's ids follow the
// largest rowid).
func IDSequenceReset(d Dialect, table string) (s Stmt, ok bool) {
	s = d.idSequenceReset(table)
	if s.SQL == "" {
		return Stmt{}, false
	}
	s.SQL = Rebind(d, s.SQL)
	return s, true
}

// Analyze refreshes the planner's statistics of table after a bulk load; ok is false where
// the engine is not asked to (SQLite plans well enough without them).
func Analyze(d Dialect, table string) (s Stmt, ok bool) {
	sql := d.analyze(table)
	return Stmt{SQL: sql}, sql != ""
}
