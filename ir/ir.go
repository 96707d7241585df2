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
)

// Query is one read or write request against one content type.
type Query struct {
	Model string // content-type UID
	Op    Op
	ID    string // FindOne/Update/Delete of a collection type

	Filters          *Filter
	Sort             []Sort
	Fields           []string // nil: every scalar attribute
	Populate         *Populate
	Pagination       Pagination
	PublicationState string // "", "live", "preview"
	Locale           []string

	// Data is the write payload (Create/Update), as decoded JSON.
	Data map[string]any
	// DataKeys keeps the payload's key order, which decides the order of validation errors.
	DataKeys []string
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
	Kind ValueKind
	S    string // text form for VString and VNumber; "true"/"false" for VBool
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
	Kind     FilterKind
	Children []*Filter
	// Field is the attribute (or "id") a Cond or Relation node applies to.
	Field string
	// Operator is the filter operator with its $ ("$eq", "$containsi", ...).
	Operator string
	Values   []Value
	// Param is the client's name for the offending part, used in error messages.
	Param string
}

// Sort is one sort key; Path has more than one element when sorting through relations.
type Sort struct {
	Path  []string
	Desc  bool
	Param string
}

// Pagination as the client asked for it; the planner applies defaults and limits.
type Pagination struct {
	Page, PageSize, Start, Limit *int
	// WithCount nil means the configured default.
	WithCount *bool
}

// Populate is the population tree of one level.
type Populate struct {
	// All means every populatable attribute of the level (populate=*).
	All      bool
	Children []*PopulateField
}

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
	Field            string
	Fields           []string
	Sort             []Sort
	Filters          *Filter
	Populate         *Populate
	Pagination       *Pagination
	PublicationState string
	Count            bool
	// On holds per-component options for dynamic zones, keyed by component UID in order.
	On []*PopulateOn
}

// PopulateOn is the dynamic-zone fragment for one component.
type PopulateOn struct {
	Component string
	Field     *PopulateField
}
