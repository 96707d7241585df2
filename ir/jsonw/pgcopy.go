package jsonw

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// pgMaxDepth bounds pgCopy's record of open containers; deeper text takes the compactor.
const pgMaxDepth = 32

// pgCopy is JSONB's fast path for jsonb text exactly as PostgreSQL prints it: one space
// after each ',' and ':' and nowhere else, keys in jsonb order without escapes, strings
// escaped as escape_json escapes them, which is as JSON.stringify does (\" \\ \b \f \n \r \t
// and lower-case \u00XX for the other control characters). The same text without the spaces
// (as Quarry stores JSON on SQLite and MySQL) is copied too. It copies the text in runs
// between the spaces it drops, checking it in one pass instead of the compactor's token by
// token writes (the compactor was a twelfth of writing a populate=* page: media formats and
// provider metadata). Anything else, including whitespace elsewhere, reports false with
// nothing written, and the compactor decides.
func (b *Buffer) pgCopy(s []byte) bool {
	var (
		out   = b.buf
		n     = len(s)
		i     = 0
		run   = 0                  // s[run:i] is still to be copied
		depth = 0                  // open containers
		objs  uint32               // bit d: container d is an object
		keys  [pgMaxDepth][2]int32 // the last key of each open object, as offsets in s
	)
	if n > 1<<30 {
		return false
	}
	for {
		// A value at s[i].
		if i >= n {
			return false
		}
		switch c := s[i]; {
		case c == '"':
			end, ok := strEnd(s, i)
			if !ok {
				return false
			}
			i = end
		case c == '{' || c == '[':
			i++
			if i < n && s[i] == c+2 { // '}' and ']' are two past '{' and '['
				i++
				break
			}
			if depth == pgMaxDepth {
				return false
			}
			depth++
			if c == '[' {
				objs &^= 1 << (depth - 1)
				continue
			}
			objs |= 1 << (depth - 1)
			var ok bool
			if i, run, out, ok = pgKey(s, i, run, out, &keys[depth-1], true); !ok {
				return false
			}
			continue
		case c == '-' || c >= '0' && c <= '9':
			end, asIs, ok := numberEnd(s, i)
			if !ok {
				return false
			}
			if !asIs {
				out = append(out, s[run:i]...)
				b.buf = out
				b.numberText(s[i:end])
				out = b.buf
				run = end
			}
			i = end
		case c == 't':
			if n-i < 4 || string(s[i:i+4]) != "true" {
				return false
			}
			i += 4
		case c == 'f':
			if n-i < 5 || string(s[i:i+5]) != "false" {
				return false
			}
			i += 5
		case c == 'n':
			if n-i < 4 || string(s[i:i+4]) != "null" {
				return false
			}
			i += 4
		default:
			return false
		}
		// After a value: close containers until a comma starts the next value.
		for {
			if depth == 0 {
				if i != n {
					return false
				}
				b.buf = append(out, s[run:]...)
				return true
			}
			if i >= n {
				return false
			}
			obj := objs&(1<<(depth-1)) != 0
			if s[i] == ',' {
				i++
				if i < n && s[i] == ' ' {
					out = append(out, s[run:i]...)
					i++
					run = i
				}
				if obj {
					var ok bool
					if i, run, out, ok = pgKey(s, i, run, out, &keys[depth-1], false); !ok {
						return false
					}
				}
				break
			}
			if obj && s[i] != '}' || !obj && s[i] != ']' {
				return false
			}
			i++
			depth--
		}
	}
}

// pgKey checks an object key at s[i] and the colon after it, dropping one space after the
// colon; the key must follow last (unless first) in jsonb order and need no escape (a key with
// one is rare enough to leave to the compactor, which compares keys decoded).
func pgKey(s []byte, i, run int, out []byte, last *[2]int32, first bool) (int, int, []byte, bool) {
	if i >= len(s) || s[i] != '"' {
		return 0, 0, nil, false
	}
	end, ok := strEnd(s, i)
	if !ok {
		return 0, 0, nil, false
	}
	key := s[i+1 : end-1]
	for _, c := range key {
		if c == '\\' {
			return 0, 0, nil, false
		}
	}
	if !first && !jsonbLess(string(s[last[0]:last[1]]), string(key)) {
		return 0, 0, nil, false
	}
	last[0], last[1] = int32(i+1), int32(end-1)
	i = end
	if i >= len(s) || s[i] != ':' {
		return 0, 0, nil, false
	}
	i++
	if i < len(s) && s[i] == ' ' {
		out = append(out, s[run:i]...)
		i++
		run = i
	}
	return i, run, out, true
}

// strEnd returns the end of the string token at s[i] (after its closing quote); ok only
// when the token is exactly what Str writes for its value: valid UTF-8, no raw control
// characters and only Str's escapes.
func strEnd(s []byte, i int) (end int, ok bool) {
	i++
	start := i
	ascii := true
	for {
		for len(s)-i >= 8 {
			if m := special8(binary.LittleEndian.Uint64(s[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(s) {
			return 0, false
		}
		switch c := s[i]; {
		case c == '"':
			if !ascii && !utf8.Valid(s[start:i]) {
				return 0, false
			}
			return i + 1, true
		case c == '\\':
			if i+1 >= len(s) {
				return 0, false
			}
			switch s[i+1] {
			case '"', '\\', 'n', 'r', 't', 'b', 'f':
				i += 2
			case 'u':
				if len(s)-i < 6 || !canonicalControl(s[i+2:i+6]) {
					return 0, false
				}
				i += 6
			default:
				return 0, false
			}
		case c < 0x20:
			return 0, false
		default:
			if c >= utf8.RuneSelf {
				ascii = false
			}
			i++
		}
	}
}
