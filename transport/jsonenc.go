package transport

import (
	"bytes"
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"quarry/schemas"
)

// buf is a JSON writer for responses whose key order and number formats must match Strapi's
// (a JavaScript server): encoding/json cannot keep key order for maps nor format numbers as
// JavaScript does.
type buf struct{ bytes.Buffer }

func (b *buf) str(s string) {
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b.WriteString(s[start:i])
			switch c {
			case '"':
				b.WriteString(`\"`)
			case '\\':
				b.WriteString(`\\`)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			case '\b':
				b.WriteString(`\b`)
			case '\f':
				b.WriteString(`\f`)
			default:
				b.WriteString(`\u00`)
				b.WriteByte("0123456789abcdef"[c>>4])
				b.WriteByte("0123456789abcdef"[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(s[start:i])
			b.WriteString(`\ufffd`)
			i += size
			start = i
			continue
		}
		// JSON.stringify leaves U+2028/2029 raw; so do we.
		i += size
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

func (b *buf) key(k string) {
	b.str(k)
	b.WriteByte(':')
}

func (b *buf) int(n int64) { b.WriteString(strconv.FormatInt(n, 10)) }

// num writes a float the way JavaScript's Number#toString does.
func (b *buf) num(f float64) { b.WriteString(jsNumber(f)) }

func jsNumber(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	if f == 0 {
		return "0"
	}
	abs := math.Abs(f)
	if abs >= 1e-6 && abs < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // 1e-07, 1.5e+21
	mant, exp, _ := strings.Cut(s, "e")
	sign := exp[0]
	exp = strings.TrimLeft(exp[1:], "0")
	return mant + "e" + string(sign) + exp
}

// datetime formats as JavaScript's Date#toISOString.
func datetime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

// timeOfDay trims a zero fraction as PostgreSQL's time output does, so every database
// answers the same: 10:20:30.000 → 10:20:30, 10:20:30.120 → 10:20:30.12.
func timeOfDay(s string) string {
	if i := strings.IndexByte(s, '.'); i >= 0 {
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
	}
	return s
}

// value writes one normalized attribute value (see exec.Normalize).
func (b *buf) value(t schemas.AttrType, v any) {
	if v == nil {
		b.WriteString("null")
		return
	}
	switch x := v.(type) {
	case int64:
		if t == schemas.BigInteger {
			b.WriteByte('"')
			b.int(x)
			b.WriteByte('"')
			return
		}
		b.int(x)
	case float64:
		if t == schemas.Decimal {
			// decimal(10,2): PostgreSQL rounds on write; round here so SQLite answers alike.
			x = math.Round(x*100) / 100
		}
		b.num(x)
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case string:
		if t == schemas.Time {
			x = timeOfDay(x)
		}
		b.str(x)
	case time.Time:
		b.str(datetime(x))
	case json.RawMessage:
		b.jsonb(x)
	default:
		enc, _ := json.Marshal(x)
		b.Write(enc)
	}
}

// jsonb writes a stored JSON value the way Strapi on PostgreSQL returns it: jsonb orders
// object keys by length then bytes and JavaScript re-prints numbers. Applying it on every
// database keeps SQLite's answers identical.
func (b *buf) jsonb(raw json.RawMessage) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		b.WriteString("null")
		return
	}
	b.anyJSON(v)
}

func (b *buf) anyJSON(v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			b.WriteString(x.String())
			return
		}
		b.num(f)
	case string:
		b.str(x)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			b.anyJSON(e)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if len(keys[i]) != len(keys[j]) {
				return len(keys[i]) < len(keys[j])
			}
			return keys[i] < keys[j]
		})
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.key(k)
			b.anyJSON(x[k])
		}
		b.WriteByte('}')
	}
}
