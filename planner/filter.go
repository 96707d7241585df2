package planner

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/schemas"
)

// maxLikePattern is the longest LIKE pattern a filter builds: SQLite's
// SQLITE_MAX_LIKE_PATTERN_LENGTH, applied on every database so they answer alike.
const maxLikePattern = 50000

// MaxFilterValues bounds the values of all filters of one query ($in and $notIn lists,
// $between bounds, lists given to other operators), far below every database's cap on the
// bind parameters of one statement, which a filter may be part of twice (rows and count).
const MaxFilterValues = 5000

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

// filterTree resolves the filter tree of a query or of a populated attribute on model m.
func (b *builder) filterTree(m *schemas.Model, f *ir.Filter, o origin) (plan.Expr, error) {
	b.restricted = nil
	e, err := b.filter(m, f, nil, o)
	if err == nil && b.restricted != nil {
		err = b.restricted
	}
	b.restricted = nil
	return e, err
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
	if a.Type == schemas.Relation && a.Unlinked {
		return nil, apierror.InvalidParam(name).At(o.at(path) + "[" + name + "]")
	}
	if a.Type == schemas.Relation && !b.who.CanFind(a.Target.UID) && b.restricted == nil {
		b.restricted = apierror.InvalidParam(name).At(o.at(path) + "[" + name + "]")
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
	op := ir.LookupOperator(f.Operator)
	if op == nil {
		// Strapi ignores an unknown operator and so widens the result; refuse it instead.
		return nil, apierror.InvalidParam(f.Operator).At(o.at(path) + "[" + f.Field + "][" + f.Operator + "]")
	}
	vals := f.Values
	param := f.Field
	if b.values += len(vals); b.values > MaxFilterValues {
		// Every value is a bind parameter, and each database caps them per statement
		// (SQLite 32766, PostgreSQL and MySQL 65535) with an error, not an answer.
		return nil, apierror.Validation("Invalid parameter %s: the filters of one query take at most %d values", param, MaxFilterValues)
	}
	for _, v := range vals {
		if strings.IndexByte(v.S, 0) >= 0 {
			// PostgreSQL cannot compare text with NUL characters (Strapi answers a 500 there).
			return nil, apierror.Validation("Invalid parameter %s: NUL characters are not allowed", param)
		}
	}

	switch op.Operand {
	case ir.Flag:
		c := op.Compare
		if !truthy(vals[0]) {
			c = c.Negated()
		}
		return b.cmp(cpath, attr, c, nil), nil
	case ir.ValueList:
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
		return b.cmp(cpath, attr, op.Compare, args), nil
	case ir.ValuePair:
		if len(vals) != 2 {
			return nil, apierror.Validation("Invalid parameter %s: %s takes two values", param, op.Name)
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
		return b.cmp(cpath, attr, op.Compare, args), nil
	}
	// A list given to a single-value operator means any of them (Strapi ORs them).
	if len(vals) == 1 {
		return b.single(op, t, vals[0], param, cpath, attr)
	}
	out := b.exprs.take(len(vals))
	for i, v := range vals {
		e, err := b.single(op, t, v, param, cpath, attr)
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return plan.Or(out), nil
}

// cmp is a comparison carved from the builder's slab.
func (b *builder) cmp(path []*schemas.Attribute, attr *schemas.Attribute, op ir.Comparison, args []any) *plan.Cmp {
	c := &b.cmps.take(1)[0].cmp
	*c = plan.Cmp{Path: path, Attr: attr, Op: op, Args: args}
	return c
}

// cmp1 is a comparison with one operand, held in the comparison's own slot.
func (b *builder) cmp1(path []*schemas.Attribute, attr *schemas.Attribute, op ir.Comparison, arg any) *plan.Cmp {
	s := &b.cmps.take(1)[0]
	s.arg[0] = arg
	s.cmp = plan.Cmp{Path: path, Attr: attr, Op: op, Args: s.arg[:]}
	return &s.cmp
}

// like is a LIKE comparison of the pattern pre+s+post; patterns share the builder's text
// buffer.
func (b *builder) like(path []*schemas.Attribute, attr *schemas.Attribute, t schemas.AttrType, op ir.Comparison, pre, s, post string) *plan.Cmp {
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

// single compiles a one-value operator on one operand.
func (b *builder) single(op *ir.Operator, t schemas.AttrType, v ir.Value, param string, path []*schemas.Attribute, attr *schemas.Attribute) (plan.Expr, error) {
	if !op.Cast && len(v.S)+2 > maxLikePattern {
		// SQLite refuses longer LIKE patterns (an error Strapi answers with a 500).
		return nil, apierror.Validation("Invalid parameter %s: %s takes at most %d bytes", param, op.Name, maxLikePattern-2)
	}
	if v.Kind == ir.VNull {
		if op.OnNull != "" {
			return b.cmp(path, attr, op.OnNull, nil), nil
		}
		if op.Cast {
			return nil, apierror.Validation("Invalid parameter %s: %s cannot compare with null", param, op.Name)
		}
	}
	if op.Cast {
		c, err := castFilter(t, v, param)
		if err != nil {
			return nil, err
		}
		return b.cmp1(path, attr, op.Compare, c), nil
	}
	s := v.S
	if v.Kind == ir.VNull {
		s = "null" // JavaScript's template string of null, as Strapi builds it
	}
	if op.Prefix == "" && op.Suffix == "" {
		return asText(b.cmp1(path, attr, op.Compare, s), t), nil
	}
	return b.like(path, attr, t, op.Compare, op.Prefix, s, op.Suffix), nil
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

// search is Strapi's _q: one term tested against the id and every string attribute, and
// against the numeric ones too when the term reads as a number (lodash's toNumber), each as
// text containing it. Strapi escapes *, % and backslash in the term but leaves _ a
// wildcard, and so does this. Private attributes and passwords, which Strapi searches too,
// are left out: a search would let a caller probe what it may not read.
func (b *builder) search(m *schemas.Model, term string) (plan.Expr, error) {
	if strings.IndexByte(term, 0) >= 0 {
		return nil, apierror.InvalidParam("_q") // PostgreSQL cannot compare NUL characters
	}
	var esc strings.Builder
	esc.WriteByte('%')
	for _, r := range term {
		if r == '*' || r == '%' || r == '\\' {
			esc.WriteByte('\\')
		}
		esc.WriteRune(r)
	}
	esc.WriteByte('%')
	pattern := esc.String()
	numeric := isJSNumber(term)
	or := plan.Or{b.cmp1(nil, nil, ir.CmpSearch, pattern)}
	for _, a := range m.Attributes {
		if !a.IsScalar() || a.Hidden() {
			continue
		}
		switch a.Type {
		case schemas.String, schemas.Text, schemas.UID, schemas.Email, schemas.Enumeration, schemas.RichText:
		case schemas.Integer, schemas.BigInteger, schemas.Decimal, schemas.Float:
			if !numeric {
				continue
			}
		default:
			continue
		}
		or = append(or, b.cmp1(nil, a, ir.CmpSearch, pattern))
	}
	return or, nil
}

// isJSNumber says whether lodash's toNumber reads s as a number (not NaN): blank is 0, and
// otherwise what JavaScript's Number reads.
func isJSNumber(s string) bool {
	s = strings.TrimSpace(s)
	return s == "" || !math.IsNaN(JSNumber(s))
}

var jsDecimal = regexp.MustCompile(`^[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)$`)

// JSNumber is JavaScript's Number(string) for a string without white space: NaN for what
// it does not read as a number (Go's ParseFloat also reads "inf", "nan", hex floats and
// underscores, which JavaScript does not).
func JSNumber(s string) float64 {
	switch s {
	case "Infinity", "+Infinity":
		return math.Inf(1)
	case "-Infinity":
		return math.Inf(-1)
	}
	if len(s) > 2 && s[0] == '0' {
		base := 0
		switch s[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		}
		if base != 0 {
			digits := s[2:]
			n, ok := new(big.Int).SetString(digits, base)
			if !ok || digits[0] == '+' || digits[0] == '-' {
				return math.NaN()
			}
			f, _ := new(big.Float).SetInt(n).Float64()
			return f
		}
	}
	if !jsDecimal.MatchString(s) {
		return math.NaN()
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return math.NaN()
	}
	return f
}
