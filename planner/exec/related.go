package exec

import (
	"context"

	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
)

// Related is one entry a file of the upload plugin is attached to (the file's morph
// relation `related`, which plans do not populate: FileRelated reads it).
type Related struct {
	Model   *schemas.Model
	ID      int64
	Columns []*schemas.Attribute // visible scalar attributes in schema order
	Values  []any                // normalized as exec.Normalize does
}

// Related reads the entries the files are attached to, in link order, with one statement
// for the links and one per related type. Entries of content types the caller may not find
// are left out, as Strapi's output sanitizer removes them. fields, when not nil, selects the
// scalar attributes shown (in that order; names a type does not have are skipped).
func FileRelated(ctx context.Context, db Queryer, d sqlgen.Dialect, s *schemas.Schema, fileIDs []int64, canFind func(uid string) bool, fields []string) (map[int64][]*Related, error) {
	out := map[int64][]*Related{}
	if len(fileIDs) == 0 {
		return out, nil
	}
	links := sqlgen.FileLinksOf(d, fileIDs)
	rows, err := db.QueryxContext(ctx, links.SQL, links.Args...)
	if err != nil {
		return nil, err
	}
	type link struct {
		file, id int64
		uid      string
	}
	var linked []link
	byType := map[string][]int64{}
	var types []string
	for rows.Next() {
		var l link
		if err := rows.Scan(&l.file, &l.id, &l.uid); err != nil {
			rows.Close()
			return nil, err
		}
		m := s.Models[l.uid]
		if m == nil || m == s.Files || (m.IsContentType() && canFind != nil && !canFind(l.uid)) {
			continue
		}
		if _, ok := byType[l.uid]; !ok {
			types = append(types, l.uid)
		}
		byType[l.uid] = append(byType[l.uid], l.id)
		linked = append(linked, l)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	entries := map[string]map[int64]*Related{}
	for _, uid := range types {
		m := s.Models[uid]
		var cols []*schemas.Attribute
		names := []string{"id"}
		if fields == nil {
			for _, a := range m.Attributes {
				if a.IsScalar() && !a.Hidden() {
					cols = append(cols, a)
				}
			}
		} else {
			seen := map[string]bool{}
			for _, f := range fields {
				if a, ok := m.Attr(f); ok && a.IsScalar() && !a.Hidden() && !seen[f] {
					seen[f] = true
					cols = append(cols, a)
				}
			}
		}
		for _, a := range cols {
			names = append(names, a.Column)
		}
		st := sqlgen.EntriesIn(d, m.Table, byType[uid], names...)
		rows, err := db.QueryxContext(ctx, st.SQL, st.Args...)
		if err != nil {
			return nil, err
		}
		got := map[int64]*Related{}
		for rows.Next() {
			vals, err := rows.SliceScan()
			if err != nil {
				rows.Close()
				return nil, err
			}
			r := &Related{Model: m, Columns: cols, Values: make([]any, len(cols))}
			id, err := Normalize(schemas.BigInteger, vals[0])
			if err != nil {
				rows.Close()
				return nil, err
			}
			r.ID = id.(int64)
			for i, a := range cols {
				if r.Values[i], err = Normalize(a.Type, vals[i+1]); err != nil {
					rows.Close()
					return nil, err
				}
			}
			got[r.ID] = r
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		entries[uid] = got
	}
	for _, l := range linked {
		if r := entries[l.uid][l.id]; r != nil {
			out[l.file] = append(out[l.file], r)
		}
	}
	return out, nil
}
