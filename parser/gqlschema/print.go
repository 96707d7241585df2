package gqlschema

import (
	"sort"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// SDL prints the schema (see Print).
func (s *Schema) SDL() string { return Print(s.AST) }

// Print renders a schema as SDL the way graphql-js printSchema does: types in definition
// order, built-in scalars and introspection types left out, block-string descriptions,
// arguments inline. Quarry's and Strapi's printed schemas can so be compared as text.
func Print(s *ast.Schema) string {
	var defs []*ast.Definition
	for _, d := range s.Types {
		if d.BuiltIn || strings.HasPrefix(d.Name, "__") {
			continue
		}
		defs = append(defs, d)
	}
	sort.SliceStable(defs, func(i, j int) bool {
		if defLess(defs[i], defs[j]) != defLess(defs[j], defs[i]) {
			return defLess(defs[i], defs[j])
		}
		return defs[i].Name < defs[j].Name
	})
	parts := make([]string, 0, len(defs))
	for _, d := range defs {
		parts = append(parts, printDef(d))
	}
	return strings.Join(parts, "\n\n") + "\n"
}

func printDef(d *ast.Definition) string {
	var b strings.Builder
	writeDescription(&b, d.Description, "")
	switch d.Kind {
	case ast.Scalar:
		b.WriteString("scalar " + d.Name)
		if sb := d.Directives.ForName("specifiedBy"); sb != nil {
			if u := sb.Arguments.ForName("url"); u != nil && u.Value != nil {
				b.WriteString(" @specifiedBy(url: " + PrintValue(u.Value) + ")")
			}
		}
	case ast.Union:
		b.WriteString("union " + d.Name)
		if len(d.Types) > 0 {
			b.WriteString(" = " + strings.Join(d.Types, " | "))
		}
	case ast.Enum:
		b.WriteString("enum " + d.Name + " {")
		for i, v := range d.EnumValues {
			b.WriteString("\n")
			if v.Description != "" {
				if i > 0 {
					b.WriteString("\n")
				}
				writeDescription(&b, v.Description, "  ")
			}
			b.WriteString("  " + v.Name + deprecation(v.Directives))
		}
		b.WriteString("\n}")
	case ast.Object, ast.Interface, ast.InputObject:
		kw := map[ast.DefinitionKind]string{ast.Object: "type", ast.Interface: "interface", ast.InputObject: "input"}[d.Kind]
		b.WriteString(kw + " " + d.Name)
		if len(d.Interfaces) > 0 {
			b.WriteString(" implements " + strings.Join(d.Interfaces, " & "))
		}
		b.WriteString(" {")
		first := true
		for _, f := range d.Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue
			}
			b.WriteString("\n")
			if f.Description != "" {
				if !first {
					b.WriteString("\n")
				}
				writeDescription(&b, f.Description, "  ")
			}
			first = false
			b.WriteString("  " + f.Name)
			if len(f.Arguments) > 0 {
				b.WriteString(printArgs(f.Arguments))
			}
			b.WriteString(": " + f.Type.String())
			if f.DefaultValue != nil {
				b.WriteString(" = " + PrintValue(f.DefaultValue))
			}
			b.WriteString(deprecation(f.Directives))
		}
		b.WriteString("\n}")
	}
	return b.String()
}

func printArgs(args ast.ArgumentDefinitionList) string {
	described := false
	for _, a := range args {
		if a.Description != "" {
			described = true
		}
	}
	one := func(a *ast.ArgumentDefinition) string {
		s := a.Name + ": " + a.Type.String()
		if a.DefaultValue != nil {
			s += " = " + PrintValue(a.DefaultValue)
		}
		return s + deprecation(a.Directives)
	}
	if !described {
		parts := make([]string, len(args))
		for i, a := range args {
			parts[i] = one(a)
		}
		return "(" + strings.Join(parts, ", ") + ")"
	}
	var b strings.Builder
	b.WriteString("(")
	for i, a := range args {
		b.WriteString("\n")
		if a.Description != "" {
			if i > 0 {
				b.WriteString("\n")
			}
			writeDescription(&b, a.Description, "    ")
		}
		b.WriteString("    " + one(a))
	}
	b.WriteString("\n  )")
	return b.String()
}

func deprecation(dl ast.DirectiveList) string {
	d := dl.ForName("deprecated")
	if d == nil {
		return ""
	}
	if r := d.Arguments.ForName("reason"); r != nil && r.Value != nil && r.Value.Raw != "No longer supported" {
		return " @deprecated(reason: " + PrintValue(r.Value) + ")"
	}
	return " @deprecated"
}

// DeprecationReason returns the reason of an @deprecated directive, or "" and false.
func DeprecationReason(dl ast.DirectiveList) (string, bool) {
	d := dl.ForName("deprecated")
	if d == nil {
		return "", false
	}
	if r := d.Arguments.ForName("reason"); r != nil && r.Value != nil {
		return r.Value.Raw, true
	}
	return "No longer supported", true
}

// writeDescription writes a description as graphql-js's printBlockString does.
func writeDescription(b *strings.Builder, desc, indent string) {
	if desc == "" {
		return
	}
	escaped := strings.ReplaceAll(desc, `"""`, `\"""`)
	split := strings.Split(strings.ReplaceAll(strings.ReplaceAll(escaped, "\r\n", "\n"), "\r", "\n"), "\n")
	single := len(split) == 1
	forceLeading := len(split) > 1
	if forceLeading {
		for _, l := range split[1:] {
			if l != "" && l[0] != ' ' && l[0] != '\t' {
				forceLeading = false
				break
			}
		}
	}
	trailingTriple := strings.HasSuffix(escaped, `\"""`)
	trailingQuote := strings.HasSuffix(desc, `"`) && !trailingTriple
	trailingSlash := strings.HasSuffix(desc, `\`)
	forceTrailing := trailingQuote || trailingSlash
	multi := !single || len(desc) > 70 || forceTrailing || forceLeading || trailingTriple
	res := ""
	skipLeading := single && (desc[0] == ' ' || desc[0] == '\t')
	if (multi && !skipLeading) || forceLeading {
		res += "\n"
	}
	res += escaped
	if multi || forceTrailing {
		res += "\n"
	}
	block := `"""` + res + `"""`
	b.WriteString(indent + strings.ReplaceAll(block, "\n", "\n"+indent) + "\n")
}

// PrintValue prints a value literal the way graphql-js prints default values:
// {a: 1, b: [2, 3]}, "text", ENUM.
func PrintValue(v *ast.Value) string {
	if v == nil {
		return "null"
	}
	switch v.Kind {
	case ast.Variable:
		return "$" + v.Raw
	case ast.StringValue, ast.BlockValue:
		return (&ast.Value{Kind: ast.StringValue, Raw: v.Raw}).String()
	case ast.ListValue:
		parts := make([]string, len(v.Children))
		for i, c := range v.Children {
			parts[i] = PrintValue(c.Value)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case ast.ObjectValue:
		parts := make([]string, len(v.Children))
		for i, c := range v.Children {
			parts[i] = c.Name + ": " + PrintValue(c.Value)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return v.Raw
}
