package execute

import (
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/quarrycms/quarry/parser/gqlschema"
	pg "github.com/quarrycms/quarry/parser/graphql"
)

// Introspection answers __schema and __type from the generated *ast.Schema. The objects
// below are the introspection types of the spec; the generic completion walks them like
// any other object, so aliases, fragments and __typename work inside introspection too.

// introDirectives are the directives reported, those graphql-js reports (Strapi's list).
var introDirectives = []string{"include", "skip", "deprecated", "specifiedBy"}

// knownLocations are graphql-js's directive locations.
var knownLocations = map[string]bool{"QUERY": true, "MUTATION": true, "SUBSCRIPTION": true, "FIELD": true,
	"FRAGMENT_DEFINITION": true, "FRAGMENT_SPREAD": true, "INLINE_FRAGMENT": true, "VARIABLE_DEFINITION": true,
	"SCHEMA": true, "SCALAR": true, "OBJECT": true, "FIELD_DEFINITION": true, "ARGUMENT_DEFINITION": true,
	"INTERFACE": true, "UNION": true, "ENUM": true, "ENUM_VALUE": true, "INPUT_OBJECT": true, "INPUT_FIELD_DEFINITION": true}

type introSchema struct{ s *gqlschema.Schema }

func (*introSchema) typeName() string { return "__Schema" }

func (i *introSchema) field(name string, _ *pg.Obj) any {
	switch name {
	case "description":
		if i.s.AST.Description != "" {
			return i.s.AST.Description
		}
		return nil
	case "types":
		defs := i.s.Types()
		out := make([]any, 0, len(defs))
		for _, d := range defs {
			out = append(out, &introType{s: i.s, def: d})
		}
		return out
	case "queryType":
		return typeOrNil(i.s, i.s.AST.Query)
	case "mutationType":
		return typeOrNil(i.s, i.s.AST.Mutation)
	case "subscriptionType":
		return typeOrNil(i.s, i.s.AST.Subscription)
	case "directives":
		var out []any
		for _, name := range introDirectives {
			if d := i.s.AST.Directives[name]; d != nil {
				out = append(out, &introDirective{s: i.s, d: d})
			}
		}
		return out
	}
	return nil
}

func typeOrNil(s *gqlschema.Schema, d *ast.Definition) any {
	if d == nil {
		return nil
	}
	return &introType{s: s, def: d}
}

// introType is a named type (def) or a LIST / NON_NULL wrapper of another type.
type introType struct {
	s    *gqlschema.Schema
	def  *ast.Definition
	kind string // LIST or NON_NULL for wrappers
	of   *introType
}

// typeRef makes the introspection type of a type reference.
func typeRef(s *gqlschema.Schema, t *ast.Type) *introType {
	if t == nil {
		return nil
	}
	if t.NonNull {
		inner := *t
		inner.NonNull = false
		return &introType{s: s, kind: "NON_NULL", of: typeRef(s, &inner)}
	}
	if t.Elem != nil {
		return &introType{s: s, kind: "LIST", of: typeRef(s, t.Elem)}
	}
	d := s.AST.Types[t.NamedType]
	if d == nil {
		d = &ast.Definition{Kind: ast.Scalar, Name: t.NamedType}
	}
	return &introType{s: s, def: d}
}

func (*introType) typeName() string { return "__Type" }

func includeDeprecated(args *pg.Obj) bool {
	v, _ := args.Get("includeDeprecated")
	b, _ := v.(bool)
	return b
}

func (t *introType) field(name string, args *pg.Obj) any {
	if t.def == nil {
		switch name {
		case "kind":
			return t.kind
		case "ofType":
			return t.of
		}
		return nil
	}
	d := t.def
	switch name {
	case "kind":
		return string(d.Kind)
	case "name":
		return d.Name
	case "description":
		if d.Description == "" {
			return nil
		}
		return d.Description
	case "specifiedByURL", "specifiedByUrl":
		if sb := d.Directives.ForName("specifiedBy"); sb != nil && d.Kind == ast.Scalar {
			if u := sb.Arguments.ForName("url"); u != nil && u.Value != nil {
				return u.Value.Raw
			}
		}
		return nil
	case "fields":
		if d.Kind != ast.Object && d.Kind != ast.Interface {
			return nil
		}
		out := []any{}
		for _, f := range d.Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue
			}
			if _, dep := gqlschema.DeprecationReason(f.Directives); dep && !includeDeprecated(args) {
				continue
			}
			out = append(out, &introField{s: t.s, f: f})
		}
		return out
	case "interfaces":
		if d.Kind != ast.Object && d.Kind != ast.Interface {
			return nil
		}
		out := []any{}
		for _, i := range d.Interfaces {
			if id := t.s.AST.Types[i]; id != nil {
				out = append(out, &introType{s: t.s, def: id})
			}
		}
		return out
	case "possibleTypes":
		if d.Kind != ast.Union && d.Kind != ast.Interface {
			return nil
		}
		out := []any{}
		if d.Kind == ast.Union {
			// Union members in declaration order, as graphql-js reports them.
			for _, n := range d.Types {
				if pd := t.s.AST.Types[n]; pd != nil {
					out = append(out, &introType{s: t.s, def: pd})
				}
			}
			return out
		}
		for _, pd := range t.s.AST.PossibleTypes[d.Name] {
			out = append(out, &introType{s: t.s, def: pd})
		}
		return out
	case "enumValues":
		if d.Kind != ast.Enum {
			return nil
		}
		out := []any{}
		for _, v := range d.EnumValues {
			if _, dep := gqlschema.DeprecationReason(v.Directives); dep && !includeDeprecated(args) {
				continue
			}
			out = append(out, &introEnumValue{v: v})
		}
		return out
	case "inputFields":
		if d.Kind != ast.InputObject {
			return nil
		}
		out := []any{}
		for _, f := range d.Fields {
			if _, dep := gqlschema.DeprecationReason(f.Directives); dep && !includeDeprecated(args) {
				continue
			}
			out = append(out, &introInputValue{s: t.s, name: f.Name, desc: f.Description, typ: f.Type, dflt: f.DefaultValue, dirs: f.Directives})
		}
		return out
	case "ofType":
		return nil
	case "isOneOf":
		if d.Kind != ast.InputObject {
			return nil
		}
		return d.Directives.ForName("oneOf") != nil
	}
	return nil
}

type introField struct {
	s *gqlschema.Schema
	f *ast.FieldDefinition
}

func (*introField) typeName() string { return "__Field" }

func (i *introField) field(name string, args *pg.Obj) any {
	switch name {
	case "name":
		return i.f.Name
	case "description":
		if i.f.Description == "" {
			return nil
		}
		return i.f.Description
	case "args":
		out := []any{}
		for _, a := range i.f.Arguments {
			if _, dep := gqlschema.DeprecationReason(a.Directives); dep && !includeDeprecated(args) {
				continue
			}
			out = append(out, &introInputValue{s: i.s, name: a.Name, desc: a.Description, typ: a.Type, dflt: a.DefaultValue, dirs: a.Directives})
		}
		return out
	case "type":
		return typeRef(i.s, i.f.Type)
	case "isDeprecated":
		_, dep := gqlschema.DeprecationReason(i.f.Directives)
		return dep
	case "deprecationReason":
		if r, dep := gqlschema.DeprecationReason(i.f.Directives); dep {
			return r
		}
		return nil
	}
	return nil
}

type introInputValue struct {
	s    *gqlschema.Schema
	name string
	desc string
	typ  *ast.Type
	dflt *ast.Value
	dirs ast.DirectiveList
}

func (*introInputValue) typeName() string { return "__InputValue" }

func (i *introInputValue) field(name string, _ *pg.Obj) any {
	switch name {
	case "name":
		return i.name
	case "description":
		if i.desc == "" {
			return nil
		}
		return i.desc
	case "type":
		return typeRef(i.s, i.typ)
	case "defaultValue":
		if i.dflt == nil {
			return nil
		}
		return gqlschema.PrintValue(i.dflt)
	case "isDeprecated":
		_, dep := gqlschema.DeprecationReason(i.dirs)
		return dep
	case "deprecationReason":
		if r, dep := gqlschema.DeprecationReason(i.dirs); dep {
			return r
		}
		return nil
	}
	return nil
}

type introEnumValue struct{ v *ast.EnumValueDefinition }

func (*introEnumValue) typeName() string { return "__EnumValue" }

func (i *introEnumValue) field(name string, _ *pg.Obj) any {
	switch name {
	case "name":
		return i.v.Name
	case "description":
		if i.v.Description == "" {
			return nil
		}
		return i.v.Description
	case "isDeprecated":
		_, dep := gqlschema.DeprecationReason(i.v.Directives)
		return dep
	case "deprecationReason":
		if r, dep := gqlschema.DeprecationReason(i.v.Directives); dep {
			return r
		}
		return nil
	}
	return nil
}

type introDirective struct {
	s *gqlschema.Schema
	d *ast.DirectiveDefinition
}

func (*introDirective) typeName() string { return "__Directive" }

func (i *introDirective) field(name string, args *pg.Obj) any {
	switch name {
	case "name":
		return i.d.Name
	case "description":
		if i.d.Description == "" {
			return nil
		}
		return i.d.Description
	case "isRepeatable":
		return i.d.IsRepeatable
	case "locations":
		// gqlparser follows the newest spec draft (DIRECTIVE_DEFINITION); report only the
		// locations graphql-js clients know, as Strapi does.
		out := []any{}
		for _, l := range i.d.Locations {
			if knownLocations[string(l)] {
				out = append(out, string(l))
			}
		}
		return out
	case "args":
		out := []any{}
		for _, a := range i.d.Arguments {
			if _, dep := gqlschema.DeprecationReason(a.Directives); dep && !includeDeprecated(args) {
				continue
			}
			out = append(out, &introInputValue{s: i.s, name: a.Name, desc: a.Description, typ: a.Type, dflt: a.DefaultValue, dirs: a.Directives})
		}
		return out
	}
	return nil
}
