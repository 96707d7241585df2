package planner

import (
	"errors"
	"fmt"
	"strings"

	"quarry/apierror"
	"quarry/ir"
	"quarry/schemas"
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

// filter resolves a filter tree on model m reached through path.
func (b *builder) filter(m *schemas.Model, f *ir.Filter, path []*schemas.Attribute, at string) (Expr, error) {
	switch f.Kind {
	case ir.And, ir.Or, ir.Not:
		out, err := b.filters(m, f.Children, path, at)
		if err != nil || len(out) == 0 {
			return nil, err
		}
		var e Expr = And(out)
		if len(out) == 1 {
			e = out[0]
		} else if f.Kind == ir.Or {
			e = Or(out)
		}
		if f.Kind == ir.Not {
			return Not{e}, nil
		}
		return e, nil
	case ir.Relation:
		a, err := b.traversable(m, f.Field, at)
		if err != nil {
			return nil, err
		}
		sub := append(append([]*schemas.Attribute(nil), path...), a)
		out, err := b.filters(target(a), f.Children, sub, at+"["+f.Field+"]")
		if err != nil || len(out) == 0 {
			return nil, err
		}
		if len(out) == 1 {
			return out[0], nil
		}
		return And(out), nil
	}
	return b.cond(m, f, path, at)
}

// filters resolves sibling filters, dropping those that turn out empty.
func (b *builder) filters(m *schemas.Model, list []*ir.Filter, path []*schemas.Attribute, at string) ([]Expr, error) {
	var out []Expr
	for _, c := range list {
		e, err := b.filter(m, c, path, at)
		if err != nil {
			return nil, err
		}
		if e != nil {
			out = append(out, e)
		}
	}
	return out, nil
}

// traversable checks that a filter may go through attribute name of m.
func (b *builder) traversable(m *schemas.Model, name, at string) (*schemas.Attribute, error) {
	a, ok := m.Attr(name)
	if !ok || a.Hidden() || a.Type == schemas.DynamicZone || a.IsScalar() {
		return nil, apierror.InvalidParam(name).At(at + "[" + name + "]")
	}
	if a.Type == schemas.Relation && !b.who.CanFind(a.Target.UID) {
		return nil, apierror.InvalidParam(name).At(at + "[" + name + "]")
	}
	return a, nil
}

func (b *builder) cond(m *schemas.Model, f *ir.Filter, path []*schemas.Attribute, at string) (Expr, error) {
	var attr *schemas.Attribute
	t := schemas.Integer // the id's type
	if f.Field != "id" {
		a, ok := m.Attr(f.Field)
		if !ok || a.Hidden() || a.Type == schemas.DynamicZone {
			return nil, apierror.InvalidParam(f.Field).At(at + "[" + f.Field + "]")
		}
		if !a.IsScalar() {
			// An operator on a relation compares the related entry's id.
			ra, err := b.traversable(m, f.Field, at)
			if err != nil {
				return nil, err
			}
			path = append(append([]*schemas.Attribute(nil), path...), ra)
		} else {
			attr, t = a, a.Type
		}
	}
	spec, ok := operators[f.Operator]
	if !ok {
		// Strapi ignores an unknown operator and so widens the result; refuse it instead.
		return nil, apierror.InvalidParam(f.Operator).At(at + "[" + f.Field + "][" + f.Operator + "]")
	}
	vals := f.Values
	param := f.Field
	for _, v := range vals {
		if strings.IndexByte(v.S, 0) >= 0 {
			// PostgreSQL cannot compare text with NUL characters (Strapi answers a 500 there).
			return nil, apierror.Validation("Invalid parameter %s: NUL characters are not allowed", param)
		}
	}
	mk := func(op string, args ...any) *Cmp { return &Cmp{Path: path, Attr: attr, Op: op, Args: args} }

	switch f.Operator {
	case "$null", "$notNull":
		isNull := truthy(vals[0])
		if f.Operator == "$notNull" {
			isNull = !isNull
		}
		if isNull {
			return mk("null"), nil
		}
		return mk("notNull"), nil
	case "$in", "$notIn":
		args := make([]any, 0, len(vals))
		for _, v := range vals {
			c, err := castFilter(t, v, param)
			if err != nil {
				return nil, err
			}
			args = append(args, c)
		}
		if f.Operator == "$in" {
			return mk("in", args...), nil
		}
		return mk("notIn", args...), nil
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
		return mk("between", lo, hi), nil
	}
	_ = spec
	// A list given to a single-value operator means any of them (Strapi ORs them).
	var out []Expr
	for _, v := range vals {
		e, err := b.single(f.Operator, t, v, param, mk)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	if len(out) == 1 {
		return out[0], nil
	}
	return Or(out), nil
}

func (b *builder) single(op string, t schemas.AttrType, v ir.Value, param string, mk func(string, ...any) *Cmp) (Expr, error) {
	text := func(c *Cmp) *Cmp {
		c.Text = !isStringType(t) || c.Attr == nil
		return c
	}
	switch op {
	case "$eqi", "$nei", "$contains", "$notContains", "$containsi", "$notContainsi",
		"$startsWith", "$endsWith", "$startsWithi", "$endsWithi":
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
				return mk("null"), nil
			case "$ne":
				return mk("notNull"), nil
			}
			return nil, apierror.Validation("Invalid parameter %s: %s cannot compare with null", param, op)
		}
		c, err := castFilter(t, v, param)
		if err != nil {
			return nil, err
		}
		return mk(op[1:], c), nil
	case "$eqi", "$nei":
		if v.Kind == ir.VNull {
			if op == "$eqi" {
				return mk("null"), nil
			}
			return mk("notNull"), nil
		}
		if op == "$eqi" {
			return text(mk("ilike", v.S)), nil
		}
		return text(mk("notIlike", v.S)), nil
	}
	s := v.S
	if v.Kind == ir.VNull {
		s = "null" // JavaScript's template string of null, as Strapi builds it
	}
	switch op {
	case "$contains":
		return text(mk("like", "%"+s+"%")), nil
	case "$notContains":
		return text(mk("notLike", "%"+s+"%")), nil
	case "$containsi":
		return text(mk("ilike", "%"+s+"%")), nil
	case "$notContainsi":
		return text(mk("notIlike", "%"+s+"%")), nil
	case "$startsWith":
		return text(mk("like", s+"%")), nil
	case "$endsWith":
		return text(mk("like", "%"+s)), nil
	case "$startsWithi":
		return text(mk("ilike", s+"%")), nil
	case "$endsWithi":
		return text(mk("ilike", "%"+s)), nil
	}
	return nil, apierror.InvalidParam(op)
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
