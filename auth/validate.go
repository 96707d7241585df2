package auth

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"

	"quarry/apierror"
	"quarry/planner/write"
)

// yupEmail is yup 0.32's e-mail pattern (case-insensitive), which Strapi validates with.
var yupEmail = regexp.MustCompile(`(?i)^((([a-z]|\d|[!#\$%&'\*\+\-\/=\?\^_` + "`" + `{\|}~]|[\x{00A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}])+(\.([a-z]|\d|[!#\$%&'\*\+\-\/=\?\^_` + "`" + `{\|}~]|[\x{00A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}])+)*)|((\x22)((((\x20|\x09)*(\x0d\x0a))?(\x20|\x09)+)?(([\x01-\x08\x0b\x0c\x0e-\x1f\x7f]|\x21|[\x23-\x5b]|[\x5d-\x7e]|[\x{00A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}])|(\\([\x01-\x09\x0b\x0c\x0d-\x7f]|[\x{00A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}]))))*(((\x20|\x09)*(\x0d\x0a))?(\x20|\x09)+)?(\x22)))@((([a-z]|\d|[\x{00A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}])|(([a-z]|\d|[\x{00A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}])([a-z]|\d|-|\.|_|~|[\x{00A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}])*([a-z]|\d|[\x{00A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}])))\.)+(([a-z]|[\x{00A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}])|(([a-z]|[\x{00A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}])([a-z]|\d|-|\.|_|~|[\x{00A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}])*([a-z]|[\x{00A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}])))$`)

// checker collects yup-style field errors in the order fields are checked.
type checker struct {
	errs []apierror.FieldError
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
	if !present {
		if required {
			c.add(key, "%s is a required field", key)
		}
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		c.add(key, "%s must be a `string` type, but the final value was: `%s`.", key, write.PrintValue(v))
		return "", false
	}
	if required && s == "" {
		c.add(key, "%s is a required field", key)
		return "", false
	}
	if strings.IndexByte(s, 0) >= 0 {
		// PostgreSQL refuses NUL characters; Strapi answers a 500 there.
		c.add(key, "%s must not contain NUL characters", key)
		return "", false
	}
	return s, true
}

// email checks a yup string().email() field.
func (c *checker) email(body map[string]any, key string, required bool) (string, bool) {
	s, ok := c.str(body, key, required)
	if ok && s != "" && !yupEmail.MatchString(s) {
		c.add(key, "%s must be a valid email", key)
		return "", false
	}
	return s, ok
}

// min checks yup's min(n) on a string already read.
func (c *checker) min(key, s string, n int) bool {
	if jsLen(s) < n {
		c.add(key, "%s must be at least %d characters", key, n)
		return false
	}
	return true
}

// column checks what the database would refuse (Strapi answers those with a 500): text over
// varchar(255) and NUL characters.
func (c *checker) column(key, s string) bool {
	if strings.IndexByte(s, 0) >= 0 {
		c.add(key, "%s must not contain NUL characters", key)
		return false
	}
	if jsLen(s) > 255 {
		c.add(key, "%s must be at most 255 characters", key)
		return false
	}
	return true
}

// password checks a new password: Strapi's minLength 6, and bcrypt's 72-byte input limit
// (Strapi silently ignores what lies beyond; Quarry refuses it, as its write path does).
func (c *checker) password(key, s string) bool {
	if !c.min(key, s, 6) {
		return false
	}
	if len(s) > 72 {
		c.add(key, "%s must be at most 72 bytes", key)
		return false
	}
	if strings.IndexByte(s, 0) >= 0 {
		c.add(key, "%s must not contain NUL characters", key)
		return false
	}
	return true
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

func jsLen(s string) int { return len(utf16.Encode([]rune(s))) }

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
