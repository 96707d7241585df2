package graphql

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/quarrycms/quarry/parser/gqlschema"
	"github.com/quarrycms/quarry/schemas/iso"
)

// Strapi's custom scalars check their input while the document is validated (literals) or
// variables are coerced, so a bad date or an unknown dynamic-zone component refuses the
// whole request with 400, as in Strapi. The messages are those of graphql-scalars and of
// Strapi's own Time and dynamic-zone scalars.

var (
	dateRe     = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	dateTimeRe = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$`)
	timeRe     = regexp.MustCompile(`^(2[0-3]|[01]\d):([0-5]\d):([0-5]\d)(\.\d{1,3})?$`)
)

// scalarFault is a custom scalar refusing a value. thrown says whether the scalar throws a
// GraphQLError (graphql-js reports its message as is) rather than a plain error (which
// graphql-js wraps in "Expected value of type …").
type scalarFault struct {
	msg    string
	thrown bool
	// undefined: the scalar's parseLiteral returned undefined (no message of its own).
	undefined bool
}

// display prints a value as JavaScript's String() does in scalar messages.
func display(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return string(x)
	case nil:
		return "null"
	case bool:
		if x {
			return "true"
		}
		return "false"
	case []any, map[string]any:
		return "[object Object]"
	}
	return fmt.Sprint(v)
}

// checkScalar validates a value of a custom scalar; literal says whether it comes from the
// document (where DateTime takes no numbers).
func checkScalar(gs *gqlschema.Schema, name string, v any, literal bool) *scalarFault {
	switch name {
	case "Date":
		s, ok := v.(string)
		if !ok {
			return &scalarFault{msg: "Date cannot represent non string type " + display(v), thrown: true}
		}
		if !dateRe.MatchString(s) {
			return &scalarFault{msg: "Date cannot represent an invalid date-string " + s + ".", thrown: true}
		}
		if _, err := time.Parse("2006-01-02", s); err != nil {
			return &scalarFault{msg: "Date cannot represent an invalid date-string " + s + ".", thrown: true}
		}
	case "DateTime":
		s, ok := v.(string)
		if !ok {
			if _, isNum := v.(json.Number); isNum && !literal {
				return nil // a unix timestamp, as graphql-scalars accepts in variables
			}
			return &scalarFault{msg: "DateTime cannot represent non string or Date type " + display(v), thrown: true}
		}
		if !dateTimeRe.MatchString(s) {
			return &scalarFault{msg: "DateTime cannot represent an invalid date-time-string " + s + ".", thrown: true}
		}
		if _, err := time.Parse(time.RFC3339Nano, strings.ToUpper(s)); err != nil {
			return &scalarFault{msg: "DateTime cannot represent an invalid date-time-string " + s + ".", thrown: true}
		}
	case "Time":
		s, ok := v.(string)
		if !ok {
			return &scalarFault{msg: "Time cannot represent non string type"}
		}
		if !timeRe.MatchString(s) {
			return &scalarFault{msg: "Invalid time format, expected HH:mm:ss.SSS"}
		}
	case "Upload":
		// Files come only through variables (graphql-upload's parseLiteral throws).
		if literal {
			return &scalarFault{msg: "Upload literal unsupported.", thrown: true}
		}
	case "I18NLocaleCode":
		// The i18n plugin's parseLiteral: a string naming a locale it knows, or "all".
		// Variables are taken as they are (its parseValue is the identity).
		if !literal {
			return nil
		}
		code, ok := v.(string)
		if !ok {
			return &scalarFault{msg: "Locale cannot represent non string type"}
		}
		if code != "all" && !iso.Known(code) {
			return &scalarFault{msg: "Unknown locale supplied"}
		}
	case "Int":
		// graphql-js's Int takes 32 bits; gqlparser checks only that a literal is an
		// integer, so the range is checked here (variables are checked when coerced).
		n, ok := v.(json.Number)
		if !literal || !ok {
			return nil
		}
		if i, err := strconv.ParseInt(string(n), 10, 64); err != nil || i > math.MaxInt32 || i < math.MinInt32 {
			return &scalarFault{msg: "Int cannot represent non 32-bit signed integer value: " + string(n), thrown: true}
		}
	case "Long":
		var text string
		switch x := v.(type) {
		case string:
			text = strings.TrimSpace(x)
		case json.Number:
			text = string(x)
		default:
			return &scalarFault{msg: "Cannot convert " + display(v) + " to a BigInt"}
		}
		if _, ok := new(big.Int).SetString(text, 10); !ok {
			return &scalarFault{msg: "Cannot convert " + display(v) + " to a BigInt"}
		}
	default:
		if gs == nil || !strings.HasSuffix(name, "DynamicZoneInput") {
			return nil
		}
		ti := gs.Type(strings.TrimSuffix(name, "Input"))
		if ti == nil || ti.Role != gqlschema.RoleDynamicZone {
			return nil
		}
		m, ok := v.(map[string]any)
		if !ok && literal {
			return &scalarFault{undefined: true}
		}
		tn, _ := m["__typename"].(string)
		for _, c := range gs.Content.Components {
			if gs.TypeName(c) == tn {
				return nil
			}
		}
		names := make([]string, len(ti.Attr.Components))
		for i, c := range ti.Attr.Components {
			names[i] = gs.TypeName(c)
		}
		return &scalarFault{msg: "Component not found. expected one of: " + strings.Join(names, ", ")}
	}
	return nil
}

// checkLiterals validates every custom-scalar literal of the document, as graphql-js's
// ValuesOfCorrectType rule does with the scalars' parseLiteral.
func checkLiterals(gs *gqlschema.Schema, doc *ast.QueryDocument) RequestErrors {
	var errs RequestErrors
	var value func(v *ast.Value)
	value = func(v *ast.Value) {
		if v == nil || v.Kind == ast.Variable {
			return
		}
		// A list literal carries its element's definition: check the elements.
		if d := v.Definition; d != nil && d.Kind == ast.Scalar && v.Kind != ast.NullValue && v.Kind != ast.ListValue {
			c := &coercer{}
			f := checkScalar(gs, d.Name, c.untyped(v), true)
			if f != nil {
				typ := d.Name
				if t := v.ExpectedType; t != nil {
					// A single value given for a list is checked as an element.
					for t.Elem != nil {
						t = t.Elem
					}
					typ = t.String()
				}
				msg := f.msg
				switch {
				case f.undefined:
					msg = fmt.Sprintf("Expected value of type \"%s\", found %s.", typ, gqlschema.PrintValue(v))
				case !f.thrown:
					msg = fmt.Sprintf("Expected value of type \"%s\", found %s; %s", typ, gqlschema.PrintValue(v), f.msg)
				}
				errs = append(errs, &RequestError{Message: msg, Locations: valueLocation(v), Code: CodeValidationFailed})
			}
			return
		}
		for _, ch := range v.Children {
			value(ch.Value)
		}
	}
	directives := func(dl ast.DirectiveList) {
		for _, d := range dl {
			for _, a := range d.Arguments {
				value(a.Value)
			}
		}
	}
	var set func(ss ast.SelectionSet)
	set = func(ss ast.SelectionSet) {
		for _, s := range ss {
			switch x := s.(type) {
			case *ast.Field:
				for _, a := range x.Arguments {
					value(a.Value)
				}
				directives(x.Directives)
				set(x.SelectionSet)
			case *ast.InlineFragment:
				directives(x.Directives)
				set(x.SelectionSet)
			case *ast.FragmentSpread:
				directives(x.Directives)
			}
		}
	}
	for _, op := range doc.Operations {
		for _, vd := range op.VariableDefinitions {
			value(vd.DefaultValue)
		}
		directives(op.Directives)
		set(op.SelectionSet)
	}
	for _, fd := range doc.Fragments {
		directives(fd.Directives)
		set(fd.SelectionSet)
	}
	return errs
}

// valueLocation locates a value literal as graphql-js does, at its first character: gqlparser
// positions string tokens after their opening quotes.
func valueLocation(v *ast.Value) []Location {
	loc := locations(v.Position)
	if len(loc) == 1 {
		switch v.Kind {
		case ast.StringValue:
			loc[0].Column = max(loc[0].Column-1, 1)
		case ast.BlockValue:
			loc[0].Column = max(loc[0].Column-3, 1)
		}
	}
	return loc
}
