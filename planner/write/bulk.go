package write

import (
	"context"
	"encoding/json"
	"slices"
	"sort"
	"time"

	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
)

// bulkChunk bounds the ids one statement of UpdateMany or DeleteMany lists, within every
// engine's bind-parameter limits.
const bulkChunk = 1000

// UpdateMany is the query engine's updateMany on entries ids of m: the scalar attributes
// of data, validated as every write's values are (Strapi's query engine stores what its
// own schema forbids; Quarry answers 400), and the system timestamps and publishedAt where
// given; relations, components and unknown keys are ignored, as Strapi's query engine
// ignores them, and updatedAt is left as it is (Strapi's beforeUpdateMany sets it only for
// an array). One UPDATE per bulkChunk ids, in one transaction. Strapi's query engine
// announces no event for it; the response cache learns of it from the commit. It answers
// how many entries it updated.
func (s *Service) UpdateMany(ctx context.Context, m *schemas.Model, ids []int64, data map[string]any) (int64, error) {
	if s == nil || s.DB == nil {
		return 0, errNoService
	}
	vals, err := s.Writer.Values(m, m.Attributes, data)
	if err != nil {
		return 0, err
	}
	for key, col := range map[string]string{"createdAt": "created_at", "updatedAt": "updated_at", "publishedAt": "published_at"} {
		v, ok := data[key]
		if !ok || key == "publishedAt" && !m.DraftAndPublish {
			continue
		}
		if v == nil {
			vals[col] = nil
			continue
		}
		t, err := castTemporal(schemas.DateTime, v)
		if err != nil {
			return 0, apierror.Validation("%s: %v", key, err).At(key)
		}
		vals[col] = t
	}
	if len(vals) == 0 {
		return 0, apierror.Validation("Update requires data")
	}
	if len(ids) == 0 {
		return 0, nil
	}
	cols := make([]string, 0, len(vals))
	for c := range vals {
		cols = append(cols, c)
	}
	sort.Strings(cols)
	args := make([]any, len(cols))
	for i, c := range cols {
		args[i] = vals[c]
	}
	err = s.inTx(ctx, func(ctx context.Context, t *writeTx) error {
		db := dbx{ctx: ctx, tx: t.tx, d: s.Writer.Dialect}
		for chunk := range slices.Chunk(ids, bulkChunk) {
			if err := db.exec(sqlgen.UpdateIn(s.Writer.Dialect, m.Table, cols, args, chunk)); err != nil {
				return ConstraintError(s.Writer.Schema, err)
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return int64(len(ids)), nil
}

// DeleteMany is the query engine's deleteMany on entries ids of m: each goes as Delete
// removes one (its components, its links both ways, its media links), with statements
// independent of their number per bulkChunk ids, in one transaction, without events (as
// Strapi's query engine). It answers how many entries it deleted.
func (s *Service) DeleteMany(ctx context.Context, m *schemas.Model, ids []int64) (int64, error) {
	if s == nil || s.DB == nil {
		return 0, errNoService
	}
	if err := s.Writer.check(m); err != nil {
		return 0, err
	}
	err := s.inTx(ctx, func(ctx context.Context, t *writeTx) error {
		x := &execer{w: s.Writer, db: dbx{ctx: ctx, tx: t.tx, d: s.Writer.Dialect, c: s.Writer.stmts()}}
		for chunk := range slices.Chunk(ids, bulkChunk) {
			if err := x.deleteEntries(m, chunk); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return int64(len(ids)), nil
}

// createManyBinds bounds the values one INSERT of CreateMany binds, within every engine's
// bind-parameter limits (SQLite's 32 766 the lowest).
const createManyBinds = 30000

// CreateMany is the query engine's createMany on m: one entry per item of rows, each with
// the scalar attributes it gives (validated as every write's values are: Strapi's query
// engine would store what its own schema forbids; Quarry answers 400 and writes none of
// them), the attributes' defaults for those it leaves out, and createdAt and updatedAt set
// now unless given (Strapi's timestamps subscriber); relations, components and unknown keys
// are ignored and publishedAt is stored only when given, as Strapi's query engine does. The
// rows go in one transaction, without events (Strapi's query engine sends none). It answers
// the new entries' ids in order (Strapi answers them all on PostgreSQL; on SQLite and MySQL
// its driver reports one). The rows go in one multi-row INSERT per createManyValues values,
// so the statements do not grow with the entries.
func (s *Service) CreateMany(ctx context.Context, m *schemas.Model, rows []map[string]any) ([]int64, error) {
	if s == nil || s.DB == nil {
		return nil, errNoService
	}
	if err := s.Writer.check(m); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, apierror.Validation("Nothing to insert")
	}
	now := s.Writer.now()
	vals := make([]map[string]any, 0, len(rows))
	colSet := map[string]bool{}
	for _, data := range rows {
		v, err := s.createManyValues(m, data, now)
		if err != nil {
			return nil, err
		}
		for c := range v {
			colSet[c] = true
		}
		vals = append(vals, v)
	}
	// One column list for every row (createdAt and updatedAt at least): a column a row leaves out is NULL, as an INSERT that
	// omits it stores (no column of Strapi's tables has a database default).
	cols := make([]string, 0, len(colSet))
	for c := range colSet {
		cols = append(cols, c)
	}
	sort.Strings(cols)
	table := make([][]any, len(vals))
	for i, v := range vals {
		table[i] = make([]any, len(cols))
		for j, c := range cols {
			table[i][j] = v[c]
		}
	}
	ids := make([]int64, 0, len(rows))
	per := max(1, createManyBinds/len(cols))
	err := s.inTx(ctx, func(ctx context.Context, t *writeTx) error {
		db := dbx{ctx: ctx, tx: t.tx, d: s.Writer.Dialect, c: s.Writer.stmts()}
		for chunk := range slices.Chunk(table, per) {
			got, err := db.insertIDs(sqlgen.InsertRowsReturning(s.Writer.Dialect, m.Table, cols, chunk), len(chunk))
			if err != nil {
				return ConstraintError(s.Writer.Schema, err)
			}
			ids = append(ids, got...)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// createManyValues is one row of CreateMany: the data's scalar attributes with the
// attributes' defaults for those it leaves out, validated, and the system timestamps.
func (s *Service) createManyValues(m *schemas.Model, data map[string]any, now time.Time) (map[string]any, error) {
	withDefaults := make(map[string]any, len(data))
	for k, v := range data {
		withDefaults[k] = v
	}
	for _, a := range m.Attributes {
		if _, ok := data[a.Name]; ok || !a.IsScalar() || len(a.Default) == 0 {
			continue
		}
		var v any
		if err := json.Unmarshal(a.Default, &v); err == nil {
			withDefaults[a.Name] = v
		}
	}
	vals, err := s.Writer.Values(m, m.Attributes, withDefaults)
	if err != nil {
		return nil, err
	}
	for key, col := range map[string]string{"createdAt": "created_at", "updatedAt": "updated_at", "publishedAt": "published_at"} {
		v, ok := data[key]
		switch {
		case key == "publishedAt" && (!ok || !m.DraftAndPublish):
			continue
		case !ok || v == nil && key != "publishedAt":
			vals[col] = now
			continue
		case v == nil:
			vals[col] = nil
			continue
		}
		t, err := castTemporal(schemas.DateTime, v)
		if err != nil {
			return nil, apierror.Validation("%s: %v", key, err).At(key)
		}
		vals[col] = t
	}
	return vals, nil
}
