package write

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-playground/validator/v10"

	"github.com/quarrycms/quarry/schemas"
)

// Attribute rules are compiled once per schema into validator/v10 tags, each mapped to the
// message yup gives for it, so that a write evaluates fixed lists instead of re-reading the
// attribute's options. A list's order is yup's order of errors: the type test first (its
// failure ends the attribute's tests), then required, then the value's tests (then
// Quarry's column limits, which Strapi leaves to the database).

// guard is the set of conditions under which a rule applies (yup skips some tests on some
// values, Strapi adds some only on create or only on published entries).
type guard uint8

const (
	notDraft       guard = 1 << iota // required and minLength: D&P drafts do not enforce them
	onCreate                         // Strapi's notNil: a create's required attribute
	onUpdate                         // Strapi's notNull: an update's
	filledOrNeeded                   // regex: yup skips "" on an optional attribute
	filled                           // email: yup skips ""
	counted                          // min items: an optional empty list passes
)

type rule struct {
	tag    string // evaluated with Validate.Var
	msg    string // yup's wording, after the path
	typ    string // yup's type test (notType) of this type: the message quotes the value, and a failure ends the list
	nan    bool   // typ: the value yup's cast gives is NaN (number)
	when   guard
	unless int  // index of a rule whose failure makes this one moot; -1 for none
	nul    bool // the NUL rule: a failing value never reaches a unique lookup
	round  bool // numbers: the rule tests the value rounded to the column (decimal)
}

// attrRules are one attribute's compiled lists.
type attrRules struct {
	// nullable: null passes every test unless the attribute is required (yup's nullable()
	// on optional attributes; lists are never nullable).
	nullable bool
	head     []rule // type and required, on the value or a sentinel (absent, null)
	body     []rule // the value's tests, on a present, non-null value
	item     []rule // repeatable components and dynamic zones: each item
	comp     []rule // dynamic zones: each item's __component
	compLax  []rule // the same when the writer accepts any component (LaxDynamicZones)
	count    []rule // repeatable components and dynamic zones: the list's length
}

// ruleSet holds one validator and the compiled rules of every attribute of a schema.
type ruleSet struct {
	v     *validator.Validate
	attrs map[*schemas.Attribute]*attrRules
	n     int // numbers the attribute-specific validations (regex, enumeration)
}

// jsSentinel stands for JavaScript's undefined (an absent key) and JSON null where the
// rules test a value: validator fails every tag on a nil interface, while yup's tests tell
// the two apart.
type jsSentinel uint8

const (
	jsUndefined jsSentinel = iota + 1
	jsNull
)

var (
	sentinelType   = reflect.TypeOf(jsUndefined)
	stringType     = reflect.TypeOf("")
	jsonNumberType = reflect.TypeOf(json.Number(""))
)

// slot is the value the rules test for a key: the sentinels for absent and null.
func slot(v any, present bool) any {
	switch {
	case !present:
		return jsUndefined
	case v == nil:
		return jsNull
	}
	return v
}

func sentinel(f reflect.Value) (jsSentinel, bool) {
	if f.Type() != sentinelType {
		return 0, false
	}
	return jsSentinel(f.Uint()), true
}

// typeTest registers a yup type test: undefined passes (yup skips it), null fails (the
// attribute is not nullable when the test runs on null).
func typeTest(v *validator.Validate, tag string, fn func(f reflect.Value) bool) {
	_ = v.RegisterValidation(tag, func(fl validator.FieldLevel) bool {
		if s, ok := sentinel(fl.Field()); ok {
			return s == jsUndefined
		}
		return fn(fl.Field())
	})
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
	rs := &ruleSet{v: newValidator(), attrs: map[*schemas.Attribute]*attrRules{}}
	if s == nil {
		return rs
	}
	var all []string
	for _, c := range s.Components {
		all = append(all, c.UID)
	}
	for _, m := range s.Models {
		for _, a := range m.Attributes {
			rs.compile(a, all)
		}
	}
	return rs
}

// newValidator builds a validator with the validations Strapi's rules need beyond
// validator's own tags (yup counts UTF-16 units, matches its own e-mail pattern, casts
// before its type tests, ...).
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

	// Strapi's required: notNil on create ("must be defined."), notNull on update.
	_ = v.RegisterValidation("ynotnil", func(fl validator.FieldLevel) bool { _, s := sentinel(fl.Field()); return !s })
	_ = v.RegisterValidation("ynotnull", func(fl validator.FieldLevel) bool {
		s, ok := sentinel(fl.Field())
		return !ok || s != jsNull
	})
	// yup's string().required(): not undefined, null or "".
	_ = v.RegisterValidation("yrequired", func(fl validator.FieldLevel) bool {
		f := fl.Field()
		if _, ok := sentinel(f); ok {
			return false
		}
		return f.Kind() != reflect.String || f.Len() > 0
	})
	// The type tests run on the value as sent and say whether yup's cast of it (the
	// walker's cast functions) gives the type.
	typeTest(v, "ystring", func(f reflect.Value) bool { return f.Type() == stringType })
	typeTest(v, "ystringish", func(f reflect.Value) bool { // enumerations: numbers and booleans become strings
		return f.Kind() == reflect.String || f.Kind() == reflect.Bool
	})
	typeTest(v, "ynumber", func(f reflect.Value) bool { return !math.IsNaN(numberValue(f)) })
	typeTest(v, "yboolean", func(f reflect.Value) bool { _, ok := boolValue(f); return ok })
	typeTest(v, "yobject", func(f reflect.Value) bool { return f.Kind() == reflect.Map })
	typeTest(v, "yarray", func(f reflect.Value) bool { return f.Kind() == reflect.Slice })
	typeTest(v, "ystrictbool", func(f reflect.Value) bool { return f.Kind() == reflect.Bool })
	_ = v.RegisterValidation("ybigint", func(fl validator.FieldLevel) bool { _, ok := bigIntValue(fl.Field()); return ok })
	_ = v.RegisterValidation("jsonnonul", func(fl validator.FieldLevel) bool { return !hasNULValue(fl.Field()) })
	return v
}

// numberValue is yupNumber on a value the validator holds, without boxing it again.
func numberValue(f reflect.Value) float64 {
	switch f.Kind() {
	case reflect.String:
		if f.Type() == jsonNumberType {
			return numberOf(json.Number(f.String()))
		}
		return yupNumberString(f.String())
	case reflect.Float64:
		return f.Float()
	case reflect.Slice:
		return yupNumber(f.Interface())
	}
	return math.NaN()
}

// boolValue is castBool on a value the validator holds.
func boolValue(f reflect.Value) (bool, bool) {
	switch f.Kind() {
	case reflect.Bool:
		return f.Bool(), true
	case reflect.String:
		if f.Type() == jsonNumberType {
			return castBoolNumber(numberOf(json.Number(f.String())))
		}
		return castBoolString(f.String())
	case reflect.Float64:
		return castBoolNumber(f.Float())
	case reflect.Slice:
		return castBool(f.Interface())
	}
	return false, false
}

// bigIntValue is bigIntOf on a value the validator holds.
func bigIntValue(f reflect.Value) (int64, bool) {
	switch f.Kind() {
	case reflect.String:
		if f.Type() == jsonNumberType {
			return bigIntNumber(f.String())
		}
		return bigIntString(f.String())
	case reflect.Float64:
		return bigIntFloat(f.Float())
	}
	return 0, false
}

// hasNULValue is hasNUL on a value the validator holds (a map or an interface element is
// taken out without a copy).
func hasNULValue(f reflect.Value) bool {
	switch f.Kind() {
	case reflect.String:
		return strings.ContainsRune(f.String(), 0)
	case reflect.Slice:
		for i := 0; i < f.Len(); i++ {
			if hasNUL(f.Index(i).Interface()) {
				return true
			}
		}
	case reflect.Map:
		return hasNUL(f.Interface())
	}
	return false
}

// compileAttrs compiles attributes outside a schema's models (built by a caller).
func compileAttrs(attrs []*schemas.Attribute) *ruleSet {
	rs := &ruleSet{v: newValidator(), attrs: map[*schemas.Attribute]*attrRules{}}
	for _, a := range attrs {
		rs.compile(a, nil)
	}
	return rs
}

func add(list *[]rule, r rule) int {
	if r.unless == 0 {
		r.unless = -1
	}
	*list = append(*list, r)
	return len(*list) - 1
}

// compile builds one attribute's lists; all lists the schema's components (a lax dynamic
// zone accepts any of them).
func (rs *ruleSet) compile(a *schemas.Attribute, all []string) {
	if _, done := rs.attrs[a]; done {
		return
	}
	ar := &attrRules{nullable: true}
	rs.attrs[a] = ar
	reg := func(fn func(string) bool) string {
		rs.n++
		tag := fmt.Sprintf("attr%d", rs.n)
		_ = rs.v.RegisterValidation(tag, func(fl validator.FieldLevel) bool { return fn(fieldString(fl)) })
		return tag
	}
	required := func(create guard) {
		if a.Required {
			add(&ar.head, rule{tag: "ynotnil", msg: "must be defined.", when: create})
			add(&ar.head, rule{tag: "ynotnull", msg: "cannot be null.", when: onUpdate | notDraft})
		}
	}
	switch a.Type {
	case schemas.Relation:
		required(onCreate | notDraft)
		return
	case schemas.Media:
		return
	case schemas.ComponentT, schemas.DynamicZone:
		if a.Type == schemas.ComponentT && !a.Repeatable {
			add(&ar.head, rule{tag: "yobject", typ: "object"})
			required(onCreate | notDraft)
			return
		}
		// Lists: never nullable, and required even on drafts.
		ar.nullable = false
		add(&ar.head, rule{tag: "yarray", typ: "array"})
		if a.Required {
			add(&ar.head, rule{tag: "ynotnil", msg: "must be defined.", when: onCreate})
		}
		add(&ar.item, rule{tag: "yobject", typ: "object"})
		if a.Min != nil && *a.Min == math.Trunc(*a.Min) {
			add(&ar.count, rule{tag: "min=" + limit(*a.Min, true), msg: "field must have at least " + jsNumberString(*a.Min) + " items", when: counted})
		}
		if a.Max != nil && *a.Max == math.Trunc(*a.Max) {
			add(&ar.count, rule{tag: "max=" + limit(*a.Max, true), msg: "field must have less than or equal to " + jsNumberString(*a.Max) + " items"})
		}
		if a.Type == schemas.DynamicZone {
			var zone []string
			for _, c := range a.Components {
				zone = append(zone, c.UID)
			}
			ar.comp = rs.zoneRules(zone)
			ar.compLax = rs.zoneRules(all)
		}
		return
	}
	switch kindOf(a.Type) {
	case kString:
		add(&ar.head, rule{tag: "ystring", typ: "string"})
		required(onCreate | notDraft)
		if a.Type != schemas.Email && a.MinLength != nil && *a.MinLength > 0 {
			add(&ar.body, rule{tag: fmt.Sprintf("yminlen=%d", *a.MinLength), msg: fmt.Sprintf("must be at least %d characters", *a.MinLength), when: notDraft})
		}
		maxAt := -1
		if a.MaxLength != nil && *a.MaxLength > 0 {
			maxAt = add(&ar.body, rule{tag: fmt.Sprintf("ymaxlen=%d", *a.MaxLength), msg: fmt.Sprintf("must be at most %d characters", *a.MaxLength)})
		}
		if a.Regex != nil {
			add(&ar.body, rule{tag: reg(a.Regex.MatchString), msg: fmt.Sprintf("must match the following: \"%s\"", jsRegexString(a.RegexSrc)), when: filledOrNeeded})
		}
		if a.Type != schemas.Text && a.Type != schemas.RichText && a.Type != schemas.Password {
			add(&ar.body, rule{tag: "varchar", msg: "must be at most 255 characters", unless: maxAt})
		}
		add(&ar.body, rule{tag: "nonul", msg: "must not contain NUL characters", nul: true})
		switch a.Type {
		case schemas.Email:
			add(&ar.body, rule{tag: "yupemail", msg: "must be a valid email", when: filled})
			add(&ar.body, rule{tag: "min=1", msg: "cannot be empty"})
		case schemas.UID:
			add(&ar.body, rule{tag: "strapiuid", msg: "must match the following: \"" + uidPatternJS + "\""})
		case schemas.Password:
			add(&ar.body, rule{tag: "maxbytes=72", msg: "must be at most 72 bytes"})
		}
	case kEnum:
		add(&ar.head, rule{tag: "ystringish", typ: "string"})
		required(onCreate | notDraft)
		allowed := map[string]bool{}
		for _, e := range a.Enum {
			allowed[e] = true
		}
		add(&ar.body, rule{tag: reg(func(s string) bool { return allowed[s] }), msg: "must be one of the following values: " + strings.Join(append(append([]string(nil), a.Enum...), ""), ", ")})
	case kNumber:
		add(&ar.head, rule{tag: "ynumber", typ: "number", nan: true})
		required(onCreate | notDraft)
		isInt := a.Type == schemas.Integer
		if isInt {
			add(&ar.body, rule{tag: "yint", msg: "must be an integer"})
		}
		minAt, maxAt := -1, -1
		if a.Min != nil {
			lim := *a.Min
			if isInt {
				lim = math.Trunc(lim)
			}
			minAt = add(&ar.body, rule{tag: "gte=" + limit(lim, isInt), msg: "must be greater than or equal to " + jsNumberString(lim)})
		}
		if a.Max != nil {
			lim := *a.Max
			if isInt {
				lim = math.Trunc(lim)
			}
			maxAt = add(&ar.body, rule{tag: "lte=" + limit(lim, isInt), msg: "must be less than or equal to " + jsNumberString(lim)})
		}
		// Column ranges (Strapi answers 500 here): integer is 32-bit, decimal is numeric(10,2).
		switch a.Type {
		case schemas.Integer:
			add(&ar.body, rule{tag: fmt.Sprintf("lte=%d", math.MaxInt32), msg: fmt.Sprintf("must be less than or equal to %d", math.MaxInt32), unless: maxAt})
			add(&ar.body, rule{tag: fmt.Sprintf("gte=%d", math.MinInt32), msg: fmt.Sprintf("must be greater than or equal to %d", math.MinInt32), unless: minAt})
		case schemas.Decimal:
			add(&ar.body, rule{tag: "lte=99999999.99", msg: "must be less than or equal to 99999999.99", unless: maxAt, round: true})
			add(&ar.body, rule{tag: "gte=-99999999.99", msg: "must be greater than or equal to -99999999.99", unless: minAt, round: true})
		default:
			add(&ar.body, rule{tag: "finite", msg: "must be a finite number"})
		}
	case kBool:
		add(&ar.head, rule{tag: "yboolean", typ: "boolean"})
		required(onCreate | notDraft)
	default:
		// Strapi's mixed() attributes: no type test of yup's; required says defined / not null.
		required(onCreate | notDraft)
		switch a.Type {
		case schemas.BigInteger:
			add(&ar.body, rule{tag: "ybigint", typ: "number"})
		case schemas.JSON, schemas.Blocks:
			add(&ar.body, rule{tag: "jsonnonul", msg: "must not contain NUL characters"})
		}
	}
}

// zoneRules are the tests of a dynamic-zone item's __component: yup's string().required()
// .oneOf(zone).
func (rs *ruleSet) zoneRules(zone []string) []rule {
	allowed := map[string]bool{}
	for _, u := range zone {
		allowed[u] = true
	}
	rs.n++
	tag := fmt.Sprintf("zone%d", rs.n)
	_ = rs.v.RegisterValidation(tag, func(fl validator.FieldLevel) bool {
		if _, ok := sentinel(fl.Field()); ok {
			return true // oneOf skips undefined
		}
		return allowed[stringValue(fl.Field())]
	})
	var list []rule
	add(&list, rule{tag: "ystringish", typ: "string"})
	add(&list, rule{tag: "yrequired", msg: "is a required field"})
	add(&list, rule{tag: tag, msg: "must be one of the following values: " + strings.Join(zone, ", ")})
	return list
}

// stringValue is the string yup's non-strict string() casts a value to (castString).
func stringValue(f reflect.Value) string {
	switch f.Kind() {
	case reflect.String:
		if f.Type() == jsonNumberType {
			return jsNumberString(numberOf(json.Number(f.String())))
		}
		return f.String()
	case reflect.Bool:
		return strconv.FormatBool(f.Bool())
	}
	return ""
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

// cond is what a write's rules depend on beyond the value.
type cond struct {
	create bool // a create (else an update)
	draft  bool // a D&P draft
}

// input is what one list of rules tests: x is the value given to the validator (a sentinel
// for absent and null), orig the value as sent (quoted by type errors).
type input struct {
	x, rounded, orig any
	s                string // the string value (guards on "")
	n                int    // a list's length (counted)
}

// of returns an attribute's lists; an attribute the schema does not list (built by a
// caller) is compiled alone.
func (rs *ruleSet) of(a *schemas.Attribute) *attrRules {
	if ar, ok := rs.attrs[a]; ok {
		return ar
	}
	return compileAttrs([]*schemas.Attribute{a}).attrs[a]
}

// run evaluates a list on one input and reports each failure with yup's message; a failed
// type test ends the list. nul says whether the NUL rule failed.
func (rs *ruleSet) run(list []rule, a *schemas.Attribute, in input, c cond, at objPath) (errs []verr, nul bool) {
	var failed uint64
	for i := range list {
		r := &list[i]
		if r.when != 0 {
			switch {
			case r.when&notDraft != 0 && c.draft,
				r.when&onCreate != 0 && !c.create,
				r.when&onUpdate != 0 && c.create,
				r.when&filledOrNeeded != 0 && in.s == "" && !a.Required,
				r.when&filled != 0 && in.s == "",
				r.when&counted != 0 && in.n == 0 && !a.Required:
				continue
			}
		}
		if r.unless >= 0 && failed&(1<<uint(r.unless)) != 0 {
			continue
		}
		x := in.x
		if r.round {
			x = in.rounded
		}
		if rs.v.Var(x, r.tag) == nil {
			continue
		}
		failed |= 1 << uint(i)
		nul = nul || r.nul
		if r.typ == "" {
			errs = append(errs, verr{path: at.str, segs: at.segs, msg: at.str + " " + r.msg})
			continue
		}
		final := in.orig
		if r.nan {
			final = math.NaN()
		}
		// yup quotes the original value too when the cast changed it.
		return append(errs, at.typeErr(r.typ, final, in.orig, r.nan && in.orig != nil)), nul
	}
	return errs, nul
}

// head runs an attribute's type test and required on the value of a key (present says
// whether the payload has it). No errors and present means the value goes on: null to the
// column, anything else to its cast and its tests.
func (rs *ruleSet) head(a *schemas.Attribute, v any, present bool, c cond, at objPath) []verr {
	ar := rs.of(a)
	if present && v == nil && ar.nullable && (!a.Required || c.draft) {
		return nil
	}
	errs, _ := rs.run(ar.head, a, input{x: slot(v, present), orig: v}, c, at)
	return errs
}

// check evaluates an attribute's value tests (the value boxed once by the caller; rounded
// is the value rounded to the column, for decimal rules). nul says whether the NUL rule
// failed.
func (rs *ruleSet) check(a *schemas.Attribute, val, rounded any, s string, draft bool, at objPath) (errs []verr, nul bool) {
	return rs.run(rs.of(a).body, a, input{x: val, rounded: rounded, orig: val, s: s}, cond{draft: draft}, at)
}

// item tests one item of a repeatable component or dynamic zone.
func (rs *ruleSet) item(a *schemas.Attribute, v any, at objPath) []verr {
	errs, _ := rs.run(rs.of(a).item, a, input{x: slot(v, true), orig: v}, cond{}, at)
	return errs
}

// component tests the __component key of a dynamic-zone item; lax accepts any component.
func (rs *ruleSet) component(a *schemas.Attribute, v any, present, lax bool, at objPath) []verr {
	list := rs.of(a).comp
	if lax {
		list = rs.of(a).compLax
	}
	errs, _ := rs.run(list, a, input{x: slot(v, present), orig: v}, cond{}, at)
	return errs
}

// count tests a list's length (list is the value as sent, a []any).
func (rs *ruleSet) count(a *schemas.Attribute, list any, n int, at objPath) []verr {
	errs, _ := rs.run(rs.of(a).count, a, input{x: list, orig: list, n: n}, cond{}, at)
	return errs
}

// StringRule is a rule of a value outside the content types (the users-permissions and
// upload bodies): a tag of the validations newValidator registers (or NewStrings is
// given), and yup's message after the field's name. Type makes it yup's type test of that
// type, whose message quotes the value; Absent makes it test an absent key too (required).
type StringRule struct {
	Tag, Msg string
	Type     string
	Absent   bool
	// Cast is yup's transform of the value before the rule tests it; changed says whether
	// it gave another value, which a type error quotes as the original.
	Cast func(v any) (cast any, changed bool)
}

// The users-permissions plugin's rules, in the words of its yup schemas.
var (
	RuleString  = StringRule{Tag: "ystring", Type: "string"}
	RuleBoolean = StringRule{Tag: "ystrictbool", Type: "boolean"} // strict: no cast
	RuleArray   = StringRule{Tag: "yarray", Type: "array"}
	RuleObject  = StringRule{Tag: "yobject", Type: "object"}
	// RuleStringish is yup's non-strict string(): numbers and booleans are strings too.
	RuleStringish = StringRule{Tag: "ystringish", Type: "string"}
	RuleRequired  = StringRule{Tag: "yrequired", Msg: "is a required field", Absent: true}
	RuleEmail     = StringRule{Tag: "yupemail", Msg: "must be a valid email"}
	RuleNoNUL     = StringRule{Tag: "nonul", Msg: "must not contain NUL characters"} // PostgreSQL refuses NUL
	RuleVarchar   = StringRule{Tag: "varchar", Msg: "must be at most 255 characters"}
	RuleBcrypt    = StringRule{Tag: "maxbytes=72", Msg: "must be at most 72 bytes"}
	RuleNotEmpty  = MinLength(1)
)

// MinLength is yup's min(n) on a string (UTF-16 length).
func MinLength(n int) StringRule {
	return StringRule{Tag: fmt.Sprintf("yminlen=%d", n), Msg: fmt.Sprintf("must be at least %d characters", n)}
}

// MaxLength is yup's max(n) on a string (UTF-16 length).
func MaxLength(n int) StringRule {
	return StringRule{Tag: fmt.Sprintf("ymaxlen=%d", n), Msg: fmt.Sprintf("must be at most %d characters", n)}
}

// TypeTest is a yup type test of the plugin's own (such as Strapi's strapiID) for
// NewStrings: fn tests a present, non-null value.
type TypeTest struct {
	Rule StringRule
	Fn   func(v any) bool
}

// Strings checks StringRules with one validator, built once by its owner.
type Strings struct{ v *validator.Validate }

// NewStrings builds the validator of the rules, with the owner's own type tests.
func NewStrings(tests ...TypeTest) *Strings {
	v := newValidator()
	for _, t := range tests {
		fn := t.Fn
		typeTest(v, t.Rule.Tag, func(f reflect.Value) bool { return fn(f.Interface()) })
	}
	return &Strings{v: v}
}

// First returns the message of the first rule s fails, in the rules' order; ok is true
// when s passes them all.
func (c *Strings) First(s string, rules ...StringRule) (msg string, ok bool) {
	return c.Check(s, true, rules...)
}

// Check tests a body's value (present says whether the body has the key) and returns the
// message of the first rule it fails, in the rules' order (the plugin's schemas stop at a
// field's first error); ok is true when it passes them all. Only type tests and Absent
// rules see an absent key; an empty string skips RuleEmail, as yup does.
func (c *Strings) Check(v any, present bool, rules ...StringRule) (msg string, ok bool) {
	return c.check(v, v, present, rules)
}

// CheckAs is Check on a present value whose original, quoted by a cast's type error, is
// orig (yup quotes an array item's original from the value the array was cast from).
func (c *Strings) CheckAs(v, orig any, rules ...StringRule) (msg string, ok bool) {
	return c.check(v, orig, true, rules)
}

func (c *Strings) check(v, orig any, present bool, rules []StringRule) (string, bool) {
	for _, r := range rules {
		if !present && r.Type == "" && !r.Absent {
			continue
		}
		if r.Tag == RuleEmail.Tag && v == "" {
			continue
		}
		final, changed := v, false
		if r.Cast != nil && present {
			final, changed = r.Cast(v)
		}
		if c.v.Var(slot(final, present), r.Tag) == nil {
			continue
		}
		if r.Type == "" {
			return r.Msg, false
		}
		msg := fmt.Sprintf("must be a `%s` type, but the final value was: `%s`", r.Type, printValue(final, true))
		// yup: the original is quoted when there is one (not null or undefined) and the cast changed it.
		if changed && orig != nil {
			return msg + fmt.Sprintf(" (cast from the value `%s`).", printValue(orig, true)), false
		}
		return msg + ".", false
	}
	return "", true
}
