package qs

import (
	"unicode/utf8"
	"unsafe"
)

// splitPair splits one '&'-separated part into raw key and value. qs splits
// at the first "]=" when there is one (so `a[b=c]=d` keys on "a[b=c]"), else
// at the first '='. qs first rewrites every %5B/%5D in the whole query to
// brackets, so an encoded "%5D=" also counts as "]=".
func splitPair(part string) (key, val string, hasEq bool) {
	eq := -1
	for i := 0; i < len(part); i++ {
		if part[i] != '=' {
			continue
		}
		if eq < 0 {
			eq = i
		}
		if (i >= 1 && part[i-1] == ']') ||
			(i >= 3 && part[i-3] == '%' && part[i-2] == '5' && part[i-1]|0x20 == 'd') {
			return part[:i], part[i+1:], true
		}
	}
	if eq < 0 {
		return part, "", false
	}
	return part[:eq], part[eq+1:], true
}

// decode reproduces qs's utf-8 decoder: '+' becomes a space, then
// decodeURIComponent runs; if that throws anywhere (a '%' without two hex
// digits, or escapes that are not well-formed UTF-8), qs keeps the whole
// string undecoded apart from the '+' replacement and the %5B/%5D rewrite it
// applied to the query up front. Strings needing no change are returned as
// is; others are written into the builder's arena so that all decoded
// strings of one Parse share a single allocation.
func (b *builder) decode(s string) string {
	i := 0
	for i < len(s) && s[i] != '%' && s[i] != '+' {
		i++
	}
	if i == len(s) {
		return s
	}
	if cap(b.arena)-len(b.arena) < len(s) {
		// Decoded text is never longer than its source, so the unparsed rest
		// of the input bounds what the remaining decodes can need.
		n := len(s)
		if b.rest > n {
			n = b.rest
		}
		b.arena = make([]byte, 0, n)
	}
	start := len(b.arena)
	a := append(b.arena, s[:i]...)
	for i < len(s) {
		c := s[i]
		if c == '+' {
			a = append(a, ' ')
			i++
			continue
		}
		if c != '%' {
			a = append(a, c)
			i++
			continue
		}
		h, ok := hexByte(s, i)
		if !ok {
			return b.fallback(s, start)
		}
		if h < 0x80 {
			a = append(a, h)
			i += 3
			continue
		}
		var n int
		switch {
		case h&0xE0 == 0xC0:
			n = 2
		case h&0xF0 == 0xE0:
			n = 3
		case h&0xF8 == 0xF0:
			n = 4
		default:
			return b.fallback(s, start)
		}
		var seq [4]byte
		seq[0] = h
		for k := 1; k < n; k++ {
			p := i + 3*k
			if p >= len(s) || s[p] != '%' {
				return b.fallback(s, start)
			}
			c2, ok := hexByte(s, p)
			if !ok || c2&0xC0 != 0x80 {
				return b.fallback(s, start)
			}
			seq[k] = c2
		}
		// Overlong forms, surrogates and code points past U+10FFFF make
		// decodeURIComponent throw; utf8 rejects exactly those.
		if _, size := utf8.DecodeRune(seq[:n]); size != n {
			return b.fallback(s, start)
		}
		a = append(a, seq[:n]...)
		i += 3 * n
	}
	b.arena = a
	return b.arenaString(start)
}

// fallback writes qs's result for a string decodeURIComponent rejected,
// overwriting the partial decode that began at start.
func (b *builder) fallback(s string, start int) string {
	a := b.arena[:start]
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '+':
			c = ' '
		case c == '%' && i+2 < len(s) && s[i+1] == '5':
			switch s[i+2] | 0x20 {
			case 'b':
				c = '['
				i += 2
			case 'd':
				c = ']'
				i += 2
			}
		}
		a = append(a, c)
	}
	b.arena = a
	return b.arenaString(start)
}

// arenaString returns arena[start:] as a string without copying. The arena
// is append-only: bytes behind a returned string are never written again,
// which is what makes sharing them with an immutable string sound.
func (b *builder) arenaString(start int) string {
	n := len(b.arena) - start
	if n == 0 {
		return ""
	}
	return unsafe.String(&b.arena[start], n)
}

func hexByte(s string, i int) (byte, bool) {
	if i+2 >= len(s) {
		return 0, false
	}
	hi, ok1 := unhex(s[i+1])
	lo, ok2 := unhex(s[i+2])
	return hi<<4 | lo, ok1 && ok2
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
