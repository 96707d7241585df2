package execute

import (
	"encoding/json"

	"github.com/quarrycms/quarry/ir/jsonw"
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

// Leaf values of the response tree, written by value: nil, bool, string, int64, float64,
// json.Number, jsonValue (a stored JSON value), rawJSON (already encoded), time.Time, *omap
// and []any; values of extension resolvers of other Go types are written as jsonw does.

// jsonValue is a stored JSON attribute value, printed in PostgreSQL jsonb's key order as
// the REST transport prints it, so every database and both APIs answer alike.
type jsonValue json.RawMessage

// rawJSON is pre-encoded JSON.
type rawJSON []byte

// jw writes the response with package jsonw, which the REST transport shares, so REST and
// GraphQL print values identically.
type jw struct{ jsonw.Buffer }

func (b *jw) value(v any) {
	switch x := v.(type) {
	case json.Number:
		// Int, Float and Long values coerced from the request keep their text when it is an
		// integer; other numbers print as JavaScript prints them.
		if f, err := x.Float64(); err == nil {
			if _, ierr := x.Int64(); ierr == nil {
				b.WriteString(string(x))
			} else {
				b.Num(f)
			}
		} else {
			b.Str(string(x))
		}
	case jsonValue:
		b.JSONB(x)
	case rawJSON:
		b.Write(x)
	case *omap:
		b.WriteByte('{')
		for i, k := range x.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Key(k)
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
	default:
		b.Any(v)
	}
}
