package transfer

import (
	"encoding/json"
	"os"
	"strings"

	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/transport/transfer/archive"
)

// schemas writes schemas/: each type and component as Strapi keeps it in memory (the
// properties mapSchemasValues keeps), from the project's schema files plus the attributes
// Strapi adds (timestamps, draft & publish, authors, i18n).
func (r *exportRun) schemas() error {
	lw := r.w.Lines(archive.Schemas)
	s := r.ex.Schema
	models := append(entityModels(s), s.Components...)
	for _, m := range models {
		b, err := marshal(schemaOf(m))
		if err != nil {
			return err
		}
		if err := lw.WriteRaw(b); err != nil {
			return err
		}
	}
	return nil
}

// declaredFile reads a model's schema file as an ordered object ({} when it has none).
func declaredFile(m *schemas.Model) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	if m.File == "" {
		return out
	}
	b, err := os.ReadFile(m.File)
	if err != nil {
		return out
	}
	json.Unmarshal(b, &out)
	return out
}

func schemaOf(m *schemas.Model) ordered {
	file := declaredFile(m)
	raw := func(k string, def string) json.RawMessage {
		if v, ok := file[k]; ok {
			return v
		}
		return json.RawMessage(def)
	}
	attrs := ordered{}
	for _, a := range m.Attributes {
		if a.System {
			continue
		}
		if a.Declared != nil {
			attrs = append(attrs, field{a.Name, a.Declared})
			continue
		}
		attrs = append(attrs, field{a.Name, ordered{{"type", string(a.Type)}}})
	}
	if m.Kind != schemas.Component {
		attrs = append(attrs, field{"createdAt", ordered{{"type", "datetime"}}}, field{"updatedAt", ordered{{"type", "datetime"}}})
		if m.DraftAndPublish {
			attrs = append(attrs, field{"publishedAt", ordered{{"type", "datetime"}, {"configurable", false}, {"writable", true}, {"visible", false}}})
		}
		for _, k := range []string{"createdBy", "updatedBy"} {
			attrs = append(attrs, field{k, ordered{{"type", "relation"}, {"relation", "oneToOne"}, {"target", "admin::user"},
				{"configurable", false}, {"writable", false}, {"visible", false}, {"useJoinTable", false}, {"private", true}}})
		}
		if m.Localized {
			attrs = append(attrs,
				field{"localizations", ordered{{"writable", true}, {"private", false}, {"configurable", false}, {"visible", false},
					{"type", "relation"}, {"relation", "oneToMany"}, {"target", m.UID}}},
				field{"locale", ordered{{"writable", true}, {"private", false}, {"configurable", false}, {"visible", false}, {"type", "string"}}})
		}
	}
	out := ordered{{"collectionName", m.Table}}
	info := ordered{}
	if v, ok := file["info"]; ok {
		out = append(out, field{"info", v})
	} else {
		if m.Kind != schemas.Component {
			info = append(info, field{"singularName", m.SingularName}, field{"pluralName", m.PluralName})
		}
		info = append(info, field{"displayName", m.DisplayName})
		out = append(out, field{"info", info})
	}
	out = append(out, field{"options", raw("options", "{}")})
	if m.Kind == schemas.Component {
		out = append(out, field{"attributes", attrs}, field{"uid", m.UID}, field{"category", m.Category},
			field{"modelType", "component"}, field{"modelName", m.SingularName}, field{"globalId", componentGlobalID(m)})
		return out
	}
	out = append(out, field{"pluginOptions", raw("pluginOptions", "{}")}, field{"attributes", attrs})
	kind := "collectionType"
	if m.Kind == schemas.SingleType {
		kind = "singleType"
	}
	out = append(out, field{"kind", kind}, field{"modelType", "contentType"}, field{"modelName", m.SingularName},
		field{"uid", m.UID})
	if p, _, ok := strings.Cut(strings.TrimPrefix(m.UID, "plugin::"), "."); ok && strings.HasPrefix(m.UID, "plugin::") {
		out = append(out, field{"plugin", p})
	}
	out = append(out, field{"globalId", globalID(m)})
	return out
}

// globalID is Strapi's globalId: the singular name in PascalCase (plugins prefixed with the
// plugin's name).
func globalID(m *schemas.Model) string {
	id := schemas.UpperFirst(schemas.CamelCase(m.SingularName))
	if p, ok := strings.CutPrefix(m.UID, "plugin::"); ok {
		plugin, _, _ := strings.Cut(p, ".")
		id = schemas.UpperFirst(schemas.CamelCase(plugin)) + id
	}
	return id
}

func componentGlobalID(m *schemas.Model) string {
	return "Component" + schemas.UpperFirst(schemas.CamelCase(m.Category)) + schemas.UpperFirst(schemas.CamelCase(m.SingularName))
}
