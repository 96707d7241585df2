// Package rest lowers a REST query string (qs bracket syntax, as Strapi v4 reads it) into the
// ir. It knows the shapes Strapi accepts for filters, sort, fields, populate and pagination,
// but not the schema: unknown names pass through and the planner refuses them.
package rest

import (
	"strconv"
	"strings"

	"quarry/apierror"
	"quarry/ir"
	"quarry/parser/qs"
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
	for _, k := range root.Keys {
		v := root.Map[k]
		var err error
		switch k {
		case "filters":
			q.Filters, err = parseFilters(v, "filters")
		case "sort":
			q.Sort, err = parseSort(v)
		case "fields":
			q.Fields, err = parseFields(v)
		case "populate":
			q.Populate, err = parsePopulate(v, "populate")
		case "pagination":
			err = parsePagination(v, &q.Pagination, "pagination")
		case "publicationState":
			q.PublicationState, err = parsePublicationState(v, "publicationState")
		case "locale":
			q.Locale, err = parseLocale(v)
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

func parseFilters(v *qs.Value, param string) (*ir.Filter, error) {
	if v.Kind != qs.ObjectKind {
		if v.Kind == qs.String && v.Str == "" {
			return nil, nil
		}
		return nil, apierror.InvalidParam(param)
	}
	f, err := entityLevel(v.Obj)
	if err != nil || f == nil {
		return f, err
	}
	return f, nil
}

// entityLevel parses an object whose keys are attributes or logical operators.
func entityLevel(o *qs.Object) (*ir.Filter, error) {
	and := &ir.Filter{Kind: ir.And}
	for _, k := range o.Keys {
		v := o.Map[k]
		switch {
		case k == "$and" || k == "$or":
			if v.Kind != qs.Array {
				return nil, apierror.InvalidParam(k)
			}
			node := &ir.Filter{Kind: ir.And, Param: k}
			if k == "$or" {
				node.Kind = ir.Or
			}
			for _, e := range v.Arr {
				if e.Kind != qs.ObjectKind {
					return nil, apierror.InvalidParam(k)
				}
				c, err := entityLevel(e.Obj)
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
		case k == "$not":
			if v.Kind != qs.ObjectKind {
				return nil, apierror.InvalidParam(k)
			}
			c, err := entityLevel(v.Obj)
			if err != nil {
				return nil, err
			}
			if c != nil {
				and.Children = append(and.Children, &ir.Filter{Kind: ir.Not, Children: []*ir.Filter{c}, Param: k})
			}
		case strings.HasPrefix(k, "$"):
			return nil, apierror.InvalidParam(k)
		default:
			c, err := attributeLevel(k, v)
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

// attributeLevel parses the value given for one attribute: a plain value (implicit $eq), an
// operator object, or (for relations and components) a nested entity-level object.
func attributeLevel(field string, v *qs.Value) (*ir.Filter, error) {
	switch v.Kind {
	case qs.Null, qs.String:
		return &ir.Filter{Kind: ir.Cond, Field: field, Operator: "$eq", Values: []ir.Value{value(v)}, Param: field}, nil
	case qs.Array:
		vals, err := values(v, field)
		if err != nil {
			return nil, err
		}
		return &ir.Filter{Kind: ir.Cond, Field: field, Operator: "$eq", Values: vals, Param: field}, nil
	}
	o := v.Obj
	and := &ir.Filter{Kind: ir.And}
	var nested *qs.Object
	for _, k := range o.Keys {
		if !strings.HasPrefix(k, "$") {
			if nested == nil {
				nested = &qs.Object{Map: map[string]*qs.Value{}}
			}
			nested.Keys = append(nested.Keys, k)
			nested.Map[k] = o.Map[k]
			continue
		}
		c, err := operator(field, k, o.Map[k])
		if err != nil {
			return nil, err
		}
		if c != nil {
			and.Children = append(and.Children, c)
		}
	}
	if nested != nil {
		if len(and.Children) > 0 {
			// Strapi crashes on a relation object mixing operators and attributes.
			return nil, apierror.InvalidParam(field)
		}
		inner, err := entityLevel(nested)
		if err != nil {
			return nil, err
		}
		rel := &ir.Filter{Kind: ir.Relation, Field: field, Param: field}
		if inner != nil {
			rel.Children = []*ir.Filter{inner}
		}
		return rel, nil
	}
	return and.Simplified(), nil
}

// operator parses one `$op` under an attribute.
func operator(field, op string, v *qs.Value) (*ir.Filter, error) {
	switch op {
	case "$not":
		if v.Kind != qs.ObjectKind {
			// `filters[title][$not]=x` negates an implicit equality.
			c, err := attributeLevel(field, v)
			if err != nil || c == nil {
				return c, err
			}
			return &ir.Filter{Kind: ir.Not, Children: []*ir.Filter{c}, Param: op}, nil
		}
		c, err := attributeLevel(field, v)
		if err != nil || c == nil {
			return c, err
		}
		return &ir.Filter{Kind: ir.Not, Children: []*ir.Filter{c}, Param: op}, nil
	case "$and", "$or":
		if v.Kind != qs.Array {
			return nil, apierror.InvalidParam(op)
		}
		node := &ir.Filter{Kind: ir.And, Param: op}
		if op == "$or" {
			node.Kind = ir.Or
		}
		for _, e := range v.Arr {
			c, err := attributeLevel(field, e)
			if err != nil {
				return nil, err
			}
			if c != nil {
				node.Children = append(node.Children, c)
			}
		}
		if len(node.Children) == 0 {
			return nil, nil
		}
		return node, nil
	}
	vals, err := values(v, op)
	if err != nil {
		return nil, err
	}
	return &ir.Filter{Kind: ir.Cond, Field: field, Operator: op, Values: vals, Param: op}, nil
}

func value(v *qs.Value) ir.Value {
	if v.Kind == qs.Null {
		return ir.Null
	}
	return ir.Str(v.Str)
}

// values flattens an operand: a scalar or an array of scalars. Objects are refused, since no
// operator takes one and Strapi would crash on it.
func values(v *qs.Value, param string) ([]ir.Value, error) {
	switch v.Kind {
	case qs.Null, qs.String:
		return []ir.Value{value(v)}, nil
	case qs.Array:
		out := make([]ir.Value, 0, len(v.Arr))
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

func parseSort(v *qs.Value) ([]ir.Sort, error) {
	var out []ir.Sort
	if err := sortInto(v, nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

func sortInto(v *qs.Value, prefix []string, out *[]ir.Sort) error {
	switch v.Kind {
	case qs.String:
		if prefix != nil {
			// Object form: the value is the order of the path built so far.
			desc, err := order(v.Str, strings.Join(prefix, "."))
			if err != nil {
				return err
			}
			*out = append(*out, ir.Sort{Path: prefix, Desc: desc, Param: prefix[0]})
			return nil
		}
		for _, part := range strings.Split(v.Str, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			field, ord, _ := strings.Cut(part, ":")
			desc, err := order(ord, part)
			if err != nil {
				return err
			}
			path := strings.Split(field, ".")
			*out = append(*out, ir.Sort{Path: path, Desc: desc, Param: path[0]})
		}
		return nil
	case qs.Array:
		if prefix != nil {
			return apierror.InvalidParam("sort")
		}
		for i, e := range v.Arr {
			if e.Kind != qs.String {
				// Strapi's validator refuses an object inside the sort array by its index.
				return apierror.InvalidParam(strconv.Itoa(i))
			}
			if err := sortInto(e, nil, out); err != nil {
				return err
			}
		}
		return nil
	case qs.ObjectKind:
		for _, k := range v.Obj.Keys {
			p := append(append([]string(nil), prefix...), k)
			if err := sortInto(v.Obj.Map[k], p, out); err != nil {
				return err
			}
		}
		return nil
	}
	return apierror.InvalidParam("sort")
}

func order(s, param string) (bool, error) {
	switch strings.ToLower(s) {
	case "", "asc":
		return false, nil
	case "desc":
		return true, nil
	}
	// Strapi answers a bad order with a 500; name the offending sort key instead.
	return false, apierror.Validation("Invalid order in sort parameter %s: order can only be one of asc|desc|ASC|DESC", param)
}

// ---- fields ----

func parseFields(v *qs.Value) ([]string, error) {
	switch v.Kind {
	case qs.String:
		if v.Str == "*" {
			return nil, nil
		}
		return []string{v.Str}, nil
	case qs.Array:
		out := make([]string, 0, len(v.Arr))
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

func parsePopulate(v *qs.Value, param string) (*ir.Populate, error) {
	p := &ir.Populate{}
	switch v.Kind {
	case qs.Null:
		return nil, nil
	case qs.String:
		if v.Str == "*" {
			p.All = true
			return p, nil
		}
		if v.Str == "" || v.Str == "false" {
			return nil, nil
		}
		for _, path := range strings.Split(v.Str, ",") {
			addPath(p, strings.TrimSpace(path))
		}
		return p, nil
	case qs.Array:
		for _, e := range v.Arr {
			if e.Kind != qs.String {
				return nil, apierror.InvalidParam(param)
			}
			if e.Str == "*" {
				p.All = true
				continue
			}
			for _, path := range strings.Split(e.Str, ",") {
				addPath(p, strings.TrimSpace(path))
			}
		}
		return p, nil
	}
	for _, k := range v.Obj.Keys {
		sub := v.Obj.Map[k]
		kp := param + "[" + k + "]"
		if k == "*" {
			p.All = true
			continue
		}
		switch sub.Kind {
		case qs.Null:
			continue
		case qs.String:
			if sub.Str == "false" || sub.Str == "0" || sub.Str == "" {
				continue
			}
			child(p, k)
			continue
		case qs.Array:
			return nil, apierror.InvalidParam(kp)
		}
		c := child(p, k)
		if err := populateOptions(sub.Obj, c, kp); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func child(p *ir.Populate, field string) *ir.PopulateField {
	if c := p.Find(field); c != nil {
		return c
	}
	c := &ir.PopulateField{Field: field}
	p.Children = append(p.Children, c)
	return c
}

// addPath adds a dotted path such as "seo.image": each segment populates the next level.
func addPath(p *ir.Populate, path string) {
	if path == "" {
		return
	}
	head, rest, more := strings.Cut(path, ".")
	c := child(p, head)
	if !more {
		return
	}
	if c.Populate == nil {
		c.Populate = &ir.Populate{}
	}
	if rest == "*" {
		c.Populate.All = true
		return
	}
	addPath(c.Populate, rest)
}

func populateOptions(o *qs.Object, c *ir.PopulateField, param string) error {
	for _, k := range o.Keys {
		v := o.Map[k]
		var err error
		switch k {
		case "fields":
			c.Fields, err = parseFields(v)
		case "sort":
			c.Sort, err = parseSort(v)
		case "filters":
			c.Filters, err = parseFilters(v, "filters")
		case "populate":
			c.Populate, err = parsePopulate(v, param+"[populate]")
		case "publicationState":
			c.PublicationState, err = parsePublicationState(v, param+"[publicationState]")
		case "count":
			c.Count, err = boolParam(v, param+"[count]")
		case "start", "limit", "page", "pageSize":
			if c.Pagination == nil {
				c.Pagination = &ir.Pagination{}
			}
			err = pageField(k, v, c.Pagination, param)
		case "on":
			if v.Kind != qs.ObjectKind {
				return apierror.InvalidParam(param + "[on]")
			}
			for _, uid := range v.Obj.Keys {
				sub := v.Obj.Map[uid]
				f := &ir.PopulateField{Field: c.Field}
				if sub.Kind == qs.ObjectKind {
					if err := populateOptions(sub.Obj, f, param+"[on]["+uid+"]"); err != nil {
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
	if c.Pagination != nil && mixed(c.Pagination) {
		return apierror.Pagination("Invalid pagination attributes. You cannot use page and offset pagination in the same query")
	}
	return nil
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
	for _, k := range v.Obj.Keys {
		sub := v.Obj.Map[k]
		switch k {
		case "page", "pageSize", "start", "limit":
			if err := pageField(k, sub, p, param); err != nil {
				return err
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

func pageField(k string, v *qs.Value, p *ir.Pagination, param string) error {
	name := param + "[" + k + "]"
	if v.Kind != qs.String {
		return apierror.InvalidParam(name)
	}
	n, err := parseInt(v.Str)
	if err != nil {
		// Strapi crashes on a non-integer here; name the parameter instead.
		return apierror.InvalidParam(name)
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
