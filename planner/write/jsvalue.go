package write

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/quarrycms/quarry/ir/jsonw"
	"github.com/quarrycms/quarry/planner"
)

// This file mirrors the few JavaScript and yup conversions whose output reaches clients:
// number formatting, String(), Number(), parseFloat() and yup's printValue, which renders
// the values quoted in type errors.

// jsNumberString formats f as JavaScript's Number.prototype.toString does.
func jsNumberString(f float64) string { return jsonw.FormatNumber(f) }

// printNumber is yup's rendering of a number: like toString, but -0 stays visible.
func printNumber(f float64) string {
	if f == 0 && math.Signbit(f) {
		return "-0"
	}
	return jsNumberString(f)
}

// numberOf parses a JSON number the way JSON.parse does (out of range → ±Infinity).
func numberOf(n json.Number) float64 {
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return math.NaN()
	}
	return f
}

// printSimple is yup's printSimpleValue: scalars render directly, objects and arrays do not.
func printSimple(v any, quote bool) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "null", true
	case bool:
		return strconv.FormatBool(x), true
	case json.Number:
		return printNumber(numberOf(x)), true
	case float64:
		return printNumber(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case string:
		if quote {
			return `"` + x + `"`, true
		}
		return x, true
	}
	return "", false
}

// printValue is yup's printValue: scalars as above, objects and arrays as
// JSON.stringify(value, replacer, 2) where the replacer turns every nested scalar into its
// printed string.
func printValue(v any, quote bool) string {
	if s, ok := printSimple(v, quote); ok {
		return s
	}
	var b strings.Builder
	stringifyPretty(&b, v, quote, "")
	return b.String()
}

// PrintValue renders a value as yup's type errors quote it (printValue(value, true)), for
// the other validators that word their errors as Strapi's yup schemas do.
func PrintValue(v any) string { return printValue(v, true) }

func stringifyPretty(b *strings.Builder, v any, quote bool, indent string) {
	inner := indent + "  "
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			b.WriteString("{}")
			return
		}
		// Go maps do not keep the client's key order; keys come out sorted.
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteString("{\n")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(inner)
			b.WriteString(jsQuote(k))
			b.WriteString(": ")
			writePrinted(b, x[k], quote, inner)
		}
		b.WriteString("\n" + indent + "}")
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range x {
			if i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(inner)
			writePrinted(b, e, quote, inner)
		}
		b.WriteString("\n" + indent + "]")
	default:
		b.WriteString("null")
	}
}

func writePrinted(b *strings.Builder, v any, quote bool, indent string) {
	if s, ok := printSimple(v, quote); ok {
		b.WriteString(jsQuote(s))
		return
	}
	stringifyPretty(b, v, quote, indent)
}

// jsQuote renders a string as JSON.stringify does (no HTML escaping, lower-case \u escapes).
func jsQuote(s string) string { return jsonw.Quote(s) }

// jsStringifyCompact renders a decoded JSON value as JSON.stringify(value) would.
func jsStringifyCompact(v any) string {
	var b strings.Builder
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case nil:
			b.WriteString("null")
		case bool:
			b.WriteString(strconv.FormatBool(x))
		case json.Number:
			f := numberOf(x)
			if math.IsNaN(f) || math.IsInf(f, 0) {
				b.WriteString("null")
			} else {
				b.WriteString(jsNumberString(f))
			}
		case string:
			b.WriteString(jsQuote(x))
		case []any:
			b.WriteByte('[')
			for i, e := range x {
				if i > 0 {
					b.WriteByte(',')
				}
				walk(e)
			}
			b.WriteByte(']')
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			b.WriteByte('{')
			for i, k := range keys {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(jsQuote(k))
				b.WriteByte(':')
				walk(x[k])
			}
			b.WriteByte('}')
		default:
			b.WriteString("null")
		}
	}
	walk(v)
	return b.String()
}

// JSString is JavaScript's String(value) for a decoded JSON value (numbers as
// json.Number): what a form field holds when the project's code puts a value there.
func JSString(v any) string { return jsString(v) }

// jsString is JavaScript's String(value) for decoded JSON values.
func jsString(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case json.Number:
		return jsNumberString(numberOf(x))
	case string:
		return x
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			if e != nil {
				parts[i] = jsString(e)
			}
		}
		return strings.Join(parts, ",")
	}
	return "[object Object]"
}

// jsTruthy is JavaScript truthiness for decoded JSON values.
func jsTruthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case json.Number:
		f := numberOf(x)
		return f != 0 && !math.IsNaN(f)
	case string:
		return x != ""
	}
	return true
}

// isJSSpace reports whether r is matched by JavaScript's \s.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

var (
	jsFloatPfx = regexp.MustCompile(`^[+-]?(?:Infinity|\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)`)
)

// jsParseFloat is JavaScript's parseFloat(String(value)).
func jsParseFloat(s string) float64 {
	s = strings.TrimLeftFunc(s, isJSSpace)
	m := jsFloatPfx.FindString(s)
	if m == "" {
		return math.NaN()
	}
	switch strings.TrimLeft(m, "+-") {
	case "Infinity":
		if m[0] == '-' {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	return planner.JSNumber(m)
}

// yupNumber is the cast of yup.number(): it returns NaN for what is not a number.
func yupNumber(v any) float64 {
	switch x := v.(type) {
	case json.Number:
		return numberOf(x)
	case float64:
		return x
	case string:
		return yupNumberString(x)
	case []any:
		return jsParseFloat(jsString(x))
	}
	return math.NaN()
}

// yupNumberString is yup.number()'s cast of a string: white space anywhere is dropped.
func yupNumberString(x string) float64 {
	s := x
	if strings.IndexFunc(x, isJSSpace) >= 0 {
		s = strings.Map(func(r rune) rune {
			if isJSSpace(r) {
				return -1
			}
			return r
		}, x)
	}
	if s == "" {
		return math.NaN()
	}
	return planner.JSNumber(s)
}

// castBool is the cast of Strapi's boolean attributes: booleans, and values whose String()
// is "true", "1", "false" or "0" in any case.
func castBool(v any) (bool, bool) {
	switch x := v.(type) {
	case bool:
		return x, true
	case json.Number:
		return castBoolNumber(numberOf(x))
	case float64:
		return castBoolNumber(x)
	case string:
		return castBoolString(x)
	case []any:
		return castBoolString(jsString(x))
	}
	return false, false
}

// castBoolNumber: String() of a number is "1" or "0" only for 1, 0 and -0.
func castBoolNumber(f float64) (bool, bool) {
	switch f {
	case 1:
		return true, true
	case 0:
		return false, true
	}
	return false, false
}

func castBoolString(s string) (bool, bool) {
	switch strings.ToLower(s) {
	case "true", "1":
		return true, true
	case "false", "0":
		return false, true
	}
	return false, false
}

// bigIntOf is the cast of biginteger attributes: integral numbers and integer strings
// within int64.
func bigIntOf(v any) (int64, bool) {
	switch x := v.(type) {
	case json.Number:
		return bigIntNumber(string(x))
	case float64:
		return bigIntFloat(x)
	case string:
		return bigIntString(x)
	}
	return 0, false
}

func bigIntNumber(s string) (int64, bool) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, true
	}
	return bigIntFloat(numberOf(json.Number(s)))
}

func bigIntFloat(f float64) (int64, bool) {
	if f == math.Trunc(f) && math.Abs(f) < 1<<63 {
		return int64(f), true
	}
	return 0, false
}

func bigIntString(s string) (int64, bool) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return n, err == nil
}

// utf16Len is a string's JavaScript length.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r > 0xffff {
			n++
		}
	}
	return n
}

// jsRegexString renders a pattern as JavaScript prints new RegExp(source).
func jsRegexString(src string) string {
	var b strings.Builder
	b.WriteByte('/')
	escaped, inClass := false, false
	for _, r := range src {
		switch {
		case escaped:
			escaped = false
		case r == '\\':
			escaped = true
		case r == '[':
			inClass = true
		case r == ']':
			inClass = false
		case r == '/' && !inClass:
			b.WriteByte('\\')
		case r == '\n':
			b.WriteString(`\n`)
			continue
		}
		b.WriteRune(r)
	}
	b.WriteByte('/')
	return b.String()
}

// roundDecimal rounds to two decimals, half away from zero on the decimal text of f, as
// PostgreSQL's numeric(10,2) does.
func roundDecimal(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return f
	}
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(f, 'f', -1, 64))
	if !ok {
		return f
	}
	r.Mul(r, big.NewRat(100, 1))
	num, den := new(big.Int).Set(r.Num()), r.Denom()
	neg := num.Sign() < 0
	num.Abs(num)
	q, rem := new(big.Int).QuoRem(num, den, new(big.Int))
	if new(big.Int).Mul(rem, big.NewInt(2)).Cmp(den) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if neg {
		q.Neg(q)
	}
	out, _ := new(big.Rat).SetFrac(q, big.NewInt(100)).Float64()
	return out
}

// yupEmail is yup 0.32's e-mail pattern (case-insensitive).
var yupEmail = regexp.MustCompile(`(?i)^((([a-z]|\d|[!#\$%&'\*\+\-\/=\?\^_` + "`" + `{\|}~]|[\x{00A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}])+(\.([a-z]|\d|[!#\$%&'\*\+\-\/=\?\^_` + "`" + `{\|}~]|[\x{00A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}])+)*)|((\x22)((((\x20|\x09)*(\x0d\x0a))?(\x20|\x09)+)?(([\x01-\x08\x0b\x0c\x0e-\x1f\x7f]|\x21|[\x23-\x5b]|[\x5d-\x7e]|[\x{00A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}])|(\\([\x01-\x09\x0b\x0c\x0d-\x7f]|[\x{00A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}]))))*(((\x20|\x09)*(\x0d\x0a))?(\x20|\x09)+)?(\x22)))@((([a-z]|\d|[\x{00A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}])|(([a-z]|\d|[\x{00A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}])([a-z]|\d|-|\.|_|~|[\x{00A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}])*([a-z]|\d|[\x{00A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}])))\.)+(([a-z]|[\x{00A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}])|(([a-z]|[\x{00A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}])([a-z]|\d|-|\.|_|~|[\x{00A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}])*([a-z]|[\x{00A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}])))$`)

// uidPattern is the pattern every uid value must match.
var uidPattern = regexp.MustCompile(`^[A-Za-z0-9-_.~]*$`)

const uidPatternJS = `/^[A-Za-z0-9-_.~]*$/`
