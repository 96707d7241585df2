package transfer

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/quarrycms/quarry/schemas"
)

// archiveSchema is a line of schemas/: what Strapi knew of a type (mapSchemasValues).
type archiveSchema struct {
	UID        string                     `json:"uid"`
	ModelType  string                     `json:"modelType"`
	Kind       string                     `json:"kind"`
	Collection string                     `json:"collectionName"`
	Attributes map[string]json.RawMessage `json:"attributes"`
}

// Diff is one difference between the archive's schemas and the project's, worded as
// `strapi import` words it: Path is uid.attributes.name[.property].
type Diff struct {
	Kind string // added: the project has it, the archive not; deleted: the archive has it, the project not; modified
	Path string
}

func (d Diff) String() string {
	switch d.Kind {
	case "added":
		return d.Path + " does not exist on source"
	case "deleted":
		return d.Path + " does not exist on destination"
	}
	return d.Path + " has a different data type"
}

// systemAttrs are the attributes Strapi adds to every type (timestamps, draft & publish,
// authors, i18n): the project's files do not declare them.
var systemAttrs = map[string]bool{"createdAt": true, "updatedAt": true, "publishedAt": true,
	"createdBy": true, "updatedBy": true, "locale": true, "localizations": true}

// comparedProps are the attribute properties whose difference changes what the data means
// or where it is stored. Strapi's strict check compares every property but private, required
// and configurable; Quarry does not refuse an archive over a validation setting (a maxLength,
// a regex), which changes no stored value.
var comparedProps = []string{"type", "relation", "target", "component", "components", "repeatable", "multiple", "enum", "customField"}

// compareSchemas lists the differences between the archive's schemas (by uid) and the
// project's. The types Strapi's transfers ignore are left out, and so are the plugins' own
// types' attributes (Strapi's version defines them, not the project).
func compareSchemas(s *schemas.Schema, archived map[string]*archiveSchema) []Diff {
	var out []Diff
	for uid := range archived {
		if _, ok := s.Models[uid]; !ok && !Ignored(uid) && !strings.HasPrefix(uid, "admin::") {
			out = append(out, Diff{"deleted", uid})
		}
	}
	for uid, m := range s.Models {
		if m.IsAdmin() {
			continue // a relation target only; Strapi's transfers leave the admin's types out
		}
		a, ok := archived[uid]
		if !ok {
			if !m.IsPlugin() {
				out = append(out, Diff{"added", uid})
			}
			continue
		}
		if m.IsPlugin() || uid == schemas.FileUID {
			continue
		}
		kind := map[schemas.Kind]string{schemas.CollectionType: "collectionType", schemas.SingleType: "singleType"}[m.Kind]
		if kind != "" && a.Kind != "" && a.Kind != kind {
			out = append(out, Diff{"modified", uid + ".kind"})
		}
		if a.Collection != "" && a.Collection != m.Table {
			out = append(out, Diff{"modified", uid + ".collectionName"})
		}
		for name := range a.Attributes {
			if _, ok := m.Attr(name); !ok && !systemAttrs[name] {
				out = append(out, Diff{"deleted", uid + ".attributes." + name})
			}
		}
		for _, at := range m.Attributes {
			if at.System || systemAttrs[at.Name] {
				continue
			}
			raw, ok := a.Attributes[at.Name]
			if !ok {
				out = append(out, Diff{"added", uid + ".attributes." + at.Name})
				continue
			}
			for _, p := range attrDiffs(at, raw) {
				out = append(out, Diff{"modified", uid + ".attributes." + at.Name + "." + p})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Kind < out[j].Kind
	})
	return out
}

// attrDiffs names the compared properties that differ between the project's declaration of
// an attribute and the archive's.
func attrDiffs(at *schemas.Attribute, archived json.RawMessage) []string {
	var theirs map[string]any
	if json.Unmarshal(archived, &theirs) != nil {
		return []string{"type"}
	}
	ours := map[string]any{}
	if at.Declared != nil {
		if json.Unmarshal(at.Declared, &ours) != nil {
			return nil
		}
	} else {
		ours["type"] = string(at.Type)
	}
	if at.CustomField != "" {
		// Strapi replaces a custom field's type by its underlying one in memory.
		ours["type"] = string(at.Type)
	}
	var out []string
	for _, p := range comparedProps {
		a, b := ours[p], theirs[p]
		if p == "repeatable" || p == "multiple" {
			a, b = a == true, b == true
		}
		if !reflect.DeepEqual(a, b) {
			out = append(out, p)
		}
	}
	return out
}

// SchemaError is an import refused because the schemas differ.
type SchemaError struct{ Diffs []Diff }

func (e *SchemaError) Error() string {
	var b strings.Builder
	b.WriteString("the archive's schemas differ from the project's (the data listed would be lost; --force imports anyway):")
	for _, d := range e.Diffs {
		fmt.Fprintf(&b, "\n  - %s", d)
	}
	return b.String()
}
