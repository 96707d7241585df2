package jsonw

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// JSONB writes a stored JSON value the way Strapi on PostgreSQL returns it: jsonb orders
// object keys by length then bytes and JavaScript re-prints the numbers. Applying it on
// every database keeps SQLite's answers identical. Text that does not decode is null.
//
// PostgreSQL's jsonb output is already in that order and escapes strings as JSON.stringify
// does, so the text is usually copied with its whitespace dropped; decoding it into maps to
// re-sort keys that are already sorted cost a fifth of the CPU of a list page. Anything the
// copy cannot reproduce exactly (keys out of order or escaped, invalid text, trailing data)
// falls back to the decode, which stays the definition of the output.
func (b *Buffer) JSONB(raw []byte) {
	start := b.Len()
	if b.pgCopy(raw) {
		return
	}
	b.Truncate(start)
	c := compactor{b: b, s: raw}
	if c.document() {
		return
	}
	b.Truncate(start)
	b.jsonbDecoded(raw)
}

// jsonbDecoded is JSONB through encoding/json: any valid text, keys in any order.
func (b *Buffer) jsonbDecoded(raw []byte) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		b.WriteString("null")
		return
	}
	b.Any(v)
}

// compactMaxDepth bounds the copy's recursion; deeper text takes the decoding path, which
// has its own limit.
const compactMaxDepth = 512

// compactor copies JSON text that needs no reordering, writing exactly what decoding it
// with encoding/json (UseNumber) and writing the value with Any would write. Its methods
// report false as soon as the text is outside what it can copy; the caller then discards
// what was written.
type compactor struct {
	b     *Buffer
	s     []byte
	i     int
	depth int
}

func (c *compactor) document() bool {
	c.ws()
	if !c.value() {
		return false
	}
	c.ws()
	// encoding/json's Decoder stops after the first value; text after it is left to the
	// decoding path rather than reasoned about here.
	return c.i == len(c.s)
}

func (c *compactor) ws() {
	for c.i < len(c.s) {
		switch c.s[c.i] {
		case ' ', '\t', '\n', '\r':
			c.i++
		default:
			return
		}
	}
}

func (c *compactor) value() bool {
	if c.i >= len(c.s) {
		return false
	}
	switch ch := c.s[c.i]; {
	case ch == '{':
		return c.object()
	case ch == '[':
		return c.array()
	case ch == '"':
		tok, canonical, ok := c.str()
		if !ok {
			return false
		}
		if canonical {
			c.b.Write(tok)
			return true
		}
		var s string
		if json.Unmarshal(tok, &s) != nil {
			return false
		}
		c.b.Str(s)
		return true
	case ch == '-' || ch >= '0' && ch <= '9':
		return c.number()
	case ch == 't':
		return c.literal("true")
	case ch == 'f':
		return c.literal("false")
	case ch == 'n':
		return c.literal("null")
	}
	return false
}

func (c *compactor) literal(lit string) bool {
	if len(c.s)-c.i < len(lit) || string(c.s[c.i:c.i+len(lit)]) != lit {
		return false
	}
	c.i += len(lit)
	c.b.WriteString(lit)
	return true
}

func (c *compactor) object() bool {
	if ok, empty := c.open('{', '}'); !ok || empty {
		return ok
	}
	var prev []byte
	for n := 0; ; n++ {
		if c.i >= len(c.s) || c.s[c.i] != '"' {
			return false
		}
		tok, canonical, ok := c.str()
		// A key needing an escape is rare enough to leave to the decoding path, which
		// compares keys decoded. Keys must strictly increase: a duplicate (the last one
		// wins when decoded) or an unsorted object needs the decode too.
		if !ok || !canonical || bytes.IndexByte(tok, '\\') >= 0 {
			return false
		}
		key := tok[1 : len(tok)-1]
		if n > 0 && !jsonbLess(string(prev), string(key)) {
			return false
		}
		prev = key
		c.b.Write(tok)
		c.ws()
		if c.i >= len(c.s) || c.s[c.i] != ':' {
			return false
		}
		c.i++
		c.b.WriteByte(':')
		c.ws()
		if !c.value() {
			return false
		}
		if more, ok := c.next('}'); !more {
			return ok
		}
	}
}

func (c *compactor) array() bool {
	if ok, empty := c.open('[', ']'); !ok || empty {
		return ok
	}
	for {
		if !c.value() {
			return false
		}
		if more, ok := c.next(']'); !more {
			return ok
		}
	}
}

// open copies a container's opening byte, or all of an empty container (empty); nesting past
// compactMaxDepth is left to the decoding path (not ok).
func (c *compactor) open(open, close byte) (ok, empty bool) {
	if c.depth++; c.depth > compactMaxDepth {
		return false, false
	}
	c.i++
	c.b.WriteByte(open)
	c.ws()
	if c.i < len(c.s) && c.s[c.i] == close {
		c.i++
		c.b.WriteByte(close)
		c.depth--
		return true, true
	}
	return true, false
}

// next copies what follows a member or an element: a comma (more) or the container's closing
// byte (done, ok); anything else is not JSON.
func (c *compactor) next(close byte) (more, ok bool) {
	c.ws()
	if c.i >= len(c.s) {
		return false, false
	}
	switch c.s[c.i] {
	case ',':
		c.i++
		c.b.WriteByte(',')
		c.ws()
		return true, true
	case close:
		c.i++
		c.b.WriteByte(close)
		c.depth--
		return false, true
	}
	return false, false
}

// str scans the string token at c.i (quotes included). canonical reports that the token
// is exactly what Str writes for its decoded value: valid UTF-8, no raw control
// characters, and only the escapes Str itself uses (\" \\ \n \r \t \b \f and lower-case
// \u00XX for the other control characters), which is how PostgreSQL prints jsonb strings.
// ok is false when the token is unterminated.
func (c *compactor) str() (tok []byte, canonical, ok bool) {
	start := c.i
	canonical = true
	ascii := true
	i := c.i + 1
	for i < len(c.s) {
		ch := c.s[i]
		switch {
		case ch == '"':
			i++
			tok = c.s[start:i]
			c.i = i
			if !ascii && !utf8.Valid(tok) {
				canonical = false
			}
			return tok, canonical, true
		case ch == '\\':
			if i+1 >= len(c.s) {
				return nil, false, false
			}
			switch c.s[i+1] {
			case '"', '\\', 'n', 'r', 't', 'b', 'f':
				i += 2
			case 'u':
				if !canonicalControl(c.s[i+2 : min(i+6, len(c.s))]) {
					canonical = false
				}
				i += 2
			default:
				canonical = false
				i += 2
			}
		case ch < 0x20:
			canonical = false // invalid JSON: the decoding path answers null
			i++
		default:
			if ch >= utf8.RuneSelf {
				ascii = false
			}
			i++
		}
	}
	return nil, false, false
}

// canonicalControl reports whether the four hex digits of a \u escape are how Str escapes
// a control character it has no short escape for.
func canonicalControl(h []byte) bool {
	if len(h) != 4 || h[0] != '0' || h[1] != '0' {
		return false
	}
	var v byte
	switch h[2] {
	case '0':
	case '1':
		v = 0x10
	default:
		return false
	}
	switch d := h[3]; {
	case d >= '0' && d <= '9':
		v |= d - '0'
	case d >= 'a' && d <= 'f':
		v |= d - 'a' + 10
	default:
		return false
	}
	switch v {
	case '\b', '\t', '\n', '\f', '\r':
		return false
	}
	return true
}

// number copies a JSON number as Any writes the json.Number decoding gives.
func (c *compactor) number() bool {
	end, asIs, ok := numberEnd(c.s, c.i)
	if !ok {
		return false
	}
	tok := c.s[c.i:end]
	c.i = end
	if asIs {
		c.b.Write(tok)
	} else {
		c.b.numberText(tok)
	}
	return true
}

// numberEnd scans the JSON number at s[i]: its end, and asIs when Any writes the
// json.Number decoding gives exactly as it is: integers of up to 15 digits (every such
// integer is a float64 that prints back the same) other than -0. ok is false when the
// text there is not a JSON number.
func numberEnd(s []byte, i int) (end int, asIs, ok bool) {
	start := i
	if s[i] == '-' {
		i++
	}
	digits := i
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return 0, false, false
	}
	intDigits := i - digits
	plain := true
	if i < len(s) && s[i] == '.' {
		plain = false
		i++
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return 0, false, false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		plain = false
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return 0, false, false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	// -0 prints as 0.
	asIs = plain && intDigits <= 15 && !(s[start] == '-' && s[digits] == '0')
	return i, asIs, true
}

// numberText writes a number token numberEnd did not leave as it is: through float64
// and JavaScript's formatting.
func (b *Buffer) numberText(tok []byte) {
	f, err := strconv.ParseFloat(string(tok), 64)
	if err != nil {
		b.Write(tok) // as Any writes a json.Number that does not fit a float64
		return
	}
	b.Num(f)
}
