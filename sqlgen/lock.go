package sqlgen

import (
	"fmt"
	"hash/fnv"
	"slices"
)

// Checking a `unique` value and writing it under Dialect.UniqueLock makes the check hold
// under concurrent writers without a database constraint (Strapi has none for `unique`, and
// a database shared with Strapi must stay as Strapi made it).

// UniqueKey identifies one value of one unique column.
type UniqueKey struct {
	Table, Column string
	Value         any
}

// UniqueLockKeys hashes keys to the 64-bit lock keys of UniqueLock, deduplicated and in
// ascending order: every transaction takes its locks in the same order, so two writers
// cannot deadlock on them. Collisions only serialize unrelated writes.
func UniqueLockKeys(keys []UniqueKey) []int64 {
	out := make([]int64, 0, len(keys))
	for _, k := range keys {
		h := fnv.New64a()
		// NUL separates the parts, which identifiers cannot contain.
		fmt.Fprintf(h, "quarry-unique\x00%s\x00%s\x00%v", k.Table, k.Column, k.Value)
		out = append(out, int64(h.Sum64()))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// UniqueLocks renders the statements that take the locks of keys (UniqueLockKeys order),
// none where the dialect needs no lock.
func UniqueLocks(d Dialect, keys []UniqueKey) []Stmt {
	lock := d.UniqueLock()
	if lock == "" || len(keys) == 0 {
		return nil
	}
	lock = Rebind(d, lock)
	hashed := UniqueLockKeys(keys)
	out := make([]Stmt, len(hashed))
	for i, k := range hashed {
		out[i] = Stmt{SQL: lock, Args: []any{k}}
	}
	return out
}
