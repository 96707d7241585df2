package write

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-playground/validator/v10"

	"github.com/quarrycms/quarry/schemas"
)

// Attribute rules are compiled once per schema into validator/v10 tags, each mapped to the
// message yup gives for it, so that a write evaluates a fixed list instead of re-reading the
// attribute's options. The order of a list is yup's order of errors (then Quarry's column
// limits, which Strapi leaves to the database).

// guard says when a rule applies beyond its own test (yup skips some tests on some values).
type guard uint8

const (
	always         guard = iota
	notDraft             // minLength: D&P drafts do not enforce it
	filledOrNeeded       // regex: yup skips "" on an optional attribute
	filled               // email: yup skips ""
)

type rule struct {
	tag    string // evaluated with Validate.Var
	msg    string // yup's wording, after the path
	when   guard
	unless int  // index of a rule whose failure makes this one moot; -1 for none
	nul    bool // the NUL rule: a failing value never reaches a unique lookup
	round  bool // numbers: the rule tests the value rounded to the column (decimal)
}

// ruleSet holds one validator and the compiled rules of every attribute of a schema.
type ruleSet struct {
	v     *validator.Validate
	attrs map[*schemas.Attribute][]rule
}

// rules returns the schema's compiled rules, compiling them on first use.
func (w *Writer) rules() *ruleSet {
	w.rulesOnce.Do(func() { w.ruleSet = compileRules(w.Schema) })
	return w.ruleSet
}

// Compile builds the attribute rules now (at start-up) rather than on the first write.
func (w *Writer) Compile() { w.rules() }

func fieldString(fl validator.FieldLevel) string { return fl.Field().String() }

func paramInt(fl validator.FieldLevel) int {
	n, _ := strconv.Atoi(fl.Param())
	return n
}

func compileRules(s *schemas.Schema) *ruleSet {
	var attrs []*schemas.Attribute
	if s != nil {
		for _, m := range s.Models {
			attrs = append(attrs, m.Attributes...)
		}
	}
	return compileAttrs(attrs)
}

// newValidator builds a validator with the validations Strapi's rules need beyond
// validator's own tags (yup counts UTF-16 units, matches its own e-mail pattern, ...).
func newValidator() *validator.Validate {
	v := validator.New()
	reg := func(tag string, fn func(string) bool) {
		// Registration fails only for an empty tag or nil function, neither of which happens.
		_ = v.RegisterValidation(tag, func(fl validator.FieldLevel) bool { return fn(fieldString(fl)) })
	}
	_ = v.RegisterValidation("yminlen", func(fl validator.FieldLevel) bool { return utf16Len(fieldString(fl)) >= paramInt(fl) })
	_ = v.RegisterValidation("ymaxlen", func(fl validator.FieldLevel) bool { return utf16Len(fieldString(fl)) <= paramInt(fl) })
	_ = v.RegisterValidation("maxbytes", func(fl validator.FieldLevel) bool { return len(fieldString(fl)) <= paramInt(fl) })
	reg("varchar", func(s string) bool { return utf8.RuneCountInString(s) <= 255 })
	reg("nonul", func(s string) bool { return !strings.ContainsRune(s, 0) })
	reg("yupemail", yupEmail.MatchString)
	reg("strapiuid", uidPattern.MatchString)
	_ = v.RegisterValidation("yint", func(fl validator.FieldLevel) bool {
		if fl.Field().CanInt() {
			return true
		}
		f := fl.Field().Float()
		return !math.IsInf(f, 0) && f == math.Trunc(f)
	})
	_ = v.RegisterValidation("finite", func(fl validator.FieldLevel) bool { return !math.IsInf(fl.Field().Float(), 0) })

	return v
}

func compileAttrs(attrs []*schemas.Attribute) *ruleSet {
	v := newValidator()
	reg := func(tag string, fn func(string) bool) {
		_ = v.RegisterValidation(tag, func(fl validator.FieldLevel) bool { return fn(fieldString(fl)) })
	}
	rs := &ruleSet{v: v, attrs: map[*schemas.Attribute][]rule{}}
	n := 0
	for _, a := range attrs {
		{
			if _, done := rs.attrs[a]; done {
				continue
			}
			var list []rule
			add := func(r rule) int {
				if r.unless == 0 {
					r.unless = -1
				}
				list = append(list, r)
				return len(list) - 1
			}
			switch kindOf(a.Type) {
			case kString:
				if a.Type != schemas.Email && a.MinLength != nil && *a.MinLength > 0 {
					add(rule{tag: fmt.Sprintf("yminlen=%d", *a.MinLength), msg: fmt.Sprintf("must be at least %d characters", *a.MinLength), when: notDraft})
				}
				maxAt := -1
				if a.MaxLength != nil && *a.MaxLength > 0 {
					maxAt = add(rule{tag: fmt.Sprintf("ymaxlen=%d", *a.MaxLength), msg: fmt.Sprintf("must be at most %d characters", *a.MaxLength)})
				}
				if a.Regex != nil {
					n++
					tag := fmt.Sprintf("regex%d", n)
					reg(tag, a.Regex.MatchString)
					add(rule{tag: tag, msg: fmt.Sprintf("must match the following: \"%s\"", jsRegexString(a.RegexSrc)), when: filledOrNeeded})
				}
				if a.Type != schemas.Text && a.Type != schemas.RichText && a.Type != schemas.Password {
					add(rule{tag: "varchar", msg: "must be at most 255 characters", unless: maxAt})
				}
				add(rule{tag: "nonul", msg: "must not contain NUL characters", nul: true})
				switch a.Type {
				case schemas.Email:
					add(rule{tag: "yupemail", msg: "must be a valid email", when: filled})
					add(rule{tag: "min=1", msg: "cannot be empty"})
				case schemas.UID:
					add(rule{tag: "strapiuid", msg: "must match the following: \"" + uidPatternJS + "\""})
				case schemas.Password:
					add(rule{tag: "maxbytes=72", msg: "must be at most 72 bytes"})
				}
			case kEnum:
				n++
				tag := fmt.Sprintf("enum%d", n)
				allowed := map[string]bool{}
				for _, e := range a.Enum {
					allowed[e] = true
				}
				reg(tag, func(s string) bool { return allowed[s] })
				add(rule{tag: tag, msg: "must be one of the following values: " + strings.Join(append(append([]string(nil), a.Enum...), ""), ", ")})
			case kNumber:
				isInt := a.Type == schemas.Integer
				if isInt {
					add(rule{tag: "yint", msg: "must be an integer"})
				}
				minAt, maxAt := -1, -1
				if a.Min != nil {
					lim := *a.Min
					if isInt {
						lim = math.Trunc(lim)
					}
					minAt = add(rule{tag: "gte=" + limit(lim, isInt), msg: "must be greater than or equal to " + jsNumberString(lim)})
				}
				if a.Max != nil {
					lim := *a.Max
					if isInt {
						lim = math.Trunc(lim)
					}
					maxAt = add(rule{tag: "lte=" + limit(lim, isInt), msg: "must be less than or equal to " + jsNumberString(lim)})
				}
				// Column ranges (Strapi answers 500 here): integer is 32-bit, decimal is numeric(10,2).
				switch a.Type {
				case schemas.Integer:
					add(rule{tag: fmt.Sprintf("lte=%d", math.MaxInt32), msg: fmt.Sprintf("must be less than or equal to %d", math.MaxInt32), unless: maxAt})
					add(rule{tag: fmt.Sprintf("gte=%d", math.MinInt32), msg: fmt.Sprintf("must be greater than or equal to %d", math.MinInt32), unless: minAt})
				case schemas.Decimal:
					add(rule{tag: "lte=99999999.99", msg: "must be less than or equal to 99999999.99", unless: maxAt, round: true})
					add(rule{tag: "gte=-99999999.99", msg: "must be greater than or equal to -99999999.99", unless: minAt, round: true})
				default:
					add(rule{tag: "finite", msg: "must be a finite number"})
				}
			}
			rs.attrs[a] = list
		}
	}
	return rs
}

// limit is a gte/lte parameter. An integer attribute's value reaches the validator as an
// int64 when it fits and as a float64 when it does not: a float limit has no fraction then
// ('f' format) so that both parse it; one beyond int64 is clamped (no int64 value passes it
// wrongly, and a float64 beyond is out of the column's range anyway).
func limit(lim float64, isInt bool) string {
	if !isInt {
		return strconv.FormatFloat(lim, 'g', -1, 64)
	}
	lim = math.Max(math.Min(lim, 1<<62), -(1 << 62))
	return strconv.FormatFloat(lim, 'f', -1, 64)
}

// check evaluates an attribute's rules on a value (boxed once by the caller; rounded is the
// value rounded to the column, for decimal rules) and reports each failure with yup's
// message. nul says whether the NUL rule failed.
func (rs *ruleSet) check(a *schemas.Attribute, val, rounded any, s string, draft bool, at objPath) (errs []verr, nul bool) {
	list, ok := rs.attrs[a]
	if !ok {
		// An attribute the schema does not list (built by a caller): compile it alone.
		rs = compileAttrs([]*schemas.Attribute{a})
		list = rs.attrs[a]
	}
	var failed uint64
	for i, r := range list {
		switch r.when {
		case notDraft:
			if draft {
				continue
			}
		case filledOrNeeded:
			if s == "" && !a.Required {
				continue
			}
		case filled:
			if s == "" {
				continue
			}
		}
		if r.unless >= 0 && failed&(1<<uint(r.unless)) != 0 {
			continue
		}
		x := val
		if r.round {
			x = rounded
		}
		if rs.v.Var(x, r.tag) != nil {
			failed |= 1 << uint(i)
			nul = nul || r.nul
			errs = append(errs, verr{path: at.str, segs: at.segs, msg: at.str + " " + r.msg})
		}
	}
	return errs, nul
}

// StringRule is a rule of a string outside the content types (the users-permissions
// bodies): a tag of the validations newValidator registers, and yup's message after the
// field's name.
type StringRule struct{ Tag, Msg string }

// The users-permissions plugin's string rules, in the words of its yup schemas.
var (
	RuleEmail    = StringRule{"yupemail", "must be a valid email"}
	RuleNoNUL    = StringRule{"nonul", "must not contain NUL characters"} // PostgreSQL refuses NUL
	RuleVarchar  = StringRule{"varchar", "must be at most 255 characters"}
	RuleBcrypt   = StringRule{"maxbytes=72", "must be at most 72 bytes"}
	RuleNotEmpty = MinLength(1)
)

// MinLength is yup's min(n) on a string (UTF-16 length).
func MinLength(n int) StringRule {
	return StringRule{fmt.Sprintf("yminlen=%d", n), fmt.Sprintf("must be at least %d characters", n)}
}

// MaxLength is yup's max(n) on a string (UTF-16 length).
func MaxLength(n int) StringRule {
	return StringRule{fmt.Sprintf("ymaxlen=%d", n), fmt.Sprintf("must be at most %d characters", n)}
}

// Strings checks StringRules with one validator, built once by its owner.
type Strings struct{ v *validator.Validate }

// NewStrings builds the validator of string rules.
func NewStrings() *Strings { return &Strings{v: newValidator()} }

// First returns the message of the first rule s fails, in the rules' order (the plugin's
// schemas stop at a field's first error); ok is true when s passes them all. An empty s
// skips RuleEmail, as yup does.
func (c *Strings) First(s string, rules ...StringRule) (msg string, ok bool) {
	for _, r := range rules {
		if s == "" && r.Tag == RuleEmail.Tag {
			continue
		}
		if c.v.Var(s, r.Tag) != nil {
			return r.Msg, false
		}
	}
	return "", true
}
