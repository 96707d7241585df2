package gqlschema

import (
	"context"
	"sort"
	"sync"

	"github.com/quarrycms/quarry/ir"
	"github.com/vektah/gqlparser/v2/ast"
)

// Actions of the Shadow CRUD, as Strapi names them.
const (
	ActionFind    = "find"
	ActionFindOne = "findOne"
	ActionCreate  = "create"
	ActionUpdate  = "update"
	ActionDelete  = "delete"
)

func validAction(a string) bool {
	switch a {
	case ActionFind, ActionFindOne, ActionCreate, ActionUpdate, ActionDelete:
		return true
	}
	return false
}

// Extension is the GraphQL plugin's extension service: Shadow CRUD switches per content type
// and field, and schema extensions (typeDefs, resolvers, resolversConfig). It is filled before
// the schema is built; Build reads it once. Methods are safe for concurrent use so that a
// program may configure it from init code running in parallel.
type Extension struct {
	mu    sync.Mutex
	types map[string]*TypeExtension
	uses  []SchemaExtension
}

// NewExtension returns an empty extension service.
func NewExtension() *Extension { return &Extension{types: map[string]*TypeExtension{}} }

// ShadowCRUD returns the handle of a content type (or component) uid, creating it.
func (e *Extension) ShadowCRUD(uid string) *TypeExtension {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.types == nil {
		e.types = map[string]*TypeExtension{}
	}
	t, ok := e.types[uid]
	if !ok {
		t = &TypeExtension{uid: uid, ext: e, actions: map[string]bool{}, fields: map[string]*FieldExtension{}}
		e.types[uid] = t
	}
	return t
}

// Use registers a schema extension: SDL type definitions, Go resolvers and their config.
func (e *Extension) Use(x SchemaExtension) *Extension {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.uses = append(e.uses, x)
	return e
}

// Uses returns the registered schema extensions in registration order.
func (e *Extension) Uses() []SchemaExtension {
	if e == nil {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]SchemaExtension(nil), e.uses...)
}

// lookup returns the handle of uid without creating one.
func (e *Extension) lookup(uid string) *TypeExtension {
	if e == nil {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.types[uid]
}

// UIDs lists the uids that have a handle, sorted.
func (e *Extension) UIDs() []string {
	if e == nil {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]string, 0, len(e.types))
	for uid := range e.types {
		out = append(out, uid)
	}
	sort.Strings(out)
	return out
}

// TypeExtension holds the Shadow CRUD switches of one content type.
type TypeExtension struct {
	uid       string
	ext       *Extension
	disabled  bool
	noQueries bool
	noMuts    bool
	actions   map[string]bool // disabled actions
	fields    map[string]*FieldExtension
}

// Disable removes the content type from the schema: its types, queries and mutations, and
// the fields of other types that lead to it.
func (t *TypeExtension) Disable() *TypeExtension { t.set(func() { t.disabled = true }); return t }

// DisableQueries removes find and findOne.
func (t *TypeExtension) DisableQueries() *TypeExtension {
	t.set(func() { t.noQueries = true })
	return t
}

// DisableMutations removes create, update and delete.
func (t *TypeExtension) DisableMutations() *TypeExtension {
	t.set(func() { t.noMuts = true })
	return t
}

// DisableAction removes one action: create, find, findOne, update or delete.
func (t *TypeExtension) DisableAction(action string) *TypeExtension {
	t.set(func() { t.actions[action] = true })
	return t
}

// DisableActions removes several actions.
func (t *TypeExtension) DisableActions(actions []string) *TypeExtension {
	t.set(func() {
		for _, a := range actions {
			t.actions[a] = true
		}
	})
	return t
}

// Field returns the handle of one attribute, creating it.
func (t *TypeExtension) Field(name string) *FieldExtension {
	t.ext.mu.Lock()
	defer t.ext.mu.Unlock()
	f, ok := t.fields[name]
	if !ok {
		f = &FieldExtension{t: t}
		t.fields[name] = f
	}
	return f
}

func (t *TypeExtension) set(fn func()) {
	t.ext.mu.Lock()
	defer t.ext.mu.Unlock()
	fn()
}

func (t *TypeExtension) get(fn func() bool) bool {
	t.ext.mu.Lock()
	defer t.ext.mu.Unlock()
	return fn()
}

// IsEnabled reports whether the content type is in the schema.
func (t *TypeExtension) IsEnabled() bool { return !t.IsDisabled() }

// IsDisabled reports whether Disable was called.
func (t *TypeExtension) IsDisabled() bool { return t.get(func() bool { return t.disabled }) }

// AreQueriesEnabled reports whether queries are generated.
func (t *TypeExtension) AreQueriesEnabled() bool { return !t.AreQueriesDisabled() }

// AreQueriesDisabled reports whether DisableQueries (or Disable) was called.
func (t *TypeExtension) AreQueriesDisabled() bool {
	return t.get(func() bool { return t.disabled || t.noQueries })
}

// AreMutationsEnabled reports whether mutations are generated.
func (t *TypeExtension) AreMutationsEnabled() bool { return !t.AreMutationsDisabled() }

// AreMutationsDisabled reports whether DisableMutations (or Disable) was called.
func (t *TypeExtension) AreMutationsDisabled() bool {
	return t.get(func() bool { return t.disabled || t.noMuts })
}

// IsActionEnabled reports whether an action is generated.
func (t *TypeExtension) IsActionEnabled(action string) bool { return !t.IsActionDisabled(action) }

// IsActionDisabled reports whether an action was disabled directly or through its group.
func (t *TypeExtension) IsActionDisabled(action string) bool {
	return t.get(func() bool {
		if t.disabled || t.actions[action] {
			return true
		}
		switch action {
		case ActionFind, ActionFindOne:
			return t.noQueries
		case ActionCreate, ActionUpdate, ActionDelete:
			return t.noMuts
		}
		return false
	})
}

// FieldExtension holds the switches of one attribute.
type FieldExtension struct {
	t                                     *TypeExtension
	disabled, noOutput, noInput, noFilter bool
}

// Disable removes the attribute from output, input and filters.
func (f *FieldExtension) Disable() *FieldExtension { f.t.set(func() { f.disabled = true }); return f }

// DisableOutput removes the attribute from the output type.
func (f *FieldExtension) DisableOutput() *FieldExtension {
	f.t.set(func() { f.noOutput = true })
	return f
}

// DisableInput removes the attribute from the mutation input type.
func (f *FieldExtension) DisableInput() *FieldExtension {
	f.t.set(func() { f.noInput = true })
	return f
}

// DisableFilters removes the attribute from the filters input type.
func (f *FieldExtension) DisableFilters() *FieldExtension {
	f.t.set(func() { f.noFilter = true })
	return f
}

// IsEnabled reports whether the attribute was not disabled as a whole.
func (f *FieldExtension) IsEnabled() bool { return !f.IsDisabled() }

// IsDisabled reports whether Disable was called.
func (f *FieldExtension) IsDisabled() bool { return f.t.get(func() bool { return f.disabled }) }

// HasOutputEnabled reports whether the attribute is in the output type.
func (f *FieldExtension) HasOutputEnabled() bool {
	return f.t.get(func() bool { return !f.disabled && !f.noOutput })
}

// HasInputEnabled reports whether the attribute is in the input type.
func (f *FieldExtension) HasInputEnabled() bool {
	return f.t.get(func() bool { return !f.disabled && !f.noInput })
}

// HasFiltersEnabled reports whether the attribute is in the filters input type.
func (f *FieldExtension) HasFiltersEnabled() bool {
	return f.t.get(func() bool { return !f.disabled && !f.noFilter })
}

// SchemaExtension is what Strapi's extension service use() takes, the Go way.
type SchemaExtension struct {
	// TypeDefs is SDL: new types, and `extend type` for generated ones.
	TypeDefs string
	// Resolvers maps a type name to its field resolvers: {"Query": {"hello": fn}}.
	Resolvers map[string]map[string]Resolver
	// ResolversConfig configures resolvers by "Type.field", generated ones included.
	ResolversConfig map[string]ResolverConfig
}

// Resolver computes the value of a field added by an extension. It must not assume it runs
// once per request: on fields of generated types it runs once per entry.
type Resolver func(ctx context.Context, p ResolveParams) (any, error)

// ResolveParams is what a resolver receives.
type ResolveParams struct {
	// Parent is the entry holding the field (id and scalar attributes) for fields of generated
	// types; nil for root fields.
	Parent map[string]any
	// Args are the field's coerced arguments.
	Args map[string]any
	// Caller is the authenticated caller.
	Caller *ir.Caller
	// Field is the field as written in the document.
	Field *ast.Field
	// TypeName and FieldName name the resolved field ("Query", "hello").
	TypeName, FieldName string
}

// PolicyContext is what a policy receives.
type PolicyContext struct {
	ResolveParams
}

// Policy decides whether a resolver may run; false or an error refuses it ("Policy Failed").
type Policy func(ctx context.Context, pc PolicyContext) (bool, error)

// Middleware wraps a resolver; on generated root fields, next runs the whole Shadow CRUD
// query and returns its shaped result.
type Middleware func(next Resolver) Resolver

// ResolverConfig is resolversConfig["Type.field"].
type ResolverConfig struct {
	// AuthDisabled is Strapi's auth: false: no permission check.
	AuthDisabled bool
	// Scope replaces the permission actions required (all of them must be granted).
	Scope       []string
	Policies    []Policy
	Middlewares []Middleware
}
