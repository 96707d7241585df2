package sqlgen

import sq "github.com/Masterminds/squirrel"

// CoreStoreTable is Strapi's key-value store of settings (strapi_core_store_settings):
// plugin settings, the default locale, the e-mail templates.
const CoreStoreTable = "strapi_core_store_settings"

// StoreGet reads a key's value: its first row, as Strapi's store.get finds it.
func StoreGet(d Dialect, key string) Stmt {
	return build(d, sq.Select(d.Quote("value")).From(d.Quote(CoreStoreTable)).Where(eq(d, "key", key)).
		OrderBy(d.Quote("id")).Limit(1))
}

// StoreUpdate writes a key's value in its rows as Strapi's store.set does: the value's type
// (object, string, ...) beside it, environment and tag NULL. Strapi looks rows up with IS
// NULL on both, so a row with empty strings there would be invisible to a Strapi beside
// Quarry, which would then add a second one.
func StoreUpdate(d Dialect, key, value, typ string) Stmt {
	u := Update{Table: CoreStoreTable, Key: "key", KeyValue: key}
	u.Set("value", value).Set("type", typ).Set("environment", nil).Set("tag", nil)
	return u.Render(d)
}

// StoreInsert adds a key's row (see StoreUpdate for its columns).
func StoreInsert(d Dialect, key, value, typ string) Stmt {
	ins := Insert{Table: CoreStoreTable}
	ins.Set("key", key).Set("value", value).Set("type", typ).Set("environment", nil).Set("tag", nil)
	return ins.Plain(d)
}

// StoreDelete removes a key's rows.
func StoreDelete(d Dialect, key string) Stmt {
	return Delete(d, CoreStoreTable, "key", key)
}

// StoreEntry reads a key's row as Strapi's store.get and store.set find it: the first by
// id whose environment and tag are the ones given (NULL for nil).
func StoreEntry(d Dialect, key string, environment, tag *string) Stmt {
	return build(d, sq.Select(quoteAll(d, "id", "key", "value", "type", "environment", "tag")...).From(d.Quote(CoreStoreTable)).
		Where(sq.And{eq(d, "key", key), nullableEq(d, "environment", environment), nullableEq(d, "tag", tag)}).
		OrderBy(d.Quote("id")).Limit(1))
}

// nullableEq is "col = v", or "col IS NULL" for nil, as knex writes a where of null.
func nullableEq(d Dialect, col string, v *string) sq.Sqlizer {
	if v == nil {
		return sq.Expr(d.Quote(col) + " IS NULL")
	}
	return eq(d, col, *v)
}

// StoreEntryUpdate writes the value and type of one row, as store.set updates the row it found.
func StoreEntryUpdate(d Dialect, id int64, value, typ string) Stmt {
	u := Update{Table: CoreStoreTable, Key: "id", KeyValue: id}
	u.Set("value", value).Set("type", typ)
	return u.Render(d)
}

// StoreEntryInsert adds a key's row, answering its id.
func StoreEntryInsert(d Dialect, key, value, typ string, environment, tag *string) InsertStmt {
	ins := Insert{Table: CoreStoreTable}
	ins.Set("key", key).Set("value", value).Set("type", typ).Set("environment", environment).Set("tag", tag)
	return ins.Render(d)
}

// StoreEntryDelete removes one row, as store.delete removes the row it found.
func StoreEntryDelete(d Dialect, id int64) Stmt {
	return Delete(d, CoreStoreTable, "id", id)
}
