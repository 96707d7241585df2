// Package plan holds the physical plan: what the planner emits and sqlgen renders. It is the
// lower level of the IR: ir.Query says what a client asked for, a Plan says which statements
// answer it. Nothing here knows SQL syntax or HTTP.
//
// GET /api/articles?filters[title][$containsi]=go&populate[author]=true&pagination[pageSize]=2
// plans as:
//
//	Plan{Model: article, Page: {Page: 1, PageSize: 2, WithCount: true},
//	  Root: &Select{Model: article, Columns: [title, body, ...],
//	    Where: And{&Cmp{Attr: title, Op: "ilike", Args: ["%go%"]}, Published{}},
//	    Order: [], Limit: 2,
//	    Children: [&Child{Attr: author, Steps: [
//	      &Select{Model: writer, Via: &Via{Kind: ViaLink, Join: articles_author_links}},
//	    ]}]},
//	  Count: &Select{Model: article, Where: <the root's>, CountOnly: true}}
//
// which runs as three statements whatever the number of rows: the root page, its count, and
// one batched statement for the authors of every article on the page.
package plan

import (
	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/schemas"
)

// Plan is everything needed to answer a read.
type Plan struct {
	Model *schemas.Model
	One   bool // a single entry (findOne, single type) rather than a list
	Root  *Select
	// Count is the root's COUNT statement, nil when withCount is off or for one entry.
	Count *Select
	Page  PageMeta
	// Removed lists what the planner dropped and why (for qplan --as).
	Removed []string
}

// PageMeta is the pagination echoed in meta.pagination.
type PageMeta struct {
	OffsetMode bool
	Page       int
	PageSize   int
	Start      int
	Limit      int // -1: unlimited
	WithCount  bool
}

// Select is one SELECT statement over one model.
type Select struct {
	Model   *schemas.Model
	Columns []*schemas.Attribute // scalar attributes to read, in output order (id is implicit)
	Where   Expr                 // nil: no condition
	Order   []Order
	// Limit and Offset bind as parameters; Limit < 0 means none. For batched child steps the
	// limit applies per parent.
	Limit, Offset int
	CountOnly     bool
	// WithTotal adds the number of rows the condition keeps, before the limit, to every row
	// (COUNT(*) OVER (), column sqlgen.TotalCol): the page and meta.pagination.total from one
	// scan. Set on a first page only, where an empty page means a total of 0.
	WithTotal bool
	// ValuePlans marks a root (and its count) whose condition's cost depends on its values
	// (a LIKE, a comparison through a relation): on PostgreSQL its statements are planned
	// with their values rather than by a prepared statement's generic plan (planner/exec,
	// runNative).
	ValuePlans bool

	// Via is set on batched child steps: how children are reached from the parent ids.
	Via *Via
	// Children are the populated attributes of this level, in output order.
	Children []*Child
}

// ViaKind says what a child step joins through.
type ViaKind uint8

const (
	ViaLink       ViaKind = iota // relation link table
	ViaMorph                     // files_related_morphs (media)
	ViaComponents                // <table>_components (components, dynamic zones)
)

// Via is how a batched step reaches children of many parents at once.
type Via struct {
	Kind ViaKind
	Join *schemas.Join // ViaLink, ViaMorph
	// ViaComponents: the owner's components table, the field and the component type.
	ComponentsTable string
	Field           string
	ComponentType   string
	// Count makes the step return one count per parent instead of rows.
	Count bool
}

// Child is one populated attribute of a level.
type Child struct {
	Attr *schemas.Attribute
	// Steps has one step for relations, media and components, and one per component type for
	// dynamic zones (merged back by their order column).
	Steps []*Select
	Count bool
	// one backs Steps for the common single-step child, saving an allocation per level.
	one [1]*Select
}

// StepBuffer returns an empty slice backed by the child's inline storage: a child with one
// step (every relation, media and component) appends to it without allocating.
func (c *Child) StepBuffer() []*Select { return c.one[:0] }

// Order is one ORDER BY term.
type Order struct {
	// Path is empty for a column of the step's own model; otherwise the attribute chain to
	// follow, ending in Attr on the last model.
	Path []*schemas.Attribute
	Attr *schemas.Attribute // nil with an empty path means id
	Desc bool
	// Indexed says the database holds Quarry's sort index of Attr, a column of the step's own
	// model (sqlgen.SortIndexes): the term names the index's expression, which orders every
	// row exactly as the column does, so that only this ORDER BY can read that index.
	Indexed bool
}

// Expr is a WHERE condition tree.
type Expr interface{ expr() }

// And, Or and Not combine conditions.
type And []Expr
type Or []Expr
type Not struct{ E Expr }

// Cmp compares one column of the model reached by Path with Args.
type Cmp struct {
	// Path is the chain of relation/component/media attributes from the step's model; the
	// planner keeps each distinct chain at one alias, as Strapi joins each path once.
	Path []*schemas.Attribute
	Attr *schemas.Attribute // nil: id
	Op   ir.Comparison      // what the filter operator compiles to (ir's operator table)
	Args []any
	// Text compares the column as text (LIKE on non-string columns).
	Text bool
}

// Published restricts a step to published entries of a Draft & Publish model.
type Published struct{}

func (And) expr()       {}
func (Or) expr()        {}
func (Not) expr()       {}
func (*Cmp) expr()      {}
func (Published) expr() {}

// HasPath reports whether the condition reaches through relations, components or media.
func HasPath(e Expr) bool {
	switch x := e.(type) {
	case And:
		for _, c := range x {
			if HasPath(c) {
				return true
			}
		}
	case Or:
		for _, c := range x {
			if HasPath(c) {
				return true
			}
		}
	case Not:
		return HasPath(x.E)
	case *Cmp:
		return len(x.Path) > 0
	}
	return false
}

// Date and TimeOfDay are typed values for date and time columns, so each dialect binds them
// as its column type wants; datetimes are time.Time in UTC.
type (
	Date      string
	TimeOfDay string
)
