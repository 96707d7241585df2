package database

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/sqlgen"
)

// StoreEntry is a row of Strapi's core store (strapi_core_store_settings) as its query
// engine answers it.
type StoreEntry struct {
	ID          int64   `json:"id" db:"id"`
	Key         string  `json:"key" db:"key"`
	Value       *string `json:"value" db:"value"`
	Type        *string `json:"type" db:"type"`
	Environment *string `json:"environment" db:"environment"`
	Tag         *string `json:"tag" db:"tag"`
}

func storeEntry(ctx context.Context, q sqlx.QueryerContext, d sqlgen.Dialect, where StoreEntry) (*StoreEntry, error) {
	key := where.Key
	st := sqlgen.StoreEntry(d, key, where.Environment, where.Tag)
	var e StoreEntry
	err := sqlx.GetContext(ctx, q, &e, st.SQL, st.Args...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("core store %s: %w", key, err)
	}
	return &e, nil
}

// StoreGet reads the row of where's key, environment and tag as Strapi's store.get does
// (nil when there is none).
func (db *DB) StoreGet(ctx context.Context, where StoreEntry) (*StoreEntry, error) {
	return storeEntry(ctx, db.DB, db.Dialect, where)
}

// StoreSet writes where's value and type (both given) as Strapi's store.set does, in one
// transaction: the row of its key, environment and tag updated, or a new one; it answers the
// row written.
func (db *DB) StoreSet(ctx context.Context, where StoreEntry) (*StoreEntry, error) {
	var out *StoreEntry
	key, value, typ := where.Key, deref(where.Value), deref(where.Type)
	err := db.InTx(ctx, func(tx *sqlx.Tx) error {
		e, err := storeEntry(ctx, tx, db.Dialect, where)
		if err != nil {
			return err
		}
		if e != nil {
			st := sqlgen.StoreEntryUpdate(db.Dialect, e.ID, value, typ)
			if _, err := tx.ExecContext(ctx, st.SQL, st.Args...); err != nil {
				return fmt.Errorf("core store %s: %w", key, err)
			}
		} else {
			id, err := InsertID(ctx, tx, sqlgen.StoreEntryInsert(db.Dialect, key, value, typ, where.Environment, where.Tag))
			if err != nil {
				return fmt.Errorf("core store %s: %w", key, err)
			}
			e = &StoreEntry{ID: id, Key: key, Environment: where.Environment, Tag: where.Tag}
		}
		e.Value, e.Type = &value, &typ
		out = e
		return nil
	})
	return out, err
}

// StoreDelete removes the row of where's key, environment and tag as Strapi's store.delete
// does, answering it (nil when there was none).
func (db *DB) StoreDelete(ctx context.Context, where StoreEntry) (*StoreEntry, error) {
	var out *StoreEntry
	key := where.Key
	err := db.InTx(ctx, func(tx *sqlx.Tx) error {
		e, err := storeEntry(ctx, tx, db.Dialect, where)
		if err != nil || e == nil {
			return err
		}
		st := sqlgen.StoreEntryDelete(db.Dialect, e.ID)
		if _, err := tx.ExecContext(ctx, st.SQL, st.Args...); err != nil {
			return fmt.Errorf("core store %s: %w", key, err)
		}
		out = e
		return nil
	})
	return out, err
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
