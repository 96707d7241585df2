package sqlgen

import (
	"fmt"
	"hash/fnv"

	"github.com/quarrycms/quarry/schemas"
)

// Quarry's plans read some tables through column sets Strapi's layout does not index. These
// indexes are optional and outside the layout: Migrate never creates them, because Strapi's
// schema sync (4.x) drops indexes it does not know on its next start, so on a database shared
// with Strapi they last only until then. `quarry indexes` prints them and creates them on
// request. Their names start with quarry_ so that they are recognisably Quarry's.

// ExtraIndex is one optional index and why Quarry's plans use it.
type ExtraIndex struct {
	Table string
	Index Index
	Why   string
}

// maxIndexName is the shortest engine limit on identifiers (PostgreSQL's 63 bytes; MySQL's
// is 64): a longer name would be truncated by PostgreSQL and refused by MySQL.
const maxIndexName = 63

// QuarryIndexes lists the optional indexes for the schema, in the layout's table order.
func QuarryIndexes(s *schemas.Schema) []ExtraIndex {
	var out []ExtraIndex
	models := append([]*schemas.Model{s.Files}, s.ContentTypes...)
	models = append(models, s.Plugins...)
	models = append(models, s.Components...)
	for _, m := range models {
		if m.Kind != schemas.Component && m.DraftAndPublish {
			out = append(out, ExtraIndex{Table: m.Table,
				Index: Index{Name: quarryIndexName(m.Table, "published_at"), Columns: []string{"published_at"}},
				Why: "draft & publish: the published_at filter of every list and of the count behind meta.pagination.total " +
					"(measured on articles, 10 000 rows, PostgreSQL: 8.2 ms seq scan, 1.1 ms with this index; bench/README.md)"})
		}
	}
	seen := map[string]bool{}
	for _, m := range models {
		for _, a := range m.Attributes {
			if a.Type != schemas.Relation || a.MappedBy != "" || a.Link == nil || a.Link.Morph || seen[a.Link.Table] {
				continue
			}
			seen[a.Link.Table] = true
			j := a.Link
			out = append(out, ExtraIndex{Table: j.Table,
				Index: Index{Name: quarryIndexName(j.Table, "inv"), Columns: []string{j.TargetCol, j.SourceCol}},
				Why: "relation " + m.UID + "." + a.Name + " read from its target (inverse populate, filters on the relation): " +
					"Strapi indexes (" + j.TargetCol + ") alone, this answers from the index without the table (not measured)"})
		}
	}
	return out
}

// quarryIndexName is quarry_<table>_<suffix>, shortened with a hash of the full name when it
// exceeds maxIndexName so that it stays unique and the same on every run.
func quarryIndexName(table, suffix string) string {
	n := "quarry_" + table + "_" + suffix
	if len(n) <= maxIndexName {
		return n
	}
	h := fnv.New32a()
	h.Write([]byte(n))
	return fmt.Sprintf("%s_%08x", n[:maxIndexName-9], h.Sum32())
}

// CreateExtraIndex renders the CREATE INDEX of an optional index: IF NOT EXISTS on SQLite
// and PostgreSQL; MySQL lacks it, so the caller creates only the names it does not find.
func CreateExtraIndex(d Dialect, x ExtraIndex) string {
	return d.CreateIndex(x.Table, x.Index)
}
