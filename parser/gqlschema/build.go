package gqlschema

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/formatter"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/schemas"
)

// Scalar descriptions, word for word as Strapi's schema reports them, so that the printed
// schemas compare equal.
const (
	descJSON     = "The `JSON` scalar type represents JSON values as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf)."
	descDateTime = "A date-time string at UTC, such as 2007-12-03T10:15:30Z, compliant with the `date-time` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar."
	descTime     = "A time string with format HH:mm:ss.SSS"
	descDate     = "A date string, such as 2007-12-03, compliant with the `full-date` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar."
	descLong     = "The `BigInt` scalar type represents non-fractional signed whole numeric values."
	descUpload   = "The `Upload` scalar type represents a file upload."
	descLocale   = "A string used to identify an i18n locale"
)

// filterScalars are the scalars with a <S>FilterInput, in Strapi's order.
var filterScalars = []string{"ID", "Boolean", "String", "Int", "Long", "Float", "Date", "Time", "DateTime", "JSON"}

// uploadRequired are the upload plugin's required file attributes, which Quarry's file
// model does not mark (it only reads files) but Strapi's schema shows as non-null.
var uploadRequired = map[string]bool{"name": true, "hash": true, "mime": true, "size": true, "url": true, "provider": true}

// def is one type definition before it becomes SDL.
type def struct {
	kind   ast.DefinitionKind
	name   string
	desc   string
	suffix string // directives after the name, e.g. @specifiedBy(...)
	fields []fdef
	values []string // enum
	types  []string // union
}

type fdef struct {
	name string
	typ  string
	args []adef
	desc string
}

type adef struct{ name, typ, dflt string }

type gen struct {
	// front lists, by type, the fields the project's typeDefs declare of a generated type
	// (placeFront).
	front  map[string][]string
	cs     *schemas.Schema
	cfg    Config
	ext    *Extension
	defs   []*def
	out    *Schema
	query  []fdef
	mut    []fdef
	warned map[string]bool
	// meQuery adds Query.me last, where Strapi's users-permissions plugin puts it.
	meQuery func()
}

// Build generates the schema of a content model with a configuration. The configuration's
// Extension (if any) has been filled by the caller; it is read here once.
func Build(cs *schemas.Schema, cfg Config) (*Schema, error) {
	if cfg.Endpoint == "" {
		cfg.Endpoint = "/graphql"
	}
	g := &gen{cs: cs, cfg: cfg, ext: cfg.ext, warned: map[string]bool{},
		out: &Schema{Content: cs, Config: cfg, types: map[string]*TypeInfo{}, roots: map[string]*Root{},
			models: map[*schemas.Model]*modelInfo{}, enums: map[*schemas.Attribute]*enumMap{},
			resolvers: map[string]Resolver{}, rconfig: map[string]ResolverConfig{}}}
	g.base()
	if cfg.ShadowCRUD {
		for _, m := range g.models() {
			g.prepare(m)
		}
		for _, c := range cs.Components {
			if g.enabled(c) {
				g.component(c)
			}
		}
		for _, m := range g.models() {
			g.contentType(m)
		}
		g.genericMorph()
		g.uploadPlugin()
		if !cfg.UsersPermissionsOff {
			g.usersPermissions()
		}
		if g.meQuery != nil {
			g.meQuery()
		}
	}
	if !cfg.I18nOff {
		g.i18nPlugin()
	}
	g.defs = append(g.defs, &def{kind: ast.InputObject, name: "PaginationArg", fields: []fdef{
		{name: "page", typ: "Int"}, {name: "pageSize", typ: "Int"}, {name: "start", typ: "Int"}, {name: "limit", typ: "Int"}}})
	if len(g.query) > 0 {
		g.defs = append(g.defs, &def{kind: ast.Object, name: "Query", fields: g.query})
	}
	if len(g.mut) > 0 {
		g.defs = append(g.defs, &def{kind: ast.Object, name: "Mutation", fields: g.mut})
	}

	var replaced []replacedField
	cfg.TypeDefs = g.mergeTypeDefs(cfg.TypeDefs)
	replaced = g.yieldExtendedFields(replaced, cfg.TypeDefs)
	uses := g.ext.Uses()
	for i := range uses {
		uses[i].TypeDefs = g.mergeTypeDefs(uses[i].TypeDefs)
		replaced = g.yieldExtendedFields(replaced, uses[i].TypeDefs)
		for _, op := range []string{"Query", "Mutation"} {
			// The project's resolver of a generated root field is the one that runs, as in
			// Strapi, where the extension's resolvers are added over Shadow CRUD's.
			for f := range uses[i].Resolvers[op] {
				delete(g.out.roots, strings.ToLower(op)+"."+f)
			}
		}
	}
	sources := []*ast.Source{{Name: "#1 shadow-crud.graphql", Input: g.sdl()}}
	if strings.TrimSpace(cfg.TypeDefs) != "" {
		sources = append(sources, &ast.Source{Name: "#2 config/plugins.json typeDefs", Input: cfg.TypeDefs})
	}
	for name, rc := range cfg.ResolversConfig {
		g.out.rconfig[name] = rc
	}
	for i, use := range uses {
		if strings.TrimSpace(use.TypeDefs) != "" {
			sources = append(sources, &ast.Source{Name: fmt.Sprintf("#%d extension %d typeDefs", i+3, i+1), Input: use.TypeDefs})
		}
		for typ, fields := range use.Resolvers {
			for f, r := range fields {
				g.out.resolvers[typ+"."+f] = r
			}
		}
		for name, rc := range use.ResolversConfig {
			g.out.rconfig[name] = rc
		}
	}
	schema, err := gqlparser.LoadSchema(sources...)
	if err != nil {
		var ge *gqlerror.Error
		if errors.As(err, &ge) && ge.Extensions != nil {
			if file, ok := ge.Extensions["file"].(string); ok {
				return nil, fmt.Errorf("graphql schema (%s): %s", strings.TrimLeft(file, "#0123456789 "), ge.Message)
			}
		}
		return nil, fmt.Errorf("graphql schema: %w", err)
	}
	placeReplaced(schema, replaced)
	placeFront(schema, g.front)
	if schema.Query == nil {
		return nil, errors.New("graphql schema: no Query type (Shadow CRUD is disabled or every query is, and no typeDefs add one)")
	}
	// graphql-js 15 clients (Strapi v4's own tooling among them) ask __Type.specifiedByUrl;
	// newer ones ask specifiedByURL. Answer both.
	if t := schema.Types["__Type"]; t != nil && t.Fields.ForName("specifiedByUrl") == nil {
		t.Fields = append(t.Fields, &ast.FieldDefinition{Name: "specifiedByUrl", Type: ast.NamedType("String", nil)})
	}
	// Strapi runs graphql-js 15, whose @specifiedBy description is spelled the British way.
	if d := schema.Directives["specifiedBy"]; d != nil {
		d.Description = "Exposes a URL that specifies the behaviour of this scalar."
	}
	prune(schema)
	g.out.AST = schema
	for name := range g.out.types {
		if schema.Types[name] == nil {
			delete(g.out.types, name)
		}
	}
	g.out.computeOrder()
	sort.Strings(g.out.Warnings)
	return g.out, nil
}

// models lists the content types in Strapi's registration order: the plugins' types
// (upload, users-permissions, i18n), then the app's API types by uid.
func (g *gen) models() []*schemas.Model {
	var out []*schemas.Model
	seen := map[*schemas.Model]bool{}
	add := func(m *schemas.Model) {
		if m == nil || seen[m] || !g.enabled(m) {
			return
		}
		seen[m] = true
		out = append(out, m)
	}
	for _, uid := range pluginModelOrder {
		switch {
		case g.cfg.UsersPermissionsOff && (uid == schemas.UserUID || uid == schemas.RoleUID || uid == schemas.PermissionUID),
			g.cfg.I18nOff && uid == schemas.LocaleUID:
			continue
		}
		add(g.cs.Models[uid])
	}
	// Local plugins' content types (plugin::<name>.<ct>) come with the plugins', before the
	// app's, as Strapi registers them; the built-in plugins' are in pluginModelOrder.
	for _, m := range g.cs.Plugins {
		if !slices.Contains(pluginModelOrder, m.UID) {
			add(m)
		}
	}
	for _, m := range g.cs.ContentTypes {
		add(m)
	}
	return out
}

func (g *gen) enabled(m *schemas.Model) bool {
	if !g.cfg.ShadowCRUD {
		return false
	}
	t := g.ext.lookup(m.UID)
	return t == nil || t.IsEnabled()
}

func (g *gen) actionEnabled(m *schemas.Model, action string) bool {
	t := g.ext.lookup(m.UID)
	return t == nil || t.IsActionEnabled(action)
}

// field switches of an attribute.
func (g *gen) fieldSwitch(m *schemas.Model, a *schemas.Attribute) (output, input, filters bool) {
	t := g.ext.lookup(m.UID)
	if t == nil {
		return true, true, true
	}
	t.ext.mu.Lock()
	f := t.fields[a.Name]
	t.ext.mu.Unlock()
	if f == nil {
		return true, true, true
	}
	return f.HasOutputEnabled(), f.HasInputEnabled(), f.HasFiltersEnabled()
}

func (g *gen) warn(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if !g.warned[msg] {
		g.warned[msg] = true
		g.out.Warnings = append(g.out.Warnings, msg)
	}
}

// usable reports whether an attribute can appear in the schema at all.
func (g *gen) usable(m *schemas.Model, a *schemas.Attribute) bool {
	if !validName(a.Name) {
		g.warn("%s.%s: attribute name is not a valid GraphQL name; left out of the GraphQL schema", m.UID, a.Name)
		return false
	}
	switch a.Type {
	case schemas.Relation:
		// The target must be one of the generated content types (prepared before any type
		// refers to it) and enabled.
		return g.out.models[a.Target] != nil && g.enabled(a.Target)
	case schemas.ComponentT, schemas.DynamicZone:
		for _, c := range a.Components {
			if !g.enabled(c) {
				return false
			}
		}
	case schemas.Media:
		return g.out.models[g.cs.Files] != nil && g.enabled(g.cs.Files)
	}
	return true
}

// base adds the scalars, shared types and scalar filter inputs.
func (g *gen) base() {
	g.defs = append(g.defs,
		&def{kind: ast.Scalar, name: "JSON", desc: descJSON, suffix: ` @specifiedBy(url: "http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf")`},
		&def{kind: ast.Scalar, name: "DateTime", desc: descDateTime},
		&def{kind: ast.Scalar, name: "Time", desc: descTime},
		&def{kind: ast.Scalar, name: "Date", desc: descDate},
		&def{kind: ast.Scalar, name: "Long", desc: descLong},
		&def{kind: ast.Scalar, name: "Upload", desc: descUpload},
		&def{kind: ast.Object, name: "Error", fields: []fdef{{name: "code", typ: "String!"}, {name: "message", typ: "String"}}},
		&def{kind: ast.Object, name: "Pagination", fields: []fdef{
			{name: "total", typ: "Int!"}, {name: "page", typ: "Int!"}, {name: "pageSize", typ: "Int!"}, {name: "pageCount", typ: "Int!"}}},
		&def{kind: ast.Object, name: "ResponseCollectionMeta", fields: []fdef{{name: "pagination", typ: "Pagination!"}}},
		&def{kind: ast.Enum, name: "PublicationState", values: []string{"LIVE", "PREVIEW"}},
	)
	g.out.types["Error"] = &TypeInfo{Role: RoleError}
	g.out.types["Pagination"] = &TypeInfo{Role: RolePagination}
	g.out.types["ResponseCollectionMeta"] = &TypeInfo{Role: RoleMeta}
	for _, s := range filterScalars {
		d := &def{kind: ast.InputObject, name: s + "FilterInput"}
		d.fields = append(d.fields, fdef{name: "and", typ: "[" + s + "]"}, fdef{name: "or", typ: "[" + s + "]"},
			fdef{name: "not", typ: s + "FilterInput"})
		for _, op := range ir.Operators() {
			if !op.GraphQL {
				continue
			}
			typ := s
			switch op.Operand {
			case ir.Flag:
				typ = "Boolean"
			case ir.ValueList, ir.ValuePair:
				typ = "[" + s + "]"
			}
			d.fields = append(d.fields, fdef{name: op.Field(), typ: typ})
		}
		g.defs = append(g.defs, d)
	}
}

// scalarType is the GraphQL scalar of a scalar attribute type.
func scalarType(t schemas.AttrType) string {
	switch t {
	case schemas.Boolean:
		return "Boolean"
	case schemas.Integer:
		return "Int"
	case schemas.BigInteger:
		return "Long"
	case schemas.Float, schemas.Decimal:
		return "Float"
	case schemas.JSON, schemas.Blocks:
		return "JSON"
	case schemas.Date:
		return "Date"
	case schemas.Time:
		return "Time"
	case schemas.DateTime, schemas.Timestamp:
		return "DateTime"
	}
	return "String"
}

// prepare registers a content type's names before any type refers to it.
func (g *gen) prepare(m *schemas.Model) {
	g.out.models[m] = &modelInfo{name: TypeName(m), output: map[string]*schemas.Attribute{},
		input: map[string]*schemas.Attribute{}, filters: map[string]*schemas.Attribute{}}
}

func (g *gen) info(m *schemas.Model) *modelInfo {
	mi := g.out.models[m]
	if mi == nil {
		g.prepare(m)
		mi = g.out.models[m]
	}
	return mi
}

// enums adds the enum types of a model's enumeration attributes.
func (g *gen) enums(m *schemas.Model) {
	for _, a := range m.Attributes {
		if a.Type != schemas.Enumeration || !validName(a.Name) {
			continue
		}
		em := &enumMap{name: EnumName(m, a), toName: map[string]string{}, toValue: map[string]string{}}
		d := &def{kind: ast.Enum, name: em.name}
		for _, v := range a.Enum {
			n := EnumValueName(v)
			if _, dup := em.toValue[n]; dup {
				g.warn("%s.%s: enumeration values %q and %q are both %s in GraphQL; the second is left out", m.UID, a.Name, em.toValue[n], v, n)
				continue
			}
			em.toName[v], em.toValue[n] = n, v
			d.values = append(d.values, n)
		}
		g.out.enums[a] = em
		g.defs = append(g.defs, d)
	}
}

// relationArgs are the arguments of a to-many field, Strapi's getContentTypeArgs of the
// target: filters, pagination and sort (collection types and components), publicationState
// (Draft & Publish targets). A single type as target takes only publicationState.
func relationArgs(target *schemas.Model) []adef {
	var args []adef
	if target.Kind != schemas.SingleType {
		name := TypeName(target)
		args = append(args, adef{name: "filters", typ: name + "FiltersInput"}, adef{name: "pagination", typ: "PaginationArg", dflt: "{}"},
			adef{name: "sort", typ: "[String]", dflt: "[]"})
	}
	if target.DraftAndPublish {
		args = append(args, adef{name: "publicationState", typ: "PublicationState", dflt: "LIVE"})
	}
	return args
}

// attrFields computes the output, input and filter fields of a model's attributes.
func (g *gen) attrFields(m *schemas.Model) (out, in, filters []fdef) {
	mi := g.info(m)
	for _, a := range m.Attributes {
		if !g.usable(m, a) {
			continue
		}
		oOK, iOK, fOK := g.fieldSwitch(m, a)
		nn := ""
		if a.Required || (m == g.cs.Files && uploadRequired[a.Name]) {
			nn = "!"
		}
		var o, i, f *fdef
		switch a.Type {
		case schemas.Relation, schemas.Media:
			tn := TypeName(a.Target)
			if a.IsToMany() {
				o = &fdef{name: a.Name, typ: tn + "RelationResponseCollection" + nn, args: relationArgs(a.Target)}
				i = &fdef{name: a.Name, typ: "[ID]"}
			} else {
				o = &fdef{name: a.Name, typ: tn + "EntityResponse" + nn}
				i = &fdef{name: a.Name, typ: "ID"}
			}
			if a.Type == schemas.Relation {
				f = &fdef{name: a.Name, typ: tn + "FiltersInput"}
			}
		case schemas.ComponentT:
			cn := TypeName(a.Components[0])
			if a.Repeatable {
				o = &fdef{name: a.Name, typ: "[" + cn + "]" + nn, args: relationArgs(a.Components[0])}
				i = &fdef{name: a.Name, typ: "[" + cn + "Input]"}
			} else {
				o = &fdef{name: a.Name, typ: cn + nn}
				i = &fdef{name: a.Name, typ: cn + "Input"}
			}
			f = &fdef{name: a.Name, typ: cn + "FiltersInput"}
		case schemas.DynamicZone:
			dz := DynamicZoneName(m, a)
			o = &fdef{name: a.Name, typ: "[" + dz + "]" + nn}
			i = &fdef{name: a.Name, typ: "[" + dz + "Input!]"}
		default:
			st := scalarType(a.Type)
			ft := st + "FilterInput"
			if a.Type == schemas.Enumeration {
				st = EnumName(m, a)
				ft = "StringFilterInput"
			}
			o = &fdef{name: a.Name, typ: st + nn}
			i = &fdef{name: a.Name, typ: st}
			f = &fdef{name: a.Name, typ: ft}
		}
		// Private and password attributes never reach a client (Strapi returns password
		// hashes over GraphQL; Quarry does not). They stay in inputs and filters as in
		// Strapi, where filtering on them is refused with "Invalid parameter".
		if oOK && (!a.Hidden() || a.GraphQLVisible) {
			out = append(out, *o)
			mi.output[a.Name] = a
		}
		if iOK && i != nil && !(a.System && a.Name != "publishedAt") {
			in = append(in, *i)
			mi.input[a.Name] = a
		}
		if fOK && f != nil {
			filters = append(filters, *f)
			mi.filters[a.Name] = a
		}
	}
	return out, in, filters
}

// splitSystem moves publishedAt to the end of an input, where Strapi puts it.
func splitSystem(in []fdef) []fdef {
	var out []fdef
	var tail []fdef
	for _, f := range in {
		if f.name == "publishedAt" {
			tail = append(tail, f)
			continue
		}
		out = append(out, f)
	}
	return append(out, tail...)
}

func (g *gen) component(c *schemas.Model) {
	name := TypeName(c)
	g.prepare(c)
	g.enums(c)
	out, in, filters := g.attrFields(c)
	filters = append(filters, fdef{name: "and", typ: "[" + name + "FiltersInput]"}, fdef{name: "or", typ: "[" + name + "FiltersInput]"},
		fdef{name: "not", typ: name + "FiltersInput"})
	g.defs = append(g.defs,
		&def{kind: ast.InputObject, name: name + "FiltersInput", fields: filters},
		&def{kind: ast.InputObject, name: name + "Input", fields: append([]fdef{{name: "id", typ: "ID"}}, in...)},
		&def{kind: ast.Object, name: name, fields: append([]fdef{{name: "id", typ: "ID!"}}, out...)},
	)
	g.out.types[name] = &TypeInfo{Role: RoleAttributes, Model: c}
}

func (g *gen) contentType(m *schemas.Model) {
	name := TypeName(m)
	g.enums(m)
	for _, a := range m.Attributes {
		if a.Type != schemas.DynamicZone || !g.usable(m, a) {
			continue
		}
		dz := DynamicZoneName(m, a)
		u := &def{kind: ast.Union, name: dz}
		for _, c := range a.Components {
			u.types = append(u.types, TypeName(c))
		}
		u.types = append(u.types, "Error")
		g.defs = append(g.defs, u, &def{kind: ast.Scalar, name: dz + "Input"})
		g.out.types[dz] = &TypeInfo{Role: RoleDynamicZone, Model: m, Attr: a}
	}
	out, in, filters := g.attrFields(m)
	out = g.morphField(m, out)
	g.pluginScopes(m)
	if m.Kind == schemas.CollectionType {
		filters = append([]fdef{{name: "id", typ: "IDFilterInput"}}, filters...)
	}
	filters = append(filters, fdef{name: "and", typ: "[" + name + "FiltersInput]"}, fdef{name: "or", typ: "[" + name + "FiltersInput]"},
		fdef{name: "not", typ: name + "FiltersInput"})
	g.defs = append(g.defs,
		&def{kind: ast.InputObject, name: name + "FiltersInput", fields: filters},
		&def{kind: ast.InputObject, name: name + "Input", fields: splitSystem(in)},
		&def{kind: ast.Object, name: name, fields: out},
		&def{kind: ast.Object, name: name + "Entity", fields: []fdef{{name: "id", typ: "ID"}, {name: "attributes", typ: name}}},
		&def{kind: ast.Object, name: name + "EntityResponse", fields: []fdef{{name: "data", typ: name + "Entity"}}},
		&def{kind: ast.Object, name: name + "EntityResponseCollection", fields: []fdef{
			{name: "data", typ: "[" + name + "Entity!]!"}, {name: "meta", typ: "ResponseCollectionMeta!"}}},
		&def{kind: ast.Object, name: name + "RelationResponseCollection", fields: []fdef{{name: "data", typ: "[" + name + "Entity!]!"}}},
	)
	g.out.types[name] = &TypeInfo{Role: RoleAttributes, Model: m}
	g.out.types[name+"Entity"] = &TypeInfo{Role: RoleEntity, Model: m}
	g.out.types[name+"EntityResponse"] = &TypeInfo{Role: RoleEntityResponse, Model: m}
	g.out.types[name+"EntityResponseCollection"] = &TypeInfo{Role: RoleEntityResponseCollection, Model: m}
	g.out.types[name+"RelationResponseCollection"] = &TypeInfo{Role: RoleRelationResponseCollection, Model: m}
	g.roots(m, name)
}

// roots adds the queries and mutations of a content type.
func (g *gen) roots(m *schemas.Model, name string) {
	var locale []adef
	if m.Localized {
		locale = []adef{{name: "locale", typ: "I18NLocaleCode"}}
	}
	addQ := func(field, action string, f fdef) {
		if !g.actionEnabled(m, action) || !pluginActionEnabled(m, action) {
			return
		}
		f.name = field
		g.query = append(g.query, f)
		g.out.roots["query."+field] = &Root{Model: m, Action: action}
	}
	addM := func(action string, f fdef) {
		if !g.actionEnabled(m, action) || !pluginActionEnabled(m, action) {
			return
		}
		f.name = MutationName(action, m)
		g.mut = append(g.mut, f)
		g.out.roots["mutation."+f.name] = &Root{Model: m, Action: action}
	}
	if m.Kind == schemas.SingleType {
		var args []adef
		if m.DraftAndPublish {
			args = append(args, adef{name: "publicationState", typ: "PublicationState", dflt: "LIVE"})
		}
		addQ(FindOneName(m), ActionFind, fdef{typ: name + "EntityResponse", args: append(args, locale...)})
		addM(ActionUpdate, fdef{typ: name + "EntityResponse", args: append([]adef{{name: "data", typ: name + "Input!"}}, locale...)})
		addM(ActionDelete, fdef{typ: name + "EntityResponse", args: locale})
		return
	}
	addQ(FindOneName(m), ActionFindOne, fdef{typ: name + "EntityResponse", args: append([]adef{{name: "id", typ: "ID"}}, locale...)})
	addQ(FindName(m), ActionFind, fdef{typ: name + "EntityResponseCollection", args: append(relationArgs(m), locale...)})
	addM(ActionCreate, fdef{typ: name + "EntityResponse", args: append([]adef{{name: "data", typ: name + "Input!"}}, locale...)})
	addM(ActionUpdate, fdef{typ: name + "EntityResponse", args: append([]adef{{name: "id", typ: "ID!"}, {name: "data", typ: name + "Input!"}}, locale...)})
	addM(ActionDelete, fdef{typ: name + "EntityResponse", args: append([]adef{{name: "id", typ: "ID!"}}, locale...)})
}

// sdl renders the definitions as SDL for gqlparser to load.
// mergeTypeDefs merges into the generated types what a project's SDL typeDefs declare of
// them, as Strapi's mergeSchemas (graphql-tools' mergeTypeDefs) does: `type Query { … }`
// where Query exists adds to it rather than redeclaring it, and a field both define with the
// same type keeps its place and takes the project's arguments after its own (the tutorials'
// `article(slug: String!): ArticleEntityResponse`), non-null if the project's is. A field
// defined with another type stays in the extension (yieldExtendedFields replaces the
// generated one). SDL that does not parse is left to the schema's load to report.
func (g *gen) mergeTypeDefs(typeDefs string) string {
	if strings.TrimSpace(typeDefs) == "" {
		return typeDefs
	}
	doc, err := parser.ParseSchema(&ast.Source{Input: typeDefs})
	if err != nil {
		return typeDefs
	}
	generated := func(name string, kind ast.DefinitionKind) *def {
		for _, d := range g.defs {
			if d.name == name && d.kind == kind {
				return d
			}
		}
		return nil
	}
	changed := false
	kept := doc.Definitions[:0]
	declared := map[*ast.Definition]bool{} // a `type X` of the project's, not an `extend type X`
	for _, d := range doc.Definitions {
		if (d.Kind == ast.Object || d.Kind == ast.InputObject) && generated(d.Name, d.Kind) != nil {
			// graphql-tools merges the project's declaration first: its fields come first,
			// then the generated ones it does not declare (placeFront).
			doc.Extensions = append(doc.Extensions, d)
			declared[d] = true
			if g.front == nil {
				g.front = map[string][]string{}
			}
			for _, f := range d.Fields {
				g.front[d.Name] = append(g.front[d.Name], f.Name)
			}
			changed = true
			continue
		}
		kept = append(kept, d)
	}
	doc.Definitions = kept
	exts := doc.Extensions[:0]
	for _, ext := range doc.Extensions {
		gd := generated(ext.Name, ext.Kind)
		if gd == nil {
			exts = append(exts, ext)
			continue
		}
		fields := ext.Fields[:0]
		for _, f := range ext.Fields {
			i := slices.IndexFunc(gd.fields, func(x fdef) bool { return x.name == f.Name })
			own := f.Type.String()
			if i < 0 || (own != gd.fields[i].typ && strings.TrimSuffix(own, "!") != strings.TrimSuffix(gd.fields[i].typ, "!")) {
				fields = append(fields, f)
				continue
			}
			gf := &gd.fields[i]
			var projectArgs []adef
			for _, a := range f.Arguments {
				ad := adef{name: a.Name, typ: a.Type.String()}
				if a.DefaultValue != nil {
					ad.dflt = a.DefaultValue.String()
				}
				projectArgs = append(projectArgs, ad)
			}
			// The merged arguments: a declaration's come before the generated ones, an
			// extension's after them; a name both give keeps the first.
			first, then := gf.args, projectArgs
			if declared[ext] {
				first, then = projectArgs, gf.args
			}
			merged := slices.Clone(first)
			for _, a := range then {
				if slices.IndexFunc(merged, func(x adef) bool { return x.name == a.name }) < 0 {
					merged = append(merged, a)
				}
			}
			gf.args = merged
			if f.Type.NonNull {
				gf.typ = own
			}
			changed = true
		}
		ext.Fields = fields
		if len(ext.Fields) > 0 || len(ext.Directives) > 0 || len(ext.Interfaces) > 0 {
			exts = append(exts, ext)
		}
	}
	doc.Extensions = exts
	if !changed {
		return typeDefs
	}
	var b strings.Builder
	formatter.NewFormatter(&b).FormatSchemaDocument(doc)
	return b.String()
}

// replacedField is a generated field a project's typeDefs define again, and its place.
type replacedField struct {
	typ, field string
	at         int
}

// yieldExtendedFields drops from the generated types the fields that typeDefs define again
// in an `extend type` (a project's own Query.page through nexus' extendType), with their
// generated resolvers: the project's definition replaces Shadow CRUD's, in its place, as in
// Strapi's schema (placeReplaced), where it was a start-up error here. SDL that does not
// parse is left to the schema's load to report.
func (g *gen) yieldExtendedFields(out []replacedField, typeDefs string) []replacedField {
	if strings.TrimSpace(typeDefs) == "" {
		return out
	}
	doc, err := parser.ParseSchema(&ast.Source{Input: typeDefs})
	if err != nil {
		return out
	}
	for _, ext := range doc.Extensions {
		if ext.Kind != ast.Object {
			continue
		}
		for _, d := range g.defs {
			if d.kind != ast.Object || d.name != ext.Name {
				continue
			}
			kept := d.fields[:0]
			for i, f := range d.fields {
				if ext.Fields.ForName(f.name) == nil {
					kept = append(kept, f)
					continue
				}
				out = append(out, replacedField{typ: d.name, field: f.name, at: i})
				if d.name == "Query" || d.name == "Mutation" {
					delete(g.out.roots, strings.ToLower(d.name)+"."+f.name)
				}
			}
			d.fields = kept
		}
	}
	return out
}

// placeFront puts first, in their order, the fields a project's `type X { … }` declares of a
// generated type, as graphql-tools' merge lists them.
func placeFront(schema *ast.Schema, front map[string][]string) {
	for typ, names := range front {
		t := schema.Types[typ]
		if t == nil {
			continue
		}
		var head, rest ast.FieldList
		for _, n := range names {
			if f := t.Fields.ForName(n); f != nil && !slices.Contains(head, f) {
				head = append(head, f)
			}
		}
		for _, f := range t.Fields {
			if !slices.Contains(head, f) {
				rest = append(rest, f)
			}
		}
		t.Fields = append(head, rest...)
	}
}

// placeReplaced moves each field a project's typeDefs defined again to the place of the
// generated one it replaced (nexus keeps a field's place when a definition replaces it).
func placeReplaced(schema *ast.Schema, replaced []replacedField) {
	slices.SortStableFunc(replaced, func(a, b replacedField) int { return a.at - b.at })
	for _, r := range replaced {
		t := schema.Types[r.typ]
		if t == nil {
			continue
		}
		i := slices.IndexFunc(t.Fields, func(f *ast.FieldDefinition) bool { return f.Name == r.field })
		if i < 0 {
			continue
		}
		f := t.Fields[i]
		t.Fields = slices.Delete(t.Fields, i, i+1)
		t.Fields = slices.Insert(t.Fields, min(r.at, len(t.Fields)), f)
	}
}

func (g *gen) sdl() string {
	var b strings.Builder
	for _, d := range g.defs {
		if d.desc != "" {
			writeDescription(&b, d.desc, "")
		}
		switch d.kind {
		case ast.Scalar:
			fmt.Fprintf(&b, "scalar %s%s\n\n", d.name, d.suffix)
		case ast.Enum:
			fmt.Fprintf(&b, "enum %s {\n", d.name)
			for _, v := range d.values {
				fmt.Fprintf(&b, "  %s\n", v)
			}
			b.WriteString("}\n\n")
		case ast.Union:
			fmt.Fprintf(&b, "union %s = %s\n\n", d.name, strings.Join(d.types, " | "))
		case ast.Object, ast.InputObject:
			kw := "type"
			if d.kind == ast.InputObject {
				kw = "input"
			}
			fmt.Fprintf(&b, "%s %s {\n", kw, d.name)
			for _, f := range d.fields {
				if f.desc != "" {
					writeDescription(&b, f.desc, "  ")
				}
				b.WriteString("  " + f.name)
				if len(f.args) > 0 {
					b.WriteByte('(')
					for i, a := range f.args {
						if i > 0 {
							b.WriteString(", ")
						}
						b.WriteString(a.name + ": " + a.typ)
						if a.dflt != "" {
							b.WriteString(" = " + a.dflt)
						}
					}
					b.WriteByte(')')
				}
				b.WriteString(": " + f.typ + "\n")
			}
			b.WriteString("}\n\n")
		}
	}
	return b.String()
}

// prune removes the types no root operation can reach, as Strapi's served schema does
// (a component used only in dynamic zones has no filters or input type there).
func prune(s *ast.Schema) {
	keep := map[string]bool{}
	var visit func(name string)
	visitType := func(t *ast.Type) {
		for t != nil && t.Elem != nil {
			t = t.Elem
		}
		if t != nil {
			visit(t.NamedType)
		}
	}
	visit = func(name string) {
		if keep[name] {
			return
		}
		d := s.Types[name]
		if d == nil {
			return
		}
		keep[name] = true
		for _, f := range d.Fields {
			visitType(f.Type)
			for _, a := range f.Arguments {
				visitType(a.Type)
			}
		}
		for _, t := range d.Types {
			visit(t)
		}
		for _, i := range d.Interfaces {
			visit(i)
		}
		for _, p := range s.PossibleTypes[name] {
			visit(p.Name)
		}
	}
	for _, root := range []*ast.Definition{s.Query, s.Mutation, s.Subscription} {
		if root != nil {
			visit(root.Name)
		}
	}
	for _, d := range s.Directives {
		for _, a := range d.Arguments {
			visitType(a.Type)
		}
	}
	for name, d := range s.Types {
		if !keep[name] && !d.BuiltIn && !strings.HasPrefix(name, "__") {
			delete(s.Types, name)
			delete(s.PossibleTypes, name)
			delete(s.Implements, name)
		}
	}
	for name, list := range s.PossibleTypes {
		s.PossibleTypes[name] = keepDefs(list, keep)
	}
	for name, list := range s.Implements {
		s.Implements[name] = keepDefs(list, keep)
	}
}

func keepDefs(list []*ast.Definition, keep map[string]bool) []*ast.Definition {
	out := list[:0]
	for _, d := range list {
		if keep[d.Name] || d.BuiltIn {
			out = append(out, d)
		}
	}
	return out
}
