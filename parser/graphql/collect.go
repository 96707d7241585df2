package graphql

import (
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/parser/gqlschema"
	"github.com/quarrycms/quarry/schemas"
)

// Object is the merged selection set of one concrete object type: every field the client
// asked for on it, through fragments and inline fragments, once per response key.
type Object struct {
	Type   *ast.Definition
	Fields []*Field
	// Level lists, for the attributes of a content type or component, the attribute of each
	// populate entry of the level in order; Field.Pop indexes it. Several objects (aliases
	// of data or attributes) share one level.
	Level *Level
}

// Level is the populate list of one level, shared by the objects read from its entries.
type Level struct {
	Attrs []*schemas.Attribute
}

// Field is one response key of an Object.
type Field struct {
	Key  string
	Name string
	// AST holds every occurrence merged under Key; the first locates errors.
	AST  []*ast.Field
	Def  *ast.FieldDefinition
	Args *Obj // coerced arguments
	// Attr is the attribute a field of a content type or component stands for.
	Attr *schemas.Attribute
	// Pop is the field's index in the populate list of its level (relations, media,
	// components, dynamic zones); -1 for other fields.
	Pop int
	// Object is the selection of an object-typed field; Union the selection per member type
	// of a union- or interface-typed field.
	Object *Object
	Union  map[string]*Object
	// Resolver is the extension resolver of the field, if any.
	Resolver gqlschema.Resolver
	// Entities is, for an extension's root field returning a content type's EntityResponse
	// or EntityResponseCollection, the read of its selection (Model, Fields, Populate; the
	// request adds the ids the resolver answers): the relations, media, components and
	// dynamic zones under attributes are read from the database as Strapi's association
	// resolvers load them. Shared by the requests of a template: copied before use.
	Entities *ir.Query
	// Morph marks UploadFile.related, whose members' attribute fields carry their Attr.
	Morph bool
	// Err is a failure of this field alone (bad arguments of a relation): it answers null
	// with this error while the rest of the response is served.
	Err error
	// late marks, in a template, a field whose arguments use variables (see lowerer.tmpl).
	late bool
}

// Position is the first occurrence's position.
func (f *Field) Position() *ast.Position {
	if len(f.AST) == 0 {
		return nil
	}
	return f.AST[0].Position
}

// Locations locates the field in the document, for errors.
func (f *Field) Locations() []Location { return locations(f.Position()) }

type group struct {
	key    string
	fields []*ast.Field
}

// collect merges selection sets into the response keys of one concrete type, as GraphQL's
// CollectFields does (skip/include honoured, fragments applied when their type condition
// holds for typ).
func (l *lowerer) collect(sets []ast.SelectionSet, typ *ast.Definition) []*group {
	var out []*group
	index := map[string]*group{}
	visited := map[string]bool{}
	var walk func(ss ast.SelectionSet)
	walk = func(ss ast.SelectionSet) {
		for _, sel := range ss {
			switch x := sel.(type) {
			case *ast.Field:
				if !l.included(x.Directives) {
					continue
				}
				key := x.Alias
				if key == "" {
					key = x.Name
				}
				g := index[key]
				if g == nil {
					g = &group{key: key}
					index[key] = g
					out = append(out, g)
				}
				g.fields = append(g.fields, x)
			case *ast.InlineFragment:
				if !l.included(x.Directives) || !l.applies(x.TypeCondition, typ) {
					continue
				}
				walk(x.SelectionSet)
			case *ast.FragmentSpread:
				if !l.included(x.Directives) || visited[x.Name] {
					continue
				}
				visited[x.Name] = true
				fd := l.doc.Fragments.ForName(x.Name)
				if fd == nil || !l.applies(fd.TypeCondition, typ) {
					continue
				}
				walk(fd.SelectionSet)
			}
		}
	}
	for _, ss := range sets {
		walk(ss)
	}
	return out
}

// applies reports whether a fragment on cond applies to objects of typ.
func (l *lowerer) applies(cond string, typ *ast.Definition) bool {
	if cond == "" || cond == typ.Name {
		return true
	}
	d := l.s.AST.Types[cond]
	if d == nil || !d.IsAbstractType() {
		return false
	}
	for _, p := range l.s.AST.PossibleTypes[cond] {
		if p.Name == typ.Name {
			return true
		}
	}
	return false
}

// included evaluates @skip and @include.
func (l *lowerer) included(dl ast.DirectiveList) bool {
	for _, d := range dl {
		if d.Name != "skip" && d.Name != "include" {
			continue
		}
		a := d.Arguments.ForName("if")
		if a == nil {
			continue
		}
		v, _, err := l.c.literal(a.Value, ast.NonNullNamedType("Boolean", nil))
		b, _ := v.(bool)
		if err != nil {
			b = false
		}
		if d.Name == "skip" && b || d.Name == "include" && !b {
			return false
		}
	}
	return true
}

// object builds the merged selection of fields on a concrete type, recursively.
func (l *lowerer) object(fields []*ast.Field, typ *ast.Definition) *Object {
	sets := make([]ast.SelectionSet, 0, len(fields))
	for _, f := range fields {
		sets = append(sets, f.SelectionSet)
	}
	obj := &Object{Type: typ}
	for _, g := range l.collect(sets, typ) {
		// Fragments can multiply a small document into a huge selection tree; stop building
		// past a budget (Parse then refuses the request).
		if l.nodes++; l.nodes > maxSelectionNodes {
			return obj
		}
		obj.Fields = append(obj.Fields, l.field(g, typ))
	}
	return obj
}

// field builds one response key of typ: its coerced arguments and its sub-selection. A
// template's lowering leaves arguments that use variables uncoerced (Args nil, late set):
// they are coerced per request.
func (l *lowerer) field(g *group, typ *ast.Definition) *Field {
	first := g.fields[0]
	f := &Field{Key: g.key, Name: first.Name, AST: g.fields, Def: first.Definition, Pop: -1}
	if f.Name == "__typename" {
		return f
	}
	if f.Def == nil {
		f.Def = typ.Fields.ForName(f.Name)
	}
	if l.tmpl && usesVariables(first.Arguments) {
		f.late = true
		l.lateArgs++
	} else {
		args, err := l.c.args(first)
		if err != nil {
			f.Err = userInput(err)
			args = newObj()
		}
		f.Args = args
	}
	if f.Def != nil {
		l.sub(f, f.Def.Type)
	}
	return f
}

// sub fills the sub-selection of a field of type t.
func (l *lowerer) sub(f *Field, t *ast.Type) {
	for t.Elem != nil {
		t = t.Elem
	}
	d := l.s.AST.Types[t.NamedType]
	if d == nil {
		return
	}
	switch d.Kind {
	case ast.Object:
		f.Object = l.object(f.AST, d)
	case ast.Union, ast.Interface:
		f.Union = map[string]*Object{}
		for _, p := range l.s.AST.PossibleTypes[d.Name] {
			f.Union[p.Name] = l.object(f.AST, p)
		}
	}
}
