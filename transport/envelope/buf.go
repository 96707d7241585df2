// Package envelope writes Strapi's responses: the REST content API's {data, meta} envelope
// (entries, components, relations, pagination), the plugins' flat objects, webhook payloads
// and the error envelope, with the key order and number formats of Strapi's JavaScript
// server (package jsonw). The content API (transport) and the plugins' routes
// (transport/plugins/...) both write through it.
package envelope

import (
	"encoding/json"
	"math"
	"strings"
	"time"

	"github.com/quarrycms/quarry/ir/jsonw"
	"github.com/quarrycms/quarry/schemas"
)

// Buf writes responses whose key order and number formats must match Strapi's (a
// JavaScript server); see package jsonw. Its own methods shape the envelope.
type Buf struct{ jsonw.Buffer }

// bufs keeps response buffers between requests (see jsonw.Keeper).
var bufs = jsonw.NewKeeper(func() *Buf { return new(Buf) })

// Get takes a kept buffer.
func Get() *Buf { return bufs.Get() }

// Put returns b once nothing refers to its bytes any more (the response has been written:
// ResponseWriter.Write does not keep them).
func Put(b *Buf) { bufs.Put(b) }

// timeOfDay trims a zero fraction as PostgreSQL's time output does, so every database
// answers the same: 10:20:30.000 → 10:20:30, 10:20:30.120 → 10:20:30.12.
func timeOfDay(s string) string {
	if i := strings.IndexByte(s, '.'); i >= 0 {
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
	}
	return s
}

// Value writes one normalized attribute value (see exec.Normalize).
func (b *Buf) Value(t schemas.AttrType, v any) {
	if v == nil {
		b.WriteString("null")
		return
	}
	switch x := v.(type) {
	case int64:
		if t == schemas.BigInteger {
			b.WriteByte('"')
			b.Int(x)
			b.WriteByte('"')
			return
		}
		b.Int(x)
	case float64:
		if t == schemas.Decimal {
			// decimal(10,2): PostgreSQL rounds on write; round here so SQLite answers alike.
			x = math.Round(x*100) / 100
		}
		b.Num(x)
	case bool:
		b.Bool(x)
	case string:
		if t == schemas.Time {
			x = timeOfDay(x)
		}
		b.Str(x)
	case time.Time:
		if t == schemas.Timestamp {
			// Strapi's timestamp field reads back as epoch milliseconds in a string, on
			// every database (date-fns format "T").
			b.WriteByte('"')
			b.Int(x.UnixMilli())
			b.WriteByte('"')
			return
		}
		b.Time(x)
	case json.RawMessage:
		b.JSONB(x)
	default:
		enc, _ := json.Marshal(x)
		b.Write(enc)
	}
}
