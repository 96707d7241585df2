package graphql

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// omap is a JSON object of the response, keys in selection order (GraphQL responses
// follow the order of the request's selections, which encoding/json cannot keep).
type omap struct {
	keys []string
	vals []any
}

func (m *omap) set(k string, v any) {
	m.keys = append(m.keys, k)
	m.vals = append(m.vals, v)
}

// Leaf values of the response tree, written by writeValue:
// nil, bool, string, int64, float64, json.Number, jsonValue (a stored JSON value),
// rawJSON (already encoded), time.Time, *omap and []any.

// jsonValue is a stored JSON attribute value, printed in PostgreSQL jsonb's key order as
// the REST transport prints it, so every database and both APIs answer alike.
type jsonValue json.RawMessage

// rawJSON is pre-encoded JSON.
type rawJSON []byte

// jw writes the response. Its string escaping and number formatting are those of
// transport/jsonenc.go (JavaScript's JSON.stringify), so REST and GraphQL print values
// identically.
type jw struct{ bytes.Buffer }

func (b *jw) str(s string) {
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
		i += size
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

// jsNumber formats a float as JavaScript's Number#toString.
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
	s := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	sign := exp[0]
	exp = strings.TrimLeft(exp[1:], "0")
	return mant + "e" + string(sign) + exp
}

func (b *jw) value(v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case string:
		b.str(x)
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		b.WriteString(jsNumber(x))
	case json.Number:
		if f, err := x.Float64(); err == nil {
			if _, ierr := x.Int64(); ierr == nil {
				b.WriteString(string(x))
			} else {
				b.WriteString(jsNumber(f))
			}
		} else {
			b.str(string(x))
		}
	case time.Time:
		b.str(x.UTC().Format("2006-01-02T15:04:05.000Z"))
	case jsonValue:
		b.jsonb(json.RawMessage(x))
	case rawJSON:
		b.Write(x)
	case *omap:
		b.WriteByte('{')
		for i, k := range x.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.str(k)
			b.WriteByte(':')
			b.value(x.vals[i])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			b.value(e)
		}
		b.WriteByte(']')
	case map[string]any:
		b.anyJSON(x)
	default:
		// Values of extension resolvers of other Go types.
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Slice, reflect.Array:
			b.WriteByte('[')
			for i := 0; i < rv.Len(); i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				b.value(rv.Index(i).Interface())
			}
			b.WriteByte(']')
			return
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32:
			b.WriteString(strconv.FormatInt(rv.Int(), 10))
			return
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			b.WriteString(strconv.FormatUint(rv.Uint(), 10))
			return
		case reflect.Float32:
			b.WriteString(jsNumber(rv.Float()))
			return
		}
		enc, err := json.Marshal(v)
		if err != nil {
			b.WriteString("null")
			return
		}
		b.jsonb(enc)
	}
}

// jsonb writes a JSON value with object keys ordered by length then bytes (PostgreSQL
// jsonb's order) and numbers re-printed as JavaScript prints them.
func (b *jw) jsonb(raw json.RawMessage) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		b.WriteString("null")
		return
	}
	b.anyJSON(v)
}

func (b *jw) anyJSON(v any) {
	switch x := v.(type) {
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
			b.str(k)
			b.WriteByte(':')
			b.anyJSON(x[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			b.anyJSON(e)
		}
		b.WriteByte(']')
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			b.WriteString(string(x))
			return
		}
		b.WriteString(jsNumber(f))
	default:
		b.value(x)
	}
}
