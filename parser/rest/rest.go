// Package rest lowers a REST query string (qs bracket syntax, as Strapi v4 reads it) into the
// ir. It knows the shapes Strapi accepts for filters, sort, fields, populate and pagination,
// but not the schema: unknown names pass through and the planner refuses them.
package rest

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/parser/qs"
)

// Parse parses a raw query string into the read options of q.
func Parse(raw string, q *ir.Query) error {
	root, err := qs.Parse(raw, qs.StrapiOptions())
	if err != nil {
		return apierror.Validation("Invalid query string")
	}
	return Lower(root, q)
}

// Lower fills q from an already parsed query object.
func Lower(root *qs.Object, q *ir.Query) error {
	var l lowerer
	for i, k := range root.Keys {
		v := root.Vals[i]
		var err error
		switch k {
		case "filters":
			q.Filters, err = l.parseFilters(v, "filters")
		case "sort":
			q.Sort, err = l.parseSort(v)
		case "fields":
			q.Fields, err = l.parseFields(v)
		case "populate":
			l.path = append(l.path[:0], "populate")
			if q.Populate, err = l.parsePopulate(v); err == nil {
				err = markDeep(v, q.Populate)
			}
		case "pagination":
			err = parsePagination(v, &q.Pagination, "pagination")
		case "publicationState":
			q.PublicationState, err = parsePublicationState(v, "publicationState")
		case "locale":
			q.Locale, err = parseLocale(v)
		case "_q":
			// Strapi's search: a string term (anything else crashes its query engine).
			if v.Kind != qs.String {
				err = apierror.InvalidParam("_q")
			} else {
				term := v.Str
				q.Search = &term
			}
		case "start", "limit", "page", "pageSize":
			// Strapi's service merges these with its own pagination and always refuses the mix.
			err = apierror.Pagination("Invalid pagination attributes. You cannot use page and offset pagination in the same query")
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func parsePublicationState(v *qs.Value, param string) (string, error) {
	if v.Kind == qs.String && (v.Str == "live" || v.Str == "preview") {
		return v.Str, nil
	}
	return "", apierror.InvalidParam(param)
}

// lowerer carves the IR nodes of one query from a few slabs: a query lowers into dozens of
// small nodes, and allocating each on its own was most of the cost of lowering.
type lowerer struct {
	filters []ir.Filter
	fptrs   []*ir.Filter
	vals    []ir.Value
	strs    []string
	// path is the chain of keys down to the populate level being lowered (see at).
	path   []string
	pops   []ir.Populate
	pfs    []ir.PopulateField
	pfptrs []*ir.PopulateField
	sorts  []ir.Sort
}

// carve returns an empty slice with capacity n from *slab, refilling the slab when short with
// one twice as large as the last, so a query costs a few allocations per slab at most.
// Slices carved this way are appended to only within their capacity (or reallocate alone).
func carve[T any](slab *[]T, n int) []T {
	if cap(*slab)-len(*slab) < n {
		*slab = make([]T, 0, max(n, 2*cap(*slab), 16))
	}
	l := len(*slab)
	*slab = (*slab)[:l+n]
	return (*slab)[l:l:(l + n)]
}

// one returns a pointer to a zeroed element of *slab.
func one[T any](slab *[]T) *T {
	return &carve(slab, 1)[:1][0]
}

func (l *lowerer) filter(f ir.Filter) *ir.Filter {
	n := one(&l.filters)
	*n = f
	return n
}

// children is an empty child list with room for n filters.
func (l *lowerer) children(n int) []*ir.Filter { return carve(&l.fptrs, n) }

// at names the parameter being lowered plus key, e.g. populate[author][fields], for an
// error message; l.path holds the enclosing keys so that nothing is spelled out unless an
// error needs it.
func (l *lowerer) at(key string) string {
	var b strings.Builder
	for i, k := range l.path {
		if i > 0 {
			b.WriteByte('[')
		}
		b.WriteString(k)
		if i > 0 {
			b.WriteByte(']')
		}
	}
	if key != "" {
		if len(l.path) > 0 {
			b.WriteByte('[')
		}
		b.WriteString(key)
		if len(l.path) > 0 {
			b.WriteByte(']')
		}
	}
	return b.String()
}

func parseLocale(v *qs.Value) ([]string, error) {
	switch v.Kind {
	case qs.String:
		return []string{v.Str}, nil
	case qs.Array:
		out := make([]string, 0, len(v.Arr))
		for _, e := range v.Arr {
			if e.Kind != qs.String {
				return nil, apierror.InvalidParam("locale")
			}
			out = append(out, e.Str)
		}
		return out, nil
	}
	return nil, apierror.InvalidParam("locale")
}

// ---- filters ----

func (l *lowerer) parseFilters(v *qs.Value, param string) (*ir.Filter, error) {
	if v.Kind != qs.ObjectKind {
		if v.Kind == qs.String && v.Str == "" {
			return nil, nil
		}
		return nil, apierror.InvalidParam(param)
	}
	return l.entityLevel(v.Obj)
}

// entityLevel parses an object whose keys are attributes or logical operators.
func (l *lowerer) entityLevel(o *qs.Object) (*ir.Filter, error) {
	kids := l.children(o.Len())
	for i, k := range o.Keys {
		v := o.Vals[i]
		switch {
		case k == ir.OpAnd || k == ir.OpOr:
			if v.Kind != qs.Array {
				return nil, apierror.InvalidParam(k)
			}
			list := l.children(len(v.Arr))
			for _, e := range v.Arr {
				if e.Kind != qs.ObjectKind {
					return nil, apierror.InvalidParam(k)
				}
				c, err := l.entityLevel(e.Obj)
				if err != nil {
					return nil, err
				}
				if c != nil {
					list = append(list, c)
				}
			}
			if len(list) > 0 {
				kind := ir.And
				if k == ir.OpOr {
					kind = ir.Or
				}
				kids = append(kids, l.filter(ir.Filter{Kind: kind, Children: list, Param: k}))
			}
		case k == ir.OpNot:
			if v.Kind != qs.ObjectKind {
				return nil, apierror.InvalidParam(k)
			}
			c, err := l.entityLevel(v.Obj)
			if err != nil {
				return nil, err
			}
			if c != nil {
				kids = append(kids, l.not(c, k))
			}
		case strings.HasPrefix(k, "$"):
			return nil, apierror.InvalidParam(k)
		default:
			c, err := l.attributeLevel(k, v)
			if err != nil {
				return nil, err
			}
			if c != nil {
				kids = append(kids, c)
			}
		}
	}
	return l.and(kids), nil
}

// and is the And node of a child list as the parsers hand it on (see ir.Filter.Simplified):
// nil without children, the only child alone.
func (l *lowerer) and(kids []*ir.Filter) *ir.Filter {
	switch len(kids) {
	case 0:
		return nil
	case 1:
		return kids[0]
	}
	return l.filter(ir.Filter{Kind: ir.And, Children: kids})
}

func (l *lowerer) not(c *ir.Filter, param string) *ir.Filter {
	kids := append(l.children(1), c)
	return l.filter(ir.Filter{Kind: ir.Not, Children: kids, Param: param})
}

// attributeLevel parses the value given for one attribute: a plain value (implicit $eq), an
// operator object, or (for relations and components) a nested entity-level object.
func (l *lowerer) attributeLevel(field string, v *qs.Value) (*ir.Filter, error) {
	switch v.Kind {
	case qs.Null, qs.String, qs.Array:
		vals, err := l.values(v, field)
		if err != nil {
			return nil, err
		}
		return l.filter(ir.Filter{Kind: ir.Cond, Field: field, Operator: ir.OpEq, Values: vals, Param: field}), nil
	}
	o := v.Obj
	attrs := 0 // keys that are not operators: a nested entity-level object
	for _, k := range o.Keys {
		if !strings.HasPrefix(k, "$") {
			attrs++
		}
	}
	if attrs > 0 {
		nested := o
		if attrs < o.Len() {
			nested = &qs.Object{}
			ops := 0
			for i, k := range o.Keys {
				if !strings.HasPrefix(k, "$") {
					nested.Keys = append(nested.Keys, k)
					nested.Vals = append(nested.Vals, o.Vals[i])
					continue
				}
				c, err := l.operator(field, k, o.Vals[i])
				if err != nil {
					return nil, err
				}
				if c != nil {
					ops++
				}
			}
			if ops > 0 {
				// Strapi crashes on a relation object mixing operators and attributes.
				return nil, apierror.InvalidParam(field)
			}
		}
		inner, err := l.entityLevel(nested)
		if err != nil {
			return nil, err
		}
		rel := l.filter(ir.Filter{Kind: ir.Relation, Field: field, Param: field})
		if inner != nil {
			rel.Children = append(l.children(1), inner)
		}
		return rel, nil
	}
	kids := l.children(o.Len())
	for i, k := range o.Keys {
		c, err := l.operator(field, k, o.Vals[i])
		if err != nil {
			return nil, err
		}
		if c != nil {
			kids = append(kids, c)
		}
	}
	return l.and(kids), nil
}

// operator parses one `$op` under an attribute.
func (l *lowerer) operator(field, op string, v *qs.Value) (*ir.Filter, error) {
	switch op {
	case ir.OpNot:
		// `filters[title][$not]=x` negates an implicit equality; an object negates its
		// operators.
		c, err := l.attributeLevel(field, v)
		if err != nil || c == nil {
			return c, err
		}
		return l.not(c, op), nil
	case ir.OpAnd, ir.OpOr:
		if v.Kind != qs.Array {
			return nil, apierror.InvalidParam(op)
		}
		kids := l.children(len(v.Arr))
		for _, e := range v.Arr {
			c, err := l.attributeLevel(field, e)
			if err != nil {
				return nil, err
			}
			if c != nil {
				kids = append(kids, c)
			}
		}
		if len(kids) == 0 {
			return nil, nil
		}
		kind := ir.And
		if op == ir.OpOr {
			kind = ir.Or
		}
		return l.filter(ir.Filter{Kind: kind, Children: kids, Param: op}), nil
	}
	vals, err := l.values(v, op)
	if err != nil {
		return nil, err
	}
	return l.filter(ir.Filter{Kind: ir.Cond, Field: field, Operator: op, Values: vals, Param: op}), nil
}

func value(v *qs.Value) ir.Value {
	if v.Kind == qs.Null {
		return ir.Null
	}
	return ir.Str(v.Str)
}

// values flattens an operand: a scalar or an array of scalars. Objects are refused, since no
// operator takes one and Strapi would crash on it.
func (l *lowerer) values(v *qs.Value, param string) ([]ir.Value, error) {
	switch v.Kind {
	case qs.Null, qs.String:
		return append(carve(&l.vals, 1), value(v)), nil
	case qs.Array:
		out := carve(&l.vals, len(v.Arr))
		for _, e := range v.Arr {
			if e.Kind != qs.Null && e.Kind != qs.String {
				return nil, apierror.InvalidParam(param)
			}
			out = append(out, value(e))
		}
		return out, nil
	}
	return nil, apierror.InvalidParam(param)
}

// ---- sort ----

func (l *lowerer) parseSort(v *qs.Value) ([]ir.Sort, error) {
	n := sortKeys(v)
	if n == 0 {
		return nil, l.sortInto(v, nil, nil)
	}
	out := carve(&l.sorts, n)
	if err := l.sortInto(v, nil, &out); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// sortKeys is an upper bound of the sort keys in a sort value.
func sortKeys(v *qs.Value) int {
	switch v.Kind {
	case qs.String:
		return strings.Count(v.Str, ",") + 1
	case qs.Array:
		n := 0
		for _, e := range v.Arr {
			n += sortKeys(e)
		}
		return n
	case qs.ObjectKind:
		n := 0
		for _, e := range v.Obj.Vals {
			n += sortKeys(e)
		}
		return n
	}
	return 0
}

func (l *lowerer) sortInto(v *qs.Value, prefix []string, out *[]ir.Sort) error {
	switch v.Kind {
	case qs.String:
		if prefix != nil {
			// Object form: the value is the order of the path built so far.
			desc, err := order(v.Str, prefix)
			if err != nil {
				return err
			}
			*out = append(*out, ir.Sort{Path: prefix, Desc: desc, Param: prefix[0]})
			return nil
		}
		for rest, more := v.Str, true; more; {
			var part string
			part, rest, more = strings.Cut(rest, ",")
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			field, ord, _ := strings.Cut(part, ":")
			desc, err := order(ord, part)
			if err != nil {
				return err
			}
			path := carve(&l.strs, strings.Count(field, ".")+1)
			for seg, more := field, true; more; {
				var name string
				name, seg, more = strings.Cut(seg, ".")
				path = append(path, name)
			}
			*out = append(*out, ir.Sort{Path: path, Desc: desc, Param: path[0]})
		}
		return nil
	case qs.Array:
		if prefix != nil {
			return apierror.InvalidParam("sort")
		}
		strs, objs := 0, 0
		for _, e := range v.Arr {
			switch e.Kind {
			case qs.String:
				strs++
			case qs.ObjectKind:
				objs++
			default:
				return apierror.InvalidParam("sort")
			}
		}
		if strs > 0 && objs > 0 {
			// A mixed array is walked as sort objects by Strapi's validator, and a string's
			// first character is its key "0".
			return apierror.InvalidParam("0")
		}
		for _, e := range v.Arr {
			if err := l.sortInto(e, nil, out); err != nil {
				return err
			}
		}
		return nil
	case qs.ObjectKind:
		for i, k := range v.Obj.Keys {
			p := append(append(carve(&l.strs, len(prefix)+1), prefix...), k)
			if err := l.sortInto(v.Obj.Vals[i], p, out); err != nil {
				return err
			}
		}
		return nil
	}
	return apierror.InvalidParam("sort")
}

// order reads asc/desc; param is the sort key as the client wrote it, a string or a path.
func order[P string | []string](s string, param P) (bool, error) {
	switch strings.ToLower(s) {
	case "", "asc":
		return false, nil
	case "desc":
		return true, nil
	}
	// Strapi answers a bad order with a 500; name the offending sort key instead.
	var name string
	switch p := any(param).(type) {
	case string:
		name = p
	case []string:
		name = strings.Join(p, ".")
	}
	return false, apierror.Validation("Invalid order in sort parameter %s: order can only be one of asc|desc|ASC|DESC", name)
}

// ---- fields ----

func (l *lowerer) parseFields(v *qs.Value) ([]string, error) {
	switch v.Kind {
	case qs.String:
		if v.Str == "*" {
			return nil, nil
		}
		return append(carve(&l.strs, 1), v.Str), nil
	case qs.Array:
		out := carve(&l.strs, len(v.Arr))
		for _, e := range v.Arr {
			if e.Kind != qs.String {
				return nil, apierror.InvalidParam("fields")
			}
			if e.Str == "*" {
				return nil, nil
			}
			out = append(out, e.Str)
		}
		return out, nil
	case qs.Null:
		return nil, nil
	}
	return nil, apierror.InvalidParam("fields")
}

// ---- populate ----

func (l *lowerer) parsePopulate(v *qs.Value) (*ir.Populate, error) {
	switch v.Kind {
	case qs.Null:
		return nil, nil
	case qs.String:
		if v.Str == "*" {
			p := one(&l.pops)
			p.All = true
			return p, nil
		}
		if v.Str == "" || v.Str == "false" {
			return nil, nil
		}
		p := one(&l.pops)
		l.addPaths(p, v.Str)
		return p, nil
	case qs.Array:
		p := one(&l.pops)
		var list []string
		for _, e := range v.Arr {
			if e.Kind != qs.String {
				return nil, apierror.InvalidParam(l.at(""))
			}
			if strings.TrimSpace(e.Str) == "*" {
				// Strapi's validator expands a "*" element into an object inside the array,
				// which its converter then refuses with a 500.
				return nil, apierror.InvalidParam(l.at(""))
			}
			for rest, more := e.Str, true; more; {
				var path string
				path, rest, more = strings.Cut(rest, ",")
				list = append(list, strings.TrimSpace(path))
			}
		}
		l.addPathList(p, list)
		return p, nil
	}
	p := one(&l.pops)
	p.Children = carve(&l.pfptrs, v.Obj.Len())
	for i, k := range v.Obj.Keys {
		sub := v.Obj.Vals[i]
		switch k {
		case "fields", "sort", "filters", "populate":
			// Keys of the populate options written one level too deep. Strapi validates
			// them against this level's model and ignores them; an attribute of that name
			// is populated as well (the planner decides which applies).
			if err := l.stray(p, k, sub); err != nil {
				return nil, err
			}
		}
		switch sub.Kind {
		case qs.Null:
			continue
		case qs.String:
			if sub.Str == "false" || sub.Str == "0" || sub.Str == "" {
				continue
			}
			l.child(p, k)
			continue
		case qs.Array:
			// Strapi ignores the key unless it names a populatable attribute, and crashes
			// if it does: the planner knows which.
			l.child(p, k).Invalid = l.at(k)
			continue
		}
		c := l.child(p, k)
		l.path = append(l.path, k)
		err := l.populateOptions(sub.Obj, c)
		l.path = l.path[:len(l.path)-1]
		if err != nil {
			return nil, err
		}
	}
	return p, nil
}

// stray lowers a `fields`, `sort`, `filters` or `populate` key found among the attribute
// names of a populate object into p.Stray, for the planner to validate.
func (l *lowerer) stray(p *ir.Populate, k string, v *qs.Value) error {
	if p.Stray == nil {
		p.Stray = &ir.PopulateField{}
	}
	var err error
	switch k {
	case "fields":
		p.Stray.Fields, err = l.parseFields(v)
	case "sort":
		p.Stray.Sort, err = l.parseSort(v)
	case "filters":
		p.Stray.Filters, err = l.parseFilters(v, "filters")
	case "populate":
		l.path = append(l.path, k)
		p.Stray.Populate, err = l.parsePopulate(v)
		l.path = l.path[:len(l.path)-1]
	}
	return err
}

// markDeep recognizes strapi-plugin-populate-deep's `populate=deep` and `populate=deep,N`
// (or populate[0]=deep&populate[1]=N): the plugin looks at the first two elements of the
// converted populate list. Whether the plugin is installed is the planner's business; without
// it "deep" is an unknown attribute name and is ignored like any other.
func markDeep(v *qs.Value, p *ir.Populate) error {
	if p == nil {
		return nil
	}
	var parts []string
	switch v.Kind {
	case qs.String:
		parts = strings.Split(v.Str, ",")
	case qs.Array:
		for _, e := range v.Arr {
			parts = append(parts, strings.Split(e.Str, ",")...)
		}
	default:
		return nil
	}
	if strings.TrimSpace(parts[0]) != "deep" {
		return nil
	}
	p.Deep = ir.DeepDefault
	if len(parts) > 1 {
		n, err := parseInt(parts[1])
		if err != nil {
			// The plugin recurses with NaN, which no level stops: as deep as the cap allows.
			n = ir.DeepUnbounded
		}
		p.Deep = max(n, 1)
	}
	return nil
}

func (l *lowerer) child(p *ir.Populate, field string) *ir.PopulateField {
	if c := p.Find(field); c != nil {
		return c
	}
	c := one(&l.pfs)
	c.Field = field
	if len(p.Children) == cap(p.Children) {
		p.Children = append(carve(&l.pfptrs, 2*len(p.Children)+2), p.Children...)
	}
	p.Children = append(p.Children, c)
	return c
}

// addPaths adds comma-separated dotted paths such as "seo.image,tags".
func (l *lowerer) addPaths(p *ir.Populate, paths string) {
	var list []string
	for rest, more := paths, true; more; {
		var path string
		path, rest, more = strings.Cut(rest, ",")
		list = append(list, strings.TrimSpace(path))
	}
	l.addPathList(p, list)
}

// addPathList adds dotted paths as Strapi's database layer groups them: by first segment in
// order of appearance, each group's remainders in reverse order (it prepends every further
// remainder to the group's list), which is the order their keys are answered in.
func (l *lowerer) addPathList(p *ir.Populate, list []string) {
	var rests map[string][]string
	for _, path := range list {
		if path == "" {
			continue
		}
		head, rest, more := strings.Cut(path, ".")
		c := l.child(p, head)
		if !more {
			continue
		}
		if c.Populate == nil {
			c.Populate = one(&l.pops)
		}
		if rest == "*" {
			c.Populate.All = true
			continue
		}
		if rests == nil {
			rests = map[string][]string{}
		}
		rests[head] = append([]string{rest}, rests[head]...)
	}
	for _, c := range p.Children {
		if r := rests[c.Field]; len(r) > 0 {
			l.addPathList(c.Populate, r)
		}
	}
}

func (l *lowerer) populateOptions(o *qs.Object, c *ir.PopulateField) error {
	for i, k := range o.Keys {
		v := o.Vals[i]
		var err error
		switch k {
		case "fields":
			c.Fields, err = l.parseFields(v)
		case "sort":
			c.Sort, err = l.parseSort(v)
		case "filters":
			c.Filters, err = l.parseFilters(v, "filters")
		case "populate":
			l.path = append(l.path, k)
			c.Populate, err = l.parsePopulate(v)
			l.path = l.path[:len(l.path)-1]
		case "publicationState":
			if c.PublicationState, err = parsePublicationState(v, ""); err != nil {
				err = apierror.InvalidParam(l.at(k))
			}
		case "count":
			if c.Count, err = boolParam(v, ""); err != nil {
				err = apierror.InvalidParam(l.at(k))
			}
		case "start", "limit", "page", "pageSize":
			// Handled below, in Strapi's order, once every key is known.
		case "on":
			if v.Kind != qs.ObjectKind {
				if v.Kind == qs.String {
					// Strapi reads a string's characters as component names: the zone
					// keeps none of its components.
					c.On = append(c.On, &ir.PopulateOn{Field: &ir.PopulateField{Field: c.Field}})
					continue
				}
				return apierror.InvalidParam(l.at(k))
			}
			for j, uid := range v.Obj.Keys {
				sub := v.Obj.Vals[j]
				f := &ir.PopulateField{Field: c.Field}
				if sub.Kind == qs.ObjectKind {
					l.path = append(l.path, k, uid)
					err := l.populateOptions(sub.Obj, f)
					l.path = l.path[:len(l.path)-2]
					if err != nil {
						return err
					}
				} else if sub.Kind != qs.String || sub.Str == "false" {
					continue
				}
				c.On = append(c.On, &ir.PopulateOn{Component: uid, Field: f})
			}
		}
		// Other keys are ignored, as Strapi ignores them in populate.
		if err != nil {
			return err
		}
	}
	return l.populatePagination(o, c)
}

// populatePagination reads start/limit/page/pageSize of a populate level as Strapi's
// convertNestedPopulate does: numbers as JavaScript's Number reads them, page and pageSize
// refused with Strapi's PaginationError messages, and the values Strapi crashes on (a negative
// start, a limit below -1, a non-integer) refused with a 400 naming the parameter.
func (l *lowerer) populatePagination(o *qs.Object, c *ir.PopulateField) error {
	var page, pageSize, start, limit *qs.Value
	for i, k := range o.Keys {
		v := o.Vals[i]
		if v.Kind == qs.Null {
			continue // undefined for Strapi
		}
		switch k {
		case "page":
			page = v
		case "pageSize":
			pageSize = v
		case "start":
			start = v
		case "limit":
			limit = v
		}
	}
	if page == nil && pageSize == nil && start == nil && limit == nil {
		return nil
	}
	if (page != nil || pageSize != nil) && (start != nil || limit != nil) {
		return apierror.Pagination("Invalid pagination attributes. You cannot use page and offset pagination in the same query")
	}
	pg := &ir.Pagination{}
	if page != nil {
		n, ok := jsInt(page)
		if !ok || n <= 0 {
			return apierror.Pagination("Invalid 'page' parameter. Expected an integer > 0, received: " + jsString(page))
		}
		pg.Page = &n
	}
	if pageSize != nil {
		n, ok := jsInt(pageSize)
		if !ok || n <= 0 {
			// Strapi prints the page here, not the page size.
			return apierror.Pagination("Invalid 'pageSize' parameter. Expected an integer > 0, received: " + jsString(page))
		}
		pg.PageSize = &n
	}
	if start != nil {
		n, ok := jsInt(start)
		if !ok || n < 0 {
			return apierror.InvalidParam(l.at("start"))
		}
		pg.Start = &n
	}
	if limit != nil {
		n, ok := jsInt(limit)
		if !ok || n < -1 {
			return apierror.InvalidParam(l.at("limit"))
		}
		if n >= 0 {
			pg.Limit = &n
		}
	}
	c.Pagination = pg
	return nil
}

// jsInt reads a query value as lodash's toNumber does and says whether it is an integer.
func jsInt(v *qs.Value) (int, bool) {
	if v.Kind != qs.String {
		return 0, false
	}
	s := strings.TrimSpace(v.Str)
	if s == "" {
		return 0, true
	}
	var f float64
	if len(s) > 2 && s[0] == '0' && strings.ContainsRune("xXbBoO", rune(s[1])) {
		base := map[byte]int{'x': 16, 'X': 16, 'b': 2, 'B': 2, 'o': 8, 'O': 8}[s[1]]
		n, err := strconv.ParseUint(s[2:], base, 64)
		if err != nil {
			return 0, false
		}
		f = float64(n)
	} else {
		for _, r := range s {
			if !strings.ContainsRune("0123456789.eE+-", r) {
				return 0, false // Infinity, NaN, words
			}
		}
		var err error
		if f, err = strconv.ParseFloat(s, 64); err != nil {
			return 0, false
		}
	}
	if f != math.Trunc(f) {
		return 0, false
	}
	const limit = 1 << 40 // keeps offset arithmetic from overflowing
	return int(max(min(f, limit), -limit)), true
}

// jsString prints a query value as a JavaScript template string does.
func jsString(v *qs.Value) string {
	switch {
	case v == nil:
		return "undefined"
	case v.Kind == qs.String:
		return v.Str
	case v.Kind == qs.Array:
		parts := make([]string, len(v.Arr))
		for i, e := range v.Arr {
			parts[i] = jsString(e)
		}
		return strings.Join(parts, ",")
	case v.Kind == qs.ObjectKind:
		return "[object Object]"
	}
	return ""
}

func boolParam(v *qs.Value, param string) (bool, error) {
	if v.Kind != qs.String {
		return false, apierror.InvalidParam(param)
	}
	switch strings.ToLower(v.Str) {
	case "true", "t", "1":
		return true, nil
	case "false", "f", "0":
		return false, nil
	}
	return false, apierror.InvalidParam(param)
}

// ---- pagination ----

func parsePagination(v *qs.Value, p *ir.Pagination, param string) error {
	if v.Kind != qs.ObjectKind {
		return apierror.InvalidParam(param)
	}
	for i, k := range v.Obj.Keys {
		sub := v.Obj.Vals[i]
		switch k {
		case "page", "pageSize", "start", "limit":
			if err := pageField(k, sub, p); err != nil {
				return apierror.InvalidParam(param + "[" + k + "]")
			}
		case "withCount":
			if sub.Kind != qs.String {
				return apierror.Validation(`Invalid withCount parameter. Expected "t","1","true","false","0","f"`)
			}
			var b bool
			switch sub.Str {
			case "true", "t", "1":
				b = true
			case "false", "f", "0":
				b = false
			default:
				return apierror.Validation(`Invalid withCount parameter. Expected "t","1","true","false","0","f"`)
			}
			p.WithCount = &b
		}
	}
	if mixed(p) {
		return apierror.Validation("Invalid pagination parameters. Expected either start/limit or page/pageSize")
	}
	return nil
}

func mixed(p *ir.Pagination) bool {
	return (p.Page != nil || p.PageSize != nil) && (p.Start != nil || p.Limit != nil)
}

// pageField reads one pagination number; the caller names the parameter in the error.
func pageField(k string, v *qs.Value, p *ir.Pagination) error {
	if v.Kind != qs.String {
		return errNotInt
	}
	n, err := parseInt(v.Str)
	if err != nil {
		// Strapi crashes on a non-integer here; the caller names the parameter instead.
		return errNotInt
	}
	switch k {
	case "page":
		p.Page = &n
	case "pageSize":
		p.PageSize = &n
	case "start":
		p.Start = &n
	case "limit":
		p.Limit = &n
	}
	return nil
}

var errNotInt = errors.New("not an integer")

func parseInt(s string) (int, error) {
	s = strings.TrimSpace(s)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, err
	}
	// Clamp absurd values so arithmetic on offsets cannot overflow.
	const max = 1 << 40
	if n > max {
		n = max
	}
	if n < -max {
		n = -max
	}
	return int(n), nil
}
