// Package ir is the one typed query representation that both front-ends (REST query strings
// and GraphQL documents) lower into. It names fields by their API names and keeps values as
// the client sent them; the planner resolves names against the schema and casts values.
package ir

// Op is what a query does.
type Op int

const (
	FindMany Op = iota
	FindOne
	Create
	Update
	Delete
	// CreateLocalization creates a localization of entry ID (of a single type: its entry)
	// from Data, in Locale[0] (i18n's POST /api/:plural/:id/localizations and GraphQL's
	// create<Type>Localization).
	CreateLocalization
)

// Via says which of Strapi's layers a write is made through, which decides the defaults
// Strapi's layers differ on (see planner/write's package doc).
type Via uint8

const (
	// ViaREST is the content API's controllers (Strapi's core service): a new entry is
	// published unless Data's publishedAt is null; the event carries the entry as the
	// request's fields and populate read it.
	ViaREST Via = iota
	// ViaGraphQL is the GraphQL plugin's resolvers, which call the entity service with the
	// payload alone: a new entry is a draft unless Data gives publishedAt; the event carries
	// the entry's own attributes; Fields and Populate are the selection's, for the answer.
	ViaGraphQL
	// ViaEntityService is strapi.entityService called by the project's code: a new entry is
	// a draft unless Data gives publishedAt; the event carries the entry as Fields and
	// Populate read it.
	ViaEntityService
	// ViaQueryEngine is strapi.db.query(uid), as the project's code and Strapi's plugins call
	// it (the upload service's remove): the entity service's defaults, the lifecycle hooks
	// run, but no entry.* event is announced — neither the eventHub listeners nor the
	// webhooks see it (the entity service emits them, not the query engine).
	ViaQueryEngine
)

// Query is one read or write request against one content type.
type Query struct {
	Model string `json:"model"` // content-type UID
	Op    Op     `json:"op"`
	ID    string `json:"id,omitempty"` // FindOne/Update/Delete of a collection type

	Filters          *Filter    `json:"filters,omitempty"`
	Sort             []Sort     `json:"sort,omitempty"`
	Fields           []string   `json:"fields,omitempty"` // nil: every scalar attribute
	Populate         *Populate  `json:"populate,omitempty"`
	Pagination       Pagination `json:"pagination"`
	PublicationState string     `json:"publicationState,omitempty"` // "", "live", "preview"
	Locale           []string   `json:"locale,omitempty"`
	// Search is Strapi's _q: entries whose id or a string attribute (a numeric one too when
	// the term reads as a number) contains the term. nil: no search.
	Search *string `json:"search,omitempty"`

	// Data is the write payload (Create/Update/CreateLocalization), as decoded JSON
	// (numbers as json.Number).
	Data map[string]any `json:"data,omitempty"`
	// Via is the layer a write goes through (writes only).
	Via Via `json:"via,omitempty"`
	// GraphQL marks a query lowered from a GraphQL document, which may reach the attributes
	// only Strapi's GraphQL schema shows (schemas.Attribute.GraphQLVisible).
	GraphQL bool `json:"-"`
}

// ValueKind tells how a client typed a value; REST values are always strings or nulls.
type ValueKind uint8

const (
	VNull ValueKind = iota
	VString
	VNumber
	VBool
)

// Value is one scalar operand as the client sent it.
type Value struct {
	Kind ValueKind `json:"kind"`
	S    string    `json:"value"` // text form for VString and VNumber; "true"/"false" for VBool
}

// Str makes a string value.
func Str(s string) Value { return Value{Kind: VString, S: s} }

// Null is the null value.
var Null = Value{Kind: VNull}

// FilterKind is the node type of a filter tree.
type FilterKind uint8

const (
	And FilterKind = iota
	Or
	Not
	Cond     // Path Op Values
	Relation // Path names a relation/component/media; Children apply to its target
)

// Filter is a boolean tree of conditions.
type Filter struct {
	Kind     FilterKind `json:"kind"`
	Children []*Filter  `json:"children,omitempty"`
	// Field is the attribute (or "id") a Cond or Relation node applies to.
	Field string `json:"field,omitempty"`
	// Operator is the filter operator with its $ ("$eq", "$containsi", ...).
	Operator string  `json:"operator,omitempty"`
	Values   []Value `json:"values,omitempty"`
	// Param is the client's name for the offending part, used in error messages.
	Param string `json:"-"`
}

// Simplified is an And node as the parsers hand it on: nil without children, its only
// child alone, the node itself otherwise.
func (f *Filter) Simplified() *Filter {
	switch len(f.Children) {
	case 0:
		return nil
	case 1:
		return f.Children[0]
	}
	return f
}

// Sort is one sort key; Path has more than one element when sorting through relations.
type Sort struct {
	Path  []string `json:"path"`
	Desc  bool     `json:"desc,omitempty"`
	Param string   `json:"-"`
}

// Pagination as the client asked for it; the planner applies defaults and limits.
type Pagination struct {
	Page     *int `json:"page,omitempty"`
	PageSize *int `json:"pageSize,omitempty"`
	Start    *int `json:"start,omitempty"`
	Limit    *int `json:"limit,omitempty"`
	// WithCount nil means the configured default.
	WithCount *bool `json:"withCount,omitempty"`
}

// Populate is the population tree of one level.
type Populate struct {
	// All means every populatable attribute of the level (populate=*).
	All      bool             `json:"all,omitempty"`
	Children []*PopulateField `json:"fields,omitempty"`
	// Stray holds the `fields`, `sort`, `filters` and `populate` keys written among the
	// attribute names of a populate object (populate[seo][populate][fields][0]=title). Strapi
	// validates them against the level's model and then ignores them; so does Quarry.
	Stray *PopulateField `json:"stray,omitempty"`
	// Deep asks for every relation, component, dynamic zone and media down to Deep levels
	// (strapi-plugin-populate-deep's populate=deep,N); the planner expands it.
	// DeepDefault stands for the plugin's configured default depth; N <= 1 populates nothing,
	// as the plugin does.
	Deep int `json:"deep,omitempty"`
}

// DeepDefault is Populate.Deep for `populate=deep` without a depth.
const DeepDefault = -1

// DeepUnbounded is Populate.Deep for a depth the plugin cannot read (`populate=deep,x`): it
// then has no bound, Quarry's depth cap applies.
const DeepUnbounded = 1 << 20

// Find returns the child for a field.
func (p *Populate) Find(field string) *PopulateField {
	if p == nil {
		return nil
	}
	for _, c := range p.Children {
		if c.Field == field {
			return c
		}
	}
	return nil
}

// PopulateField populates one attribute, with its own query options.
type PopulateField struct {
	Field            string      `json:"field"`
	Fields           []string    `json:"fields,omitempty"`
	Sort             []Sort      `json:"sort,omitempty"`
	Filters          *Filter     `json:"filters,omitempty"`
	Populate         *Populate   `json:"populate,omitempty"`
	Pagination       *Pagination `json:"pagination,omitempty"`
	PublicationState string      `json:"publicationState,omitempty"`
	Count            bool        `json:"count,omitempty"`
	// On holds per-component options for dynamic zones, keyed by component UID in order.
	On []*PopulateOn `json:"on,omitempty"`
	// Invalid names the parameter when the value given for this key has a shape Strapi
	// crashes on if the key is a populatable attribute (an array); for a scalar attribute or
	// an unknown name Strapi ignores the key, so the planner decides.
	Invalid string `json:"invalid,omitempty"`
}

// PopulateOn is the dynamic-zone fragment for one component.
type PopulateOn struct {
	Component string         `json:"component"`
	Field     *PopulateField `json:"options"`
}

var (
	opNames     = [...]string{"findMany", "findOne", "create", "update", "delete", "createLocalization"}
	viaNames    = [...]string{"rest", "graphql", "entityService", "queryEngine"}
	filterNames = [...]string{"and", "or", "not", "cond", "relation"}
	valueNames  = [...]string{"null", "string", "number", "bool"}
)

// MarshalText names the op in dumps (qplan).
func (o Op) MarshalText() ([]byte, error) { return []byte(opNames[o]), nil }

// MarshalText names the layer in dumps.
func (v Via) MarshalText() ([]byte, error) { return []byte(viaNames[v]), nil }

// IsWrite reports whether the op writes.
func (o Op) IsWrite() bool { return o >= Create }

// MarshalText names the node kind in dumps.
func (k FilterKind) MarshalText() ([]byte, error) { return []byte(filterNames[k]), nil }

// MarshalText names the value kind in dumps.
func (k ValueKind) MarshalText() ([]byte, error) { return []byte(valueNames[k]), nil }
