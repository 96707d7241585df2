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
	"sync"
	"time"

	"github.com/quarrycms/quarry/ir/jsonw"
	"github.com/quarrycms/quarry/schemas"
)

// Buf writes responses whose key order and number formats must match Strapi's (a
// JavaScript server); see package jsonw. Its own methods shape the envelope.
type Buf struct{ jsonw.Buffer }

// kept and bufs keep response buffers between requests: a list page of 100 entries is
// ~90 KB (with populate=*, ~430 KB), and growing a fresh buffer to that size by doubling
// cost more CPU than writing the response. A sync.Pool alone is emptied by every other
// garbage collection, which under load comes every few requests, so most requests grew a
// fresh buffer anyway: kept holds a few buffers across collections (at most
// keptBufs×maxPooledBuf bytes), the pool takes the rest.
var (
	kept = make(chan *Buf, keptBufs)
	bufs = sync.Pool{New: func() any { return new(Buf) }}
)

// keptBufs is how many buffers outlive garbage collections: about as many as requests
// are written at once.
const keptBufs = 16

// maxPooledBuf is the largest buffer kept: an occasional huge response should not stay
// allocated for the life of the process.
const maxPooledBuf = 1 << 20

// Get takes a kept buffer, else one from the pool.
func Get() *Buf {
	select {
	case b := <-kept:
		return b
	default:
		return bufs.Get().(*Buf)
	}
}

// Put returns b to the pool once nothing refers to its bytes any more (the response
// has been written: ResponseWriter.Write does not keep them).
func Put(b *Buf) {
	if b.Cap() > maxPooledBuf {
		return
	}
	b.Reset()
	select {
	case kept <- b:
	default:
		bufs.Put(b)
	}
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
