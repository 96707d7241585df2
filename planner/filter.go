package planner

import (
	"errors"
	"fmt"
	"strings"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/schemas"
)

// operators maps each filter operator to whether its value is cast to the column type and
// whether it takes a list.
var operators = map[string]struct{ cast, list bool }{
	"$eq": {true, false}, "$ne": {true, false}, "$lt": {true, false}, "$lte": {true, false},
	"$gt": {true, false}, "$gte": {true, false}, "$in": {true, true}, "$notIn": {true, true},
	"$between": {true, true}, "$null": {false, false}, "$notNull": {false, false},
	"$eqi": {false, false}, "$nei": {false, false},
	"$contains": {false, false}, "$notContains": {false, false},
	"$containsi": {false, false}, "$notContainsi": {false, false},
	"$startsWith": {false, false}, "$endsWith": {false, false},
	"$startsWithi": {false, false}, "$endsWithi": {false, false},
}

// maxLikePattern is the longest LIKE pattern a filter builds: SQLite's
// SQLITE_MAX_LIKE_PATTERN_LENGTH, applied on every database so they answer alike.
const maxLikePattern = 50000

// origin is where a filter tree sits in the query, for error messages only. Errors name the
// parameter from it and the relations the filter went through, which are the path's attributes
// under the names the query used; building the name on the error path alone keeps string
// concatenations out of every request.
type origin struct {
	populate bool   // the filters of a populated attribute rather than the query's own
	field    string // that populated attribute, as the query named it
}

// at names the parameter of filters reached through path, e.g. filters[author][mentor].
func (o origin) at(path []*schemas.Attribute) string {
	s := "filters"
	if o.populate {
		s = "populate[" + o.field + "][filters]"
	}
	for _, a := range path {
		s += "[" + a.Name + "]"
	}
	return s
}

// filter resolves a filter tree on model m reached through path.
func (b *builder) filter(m *schemas.Model, f *ir.Filter, path []*schemas.Attribute, o origin) (plan.Expr, error) {
	switch f.Kind {
	case ir.And, ir.Or, ir.Not:
		out, err := b.filters(m, f.Children, path, o)
		if err != nil || len(out) == 0 {
			return nil, err
		}
		var e plan.Expr
		switch {
		case len(out) == 1:
			e = out[0]
		case f.Kind == ir.Or:
			e = plan.Or(out)
		default:
			e = plan.And(out)
		}
		if f.Kind == ir.Not {
			return plan.Not{E: e}, nil
		}
		return e, nil
	case ir.Relation:
		a, err := b.traversable(m, f.Field, path, o)
		if err != nil {
			return nil, err
		}
		out, err := b.filters(target(a), f.Children, b.extend(path, a), o)
		if err != nil || len(out) == 0 {
			return nil, err
		}
		if len(out) == 1 {
			return out[0], nil
		}
		return plan.And(out), nil
	}
	return b.cond(m, f, path, o)
}

// extend is path followed by a, in a slice of its own: sibling filters share path.
func (b *builder) extend(path []*schemas.Attribute, a *schemas.Attribute) []*schemas.Attribute {
	sub := b.attrs.take(len(path) + 1)
	copy(sub, path)
	sub[len(path)] = a
	return sub
}

// filters resolves sibling filters, dropping those that turn out empty.
func (b *builder) filters(m *schemas.Model, list []*ir.Filter, path []*schemas.Attribute, o origin) ([]plan.Expr, error) {
	out := b.exprs.take(len(list))[:0]
	for _, c := range list {
		e, err := b.filter(m, c, path, o)
		if err != nil {
			return nil, err
		}
		if e != nil {
			out = append(out, e)
		}
	}
	return out[:len(out):len(out)], nil
}

// traversable checks that a filter may go through attribute name of m.
func (b *builder) traversable(m *schemas.Model, name string, path []*schemas.Attribute, o origin) (*schemas.Attribute, error) {
	a, ok := m.Attr(name)
	if !ok || b.hidden(a) || a.Type == schemas.DynamicZone || a.IsScalar() {
		return nil, apierror.InvalidParam(name).At(o.at(path) + "[" + name + "]")
	}
	// Strapi ignores a filter through an unlinked mappedBy relation, which widens the result.
	if a.Type == schemas.Relation && (a.Unlinked || !b.who.CanFind(a.Target.UID)) {
		return nil, apierror.InvalidParam(name).At(o.at(path) + "[" + name + "]")
	}
	return a, nil
}

func (b *builder) cond(m *schemas.Model, f *ir.Filter, path []*schemas.Attribute, o origin) (plan.Expr, error) {
	var attr *schemas.Attribute
	t := schemas.Integer // the id's type
	cpath := path        // the comparison's; path stays the filter's own, which errors name
	if f.Field != "id" {
		a, ok := m.Attr(f.Field)
		if !ok || b.hidden(a) || a.Type == schemas.DynamicZone {
			return nil, apierror.InvalidParam(f.Field).At(o.at(path) + "[" + f.Field + "]")
		}
		if !a.IsScalar() {
			// An operator on a relation compares the related entry's id.
			ra, err := b.traversable(m, f.Field, path, o)
			if err != nil {
				return nil, err
			}
			cpath = b.extend(path, ra)
		} else {
			attr, t = a, a.Type
		}
	}
	if _, ok := operators[f.Operator]; !ok {
		// Strapi ignores an unknown operator and so widens the result; refuse it instead.
		return nil, apierror.InvalidParam(f.Operator).At(o.at(path) + "[" + f.Field + "][" + f.Operator + "]")
	}
	vals := f.Values
	param := f.Field
	for _, v := range vals {
		if strings.IndexByte(v.S, 0) >= 0 {
			// PostgreSQL cannot compare text with NUL characters (Strapi answers a 500 there).
			return nil, apierror.Validation("Invalid parameter %s: NUL characters are not allowed", param)
		}
	}

	switch f.Operator {
	case "$null", "$notNull":
		isNull := truthy(vals[0])
		if f.Operator == "$notNull" {
			isNull = !isNull
		}
		if isNull {
			return b.cmp(cpath, attr, "null", nil), nil
		}
		return b.cmp(cpath, attr, "notNull", nil), nil
	case "$in", "$notIn":
		args := b.args.take(len(vals))
		if args == nil {
			args = []any{} // an empty list, still not a missing one
		}
		for i, v := range vals {
			c, err := castFilter(t, v, param)
			if err != nil {
				return nil, err
			}
			args[i] = c
		}
		if f.Operator == "$in" {
			return b.cmp(cpath, attr, "in", args), nil
		}
		return b.cmp(cpath, attr, "notIn", args), nil
	case "$between":
		if len(vals) != 2 {
			return nil, apierror.Validation("Invalid parameter %s: $between takes two values", param)
		}
		lo, err := castFilter(t, vals[0], param)
		if err != nil {
			return nil, err
		}
		hi, err := castFilter(t, vals[1], param)
		if err != nil {
			return nil, err
		}
		args := b.args.take(2)
		args[0], args[1] = lo, hi
		return b.cmp(cpath, attr, "between", args), nil
	}
	// A list given to a single-value operator means any of them (Strapi ORs them).
	if len(vals) == 1 {
		return b.single(f.Operator, t, vals[0], param, cpath, attr)
	}
	out := b.exprs.take(len(vals))
	for i, v := range vals {
		e, err := b.single(f.Operator, t, v, param, cpath, attr)
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return plan.Or(out), nil
}

// cmp is a comparison carved from the builder's slab.
func (b *builder) cmp(path []*schemas.Attribute, attr *schemas.Attribute, op string, args []any) *plan.Cmp {
	c := &b.cmps.take(1)[0].cmp
	*c = plan.Cmp{Path: path, Attr: attr, Op: op, Args: args}
	return c
}

// cmp1 is a comparison with one operand, held in the comparison's own slot.
func (b *builder) cmp1(path []*schemas.Attribute, attr *schemas.Attribute, op string, arg any) *plan.Cmp {
	s := &b.cmps.take(1)[0]
	s.arg[0] = arg
	s.cmp = plan.Cmp{Path: path, Attr: attr, Op: op, Args: s.arg[:]}
	return &s.cmp
}

// like is a LIKE comparison of the pattern pre+s+post; patterns share the builder's text
// buffer.
func (b *builder) like(path []*schemas.Attribute, attr *schemas.Attribute, t schemas.AttrType, op, pre, s, post string) *plan.Cmp {
	start := b.text.Len()
	b.text.WriteString(pre)
	b.text.WriteString(s)
	b.text.WriteString(post)
	return asText(b.cmp1(path, attr, op, b.text.String()[start:]), t)
}

// asText marks c as comparing its column as text when the column is not a string.
func asText(c *plan.Cmp, t schemas.AttrType) *plan.Cmp {
	c.Text = !isStringType(t) || c.Attr == nil
	return c
}

func (b *builder) single(op string, t schemas.AttrType, v ir.Value, param string, path []*schemas.Attribute, attr *schemas.Attribute) (plan.Expr, error) {
	if likeOperator(op) || op == "$eqi" || op == "$nei" {
		if len(v.S)+2 > maxLikePattern {
			// SQLite refuses longer LIKE patterns (an error Strapi answers with a 500).
			return nil, apierror.Validation("Invalid parameter %s: %s takes at most %d bytes", param, op, maxLikePattern-2)
		}
	}
	switch op {
	case "$eq", "$ne", "$lt", "$lte", "$gt", "$gte":
		if v.Kind == ir.VNull {
			switch op {
			case "$eq":
				return b.cmp(path, attr, "null", nil), nil
			case "$ne":
				return b.cmp(path, attr, "notNull", nil), nil
			}
			return nil, apierror.Validation("Invalid parameter %s: %s cannot compare with null", param, op)
		}
		c, err := castFilter(t, v, param)
		if err != nil {
			return nil, err
		}
		return b.cmp1(path, attr, op[1:], c), nil
	case "$eqi", "$nei":
		if v.Kind == ir.VNull {
			if op == "$eqi" {
				return b.cmp(path, attr, "null", nil), nil
			}
			return b.cmp(path, attr, "notNull", nil), nil
		}
		if op == "$eqi" {
			return asText(b.cmp1(path, attr, "ilike", v.S), t), nil
		}
		return asText(b.cmp1(path, attr, "notIlike", v.S), t), nil
	}
	s := v.S
	if v.Kind == ir.VNull {
		s = "null" // JavaScript's template string of null, as Strapi builds it
	}
	switch op {
	case "$contains":
		return b.like(path, attr, t, "like", "%", s, "%"), nil
	case "$notContains":
		return b.like(path, attr, t, "notLike", "%", s, "%"), nil
	case "$containsi":
		return b.like(path, attr, t, "ilike", "%", s, "%"), nil
	case "$notContainsi":
		return b.like(path, attr, t, "notIlike", "%", s, "%"), nil
	case "$startsWith":
		return b.like(path, attr, t, "like", "", s, "%"), nil
	case "$endsWith":
		return b.like(path, attr, t, "like", "%", s, ""), nil
	case "$startsWithi":
		return b.like(path, attr, t, "ilike", "", s, "%"), nil
	case "$endsWithi":
		return b.like(path, attr, t, "ilike", "%", s, ""), nil
	}
	return nil, apierror.InvalidParam(op)
}

// likeOperator reports whether op builds a LIKE pattern around its operand.
func likeOperator(op string) bool {
	switch op {
	case "$contains", "$notContains", "$containsi", "$notContainsi",
		"$startsWith", "$endsWith", "$startsWithi", "$endsWithi":
		return true
	}
	return false
}

func isStringType(t schemas.AttrType) bool {
	switch t {
	case schemas.String, schemas.Text, schemas.RichText, schemas.Enumeration, schemas.Email, schemas.UID, schemas.Password:
		return true
	}
	return false
}

// castFilter casts a filter operand, turning a type mismatch into a 400 naming the field
// (Strapi answers some of these with a 500 or compares a number column with a string).
func castFilter(t schemas.AttrType, v ir.Value, param string) (any, error) {
	c, err := CastValue(t, v)
	if err == nil {
		return c, nil
	}
	var ae *apierror.Error
	if errors.As(err, &ae) {
		return nil, ae
	}
	return nil, apierror.Validation("Invalid parameter %s: %s is not a valid %s", param, quote(v), t)
}

func quote(v ir.Value) string {
	if v.Kind == ir.VNull {
		return "null"
	}
	return fmt.Sprintf("%q", v.S)
}

// truthy reads $null's operand: true/t/1 and false/f/0, else JavaScript truthiness.
func truthy(v ir.Value) bool {
	switch v.Kind {
	case ir.VNull:
		return false
	case ir.VBool:
		return v.S == "true"
	}
	switch v.S {
	case "true", "t", "1":
		return true
	case "false", "f", "0", "":
		return false
	}
	return true
}
