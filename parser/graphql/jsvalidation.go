package graphql

import (
	"regexp"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/quarrycms/quarry/parser/gqlschema"
)

var (
	unknownArgRe = regexp.MustCompile(`^Unknown argument "([^"]+)" on field "[^"]+"\.$`)
	leafQueryRe  = regexp.MustCompile(`^Cannot query field "[^"]+" on type "([^"]+)"\.$`)
	leafSelRe    = regexp.MustCompile(`^Field "[^"]+" must not have a selection since type "[^"]+" has no subfields\.$`)
)

// asGraphQLJS adjusts gqlparser's validation errors to what graphql-js (behind Strapi's
// Apollo Server) answers for the same document: the same rules, but a few are located or
// repeated differently.
func asGraphQLJS(s *gqlschema.Schema, doc *ast.QueryDocument, src string, errs gqlerror.List) RequestErrors {
	lines := strings.Split(src, "\n")
	out := make(RequestErrors, 0, len(errs))
	for _, e := range errs {
		loc := locs(e.Locations)
		switch {
		case e.Message == `There can be only one operation named "".`:
			// graphql-js reports anonymous operations once, with LoneAnonymousOperation.
			continue
		case leafQueryRe.MatchString(e.Message):
			// graphql-js stops at a leaf with a selection: no second error for its fields.
			if t := s.AST.Types[leafQueryRe.FindStringSubmatch(e.Message)[1]]; t != nil && (t.Kind == ast.Scalar || t.Kind == ast.Enum) {
				continue
			}
		case leafSelRe.MatchString(e.Message) && len(loc) == 1:
			// graphql-js locates it at the selection set's brace.
			loc[0] = braceAfter(lines, loc[0])
		case unknownArgRe.MatchString(e.Message) && len(loc) == 1:
			// graphql-js locates it at the argument, gqlparser at the field.
			if a := argumentAt(doc, loc[0], unknownArgRe.FindStringSubmatch(e.Message)[1]); a != nil {
				loc = locations(a.Position)
			}
		case e.Rule == "OverlappingFieldsCanBeMerged" && len(loc) == 1:
			// graphql-js locates both fields and their conflicting subfields.
			if all, ok := overlapLocations(doc, e.Message, loc[0]); ok {
				loc = all
			}
		case strings.Contains(e.Message, " cannot represent ") && len(loc) == 1:
			// gqlparser places a string literal one column after its opening quote.
			if l := loc[0]; l.Line-1 < len(lines) && l.Column >= 2 && l.Column-2 < len(lines[l.Line-1]) && lines[l.Line-1][l.Column-2] == '"' {
				loc[0].Column--
			}
		}
		out = append(out, &RequestError{Message: e.Message, Locations: loc, Code: CodeValidationFailed})
		if len(out) == maxValidationErrors {
			// graphql-js stops validating at its maxErrors (100) and says so.
			return append(out, &RequestError{Message: "Too many validation errors, error limit reached. Validation aborted.", Code: CodeValidationFailed})
		}
	}
	return out
}

// maxValidationErrors is graphql-js's default maxErrors.
const maxValidationErrors = 100

// braceAfter finds the '{' that opens the selection set of the field at l, skipping its
// arguments.
func braceAfter(lines []string, l Location) Location {
	depth := 0
	for li := l.Line - 1; li < len(lines); li++ {
		start := 0
		if li == l.Line-1 {
			start = l.Column - 1
		}
		for ci := start; ci < len(lines[li]); ci++ {
			switch lines[li][ci] {
			case '(':
				depth++
			case ')':
				depth--
			case '{':
				if depth == 0 {
					return Location{Line: li + 1, Column: ci + 1}
				}
			}
		}
	}
	return l
}

// argumentAt finds the argument named name of the field located at l.
func argumentAt(doc *ast.QueryDocument, l Location, name string) *ast.Argument {
	var found *ast.Argument
	var walk func(ss ast.SelectionSet)
	walk = func(ss ast.SelectionSet) {
		for _, sel := range ss {
			if found != nil {
				return
			}
			switch x := sel.(type) {
			case *ast.Field:
				if x.Position != nil && x.Position.Line == l.Line && x.Position.Column == l.Column {
					if a := x.Arguments.ForName(name); a != nil {
						found = a
						return
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
	return found
}
