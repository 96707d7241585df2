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
	Environment *string `json:"environment" db:"-"`
	Tag         *string `json:"tag" db:"-"`
}

func storeEntry(ctx context.Context, q sqlx.QueryerContext, d sqlgen.Dialect, key string) (*StoreEntry, error) {
	st := sqlgen.StoreEntry(d, key)
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

// StoreGet reads a key's row as Strapi's store.get does (nil when there is none).
func (db *DB) StoreGet(ctx context.Context, key string) (*StoreEntry, error) {
	return storeEntry(ctx, db.DB, db.Dialect, key)
}

// StoreSet writes a key's value as Strapi's store.set does, in one transaction: the row it
// finds updated, or a new one; it answers the row written.
func (db *DB) StoreSet(ctx context.Context, key, value, typ string) (*StoreEntry, error) {
	var out *StoreEntry
	err := db.InTx(ctx, func(tx *sqlx.Tx) error {
		e, err := storeEntry(ctx, tx, db.Dialect, key)
		if err != nil {
			return err
		}
		if e != nil {
			st := sqlgen.StoreEntryUpdate(db.Dialect, e.ID, value, typ)
			if _, err := tx.ExecContext(ctx, st.SQL, st.Args...); err != nil {
				return fmt.Errorf("core store %s: %w", key, err)
			}
		} else {
			id, err := InsertID(ctx, tx, sqlgen.StoreEntryInsert(db.Dialect, key, value, typ))
			if err != nil {
				return fmt.Errorf("core store %s: %w", key, err)
			}
			e = &StoreEntry{ID: id, Key: key}
		}
		e.Value, e.Type = &value, &typ
		out = e
		return nil
	})
	return out, err
}

// StoreDelete removes a key's row as Strapi's store.delete does, answering it (nil when
// there was none).
func (db *DB) StoreDelete(ctx context.Context, key string) (*StoreEntry, error) {
	var out *StoreEntry
	err := db.InTx(ctx, func(tx *sqlx.Tx) error {
		e, err := storeEntry(ctx, tx, db.Dialect, key)
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
