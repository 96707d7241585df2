// Package jsonw writes JSON as Strapi's JavaScript server prints it: strings escaped as
// JSON.stringify escapes them, numbers formatted as Number#toString formats them, dates as
// Date#toISOString, and stored JSON values with their object keys in PostgreSQL jsonb's
// order (so that every database answers alike). encoding/json can do none of these: it
// escapes HTML, formats floats its own way and cannot keep a response's key order.
//
// Both APIs write through it: the REST envelope (package transport) and the GraphQL
// responses (transport/graphql), so a value prints the same in both.
package jsonw

import (
	"bytes"
	"encoding/json"
	"math"
	"math/bits"
	"reflect"
	"sort"
	"strconv"
	"time"
	"unicode/utf8"
)

// Buffer accumulates one JSON document. It is a byte slice rather than a bytes.Buffer:
// a page of 100 populated entries is ~10 000 values and keys, each written as several
// small pieces, and appending to a slice is inlined where bytes.Buffer's methods were
// calls (they were a tenth of writing such a page). Its methods are bytes.Buffer's
// writing ones.
type Buffer struct{ buf []byte }

// room makes room for n more bytes. Appending alone would grow a large buffer by a
// quarter at a time; room doubles it, as bytes.Buffer did, so a large document is
// reallocated and copied a few times rather than a dozen.
func (b *Buffer) room(n int) {
	if cap(b.buf)-len(b.buf) < n {
		b.grow(n)
	}
}

func (b *Buffer) grow(n int) {
	buf := make([]byte, len(b.buf), max(2*cap(b.buf), len(b.buf)+n, 64))
	copy(buf, b.buf)
	b.buf = buf
}

// Write appends p; it never fails (io.Writer).
func (b *Buffer) Write(p []byte) (int, error) {
	b.room(len(p))
	b.buf = append(b.buf, p...)
	return len(p), nil
}

// WriteString appends s; it never fails.
func (b *Buffer) WriteString(s string) (int, error) {
	b.room(len(s))
	b.buf = append(b.buf, s...)
	return len(s), nil
}

// WriteByte appends c; it never fails.
func (b *Buffer) WriteByte(c byte) error {
	b.room(1)
	b.buf = append(b.buf, c)
	return nil
}

// WriteRune appends r as UTF-8; it never fails.
func (b *Buffer) WriteRune(r rune) (int, error) {
	b.room(utf8.UTFMax)
	n := len(b.buf)
	b.buf = utf8.AppendRune(b.buf, r)
	return len(b.buf) - n, nil
}

// Bytes is the document written so far; it is valid until the next write or Reset.
func (b *Buffer) Bytes() []byte { return b.buf }

// String is the document written so far.
func (b *Buffer) String() string { return string(b.buf) }

// Len is the length of the document written so far.
func (b *Buffer) Len() int { return len(b.buf) }

// Cap is the capacity of the buffer's storage.
func (b *Buffer) Cap() int { return cap(b.buf) }

// Reset empties the buffer, keeping its storage.
func (b *Buffer) Reset() { b.buf = b.buf[:0] }

// Truncate keeps the first n bytes; it panics when n is out of range, as bytes.Buffer's.
func (b *Buffer) Truncate(n int) { b.buf = b.buf[:n] }

// Grow makes room for n more bytes without another allocation.
func (b *Buffer) Grow(n int) { b.room(n) }

// AvailableBuffer is an empty slice of the buffer's free capacity, to append to and
// then Write.
func (b *Buffer) AvailableBuffer() []byte { return b.buf[len(b.buf):] }

const hex = "0123456789abcdef"

// Str writes s as a JSON string the way JSON.stringify does: no HTML escaping, lower-case
// \u00XX escapes for other control characters, U+2028/2029 left raw. Bytes that are not
// UTF-8 become \ufffd.
func (b *Buffer) Str(s string) {
	b.room(len(s) + 2) // escapes, which are rare, may grow it again
	b.buf = AppendStr(b.buf, s)
}

// AppendStr appends s as Str writes it.
func AppendStr(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		// Eight bytes at a time while none needs a look (text is mostly plain ASCII; this
		// loop was a tenth of the CPU of a list page), then straight to the first that does.
		for len(s)-i >= 8 {
			w := s[i : i+8]
			x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
				uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
			if m := special8(x); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"':
				dst = append(dst, `\"`...)
			case '\\':
				dst = append(dst, `\\`...)
			case '\n':
				dst = append(dst, `\n`...)
			case '\r':
				dst = append(dst, `\r`...)
			case '\t':
				dst = append(dst, `\t`...)
			case '\b':
				dst = append(dst, `\b`...)
			case '\f':
				dst = append(dst, `\f`...)
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// special8 marks (with its high bit) each of the eight bytes packed in x, first byte lowest,
// that Str does not copy as it is: below space, " or \, or not ASCII. It is the zero-byte
// test (v-0x0101…)&^v&0x8080… applied to x xor '"', x xor '\' and, for the bytes below
// 0x20, to x itself with 0x20 for 0x01. A test can also mark a byte after one it rightly
// marks (the borrow runs on), never before: the lowest mark is always a byte that needs a
// look, and no mark means none does.
func special8(x uint64) uint64 {
	q := x ^ (ones * '"')
	bs := x ^ (ones * '\\')
	return (x | (x-ones*0x20)&^x | (q-ones)&^q | (bs-ones)&^bs) & highs
}

// Quote returns s as Str writes it.
func Quote(s string) string {
	var b Buffer
	b.Str(s)
	return b.String()
}

// Key writes an object key and its colon.
func (b *Buffer) Key(k string) {
	b.room(len(k) + 3)
	b.buf = append(AppendStr(b.buf, k), ':')
}

// Int writes an integer.
func (b *Buffer) Int(n int64) {
	b.room(20)
	b.buf = strconv.AppendInt(b.buf, n, 10)
}

// Num writes a float as JSON.stringify does: Number#toString, and null for NaN and ±Infinity.
func (b *Buffer) Num(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		b.WriteString("null")
		return
	}
	b.room(32)
	b.buf = AppendNumber(b.buf, f)
}

// Bool writes true or false.
func (b *Buffer) Bool(v bool) {
	if v {
		b.WriteString("true")
	} else {
		b.WriteString("false")
	}
}

// Time writes a date-time as a string, Date#toISOString's format. The formatted text is
// digits and ASCII punctuation, which Str would copy unchanged.
func (b *Buffer) Time(t time.Time) {
	b.room(32)
	b.buf = append(AppendISOTime(append(b.buf, '"'), t), '"')
}

// FormatNumber formats f as JavaScript's Number#toString: NaN, Infinity, -Infinity, 0 for
// both zeros, plain decimals from 1e-6 up to 1e21 and exponent notation (1e-7, 1.5e+21)
// beyond.
func FormatNumber(f float64) string { return string(AppendNumber(nil, f)) }

// AppendNumber appends f as FormatNumber formats it.
func AppendNumber(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	case f == 0:
		return append(dst, '0')
	}
	abs := math.Abs(f)
	if abs < 1e9 {
		// Integers and values of two decimals (prices, ratings, sizes in KB) are most of
		// the numbers a page holds, and strconv's shortest formatting was a twentieth of
		// writing one. Below 1e9 a float64's spacing is far under 0.01, so when r/100
		// converts back to f, no other decimal of two places or fewer does, and r/100 is
		// the shortest text for f.
		if f == math.Trunc(f) {
			return strconv.AppendInt(dst, int64(f), 10)
		}
		if r := math.Round(f * 100); r/100 == f {
			return appendCents(dst, int64(r))
		}
	}
	if abs >= 1e-6 && abs < 1e21 {
		return strconv.AppendFloat(dst, f, 'f', -1, 64)
	}
	// Go writes the exponent with a sign and at least two digits (1e-07, 1.5e+21);
	// JavaScript drops the leading zero.
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, 'e', -1, 64)
	e := bytes.IndexByte(dst[start:], 'e') + start
	digits := e + 2
	if dst[digits] == '0' && len(dst) > digits+1 {
		dst = append(dst[:digits], dst[digits+1:]...)
	}
	return dst
}

// appendCents appends c/100 (not an integer) with its fraction's trailing zero dropped.
func appendCents(dst []byte, c int64) []byte {
	if c < 0 {
		dst = append(dst, '-')
		c = -c
	}
	dst = strconv.AppendInt(dst, c/100, 10)
	frac := c % 100
	if frac%10 == 0 {
		return append(dst, '.', byte('0'+frac/10))
	}
	return append(dst, '.', byte('0'+frac/10), byte('0'+frac%10))
}

// ISOTime formats a time as JavaScript's Date#toISOString: UTC with milliseconds.
func ISOTime(t time.Time) string { return string(AppendISOTime(nil, t)) }

// AppendISOTime appends t as ISOTime formats it. Three date-times per entry made the
// layout interpretation of time.Format a noticeable share of a list page, so four-digit
// years, all real data, are written directly; from 1970 on the date comes from the day
// number in one step (Date and Clock each convert the time again).
func AppendISOTime(dst []byte, t time.Time) []byte {
	var year, month, day, hour, minute, sec int
	if unix := t.Unix(); unix >= 0 && unix < year10000 {
		year, month, day = civil(unix / 86400)
		s := int(unix % 86400)
		hour, minute, sec = s/3600, s/60%60, s%60
	} else {
		t = t.UTC()
		var m time.Month
		year, m, day = t.Date()
		if year < 0 || year > 9999 {
			return t.AppendFormat(dst, "2006-01-02T15:04:05.000Z")
		}
		month = int(m)
		hour, minute, sec = t.Clock()
	}
	ms := t.Nanosecond() / 1e6
	return append(dst,
		byte('0'+year/1000), byte('0'+year/100%10), byte('0'+year/10%10), byte('0'+year%10), '-',
		byte('0'+month/10), byte('0'+month%10), '-',
		byte('0'+day/10), byte('0'+day%10), 'T',
		byte('0'+hour/10), byte('0'+hour%10), ':',
		byte('0'+minute/10), byte('0'+minute%10), ':',
		byte('0'+sec/10), byte('0'+sec%10), '.',
		byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10), 'Z')
}

// year10000 is 10000-01-01T00:00:00Z in Unix seconds.
const year10000 = 253402300800

// civil is the proleptic Gregorian date of a day counted from 1970-01-01 (not before it):
// the days are counted from 0000-03-01 so that the leap day ends each 4-, 100- and 400-year
// cycle, and months from March are 153 days per five.
func civil(days int64) (year, month, day int) {
	z := int(days) + 719468
	era := z / 146097
	doe := z - era*146097                                  // day of the 400-year era
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365 // year of the era
	doy := doe - (365*yoe + yoe/4 - yoe/100)               // day of the year from March 1
	mp := (5*doy + 2) / 153                                // month from March
	day = doy - (153*mp+2)/5 + 1
	month = mp + 3
	if month > 12 {
		month -= 12
	}
	year = yoe + era*400
	if month <= 2 {
		year++
	}
	return year, month, day
}

// jsonbLess is jsonb's key order: shorter keys first, then by bytes.
func jsonbLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// Any writes a decoded JSON value (maps with jsonb's key order, json.Number as JavaScript
// prints the number) and the Go values code hands over in its place: integers, floats,
// times (as ISO strings), raw JSON (as JSONB), slices and anything else encoding/json
// renders.
func (b *Buffer) Any(v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.Bool(x)
	case string:
		b.Str(x)
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			b.WriteString(x.String())
			return
		}
		b.Num(f)
	case float64:
		b.Num(x)
	case int64:
		b.Int(x)
	case int:
		b.Int(int64(x))
	case time.Time:
		b.Time(x)
	case json.RawMessage:
		b.JSONB(x)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Any(e)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return jsonbLess(keys[i], keys[j]) })
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Key(k)
			b.Any(x[k])
		}
		b.WriteByte('}')
	default:
		b.reflectValue(v)
	}
}

// reflectValue writes values of other Go types (typically from extension code).
func (b *Buffer) reflectValue(v any) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			b.WriteString("null")
			return
		}
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			break // []byte: base64, as encoding/json writes it
		}
		b.WriteByte('[')
		for i := 0; i < rv.Len(); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Any(rv.Index(i).Interface())
		}
		b.WriteByte(']')
		return
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.Int(rv.Int())
		return
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		b.WriteString(strconv.FormatUint(rv.Uint(), 10))
		return
	case reflect.Float32, reflect.Float64:
		b.Num(rv.Float())
		return
	}
	enc, err := json.Marshal(v)
	if err != nil {
		b.WriteString("null")
		return
	}
	b.JSONB(enc)
}
