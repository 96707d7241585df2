package schemas

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"github.com/agnivade/levenshtein"
)

// Strapi boots with keys it does not know in a schema file and ignores them, so Quarry does
// too; but a key one or two letters away from a known one ("requried") is almost certainly a
// typo that silently drops a rule, so Lint names it with the key it resembles. Keys far from
// every known one (plugins' own keys, notes) are left alone.
var (
	knownTopKeys = keySet("kind", "collectionName", "info", "options", "pluginOptions", "attributes",
		"config", "connection", "globalId", "modelName", "modelType", "uid", "description")
	knownInfoKeys = keySet("singularName", "pluralName", "displayName", "name", "description", "icon", "label")
	knownAttrKeys = keySet("type", "required", "unique", "private", "default", "min", "max",
		"minLength", "maxLength", "regex", "enum", "enumName", "targetField", "relation", "target",
		"mappedBy", "inversedBy", "multiple", "allowedTypes", "component", "repeatable", "components",
		"pluginOptions", "configurable", "visible", "writable", "customField", "options", "searchable",
		"useJoinTable", "column", "conditions", "autoPopulate", "morphBy", "morphColumn", "joinColumn",
		"joinTable", "via", "collection", "model", "plugin", "dominant", "columnName", "storage", "displayName")
)

func keySet(keys ...string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}

// Lint lists likely misspelled keys in the schema files s was loaded from, each naming the
// file, the attribute, the key and the known key it resembles.
func Lint(s *Schema) []string {
	var files []string
	seen := map[string]bool{}
	for _, m := range s.Models {
		if m.File != "" && !seen[m.File] {
			seen[m.File] = true
			files = append(files, m.File)
		}
	}
	sort.Strings(files)
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue // Load read it; a file gone since is not a typo
		}
		out = append(out, lintFile(f, data)...)
	}
	return append(out, lintInverses(s)...)
}

// lintInverses names the owners whose inversedBy names an attribute that does not map them
// back: Strapi boots with them (and Quarry serves them as it does), but the named attribute
// then reads this owner's link table, whatever its own mappedBy or target says, which is
// seldom what the schema's author meant.
func lintInverses(s *Schema) []string {
	var out []string
	for _, m := range s.Models {
		for _, a := range m.Attributes {
			if a.Type != Relation || a.MappedBy != "" || a.InversedBy == "" || a.Target == nil {
				continue
			}
			inv, ok := a.Target.Attr(a.InversedBy)
			if !ok || inv.Type != Relation || inv.Target == m && (inv.MappedBy == a.Name || inv.MappedBy == "" && inv.InversedBy == a.Name) {
				continue
			}
			how := "reads this attribute's link table"
			if inv.Link != a.Link && (inv.Link == nil || inv.Link.Table != a.Link.Table) {
				how = "reads the table of another owner naming it"
			}
			out = append(out, fmt.Sprintf("%s: attribute %q: inversedBy %q names %s.%s, which does not map it back (mappedBy %q, target %s): Strapi boots and %s.%s %s",
				m.File, a.Name, a.InversedBy, a.Target.UID, inv.Name, inv.MappedBy, inv.TargetUID, a.Target.UID, inv.Name, how))
		}
	}
	sort.Strings(out)
	return out
}

func lintFile(file string, data []byte) []string {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return nil
	}
	var out []string
	check := func(where string, keys map[string]json.RawMessage, known map[string]bool) {
		names := make([]string, 0, len(keys))
		for k := range keys {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if known[k] {
				continue
			}
			if near := closest(k, known); near != "" {
				out = append(out, fmt.Sprintf("%s: %sunknown key %q (did you mean %q?); it is ignored, as Strapi ignores it", file, where, k, near))
			}
		}
	}
	check("", top, knownTopKeys)
	var info map[string]json.RawMessage
	if json.Unmarshal(top["info"], &info) == nil {
		check("info: ", info, knownInfoKeys)
	}
	var attrs map[string]json.RawMessage
	if json.Unmarshal(top["attributes"], &attrs) == nil {
		names := make([]string, 0, len(attrs))
		for k := range attrs {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, name := range names {
			var a map[string]json.RawMessage
			if json.Unmarshal(attrs[name], &a) == nil {
				check(fmt.Sprintf("attribute %q: ", name), a, knownAttrKeys)
			}
		}
	}
	return out
}

// closest is the known key within two edits of k (case-insensitively equal counts as one),
// or "".
func closest(k string, known map[string]bool) string {
	best, bestD := "", 3
	for c := range known {
		d := levenshtein.ComputeDistance(k, c)
		if d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	if bestD > 2 || len(k) <= 3 && bestD > 1 {
		return ""
	}
	return best
}
