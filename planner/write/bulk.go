package write

import (
	"context"
	"slices"
	"sort"

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
