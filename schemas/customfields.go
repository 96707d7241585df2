package schemas

import (
	"fmt"
	"sort"
	"strings"
)

// knownCustomFields are the custom fields of widely used plugins, by the uid their server side
// registers (strapi.customFields.register({plugin, name, type})), with that underlying type.
var knownCustomFields = map[string]AttrType{
	"plugin::color-picker.color":                     String,   // @strapi/plugin-color-picker
	"plugin::ckeditor.CKEditor":                      RichText, // @ckeditor/strapi-plugin-ckeditor
	"plugin::ckeditor5.CKEditor":                     RichText, // strapi-plugin-ckeditor5 forks
	"plugin::multi-select.multi-select":              JSON,     // strapi-plugin-multi-select
	"plugin::country-select.country":                 String,   // strapi-plugin-country-select
	"plugin::strapi-plugin-iconhub.iconhub":          JSON,     // strapi-plugin-iconhub
	"plugin::multi-country-select.countries":         JSON,     // strapi-plugin-multi-country-select
	"plugin::strapi-advanced-uuid.uuid":              String,   // strapi-advanced-uuid
	"plugin::remote-select.remote-select":            Text,     // strapi-plugin-remote-select
	"plugin::remote-select.remote-select-multi":      JSON,
	"plugin::remote-select.searchable-remote-select": Text,
}

// customFieldTypes are the underlying types Strapi's custom-field registry accepts.
var customFieldTypes = []AttrType{BigInteger, Boolean, Date, DateTime, Decimal, Email, Enumeration, Float,
	Integer, JSON, Password, RichText, String, Text, Time, UID}

// IsCustomFieldType reports whether a custom field may have type t (the configuration's
// check of Options.CustomFields: schemas/projectconfig's Quarry).
func IsCustomFieldType(t string) bool {
	for _, c := range customFieldTypes {
		if string(c) == t {
			return true
		}
	}
	return false
}

// CustomFieldTypes lists the types a custom field can have.
func CustomFieldTypes() []string {
	out := make([]string, len(customFieldTypes))
	for i, t := range customFieldTypes {
		out[i] = string(t)
	}
	return out
}

// Options tunes Load.
type Options struct {
	// CustomFields maps custom-field uids to their underlying type, for plugins the built-in
	// table does not know (Quarry's customFields setting, whose types the configuration's
	// decoding has checked with IsCustomFieldType).
	CustomFields map[string]string
	// StoredType tells the type of a column the database already has (table, column), for
	// custom fields nobody maps.
	StoredType func(table, column string) (AttrType, bool)
	// Warn reports a problem that does not stop start-up.
	Warn func(msg string, args ...any)
	// I18nOff says the i18n plugin is not on (not installed, or config/plugins disables it):
	// the schemas' pluginOptions.i18n.localized is then ignored, as Strapi ignores it.
	I18nOff bool
	// LocalPlugins are the local plugins (src/plugins/<name>) config/plugins enables: their
	// content types (server/content-types/<name>/schema.json) are the app's, as plugin::<name>.<ct>.
	LocalPlugins []string
}

// resolveCustomFields gives every customField attribute its underlying type, as Strapi does
// when it registers the app's content types. A custom field nobody knows is served as its
// stored column's type, else as text, with one warning: a plugin Quarry does not run never
// stops start-up.
func resolveCustomFields(todo []*pending, opts Options) error {
	mapped := map[string]AttrType{}
	keys := make([]string, 0, len(opts.CustomFields))
	for k := range opts.CustomFields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, uid := range keys {
		mapped[uid] = AttrType(opts.CustomFields[uid]) // checked with the configuration (IsCustomFieldType)
	}
	var unknown []string
	for _, p := range todo {
		for i := range p.attrs {
			ra := &p.attrs[i].raw
			if ra.Type != "customField" {
				continue
			}
			if ra.CustomField == "" {
				return &Error{File: p.model.File, Attribute: p.attrs[i].name, Problem: "a customField attribute needs customField (the field's uid)"}
			}
			if t, ok := mapped[ra.CustomField]; ok {
				ra.Type = string(t)
				continue
			}
			if t, ok := knownCustomFields[ra.CustomField]; ok {
				ra.Type = string(t)
				continue
			}
			t := Text
			if opts.StoredType != nil && p.model.Table != "" {
				if st, ok := opts.StoredType(p.model.Table, SnakeCase(p.attrs[i].name)); ok && IsCustomFieldType(string(st)) {
					t = st
				}
			}
			ra.Type = string(t)
			unknown = append(unknown, fmt.Sprintf("%s.%s (%s, served as %s)", p.model.UID, p.attrs[i].name, ra.CustomField, t))
		}
	}
	if len(unknown) > 0 && opts.Warn != nil {
		opts.Warn("unknown custom fields are served as their stored column's type, else as text; map them with customFields in config/quarry.json",
			"fields", strings.Join(unknown, ", "))
	}
	return nil
}
