package graphql

import (
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// graphql-js reports a conflict between two fields of one response name
// (OverlappingFieldsCanBeMerged) at both fields and at every pair of conflicting subfields
// beneath them: the first field and its conflicting subfields, then the second field and
// its. gqlparser finds the same conflicts with the same words but locates them at the second
// field only. overlapLocations finds the conflict again, with both sides, to give
// graphql-js's locations; a conflict it cannot match keeps gqlparser's location.

// overlap is one conflict: its reason as gqlparser and graphql-js word it, and the fields
// on each side (the field first, then the conflicting subfields).
type overlap struct {
	reason  string
	a, b    []*ast.Field
	subject string // the response name
}

// overlapLocations returns graphql-js's locations for the conflict message msg that
// gqlparser located at the second field, at.
func overlapLocations(doc *ast.QueryDocument, msg string, at Location) ([]Location, bool) {
	var found []Location
	var visit func(set ast.SelectionSet)
	visit = func(set ast.SelectionSet) {
		if len(set) == 0 || found != nil {
			return
		}
		fields := collectOverlapFields(doc, set, map[string]bool{})
		for _, name := range fields.order {
			list := fields.byName[name]
			for i := 0; i < len(list) && found == nil; i++ {
				for j := i + 1; j < len(list) && found == nil; j++ {
					o := findOverlap(doc, list[i], list[j])
					if o == nil || list[j].Position == nil {
						continue
					}
					text := `Fields "` + o.subject + `" conflict because ` + o.reason + `. Use different aliases on the fields to fetch both if this was intentional.`
					if text == msg && list[j].Position.Line == at.Line && list[j].Position.Column == at.Column {
						for _, f := range append(append([]*ast.Field(nil), o.a...), o.b...) {
							found = append(found, locations(f.Position)...)
						}
					}
				}
			}
		}
		for _, sel := range set {
			switch x := sel.(type) {
			case *ast.Field:
				visit(x.SelectionSet)
			case *ast.InlineFragment:
				visit(x.SelectionSet)
			}
		}
	}
	for _, op := range doc.Operations {
		visit(op.SelectionSet)
	}
	for _, fr := range doc.Fragments {
		visit(fr.SelectionSet)
	}
	return found, found != nil
}

type overlapFields struct {
	order  []string
	byName map[string][]*ast.Field
}

// collectOverlapFields lists the fields of a selection set by response name, fragments
// spread in, in document order.
func collectOverlapFields(doc *ast.QueryDocument, set ast.SelectionSet, spread map[string]bool) *overlapFields {
	out := &overlapFields{byName: map[string][]*ast.Field{}}
	// graphql-js compares a set's own fields (inline fragments included) before the fields
	// its named fragments bring.
	var later []*ast.FragmentSpread
	var walk func(set ast.SelectionSet)
	walk = func(set ast.SelectionSet) {
		for _, sel := range set {
			switch x := sel.(type) {
			case *ast.Field:
				name := x.Alias
				if name == "" {
					name = x.Name
				}
				if _, ok := out.byName[name]; !ok {
					out.order = append(out.order, name)
				}
				out.byName[name] = append(out.byName[name], x)
			case *ast.InlineFragment:
				walk(x.SelectionSet)
			case *ast.FragmentSpread:
				later = append(later, x)
			}
		}
	}
	walk(set)
	for len(later) > 0 {
		x := later[0]
		later = later[1:]
		if spread[x.Name] {
			continue
		}
		spread[x.Name] = true
		if fr := doc.Fragments.ForName(x.Name); fr != nil {
			walk(fr.SelectionSet)
		}
	}
	return out
}

// findOverlap compares two fields of one response name as the validation rule does.
func findOverlap(doc *ast.QueryDocument, a, b *ast.Field) *overlap {
	subject := a.Alias
	if subject == "" {
		subject = a.Name
	}
	exclusive := a.ObjectDefinition != nil && b.ObjectDefinition != nil && a.ObjectDefinition != b.ObjectDefinition &&
		a.ObjectDefinition.Kind == ast.Object && b.ObjectDefinition.Kind == ast.Object
	if !exclusive {
		if a.Name != b.Name {
			return &overlap{reason: `"` + a.Name + `" and "` + b.Name + `" are different fields`, a: []*ast.Field{a}, b: []*ast.Field{b}, subject: subject}
		}
		if !sameOverlapArgs(a.Arguments, b.Arguments) {
			return &overlap{reason: "they have differing arguments", a: []*ast.Field{a}, b: []*ast.Field{b}, subject: subject}
		}
	}
	if a.Definition != nil && b.Definition != nil && a.Definition.Type != nil && b.Definition.Type != nil &&
		a.Definition.Type.String() != b.Definition.Type.String() && overlapTypesConflict(a.Definition.Type, b.Definition.Type) {
		return &overlap{reason: `they return conflicting types "` + a.Definition.Type.String() + `" and "` + b.Definition.Type.String() + `"`,
			a: []*ast.Field{a}, b: []*ast.Field{b}, subject: subject}
	}
	if len(a.SelectionSet) == 0 || len(b.SelectionSet) == 0 {
		return nil
	}
	spread := map[string]bool{}
	fa := collectOverlapFields(doc, a.SelectionSet, spread)
	fb := collectOverlapFields(doc, b.SelectionSet, spread)
	var subs []*overlap
	for _, name := range fa.order {
		for _, x := range fa.byName[name] {
			for _, y := range fb.byName[name] {
				if o := findOverlap(doc, x, y); o != nil {
					subs = append(subs, o)
				}
			}
		}
	}
	if len(subs) == 0 {
		return nil
	}
	o := &overlap{a: []*ast.Field{a}, b: []*ast.Field{b}, subject: subject}
	var reason strings.Builder
	for i, s := range subs {
		if i > 0 {
			reason.WriteString(" and ")
		}
		reason.WriteString(`subfields "` + s.subject + `" conflict because ` + s.reason)
		o.a = append(o.a, s.a...)
		o.b = append(o.b, s.b...)
	}
	o.reason = reason.String()
	return o
}

// overlapTypesConflict is the rule's doTypesConflict for the list and non-null wrappers and
// leaf types (object types are compared through their subfields).
func overlapTypesConflict(a, b *ast.Type) bool {
	if a.Elem != nil || b.Elem != nil {
		if a.Elem == nil || b.Elem == nil {
			return true
		}
		if a.NonNull != b.NonNull {
			return true
		}
		return overlapTypesConflict(a.Elem, b.Elem)
	}
	if a.NonNull != b.NonNull {
		return true
	}
	return false
}

func sameOverlapArgs(x, y ast.ArgumentList) bool {
	if len(x) != len(y) {
		return false
	}
	for _, a := range x {
		b := y.ForName(a.Name)
		if b == nil || a.Value.String() != b.Value.String() {
			return false
		}
	}
	return true
}
