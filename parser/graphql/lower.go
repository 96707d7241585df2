package graphql

import (
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/parser/gqlschema"
	"github.com/quarrycms/quarry/schemas"
)

// maxSelectionNodes bounds the merged selection tree of one request.
const maxSelectionNodes = 50000

// RootKind says what a root field does.
type RootKind int

const (
	KindTypename RootKind = iota // __typename
	KindSchema                   // __schema
	KindType                     // __type(name)
	KindFind                     // <plural>(filters, pagination, sort, publicationState)
	KindFindOne                  // <singular>(id)
	KindSingle                   // a single type's query
	KindCreate
	KindUpdate
	KindDelete
	KindCustom // a field added by an extension
	// KindAccount is a users-permissions resolver (me, login, register, password routes,
	// user and role administration); Action names it.
	KindAccount
	// KindUpload is an upload plugin mutation (upload, multipleUpload, updateFileInfo,
	// removeFile); Action names it.
	KindUpload
	// KindLocalization is create<Type>Localization.
	KindLocalization
)

// RootField is one root field of the operation, lowered.
type RootField struct {
	*Field
	Kind   RootKind
	Model  *schemas.Model
	Action string
	// Query is the read, or for a Shadow CRUD mutation and create<Type>Localization the
	// write (Op, ID, Data, Locale; Via ir.ViaGraphQL) whose Fields and Populate are the
	// selection the answer is read with.
	Query *ir.Query
	// Data is the write payload of create and update, as the REST body would carry it (the
	// same map as Query.Data for the Shadow CRUD's writes).
	Data map[string]any
	// ID is the id argument of findOne, update and delete as given ("" if none).
	ID string
	// Start and Limit are the effective pagination of a find (Limit -1: none), from which
	// meta.pagination is computed.
	Start, Limit int
	// Count says whether the response needs the total (meta.pagination.total or pageCount
	// is selected): the COUNT statement runs only then.
	Count bool
	// Related, when not nil, lists the scalar attributes selected on the related entries
	// of the files the result holds (UploadFile.related, a morph relation): the transport
	// reads them for all those files at once. Empty when only __typename is selected.
	Related []string
	// Err is a failure of this root field (answered as null with the error).
	Err error
	// sel is the selection the field's arguments were lowered on (Relower lowers others).
	sel *selection
}

type lowerer struct {
	s     *gqlschema.Schema
	c     *coercer
	doc   *ast.QueryDocument
	opt   Options
	nodes int
	sel   *selection // the selection of the root field being lowered
	// tmpl marks the lowering of a template (template.go): arguments that use variables are
	// left uncoerced and counted in lateArgs, so that nothing of a request's variables ends
	// up in what later requests share.
	tmpl     bool
	lateArgs int
}

// selection is what a root field's selection decides, whatever its arguments: the read's
// fields and populate levels (nested arguments included) and what meta.pagination asks for.
type selection struct {
	// q holds Model, Op, GraphQL, Fields and Populate of the root field's read (nil for
	// fields without one); each request completes a copy.
	q *ir.Query
	// total: meta.pagination.total or pageCount is selected; size: pageSize is.
	total, size bool
	// related is RootField.Related.
	related []string
}

// lowerRoot lowers a root field completely, its arguments included.
func (l *lowerer) lowerRoot(f *Field, op ast.Operation, root *ast.Definition) *RootField {
	rf := &RootField{Field: f}
	if f.Err != nil {
		rf.Kind = KindCustom
		rf.Err = f.Err
		return rf
	}
	if sel := l.classify(rf, op, root); sel != nil {
		rf.sel = sel
		rf.Err = l.rootArgs(rf, sel, nil)
	}
	return rf
}

// Relower lowers a generated root field again with args in place of the document's: the
// arguments a resolver middleware passes on to the generated resolver (plain JSON values),
// coerced against the field's argument types as variables are and lowered as the
// document's are, as Strapi's resolver runs with the args it is given. A value the types
// refuse is a user-input error of the field.
func Relower(s *gqlschema.Schema, opt Options, rf *RootField, args map[string]any) (*RootField, error) {
	if rf.sel == nil || rf.Def == nil {
		return nil, errors.New("graphql: the root field has no arguments to lower again")
	}
	c := &coercer{schema: s.AST, gs: s}
	obj := newObj()
	for _, ad := range rf.Def.Arguments {
		v, given := args[ad.Name]
		if !given {
			if ad.DefaultValue != nil {
				dv, _, err := c.literal(ad.DefaultValue, ad.Type)
				if err != nil {
					return nil, userInput(err)
				}
				obj.set(ad.Name, dv)
			}
			continue
		}
		c.faults = nil
		cv := c.value(v, ad.Type, nil)
		if len(c.faults) > 0 {
			pe := c.faults[0]
			return nil, userInput(errf("Argument \"%s\" got invalid value %s; %s", ad.Name, jsInspect(v), pe.msg))
		}
		obj.set(ad.Name, cv)
	}
	f := *rf.Field
	f.Args = obj
	out := &RootField{Field: &f, Kind: rf.Kind, Model: rf.Model, Action: rf.Action, sel: rf.sel}
	l := &lowerer{s: s, c: c, opt: opt}
	if err := l.rootArgs(out, rf.sel, nil); err != nil {
		return nil, err
	}
	return out, nil
}

// classify sets a root field's kind, model and action and lowers its selection; it reads
// none of the field's own arguments. The selection is nil for fields whose arguments
// lower to nothing (__typename, introspection, extension fields).
func (l *lowerer) classify(rf *RootField, op ast.Operation, root *ast.Definition) *selection {
	f := rf.Field
	switch f.Name {
	case "__typename":
		rf.Kind = KindTypename
		return nil
	case "__schema":
		rf.Kind = KindSchema
		return nil
	case "__type":
		rf.Kind = KindType
		return nil
	}
	r, ok := l.s.Root(op, f.Name)
	if !ok {
		rf.Kind = KindCustom
		f.Resolver = l.s.Resolver(root.Name, f.Name)
		if m := l.responseModel(f); m != nil {
			// Strapi resolves an EntityResponse from the resolver's {value} (and a collection
			// from its {nodes}) with the generated types' resolvers: lowered as a generated
			// read of that model, run for the ids the resolver answers.
			sel := &selection{q: &ir.Query{Model: m.UID, Op: ir.FindMany}}
			lv := newLevel(m)
			l.sel = sel
			l.response(sel, f.Object, lv)
			l.sel = nil
			lv.apply(sel.q)
			f.Entities = sel.q
			return nil
		}
		l.annotate(f.Object)
		for _, o := range f.Union {
			l.annotate(o)
		}
		return nil
	}
	m := r.Model
	rf.Model, rf.Action = m, r.Action
	kind, shadow := rootKinds[rf.Action]
	var q *ir.Query
	switch {
	case m.Kind == schemas.SingleType && rf.Action == gqlschema.ActionFind:
		rf.Kind = KindSingle
		q = &ir.Query{Model: m.UID, Op: ir.FindMany}
	case shadow:
		rf.Kind = kind
		q = &ir.Query{Model: m.UID, Op: ir.FindOne}
		if kind == KindFind {
			q.Op = ir.FindMany
		}
	case uploadActions[rf.Action]:
		rf.Kind = KindUpload
		q = &ir.Query{Model: m.UID, Op: ir.FindOne}
	default:
		rf.Kind = KindAccount
		if accountReadBack[rf.Action] {
			q = &ir.Query{Model: m.UID, Op: ir.FindOne}
		}
	}
	sel := &selection{q: q}
	if q == nil {
		return sel
	}
	lv := newLevel(m)
	if rf.Object != nil {
		l.sel = sel
		l.response(sel, rf.Object, lv)
		l.sel = nil
	}
	lv.apply(q)
	return sel
}

// rootArgs lowers what a root field's arguments decide on a copy of its selection's read:
// filters, sort, pagination, locale, publication state and id, and the payload of writes.
// pre, when not nil, holds filters and sort lowered once for every request.
func (l *lowerer) rootArgs(rf *RootField, sel *selection, pre *lowered) error {
	args := rf.Args
	rf.Related = sel.related
	var q *ir.Query
	if sel.q != nil {
		c := *sel.q
		q = &c
		rf.Query = q
	}
	if v, ok := args.Get("id"); ok && v != nil {
		rf.ID = ArgString(v)
	}
	switch rf.Kind {
	case KindUpload:
		q.ID = rf.ID
		return nil
	case KindAccount:
		switch rf.Action {
		case gqlschema.ActionCreateUser, gqlschema.ActionUpdateUser, gqlschema.ActionCreateRole, gqlschema.ActionUpdateRole:
			data, err := l.inputData(rf.Model, args.Map["data"])
			if err != nil {
				return err
			}
			rf.Data = data
		}
		if q != nil {
			q.ID = rf.ID
		}
		return nil
	}
	m := rf.Model
	if v, ok := args.Get("locale"); ok && v != nil {
		q.Locale = []string{ArgString(v)}
	}
	q.ID = rf.ID
	switch rf.Kind {
	case KindFind, KindSingle:
		if v, ok := args.Get("publicationState"); ok {
			q.PublicationState = publicationState(v)
		}
		if rf.Kind == KindFind {
			if pre == nil {
				pre = &lowered{}
			}
			var err error
			if q.Filters = pre.Filters; !pre.filters {
				if q.Filters, err = l.filters(m, args); err != nil {
					return err
				}
			}
			if q.Sort = pre.Sort; !pre.sort {
				if q.Sort, err = parseSort(args.Map["sort"]); err != nil {
					return err
				}
			}
			if rf.Start, rf.Limit, err = l.paginate(args.Map["pagination"]); err != nil {
				return err
			}
			// One allocation for what the pagination points to.
			pv := &pageValues{start: rf.Start, limit: rf.Limit}
			q.Pagination = ir.Pagination{Start: &pv.start, Limit: &pv.limit, WithCount: &pv.count}
		}
	case KindCreate, KindUpdate:
		data, err := l.inputData(m, args.Map["data"])
		if err != nil {
			return err
		}
		rf.Data = data
		q.Op, q.Data, q.Via = ir.Create, data, ir.ViaGraphQL
		if rf.Kind == KindUpdate {
			q.Op = ir.Update
		}
	case KindDelete:
		q.Op, q.Via = ir.Delete, ir.ViaGraphQL
	case KindLocalization:
		// Strapi spreads the optional data with the locale argument.
		rf.Data = map[string]any{}
		if v := args.Map["data"]; v != nil {
			data, err := l.inputData(m, v)
			if err != nil {
				return err
			}
			rf.Data = data
		}
		q.Op, q.Data, q.Via = ir.CreateLocalization, rf.Data, ir.ViaGraphQL
	}
	// With no limit the page size is what is left after start.
	rf.Count = sel.total || sel.size && rf.Limit == -1
	if rf.Kind == KindFind {
		*q.Pagination.WithCount = rf.Count
	}
	return nil
}

// pageValues are what a find's ir.Pagination points to.
type pageValues struct {
	start, limit int
	count        bool
}

// rootKinds are the kinds of the Shadow CRUD actions and create<Type>Localization.
var rootKinds = map[string]RootKind{gqlschema.ActionFind: KindFind, gqlschema.ActionFindOne: KindFindOne,
	gqlschema.ActionCreate: KindCreate, gqlschema.ActionUpdate: KindUpdate, gqlschema.ActionDelete: KindDelete,
	gqlschema.ActionCreateLocalization: KindLocalization}

// uploadActions are the upload plugin's mutations.
var uploadActions = map[string]bool{gqlschema.ActionUpload: true, gqlschema.ActionMultipleUpload: true,
	gqlschema.ActionUpdateFileInfo: true, gqlschema.ActionRemoveFile: true}

// accountReadBack are the users-permissions mutations that answer with the user entity
// they wrote, read back through the planner.
var accountReadBack = map[string]bool{gqlschema.ActionCreateUser: true, gqlschema.ActionUpdateUser: true,
	gqlschema.ActionDeleteUser: true}

// responseModel is the content type whose EntityResponse or EntityResponseCollection an
// extension's field returns; nil for other types.
func (l *lowerer) responseModel(f *Field) *schemas.Model {
	if f.Object == nil || f.Object.Type == nil {
		return nil
	}
	ti := l.s.Type(f.Object.Type.Name)
	if ti == nil || ti.Model == nil || !ti.Model.IsContentType() {
		return nil
	}
	if ti.Role != gqlschema.RoleEntityResponse && ti.Role != gqlschema.RoleEntityResponseCollection {
		return nil
	}
	return ti.Model
}

// annotate marks attribute fields below a custom field's result, so generated types
// returned by extension resolvers are shaped like Shadow CRUD ones where possible.
func (l *lowerer) annotate(o *Object) {
	if o == nil {
		return
	}
	ti := l.s.Type(o.Type.Name)
	for _, f := range o.Fields {
		if ti != nil && ti.Role == gqlschema.RoleAttributes {
			if a, ok := l.s.OutputAttr(ti.Model, f.Name); ok {
				f.Attr = a
			}
		}
		if f.Attr == nil && f.Name != "__typename" {
			f.Resolver = l.s.Resolver(o.Type.Name, f.Name)
		}
		l.annotate(f.Object)
		for _, u := range f.Union {
			l.annotate(u)
		}
	}
}

// level accumulates what one populate level selects: scalar fields and populated attributes.
type level struct {
	ref    *Level
	model  *schemas.Model
	fields []string
	seen   map[string]bool
	all    bool // an extension field needs every scalar of the entry
	pop    []*ir.PopulateField
}

func newLevel(m *schemas.Model) *level {
	return &level{ref: &Level{}, model: m, seen: map[string]bool{}}
}

func (lv *level) field(name string) {
	if !lv.seen[name] {
		lv.seen[name] = true
		lv.fields = append(lv.fields, name)
	}
}

// fieldList is the level's field selection: only what was asked for (never nil, which
// would mean every scalar), or nil when an extension field needs the whole entry.
func (lv *level) fieldList() []string {
	if lv.all {
		return nil
	}
	if lv.fields == nil {
		return []string{}
	}
	return lv.fields
}

func (lv *level) populate() *ir.Populate {
	if len(lv.pop) == 0 {
		return nil
	}
	return &ir.Populate{Children: lv.pop}
}

func (lv *level) apply(q *ir.Query) {
	q.GraphQL = true
	q.Fields = lv.fieldList()
	q.Populate = lv.populate()
}

// response lowers the selection of an EntityResponse or EntityResponseCollection.
func (l *lowerer) response(sel *selection, o *Object, lv *level) {
	for _, f := range o.Fields {
		switch f.Name {
		case "data":
			if f.Object != nil {
				l.entity(f.Object, lv)
			}
		case "meta":
			if f.Object == nil {
				continue
			}
			for _, mf := range f.Object.Fields {
				if mf.Name != "pagination" || mf.Object == nil {
					continue
				}
				for _, pf := range mf.Object.Fields {
					switch pf.Name {
					case "total", "pageCount":
						sel.total = true
					case "pageSize":
						sel.size = true
					}
				}
			}
		}
	}
}

// entity lowers an <Type>Entity selection.
func (l *lowerer) entity(o *Object, lv *level) {
	for _, f := range o.Fields {
		if f.Name == "attributes" && f.Object != nil {
			l.attributes(f.Object, lv)
		}
	}
}

// attributes lowers the selection of a content type's or component's attributes.
func (l *lowerer) attributes(o *Object, lv *level) {
	o.Level = lv.ref
	for _, f := range o.Fields {
		if f.Name == "__typename" || f.Name == "id" {
			continue
		}
		if l.s.IsMorph(lv.model, f.Name) {
			l.morph(f)
			continue
		}
		a, ok := l.s.OutputAttr(lv.model, f.Name)
		if !ok {
			// A field added by an extension: its resolver sees the whole entry.
			f.Resolver = l.s.Resolver(o.Type.Name, f.Name)
			lv.all = true
			l.annotate(f.Object)
			for _, u := range f.Union {
				l.annotate(u)
			}
			continue
		}
		f.Attr = a
		if a.IsScalar() {
			lv.field(a.Name)
			continue
		}
		if f.Err != nil {
			continue
		}
		pf, err := l.populateField(f, a)
		if err != nil {
			f.Err = err
			continue
		}
		f.Pop = len(lv.pop)
		lv.pop = append(lv.pop, pf)
		lv.ref.Attrs = append(lv.ref.Attrs, a)
	}
}

// populateField lowers a relation, media, component or dynamic-zone field into one
// populate entry with its own arguments and nested selection.
func (l *lowerer) populateField(f *Field, a *schemas.Attribute) (*ir.PopulateField, error) {
	pf := &ir.PopulateField{Field: a.Name}
	args := f.Args
	toMany := a.IsToMany() && a.Type != schemas.DynamicZone
	switch a.Type {
	case schemas.Relation, schemas.Media:
		if toMany {
			if err := l.relationArgs(pf, a.Target, args); err != nil {
				return nil, err
			}
		}
		// Every relation resolver of Strapi's GraphQL has its own publicationState argument
		// (default LIVE); it does not inherit the parent's, unlike REST populate.
		if a.Target.DraftAndPublish {
			pf.PublicationState = "live"
			if v, ok := args.Get("publicationState"); ok {
				pf.PublicationState = publicationState(v)
			}
		}
		sub := newLevel(a.Target)
		if f.Object != nil {
			for _, df := range f.Object.Fields {
				if df.Name == "data" && df.Object != nil {
					l.entity(df.Object, sub)
				}
			}
		}
		pf.Fields, pf.Populate = sub.fieldList(), sub.populate()
	case schemas.ComponentT:
		comp := a.Components[0]
		if a.Repeatable {
			if err := l.relationArgs(pf, comp, args); err != nil {
				return nil, err
			}
		}
		sub := newLevel(comp)
		if f.Object != nil {
			l.attributes(f.Object, sub)
		}
		pf.Fields, pf.Populate = sub.fieldList(), sub.populate()
	case schemas.DynamicZone:
		// Every component of the zone is read, selected or not, so the list keeps its
		// length and order; unselected members answer with only what was asked (maybe {}).
		for _, comp := range a.Components {
			sub := newLevel(comp)
			if o := f.Union[l.s.TypeName(comp)]; o != nil {
				l.attributes(o, sub)
			}
			pf.On = append(pf.On, &ir.PopulateOn{Component: comp.UID,
				Field: &ir.PopulateField{Field: a.Name, Fields: sub.fieldList(), Populate: sub.populate()}})
		}
	}
	return pf, nil
}

// relationArgs lowers filters, sort and pagination of a to-many field.
func (l *lowerer) relationArgs(pf *ir.PopulateField, target *schemas.Model, args *Obj) error {
	var err error
	if pf.Filters, err = l.filters(target, args); err != nil {
		return err
	}
	if pf.Sort, err = parseSort(args.Map["sort"]); err != nil {
		return err
	}
	start, limit, err := l.paginate(args.Map["pagination"])
	if err != nil {
		return err
	}
	pf.Pagination = &ir.Pagination{Start: &start, Limit: &limit}
	return nil
}

// paginate is Strapi's withDefaultPagination with the plugin's defaultLimit and maxLimit,
// then Quarry's amountLimit. The page form without pageSize gives pageSize 1, a Strapi quirk
// kept on purpose so that clients see the same pages.
func (l *lowerer) paginate(v any) (start, limit int, err error) {
	o, _ := v.(*Obj)
	get := func(k string) (int, bool) {
		x, ok := o.Get(k)
		if !ok || x == nil {
			return 0, false
		}
		return clampInt(x), true
	}
	page, hasPage := get("page")
	pageSize, hasSize := get("pageSize")
	st, hasStart := get("start")
	lim, hasLimit := get("limit")
	usePage, useOffset := hasPage || hasSize, hasStart || hasLimit
	maxLimit := l.opt.MaxLimit
	if maxLimit == 0 {
		maxLimit = -1
	}
	def := l.opt.DefaultLimit
	if def <= 0 {
		def = 10
	}
	switch {
	case usePage && useOffset:
		return 0, 0, apierror.Pagination("Cannot use both page & offset pagination in the same query")
	case useOffset:
		start, limit = 0, def
		if hasStart {
			start = st
		}
		if hasLimit {
			limit = lim
		}
	case usePage:
		if !hasPage {
			page = 1
		}
		pageSize = max(1, pageSize) // Math.max(1, pageSize ?? 0): absent → 1
		start, limit = (page-1)*pageSize, pageSize
	default:
		start, limit = 0, def
	}
	if limit == -1 && (usePage || useOffset) {
		limit = maxLimit
	}
	start = max(start, 0)
	if limit != -1 {
		limit = max(limit, 1)
	}
	if maxLimit != -1 && (limit == -1 || limit >= maxLimit) {
		limit = maxLimit
	}
	if a := l.opt.AmountLimit; a > 0 && (limit == -1 || limit > a) {
		limit = a
	}
	return start, limit, nil
}

// Paginate is the start and limit Strapi's withDefaultPagination gives a field's pagination
// argument v (nil: none) with the plugin's limits in opt, as the lowering computes them: the
// GraphQL plugin's association and component resolvers pass them to entityService.load.
func Paginate(opt Options, v any) (start, limit int, err error) {
	return (&lowerer{opt: opt}).paginate(v)
}

// clampInt reads a coerced Int; absurd values are clamped so offsets cannot overflow.
func clampInt(v any) int {
	var n int64
	switch x := v.(type) {
	case json.Number:
		n, _ = strconv.ParseInt(string(x), 10, 64)
	case int64:
		n = x
	case int:
		n = int64(x)
	}
	const lim = 1 << 40
	return int(min(max(n, -lim), lim))
}

func publicationState(v any) string {
	if s, _ := v.(string); s == "PREVIEW" {
		return "preview"
	}
	return "live"
}

// ArgString reads a coerced String or ID argument ("" for other values).
func ArgString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return string(x)
	}
	return ""
}

// parseSort reads sort: [String] ("title:desc", "author.name", comma lists) as Strapi's
// convertSortQueryParams does.
func parseSort(v any) ([]ir.Sort, error) {
	var items []any
	switch x := v.(type) {
	case nil:
		return nil, nil
	case []any:
		items = x
	default:
		items = []any{x}
	}
	var out []ir.Sort
	for _, it := range items {
		s, ok := it.(string)
		if !ok {
			continue
		}
		for _, part := range strings.Split(s, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			field, ord, _ := strings.Cut(part, ":")
			var desc bool
			switch strings.ToLower(ord) {
			case "", "asc":
			case "desc":
				desc = true
			default:
				return nil, apierror.Validation("Invalid order in sort parameter %s: order can only be one of asc|desc|ASC|DESC", part)
			}
			path := strings.Split(field, ".")
			out = append(out, ir.Sort{Path: path, Desc: desc, Param: path[0]})
		}
	}
	return out, nil
}

// filters lowers the filters argument of a field on model m.
func (l *lowerer) filters(m *schemas.Model, args *Obj) (*ir.Filter, error) {
	v, ok := args.Get("filters")
	if !ok || v == nil {
		return nil, nil
	}
	o, ok := v.(*Obj)
	if !ok {
		return nil, apierror.InvalidParam("filters")
	}
	return l.entityFilter(m, o)
}

// entityFilter lowers a <Type>FiltersInput object.
func (l *lowerer) entityFilter(m *schemas.Model, o *Obj) (*ir.Filter, error) {
	and := &ir.Filter{Kind: ir.And}
	for _, k := range o.Keys {
		v := o.Map[k]
		if v == nil {
			// An explicit null filter constrains nothing (Strapi drops it).
			continue
		}
		switch k {
		case "and", "or":
			list, _ := v.([]any)
			node := logical(k)
			for _, e := range list {
				eo, ok := e.(*Obj)
				if !ok {
					continue
				}
				c, err := l.entityFilter(m, eo)
				if err != nil {
					return nil, err
				}
				if c != nil {
					node.Children = append(node.Children, c)
				}
			}
			if len(node.Children) > 0 {
				and.Children = append(and.Children, node)
			}
		case "not":
			c, err := negate(v, func(o *Obj) (*ir.Filter, error) { return l.entityFilter(m, o) })
			if err != nil {
				return nil, err
			}
			if c != nil {
				and.Children = append(and.Children, c)
			}
		default:
			vo, ok := v.(*Obj)
			if !ok {
				return nil, apierror.InvalidParam(k)
			}
			var c *ir.Filter
			var err error
			a, isAttr := l.s.FilterAttr(m, k)
			switch {
			case k == "id" || (isAttr && a.IsScalar()):
				c, err = scalarFilter(k, vo)
			case isAttr && (a.Type == schemas.Relation || a.Type == schemas.Media):
				c, err = l.nested(k, a.Target, vo)
			case isAttr && a.Type == schemas.ComponentT:
				c, err = l.nested(k, a.Components[0], vo)
			default:
				err = apierror.InvalidParam(k)
			}
			if err != nil {
				return nil, err
			}
			if c != nil {
				and.Children = append(and.Children, c)
			}
		}
	}
	return and.Simplified(), nil
}

func (l *lowerer) nested(field string, target *schemas.Model, o *Obj) (*ir.Filter, error) {
	inner, err := l.entityFilter(target, o)
	if err != nil || inner == nil {
		return nil, err
	}
	return &ir.Filter{Kind: ir.Relation, Field: field, Param: field, Children: []*ir.Filter{inner}}, nil
}

// logical is the node of an `and` or `or` list.
func logical(k string) *ir.Filter {
	if k == "or" {
		return &ir.Filter{Kind: ir.Or, Param: ir.OpOr}
	}
	return &ir.Filter{Kind: ir.And, Param: ir.OpAnd}
}

// negate lowers the object of a `not` key and wraps it in a Not node (nil when it
// constrains nothing or is not an object).
func negate(v any, lower func(*Obj) (*ir.Filter, error)) (*ir.Filter, error) {
	o, ok := v.(*Obj)
	if !ok {
		return nil, nil
	}
	c, err := lower(o)
	if err != nil || c == nil {
		return nil, err
	}
	return &ir.Filter{Kind: ir.Not, Children: []*ir.Filter{c}, Param: ir.OpNot}, nil
}

// scalarFilter lowers a <Scalar>FilterInput object on one attribute.
func scalarFilter(field string, o *Obj) (*ir.Filter, error) {
	and := &ir.Filter{Kind: ir.And}
	for _, k := range o.Keys {
		v := o.Map[k]
		switch k {
		case "and", "or":
			list, _ := v.([]any)
			node := logical(k)
			for _, e := range list {
				// Each element is a value compared for equality, as $and/$or under an
				// attribute mean in Strapi.
				node.Children = append(node.Children, &ir.Filter{Kind: ir.Cond, Field: field, Operator: ir.OpEq, Values: []ir.Value{irValue(e)}, Param: field})
			}
			if len(node.Children) > 0 {
				and.Children = append(and.Children, node)
			}
		case "not":
			c, err := negate(v, func(o *Obj) (*ir.Filter, error) { return scalarFilter(field, o) })
			if err != nil {
				return nil, err
			}
			if c != nil {
				and.Children = append(and.Children, c)
			}
		default:
			op := "$" + k
			var vals []ir.Value
			if list, ok := v.([]any); ok {
				for _, e := range list {
					vals = append(vals, irValue(e))
				}
				if vals == nil {
					vals = []ir.Value{}
				}
			} else {
				vals = []ir.Value{irValue(v)}
			}
			if o := ir.LookupOperator(op); o == nil || o.Operand == ir.OneValue || o.Operand == ir.Flag {
				if len(vals) != 1 {
					return nil, apierror.InvalidParam(op)
				}
			}
			and.Children = append(and.Children, &ir.Filter{Kind: ir.Cond, Field: field, Operator: op, Values: vals, Param: op})
		}
	}
	return and.Simplified(), nil
}

// irValue keeps a coerced value's GraphQL type as the ir value kind.
func irValue(v any) ir.Value {
	switch x := v.(type) {
	case nil:
		return ir.Null
	case string:
		return ir.Str(x)
	case json.Number:
		return ir.Value{Kind: ir.VNumber, S: string(x)}
	case bool:
		if x {
			return ir.Value{Kind: ir.VBool, S: "true"}
		}
		return ir.Value{Kind: ir.VBool, S: "false"}
	}
	// JSON objects and lists compare as their JSON text.
	b, _ := json.Marshal(plain(v))
	return ir.Str(string(b))
}

// userInput wraps a coercion failure as a BAD_USER_INPUT validation error.
func userInput(err error) error {
	var ae *apierror.Error
	if errors.As(err, &ae) {
		return ae
	}
	return apierror.Validation("%s", err.Error())
}

// morph lowers UploadFile.related: each member of the GenericMorph selection is a content
// type or component whose scalar attributes are read for all the files at once (see
// RootField.Related); other attributes of a related entry answer null.
func (l *lowerer) morph(f *Field) {
	f.Morph = true
	seen := map[string]bool{}
	fields := []string{}
	for _, o := range f.Union {
		ti := l.s.Type(o.Type.Name)
		if ti == nil || ti.Role != gqlschema.RoleAttributes {
			continue
		}
		for _, mf := range o.Fields {
			a, ok := l.s.OutputAttr(ti.Model, mf.Name)
			if !ok {
				continue
			}
			mf.Attr = a
			if a.IsScalar() && !seen[a.Name] {
				seen[a.Name] = true
				fields = append(fields, a.Name)
			}
		}
	}
	if l.sel == nil {
		return
	}
	for _, name := range l.sel.related {
		if !seen[name] {
			seen[name] = true
			fields = append(fields, name)
		}
	}
	sort.Strings(fields)
	l.sel.related = fields
}
