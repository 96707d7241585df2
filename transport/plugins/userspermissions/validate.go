package userspermissions

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/planner/write"
)

// checker collects yup-style field errors in the order fields are checked.
type checker struct {
	errs  []apierror.FieldError
	rules *write.Strings // the string rules' validator (planner/write/rules.go)
}

// The plugin's rules: lengths in UTF-16 units as yup counts them.
var (
	ruleMaxColumn = write.MaxLength(255) // varchar(255); Strapi answers a 500 beyond
	ruleUsername  = write.MinLength(3)
	rulePassword  = write.MinLength(6)
	// ruleRoleID is yup.strapiID() as the role of a user body takes it: any string passes
	// (Strapi's relation lookup refuses it later).
	ruleRoleID = write.StringRule{Tag: "strapiid", Type: "strapiID"}
	ruleObject = write.StringRule{Tag: "yobject", Type: "object"}

	optionalString = []write.StringRule{write.RuleString, write.RuleNoNUL}
	requiredString = []write.StringRule{write.RuleString, write.RuleRequired, write.RuleNoNUL}
)

// newRules builds the validator of the plugin's rules (planner/write's, and strapiID).
func newRules() *write.Strings {
	return write.NewStrings(write.TypeTest{Rule: ruleRoleID, Fn: func(v any) bool { _, ok := roleID(v); return ok }})
}

// first applies rules to a string in order and adds the first failure's message; it
// reports a pass.
func (c *checker) first(key, s string, rules ...write.StringRule) bool {
	return c.value([]string{key}, key, s, true, rules...)
}

// value applies rules in order to a body's value (present: the body has the key) and adds
// the first failure's message at path, after name; it reports a pass.
func (c *checker) value(path []string, name string, v any, present bool, rules ...write.StringRule) bool {
	if c.rules == nil {
		c.rules = newRules()
	}
	msg, ok := c.rules.Check(v, present, rules...)
	if !ok {
		c.addAt(path, "%s %s", name, msg)
	}
	return ok
}

func (c *checker) add(key, format string, args ...any) {
	p := []string{}
	if key != "" {
		p = []string{key}
	}
	c.addAt(p, format, args...)
}

// addAt adds an error of a nested field, its path one element per key.
func (c *checker) addAt(path []string, format string, args ...any) {
	c.errs = append(c.errs, apierror.FieldError{Path: path, Message: fmt.Sprintf(format, args...), Name: "ValidationError"})
}

// err is the ValidationError of the collected errors, nil when there are none.
func (c *checker) err() error {
	if len(c.errs) == 0 {
		return nil
	}
	return apierror.Fields(c.errs)
}

// str checks a yup string() field in strict mode: present values must be strings. It
// returns the value and whether it is a usable (present, string) value.
func (c *checker) str(body map[string]any, key string, required bool) (string, bool) {
	v, present := body[key]
	rules := optionalString
	if required {
		rules = requiredString
	}
	if !c.value([]string{key}, key, v, present, rules...) || !present {
		return "", false
	}
	return v.(string), true
}

// email checks a yup string().email() field.
func (c *checker) email(body map[string]any, key string, required bool) (string, bool) {
	s, ok := c.str(body, key, required)
	if ok && !c.first(key, s, write.RuleEmail) {
		return "", false
	}
	return s, ok
}

// min checks yup's min(n) on a string already read.
func (c *checker) min(key, s string, n int) bool {
	r := write.MinLength(n)
	switch n {
	case 3:
		r = ruleUsername
	case 6:
		r = rulePassword
	}
	return c.first(key, s, r)
}

// column checks what the database would refuse (Strapi answers those with a 500): NUL
// characters and text over varchar(255).
func (c *checker) column(key, s string) bool {
	return c.first(key, s, write.RuleNoNUL, ruleMaxColumn)
}

// password checks a new password: Strapi's minLength 6, and bcrypt's 72-byte input limit
// (Strapi silently ignores what lies beyond; Quarry refuses it, as its write path does).
func (c *checker) password(key, s string) bool {
	return c.first(key, s, rulePassword, write.RuleBcrypt, write.RuleNoNUL)
}

// noUnknown is yup's object().noUnknown(): keys outside allowed are refused.
func (c *checker) noUnknown(body map[string]any, allowed ...string) {
	ok := map[string]bool{}
	for _, a := range allowed {
		ok[a] = true
	}
	var extra []string
	for k := range body {
		if !ok[k] {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		c.add("", "this field has unspecified keys: %s", strings.Join(extra, ", "))
	}
}

// strapiID reads yup.strapiID(): a non-negative integer, or a string of digits.
func strapiID(v any) (int64, bool) {
	switch x := v.(type) {
	case float64:
		if x >= 0 && x == math.Trunc(x) && x < 1<<53 {
			return int64(x), true
		}
	case json.Number:
		n, err := strconv.ParseInt(x.String(), 10, 64)
		return n, err == nil && n >= 0
	case string:
		n, err := strconv.ParseInt(x, 10, 64)
		return n, err == nil && n >= 0 && strconv.FormatInt(n, 10) == x
	}
	return 0, false
}
