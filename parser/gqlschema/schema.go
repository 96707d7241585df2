// Package gqlschema owns the GraphQL schema of an app: it generates Strapi v4's Shadow CRUD
// schema (types, inputs, filters, enums, dynamic-zone unions, queries and mutations) from the
// typed content model as a gqlparser *ast.Schema, applies the plugin's configuration and
// extension service (Shadow CRUD switches, typeDefs, resolvers), prints the schema as SDL,
// and answers the questions the request path asks about it: which model and action a root
// field stands for, which attribute a field is, how an enumeration value is spelled.
package gqlschema

import (
	"sort"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/quarrycms/quarry/schemas"
)

// Role says what a generated type stands for.
type Role int

const (
	RoleOther Role = iota
	// RoleAttributes is <Type> of a content type or a component type: its fields are
	// attributes.
	RoleAttributes
	RoleEntity                     // <Type>Entity {id, attributes}
	RoleEntityResponse             // <Type>EntityResponse {data}
	RoleEntityResponseCollection   // <Type>EntityResponseCollection {data, meta}
	RoleRelationResponseCollection // <Type>RelationResponseCollection {data}
	RoleDynamicZone                // <Type><Attr>DynamicZone union
	RoleMeta                       // ResponseCollectionMeta
	RolePagination                 // Pagination
	RoleError                      // Error (dynamic-zone items of unknown components)
	RoleGenericMorph               // GenericMorph (a file's related entries)
)

// TypeInfo links a generated output type back to the content model.
type TypeInfo struct {
	Role  Role
	Model *schemas.Model     // content type or component
	Attr  *schemas.Attribute // RoleDynamicZone: the dynamic-zone attribute
}

// Root is the Shadow CRUD meaning of a Query or Mutation field.
type Root struct {
	Model  *schemas.Model
	Action string // find, findOne, create, update, delete
}

// Schema is a generated schema with the maps that tie it to the content model. It is
// immutable once built and safe for concurrent use.
type Schema struct {
	AST     *ast.Schema
	Content *schemas.Schema
	Config  Config
	// Warnings lists what could not be expressed in GraphQL and was left out.
	Warnings []string

	types     map[string]*TypeInfo
	roots     map[string]*Root // "query.articles", "mutation.createArticle"
	models    map[*schemas.Model]*modelInfo
	enums     map[*schemas.Attribute]*enumMap
	order     []*ast.Definition // introspection order
	resolvers map[string]Resolver
	rconfig   map[string]ResolverConfig
	// morph says UploadFile has its related field.
	morph bool
}

type modelInfo struct {
	name    string
	output  map[string]*schemas.Attribute
	input   map[string]*schemas.Attribute
	filters map[string]*schemas.Attribute
}

type enumMap struct {
	name    string
	toName  map[string]string // stored value → member
	toValue map[string]string // member → stored value
}

// Type returns what a generated output type stands for (nil for other types).
func (s *Schema) Type(name string) *TypeInfo { return s.types[name] }

// Root returns the Shadow CRUD meaning of a root field.
func (s *Schema) Root(op ast.Operation, field string) (*Root, bool) {
	r, ok := s.roots[string(op)+"."+field]
	return r, ok
}

// TypeName is the GraphQL name of a model's type.
func (s *Schema) TypeName(m *schemas.Model) string {
	if mi := s.models[m]; mi != nil {
		return mi.name
	}
	return TypeName(m)
}

// OutputAttr returns the attribute a field of a model's output type stands for.
func (s *Schema) OutputAttr(m *schemas.Model, field string) (*schemas.Attribute, bool) {
	mi := s.models[m]
	if mi == nil {
		return nil, false
	}
	a, ok := mi.output[field]
	return a, ok
}

// InputAttr returns the attribute a field of a model's input type stands for.
func (s *Schema) InputAttr(m *schemas.Model, field string) (*schemas.Attribute, bool) {
	mi := s.models[m]
	if mi == nil {
		return nil, false
	}
	a, ok := mi.input[field]
	return a, ok
}

// FilterAttr returns the attribute a field of a model's filters input stands for.
func (s *Schema) FilterAttr(m *schemas.Model, field string) (*schemas.Attribute, bool) {
	mi := s.models[m]
	if mi == nil {
		return nil, false
	}
	a, ok := mi.filters[field]
	return a, ok
}

// EnumOut spells a stored enumeration value as its GraphQL member.
func (s *Schema) EnumOut(a *schemas.Attribute, stored string) string {
	if em := s.enums[a]; em != nil {
		if n, ok := em.toName[stored]; ok {
			return n
		}
	}
	return EnumValueName(stored)
}

// EnumIn turns a GraphQL member back into the stored enumeration value.
func (s *Schema) EnumIn(a *schemas.Attribute, member string) (string, bool) {
	em := s.enums[a]
	if em == nil {
		return "", false
	}
	v, ok := em.toValue[member]
	return v, ok
}

// Resolver returns the extension resolver of Type.field, if any.
func (s *Schema) Resolver(typeName, field string) Resolver { return s.resolvers[typeName+"."+field] }

// ResolverConfig returns resolversConfig["Type.field"].
func (s *Schema) ResolverConfig(typeName, field string) (ResolverConfig, bool) {
	c, ok := s.rconfig[typeName+"."+field]
	return c, ok
}

// Types lists the schema's named types in the order introspection reports them: generated
// and extension types in definition order, each built-in scalar where it is first
// referenced, then the introspection types — the order graphql-js would report.
func (s *Schema) Types() []*ast.Definition { return s.order }

// DynamicZoneMember returns the component a type name of a dynamic-zone union stands for.
func (s *Schema) DynamicZoneMember(dz *schemas.Attribute, typeName string) (*schemas.Model, bool) {
	for _, c := range dz.Components {
		if s.TypeName(c) == typeName {
			return c, true
		}
	}
	return nil, false
}

// computeOrder fills s.order.
func (s *Schema) computeOrder() {
	var user []*ast.Definition
	for _, d := range s.AST.Types {
		if !d.BuiltIn && !strings.HasPrefix(d.Name, "__") {
			user = append(user, d)
		}
	}
	sort.SliceStable(user, func(i, j int) bool { return defLess(user[i], user[j]) })
	seen := map[string]bool{}
	var out []*ast.Definition
	add := func(d *ast.Definition) {
		if d != nil && !seen[d.Name] {
			seen[d.Name] = true
			out = append(out, d)
		}
	}
	builtinRefs := func(d *ast.Definition) {
		ref := func(t *ast.Type) {
			for t.Elem != nil {
				t = t.Elem
			}
			if bd := s.AST.Types[t.NamedType]; bd != nil && bd.BuiltIn && !strings.HasPrefix(bd.Name, "__") {
				add(bd)
			}
		}
		for _, f := range d.Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue
			}
			for _, a := range f.Arguments {
				ref(a.Type)
			}
			ref(f.Type)
		}
	}
	for _, d := range user {
		add(d)
		builtinRefs(d)
	}
	for _, name := range []string{"__Schema", "__Type", "__TypeKind", "__Field", "__InputValue", "__EnumValue", "__Directive", "__DirectiveLocation"} {
		d := s.AST.Types[name]
		add(d)
		if d != nil {
			builtinRefs(d)
		}
	}
	s.order = out
}

// defLess orders definitions by source (generated first, then extensions in order) and
// position in it.
func defLess(a, b *ast.Definition) bool {
	pa, pb := a.Position, b.Position
	if pa == nil || pb == nil {
		return pb != nil
	}
	if pa.Src != pb.Src {
		return srcIndex(pa.Src) < srcIndex(pb.Src)
	}
	return pa.Start < pb.Start
}

// srcIndex reads the order number Build gives each source in its name ("#3 typeDefs").
func srcIndex(src *ast.Source) int {
	if src == nil {
		return 1 << 30
	}
	n := 0
	name := src.Name
	if !strings.HasPrefix(name, "#") {
		return 1 << 29
	}
	for _, c := range name[1:] {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}
