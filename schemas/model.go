// Package schemas loads Strapi-layout content-type and component schemas into a typed model
// and owns the database layout derived from it (table, column and link-table names), so that
// every other package names tables the way Strapi v4 does without re-deriving the rules.
package schemas

import (
	"encoding/json"
	"regexp"
	"sync"
)

// Kind is what a model is: a collection type, a single type or a component.
type Kind int

const (
	CollectionType Kind = iota
	SingleType
	Component
)

// AttrType is the Strapi attribute type name as written in schema.json.
type AttrType string

const (
	String      AttrType = "string"
	Text        AttrType = "text"
	RichText    AttrType = "richtext"
	Enumeration AttrType = "enumeration"
	Email       AttrType = "email"
	Password    AttrType = "password"
	UID         AttrType = "uid"
	Date        AttrType = "date"
	Time        AttrType = "time"
	DateTime    AttrType = "datetime"
	Timestamp   AttrType = "timestamp"
	Integer     AttrType = "integer"
	BigInteger  AttrType = "biginteger"
	Float       AttrType = "float"
	Decimal     AttrType = "decimal"
	Boolean     AttrType = "boolean"
	JSON        AttrType = "json"
	Blocks      AttrType = "blocks"
	Relation    AttrType = "relation"
	Media       AttrType = "media"
	ComponentT  AttrType = "component"
	DynamicZone AttrType = "dynamiczone"
)

// RelationKind is the cardinality of a relation attribute.
type RelationKind string

const (
	OneToOne   RelationKind = "oneToOne"
	OneToMany  RelationKind = "oneToMany"
	ManyToOne  RelationKind = "manyToOne"
	ManyToMany RelationKind = "manyToMany"
)

// Attribute is one typed attribute of a model.
type Attribute struct {
	Name string
	// JSONKey is Name quoted as a JSON object key with its colon ("name":), made once at
	// Load for the response writers, which write it for every entry of a page; empty when
	// Name would need escapes or the attribute was made elsewhere (writers quote Name then).
	JSONKey string
	Type    AttrType
	Column  string // scalar column; empty for relations, media, components, dynamic zones

	Required  bool
	Unique    bool
	Private   bool
	Default   json.RawMessage
	Min, Max  *float64
	MinLength *int
	MaxLength *int
	Regex     *regexp.Regexp
	RegexSrc  string
	Enum      []string
	// EnumName names the enumeration's GraphQL type (Strapi's enumName option).
	EnumName string
	// TargetField names the attribute a uid is derived from (admin-only in Strapi; kept for tools).
	TargetField string

	// Relation and media.
	Relation   RelationKind
	Target     *Model // target model; plugin::upload.file for media
	TargetUID  string
	MappedBy   string
	InversedBy string
	Multiple   bool // media multiple
	Allowed    []string
	Link       *Join // how to reach targets from an entry holding this attribute; nil when Unlinked
	// Unlinked marks a mappedBy relation that no owner names with inversedBy: Strapi 4 boots
	// with it but keeps no link table for it, so it never holds an entry.
	Unlinked bool
	// Shadowed is set on an owner (inversedBy, or no mappedBy) that an owner built after it
	// names with inversedBy (both sides of a pair saying inversedBy; two owners naming one
	// attribute), or that names itself: Strapi makes this owner's link table (Shadowed), then
	// points the attribute at the later owner's table (or its own, the other way round), so
	// it reads and writes that table as a mapped side would (Link). Shadowed is filled only
	// through a side this owner names, if that side reads it.
	Shadowed *Join

	// Components and dynamic zones.
	Repeatable bool
	Components []*Model // one for a component attribute, several for a dynamic zone

	// GraphQLVisible makes a private attribute reachable over GraphQL: a role's users, which
	// Strapi's REST sanitizer strips and its GraphQL schema lists.
	GraphQLVisible bool

	// CustomField is the uid of a customField attribute (plugin::color-picker.color); Type is
	// then its underlying type, as Strapi's custom-field registry converts it.
	CustomField string

	// Owner is the model the attribute belongs to.
	Owner *Model

	// System marks createdAt/updatedAt/publishedAt/locale/localizations, which the write
	// path handles itself.
	System bool
	// Declared is the attribute's object as its schema file declares it (nil for the
	// attributes Strapi adds), for comparing with a schema Strapi recorded elsewhere (a data
	// archive's schemas/).
	Declared json.RawMessage

	// Localized is false for attributes of a localized type that opt out
	// (pluginOptions.i18n.localized: false); their values are kept equal across localizations.
	Localized bool
}

// OwnsLink says whether the relation's link table is the one Strapi makes for this side: an
// owner's (not mappedBy, not Shadowed), which names its columns from this side.
func (a *Attribute) OwnsLink() bool {
	return a.Type == Relation && a.MappedBy == "" && a.Shadowed == nil && a.Link != nil && !a.Link.Morph
}

// OwnJoin is the link table Strapi makes for an owner (OwnsLink's, or the one it Shadowed),
// with its columns named from this side; nil for other attributes. Its foreign keys are the
// source column to the owner's model and the target column to the attribute's target.
func (a *Attribute) OwnJoin() *Join {
	if a.Type == Relation && a.MappedBy == "" && a.Shadowed != nil {
		return a.Shadowed
	}
	if a.OwnsLink() {
		return a.Link
	}
	return nil
}

// IsScalar reports whether the attribute is stored in a column of its model's table.

func (a *Attribute) IsScalar() bool { return a.Column != "" }

// IsToMany reports whether a relation or media attribute holds a list.
func (a *Attribute) IsToMany() bool {
	switch a.Type {
	case Media:
		return a.Multiple
	case Relation:
		return a.Relation == OneToMany || a.Relation == ManyToMany
	case ComponentT:
		return a.Repeatable
	case DynamicZone:
		return true
	}
	return false
}

// IsNumber reports whether values of the attribute are compared as numbers.
func (a *Attribute) IsNumber() bool {
	switch a.Type {
	case Integer, Float, Decimal:
		return true
	}
	return false
}

// Hidden reports whether the attribute must never reach a client or be used in filters,
// sort or field selection.
func (a *Attribute) Hidden() bool { return a.Private || a.Type == Password }

// Model is a content type or a component.
type Model struct {
	UID          string // api::article.article, plugin::upload.file, or shared.seo for components
	Kind         Kind
	Table        string
	SingularName string // component: file name
	PluralName   string
	DisplayName  string
	Category     string // components only

	DraftAndPublish bool
	Localized       bool

	Attributes []*Attribute // schema order, followed by the system attributes
	byName     map[string]*Attribute

	// ComponentsTable is "<table>_components" when the model has component or dynamic-zone
	// attributes.
	ComponentsTable string

	File string // the schema file it came from

	visibleOnce sync.Once
	visible     []*Attribute
}

// VisibleScalars lists the scalar attributes a response shows by default, in schema order.
// The slice is shared: callers must not modify it.
func (m *Model) VisibleScalars() []*Attribute {
	m.visibleOnce.Do(func() {
		for _, a := range m.Attributes {
			if a.IsScalar() && !a.Hidden() {
				m.visible = append(m.visible, a)
			}
		}
	})
	return m.visible
}

// Attr returns the attribute with the given name.
func (m *Model) Attr(name string) (*Attribute, bool) {
	a, ok := m.byName[name]
	return a, ok
}

// NonLocalized lists the scalar attributes of a localized type that are shared by all
// localizations of an entry (what Strapi's i18n copies and syncs).
func (m *Model) NonLocalized() []*Attribute {
	if !m.Localized {
		return nil
	}
	var out []*Attribute
	for _, a := range m.Attributes {
		if a.IsScalar() && !a.System && !a.Localized && a.Type != Password {
			out = append(out, a)
		}
	}
	return out
}

// IsContentType reports whether the model has REST endpoints.
func (m *Model) IsContentType() bool { return m.Kind != Component }

// Join describes the link table that connects an entry (source) to related entries (targets)
// as seen from one attribute. The same table seen from the inverse (mappedBy) side has the
// columns swapped.
type Join struct {
	Table       string
	SourceCol   string // id of the entry holding the attribute
	TargetCol   string // id of the related entry
	OrderCol    string // order of targets within one source; empty when unordered
	InvOrderCol string // order of sources within one target; empty when not kept
	// Morph joins (media) also match a type and a field name.
	Morph      bool
	MorphType  string
	MorphField string
}

// Schema is the whole loaded model set of an app.
type Schema struct {
	Models       map[string]*Model
	ContentTypes []*Model // api:: and plugin content types with endpoints, sorted by UID
	Components   []*Model
	byPlural     map[string]*Model
	bySingular   map[string]*Model
	Files        *Model // plugin::upload.file
	// Plugins are the users-permissions types (user, role, permission): real models that
	// relations may target, without generated REST routes.
	Plugins []*Model
	// ControllerActions are the actions the project's controllers define besides the core
	// ones (api::note.note.count): Strapi lists them as permissions a role can be granted.
	// The app sets them once the controllers are read.
	ControllerActions []string
	// ControllerKeys are each project controller's own keys in its order (controller uid →
	// action names), which is the order Strapi lists its actions in; ControllerKeysUnknown
	// are the controllers whose file Quarry could not read, whose order is unknown.
	ControllerKeys        map[string][]string
	ControllerKeysUnknown map[string]bool
}

// ByPlural finds a collection type by its plural API id.
func (s *Schema) ByPlural(name string) (*Model, bool) {
	m, ok := s.byPlural[name]
	return m, ok
}

// BySingular finds a single type by its singular API id.
func (s *Schema) BySingular(name string) (*Model, bool) {
	m, ok := s.bySingular[name]
	return m, ok
}

// JSONKey is name quoted as a JSON object key with its colon when it needs no escapes
// (printable ASCII without " and \), else "".
func JSONKey(name string) string {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return ""
		}
	}
	return `"` + name + `":`
}
