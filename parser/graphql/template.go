package graphql

import (
	"sync"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
)

// Lowering reads the schema, the pagination options, the document and the request's
// variables, and nothing else: the caller's permissions, the default locale and the request's
// headers are applied later, by the planner and the executor, to a copy of each root field's
// query. So an operation lowered without its variables, a template, serves every request
// sending the same document with the same options, whoever sends it. Each request then only
// coerces its variables and lowers the arguments that use them (bind).
//
// Variables reach lowering in three places, which decide what a template keeps:
//   - @skip/@include conditions decide the shape of the selection: a template is made for
//     the values of the variables they use (templateKey);
//   - a root field's own arguments decide its read's filters, sort, pagination, id, locale
//     and publication state, or its write's payload: the template keeps the lowered
//     selection and each request lowers the arguments on a copy;
//   - arguments further down (a relation's filters, an extension field's arguments) are
//     spread through the selection's lowering: such a root field is lowered per request
//     from the document, as without a template.
//
// A root field of a query whose arguments, and those below it, use no variable is lowered
// once; each request gets a copy of its RootField and Query (top level). Everything else a
// template holds — the Field and Object tree, Levels, populate lists, filters, the values of
// constant arguments — is shared by concurrent requests and must only be read.

// maxTemplates bounds the templates kept per document (operations of a document times
// combinations of @skip/@include variables); past it, operations are lowered per request.
const maxTemplates = 16

// maxShapeVars is the most @skip/@include variables a document may use for its templates to
// be kept (templateKey holds one bit per variable).
const maxShapeVars = 64

// cachedDoc is a document that passed parsing and validation, with the templates of its
// operations.
type cachedDoc struct {
	doc *ast.QueryDocument
	// shapeVars are the variables @skip and @include conditions use, anywhere in the
	// document.
	shapeVars []string
	// kept: the document is in the cache, so its templates are worth keeping.
	kept  bool
	mu    sync.Mutex
	tmpls map[templateKey]*template
}

// templateKey names a template of a document: the operation, which of shapeVars are true,
// and the pagination options lowering applies.
type templateKey struct {
	def                           *ast.OperationDefinition
	shape                         uint64
	defLimit, maxLimit, amountLim int
}

func newCachedDoc(doc *ast.QueryDocument, kept bool) *cachedDoc {
	return &cachedDoc{doc: doc, shapeVars: shapeVariables(doc), kept: kept}
}

// template returns the template of the operation for the request lowered by l, from the
// document's templates or built (and kept when the document is).
func (d *cachedDoc) template(l *lowerer, def *ast.OperationDefinition, root *ast.Definition) *template {
	key := templateKey{def: def, defLimit: l.opt.DefaultLimit, maxLimit: l.opt.MaxLimit, amountLim: l.opt.AmountLimit}
	// The template's coercer knows only whether each condition variable is true: that is
	// all @skip and @include read of them, and all a template may depend on.
	shape := make(map[string]any, len(d.shapeVars))
	for i, name := range d.shapeVars {
		b, _ := l.c.vars[name].(bool)
		shape[name] = b
		if b && i < maxShapeVars {
			key.shape |= 1 << i
		}
	}
	keep := d.kept && len(d.shapeVars) <= maxShapeVars
	if keep {
		d.mu.Lock()
		t := d.tmpls[key]
		d.mu.Unlock()
		if t != nil {
			return t
		}
	}
	tl := &lowerer{s: l.s, c: &coercer{schema: l.c.schema, gs: l.c.gs, vars: shape}, doc: l.doc, opt: l.opt, tmpl: true}
	t := tl.template(def, root)
	if keep {
		d.mu.Lock()
		if d.tmpls == nil {
			d.tmpls = map[templateKey]*template{}
		}
		if kept := d.tmpls[key]; kept != nil {
			t = kept // another request built it meanwhile
		} else if len(d.tmpls) < maxTemplates {
			d.tmpls[key] = t
		}
		d.mu.Unlock()
	}
	return t
}

// template is an operation lowered without its variables (see above).
type template struct {
	roots []*rootTemplate
	// tooMany: the selection tree is over maxSelectionNodes, and every root field fails.
	tooMany bool
}

// rootTemplate is one root field of a template.
type rootTemplate struct {
	// fixed is the root field lowered once: neither its arguments nor those below use
	// variables, and the operation is a query (a write's payload is made per request, as
	// writers may change it).
	fixed *RootField
	// relower: arguments below the root field use variables; it is lowered per request
	// from group, as without a template.
	relower bool
	group   *group
	// Otherwise the root field's own arguments are lowered per request on a copy of
	// class.Field, whose selection is lowered into sel; class holds the kind, model and
	// action, and args what of the arguments is the same for every request.
	class RootField
	sel   *selection
	args  *argsTemplate
}

// argsTemplate is a root field's arguments as far as they use no variable: constant ones
// coerced once, and the filters and sort lowered once when constant.
type argsTemplate struct {
	slots    []argSlot // the arguments as written
	defaults []argSlot // the arguments with a default value, coerced
	// lowered is set when filters or sort use no variable and lowered without error
	// (errors are made per request: they are not shared).
	lowered
}

// lowered holds a root field's filters and sort when they are the same for every request.
type lowered struct {
	filters, sort bool // set: Filters, Sort hold them
	Filters       *ir.Filter
	Sort          []ir.Sort
}

// argSlot is one argument: its coerced value if constant, else its literal (using
// variables), coerced per request.
type argSlot struct {
	name  string
	typ   *ast.Type
	value any
	lit   *ast.Value
}

// template collects and lowers the operation's root fields as far as no variable is read.
func (l *lowerer) template(def *ast.OperationDefinition, root *ast.Definition) *template {
	t := &template{}
	for _, g := range l.collect([]ast.SelectionSet{def.SelectionSet}, root) {
		if l.nodes++; l.nodes > maxSelectionNodes {
			break
		}
		before := l.lateArgs
		f := l.field(g, root)
		below := l.lateArgs - before
		if f.late {
			below--
		}
		rt := &rootTemplate{}
		t.roots = append(t.roots, rt)
		switch {
		case below > 0:
			rt.relower, rt.group = true, g
		case !f.late && def.Operation == ast.Query:
			rt.fixed = l.lowerRoot(f, def.Operation, root)
		default:
			rt.class.Field = f
			rt.sel = l.classify(&rt.class, def.Operation, root)
			if f.Err == nil && f.Name != "__typename" {
				rt.args = l.argsTemplate(&rt.class)
			}
		}
	}
	t.tooMany = l.nodes > maxSelectionNodes
	return t
}

// bind lowers a template's root fields with the request's variables (l's coercer).
func (l *lowerer) bind(t *template, def *ast.OperationDefinition, root *ast.Definition) []*RootField {
	out := make([]*RootField, len(t.roots))
	for i, rt := range t.roots {
		switch {
		case rt.fixed != nil:
			rf := *rt.fixed
			if rf.Query != nil {
				q := *rf.Query
				rf.Query = &q
			}
			out[i] = &rf
		case rt.relower:
			out[i] = l.lowerRoot(l.field(rt.group, root), def.Operation, root)
		default:
			f := *rt.class.Field
			f.late = false
			if f.Name != "__typename" {
				var args *Obj
				var err error
				if rt.args != nil {
					args, err = l.c.bindArgs(rt.args)
				} else {
					args, err = l.c.args(f.AST[0])
				}
				if err != nil {
					f.Err = userInput(err)
					args = newObj()
				}
				f.Args = args
			}
			rf := &RootField{Field: &f}
			out[i] = rf
			if f.Err != nil {
				rf.Kind = KindCustom
				rf.Err = f.Err
				continue
			}
			rf.Kind, rf.Model, rf.Action = rt.class.Kind, rt.class.Model, rt.class.Action
			rf.sel = rt.sel
			if rt.sel != nil {
				var pre *lowered
				if rt.args != nil {
					pre = &rt.args.lowered
				}
				rf.Err = l.rootArgs(rf, rt.sel, pre)
			}
		}
	}
	if t.tooMany {
		for _, rf := range out {
			rf.Err = apierror.Validation("The query selects too many fields")
		}
	}
	return out
}

// argsTemplate coerces a root field's constant arguments and their defaults, and lowers
// its filters and sort if they are constant. nil when a constant fails to coerce: the
// arguments are then coerced per request, which reports the failure as without a template.
func (l *lowerer) argsTemplate(rf *RootField) *argsTemplate {
	f := rf.AST[0]
	at := &argsTemplate{}
	if f.Definition == nil {
		return at
	}
	for _, a := range f.Arguments {
		ad := f.Definition.Arguments.ForName(a.Name)
		if ad == nil {
			continue
		}
		if valueUsesVariables(a.Value) {
			at.slots = append(at.slots, argSlot{name: a.Name, typ: ad.Type, lit: a.Value})
			continue
		}
		v, present, err := l.c.literal(a.Value, ad.Type)
		if err != nil {
			return nil
		}
		if present {
			at.slots = append(at.slots, argSlot{name: a.Name, value: v})
		}
	}
	for _, ad := range f.Definition.Arguments {
		if ad.DefaultValue == nil {
			continue
		}
		v, _, err := l.c.literal(ad.DefaultValue, ad.Type)
		if err != nil {
			return nil
		}
		at.defaults = append(at.defaults, argSlot{name: ad.Name, value: v})
	}
	if rf.Kind != KindFind {
		return at
	}
	// Filters and sort are lowered once when no variable is in them: from their constant or
	// their default, as every request then has them.
	consts := newObj()
	varies := map[string]bool{}
	for _, s := range at.slots {
		if s.lit != nil {
			varies[s.name] = true
		} else {
			consts.set(s.name, s.value)
		}
	}
	for _, d := range at.defaults {
		if _, ok := consts.Map[d.name]; !ok && !varies[d.name] {
			consts.set(d.name, d.value)
		}
	}
	if !varies["filters"] {
		if fl, err := l.filters(rf.Model, consts); err == nil {
			at.filters, at.Filters = true, fl
		}
	}
	if !varies["sort"] {
		if st, err := parseSort(consts.Map["sort"]); err == nil {
			at.sort, at.Sort = true, st
		}
	}
	return at
}

// bindArgs coerces a root field's arguments from their template: constants as coerced
// once, the others with the request's variables, then the defaults of those not given.
func (c *coercer) bindArgs(at *argsTemplate) (*Obj, error) {
	n := len(at.slots) + len(at.defaults)
	out := &Obj{Keys: make([]string, 0, n), Map: make(map[string]any, n)}
	for _, s := range at.slots {
		if s.lit == nil {
			out.set(s.name, s.value)
			continue
		}
		v, present, err := c.literal(s.lit, s.typ)
		if err != nil {
			return nil, err
		}
		if present {
			out.set(s.name, v)
		}
	}
	for _, d := range at.defaults {
		if _, ok := out.Map[d.name]; !ok {
			out.set(d.name, d.value)
		}
	}
	return out, nil
}

// usesVariables reports whether any argument's value holds a variable.
func usesVariables(args ast.ArgumentList) bool {
	for _, a := range args {
		if valueUsesVariables(a.Value) {
			return true
		}
	}
	return false
}

func valueUsesVariables(v *ast.Value) bool {
	if v == nil {
		return false
	}
	if v.Kind == ast.Variable {
		return true
	}
	for _, ch := range v.Children {
		if valueUsesVariables(ch.Value) {
			return true
		}
	}
	return false
}

// shapeVariables lists the variables of the document's @skip and @include conditions.
func shapeVariables(doc *ast.QueryDocument) []string {
	var out []string
	seen := map[string]bool{}
	var walk func(ss ast.SelectionSet)
	directives := func(dl ast.DirectiveList) {
		for _, d := range dl {
			if d.Name != "skip" && d.Name != "include" {
				continue
			}
			if a := d.Arguments.ForName("if"); a != nil && a.Value != nil && a.Value.Kind == ast.Variable && !seen[a.Value.Raw] {
				seen[a.Value.Raw] = true
				out = append(out, a.Value.Raw)
			}
		}
	}
	walk = func(ss ast.SelectionSet) {
		for _, sel := range ss {
			switch x := sel.(type) {
			case *ast.Field:
				directives(x.Directives)
				walk(x.SelectionSet)
			case *ast.InlineFragment:
				directives(x.Directives)
				walk(x.SelectionSet)
			case *ast.FragmentSpread:
				directives(x.Directives)
			}
		}
	}
	for _, op := range doc.Operations {
		walk(op.SelectionSet)
	}
	for _, fd := range doc.Fragments {
		walk(fd.SelectionSet)
	}
	return out
}
