package graphql

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// Cost limits bound the work a document can ask for before it is validated: gqlparser's
// OverlappingFieldsCanBeMerged compares every pair of fields sharing a response name (after
// spreading fragments), and lowering expands every fragment spread, so a few kilobytes of
// aliases or nested fragments would otherwise cost minutes and gigabytes. The accounting
// below is linear in the document: each fragment is measured once and its measure reused
// wherever it is spread, so a chain of fragments that doubles per level costs nothing to
// count.

// CostLimits are the caps of the cost model (gqlschema.DefaultConfig has their defaults);
// a value of 0 or less turns one cap off.
type CostLimits struct {
	// MaxAliases caps the aliased fields of the document as written.
	MaxAliases int
	// MaxRepeatedFields caps the fields sharing one response name in one selection set,
	// fragments spread in.
	MaxRepeatedFields int
	// MaxFields caps the selections (fields, fragment spreads and inline fragments) of an
	// operation after every fragment is spread.
	MaxFields int
	// MaxEstimatedRows caps the entries an operation may ask for: every paginated
	// collection counts its page size (its limit or pageSize, else the default limit,
	// capped by amountLimit and maxLimit) times one plus what each entry selects.
	MaxEstimatedRows int
}

// unboundedPage is the page size assumed for a collection nothing caps (limit -1 with
// neither amountLimit nor maxLimit): the estimate must still grow with nesting.
const unboundedPage = 1000

// measure is what a selection set costs, relative to where it is spread.
type measure struct {
	fields float64            // selections after expansion
	rows   float64            // estimated entries
	depth  int                // deepest field with a selection, graphql-depth-limit's way
	names  map[string]float64 // fields per response name at this level, fragments spread
	// repeated is the largest count of one response name in any set at or below this one.
	repeated float64
	at       *ast.Position // where the repeated name is, for the error
	name     string
}

type costState int

const (
	unmeasured costState = iota
	measuring
	measured
)

type coster struct {
	schema *ast.Schema
	doc    *ast.QueryDocument
	opt    Options
	frags  map[string]*measure
	state  map[string]costState
}

// checkCost measures every operation of doc and refuses one over a limit. It runs on the
// unvalidated document: unknown fields and fragments count as plain fields, fragment
// cycles count once (validation reports them).
func checkCost(s *ast.Schema, doc *ast.QueryDocument, opt Options) RequestErrors {
	lim := opt.Cost
	if lim.MaxAliases > 0 {
		n := 0
		var first *ast.Position
		var walk func(set ast.SelectionSet)
		walk = func(set ast.SelectionSet) {
			for _, sel := range set {
				switch x := sel.(type) {
				case *ast.Field:
					if x.Alias != "" && x.Alias != x.Name {
						n++
						if n == lim.MaxAliases+1 {
							first = x.Position
						}
					}
					walk(x.SelectionSet)
				case *ast.InlineFragment:
					walk(x.SelectionSet)
				}
			}
		}
		for _, op := range doc.Operations {
			walk(op.SelectionSet)
		}
		for _, f := range doc.Fragments {
			walk(f.SelectionSet)
		}
		if n > lim.MaxAliases {
			return RequestErrors{limitError(fmt.Sprintf("The document has %d aliases, more than the limit of %d (graphql.config.maxAliases).", n, lim.MaxAliases), first)}
		}
	}
	c := &coster{schema: s, doc: doc, opt: opt, frags: map[string]*measure{}, state: map[string]costState{}}
	for _, op := range doc.Operations {
		var root *ast.Definition
		if s != nil {
			switch op.Operation {
			case ast.Mutation:
				root = s.Mutation
			case ast.Subscription:
				root = s.Subscription
			default:
				root = s.Query
			}
		}
		m := c.set(op.SelectionSet, root)
		name := "The operation"
		if op.Name != "" {
			name = "Operation '" + op.Name + "'"
		}
		switch {
		case lim.MaxFields > 0 && m.fields > float64(lim.MaxFields):
			return RequestErrors{limitError(fmt.Sprintf("%s selects %s fields once its fragments are spread, more than the limit of %d (graphql.config.maxFields).", name, amount(m.fields), lim.MaxFields), op.Position)}
		case lim.MaxRepeatedFields > 0 && m.repeated > float64(lim.MaxRepeatedFields):
			return RequestErrors{limitError(fmt.Sprintf("The field %q is selected %s times in one selection, more than the limit of %d (graphql.config.maxRepeatedFields).", m.name, amount(m.repeated), lim.MaxRepeatedFields), m.at)}
		case lim.MaxEstimatedRows > 0 && m.rows > float64(lim.MaxEstimatedRows):
			return RequestErrors{limitError(fmt.Sprintf("%s may return about %s entries, more than the limit of %d (graphql.config.maxEstimatedRows); ask for smaller pages or less nesting.", name, amount(m.rows), lim.MaxEstimatedRows), op.Position)}
		case opt.DepthLimit > 0 && m.depth > opt.DepthLimit:
			// checkDepth reports every node too deep, as graphql-depth-limit does; the
			// fields cap above has bounded its walk.
			return checkDepth(doc, opt.DepthLimit)
		}
	}
	return nil
}

func amount(f float64) string {
	if f >= 1e15 {
		return fmt.Sprintf("%.3g", f)
	}
	return strconv.FormatFloat(f, 'f', 0, 64)
}

func limitError(msg string, at *ast.Position) *RequestError {
	return &RequestError{Message: msg, Locations: locations(at), Code: CodeValidationFailed}
}

// fragment measures a named fragment once.
func (c *coster) fragment(name string) *measure {
	switch c.state[name] {
	case measured:
		return c.frags[name]
	case measuring:
		return &measure{} // a cycle: NoFragmentCycles reports it
	}
	fd := c.doc.Fragments.ForName(name)
	if fd == nil {
		return &measure{}
	}
	c.state[name] = measuring
	m := c.set(fd.SelectionSet, c.typeNamed(fd.TypeCondition))
	c.frags[name] = m
	c.state[name] = measured
	return m
}

func (c *coster) typeNamed(name string) *ast.Definition {
	if c.schema == nil || name == "" {
		return nil
	}
	return c.schema.Types[name]
}

// set measures a selection set of type t (nil when unknown).
func (c *coster) set(set ast.SelectionSet, t *ast.Definition) *measure {
	m := &measure{names: map[string]float64{}}
	add := func(sub *measure) {
		m.fields += sub.fields
		m.rows += sub.rows
		if sub.depth > m.depth {
			m.depth = sub.depth
		}
		for k, v := range sub.names {
			m.names[k] += v
		}
		if sub.repeated > m.repeated {
			m.repeated, m.at, m.name = sub.repeated, sub.at, sub.name
		}
	}
	for _, sel := range set {
		m.fields++
		switch x := sel.(type) {
		case *ast.Field:
			key := x.Alias
			if key == "" {
				key = x.Name
			}
			m.names[key]++
			if m.names[key] > m.repeated {
				m.repeated, m.at, m.name = m.names[key], x.Position, key
			}
			if len(x.SelectionSet) == 0 {
				continue
			}
			var def *ast.FieldDefinition
			if t != nil {
				def = t.Fields.ForName(x.Name)
			}
			var ft *ast.Definition
			if def != nil && def.Type != nil {
				ft = c.typeNamed(def.Type.Name())
			}
			sub := c.set(x.SelectionSet, ft)
			m.fields += sub.fields
			if sub.repeated > m.repeated {
				m.repeated, m.at, m.name = sub.repeated, sub.at, sub.name
			}
			if !strings.HasPrefix(x.Name, "__") && sub.depth+1 > m.depth {
				m.depth = sub.depth + 1
			}
			if n := c.page(x, def); n > 0 {
				m.rows += n * (1 + sub.rows)
			} else {
				m.rows += sub.rows
			}
		case *ast.InlineFragment:
			ft := t
			if x.TypeCondition != "" {
				ft = c.typeNamed(x.TypeCondition)
			}
			add(c.set(x.SelectionSet, ft))
		case *ast.FragmentSpread:
			add(c.fragment(x.Name))
		}
	}
	for k, v := range m.names {
		if v > m.repeated {
			m.repeated, m.name = v, k
		}
	}
	return m
}

// page is the page size of a paginated collection field, 0 for any other field.
func (c *coster) page(f *ast.Field, def *ast.FieldDefinition) float64 {
	if def == nil || def.Arguments.ForName("pagination") == nil {
		return 0
	}
	ceiling := float64(0)
	if a := c.opt.AmountLimit; a > 0 {
		ceiling = float64(a)
	}
	if m := c.opt.MaxLimit; m > 0 && (ceiling == 0 || float64(m) < ceiling) {
		ceiling = float64(m)
	}
	if ceiling == 0 {
		ceiling = unboundedPage
	}
	n := float64(c.opt.DefaultLimit)
	if n <= 0 {
		n = 10
	}
	if arg := f.Arguments.ForName("pagination"); arg != nil && arg.Value != nil {
		switch arg.Value.Kind {
		case ast.Variable:
			n = ceiling
		case ast.ObjectValue:
			for _, ch := range arg.Value.Children {
				if ch.Name != "limit" && ch.Name != "pageSize" {
					continue
				}
				switch {
				case ch.Value == nil:
				case ch.Value.Kind == ast.Variable:
					n = ceiling
				case ch.Value.Kind == ast.IntValue:
					if v, err := strconv.ParseFloat(ch.Value.Raw, 64); err == nil {
						n = v
						if v < 0 {
							n = ceiling
						}
					}
				}
			}
		}
	}
	if n > ceiling {
		n = ceiling
	}
	if n < 1 {
		n = 1
	}
	return n
}
