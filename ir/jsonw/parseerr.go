package jsonw

import (
	"fmt"
	"unicode/utf8"
)

// ParseError words why src is not valid JSON exactly as V8's JSON.parse does (Node 20, which
// Strapi runs on), so a malformed request body gets the same SyntaxError message from Quarry
// as from Strapi. It returns "" for valid JSON. Positions count UTF-16 code units, as
// JavaScript strings do.
func ParseError(src []byte) string {
	p := &v8parser{src: src}
	p.ws()
	if p.i >= len(src) {
		return "Unexpected end of JSON input"
	}
	if special[string(src)] {
		return fmt.Sprintf("%q is not valid JSON", string(src))
	}
	if !p.value() {
		return p.msg
	}
	p.ws()
	if p.i < len(src) {
		return fmt.Sprintf("Unexpected non-whitespace character after JSON at position %d", p.pos(p.i))
	}
	return ""
}

// special sources get V8's short message without the offending token.
var special = map[string]bool{"NaN": true, "Infinity": true, "undefined": true, "[object Object]": true}

type v8parser struct {
	src   []byte
	i     int
	msg   string
	depth int
}

// maxDepth bounds nesting: V8 parses iteratively, this parser recurses, and a hostile body
// must not grow the stack without limit.
const maxDepth = 10000

// pos is the UTF-16 position of byte offset i.
func (p *v8parser) pos(i int) int {
	n := 0
	for j := 0; j < i && j < len(p.src); {
		r, size := utf8.DecodeRune(p.src[j:])
		if r > 0xFFFF {
			n += 2
		} else {
			n++
		}
		j += size
	}
	return n
}

func (p *v8parser) at(what string) string {
	return fmt.Sprintf("%s in JSON at position %d", what, p.pos(p.i))
}

func (p *v8parser) fail(msg string) bool {
	p.msg = msg
	return false
}

func (p *v8parser) eos() bool { return p.fail("Unexpected end of JSON input") }

// unexpected is V8's "Unexpected token" message, with the source around the token when the
// source is long (10 characters either side).
func (p *v8parser) unexpected() bool {
	if p.i >= len(p.src) {
		return p.eos()
	}
	r, _ := utf8.DecodeRune(p.src[p.i:])
	units := []rune(string(p.src)) // V8 counts UTF-16 units; runes differ only beyond the BMP
	pos := len([]rune(string(p.src[:p.i])))
	const ctx = 10
	if len(units) < 2*ctx+1 {
		return p.fail(fmt.Sprintf("Unexpected token '%c', \"%s\" is not valid JSON", r, string(p.src)))
	}
	switch {
	case pos < ctx:
		return p.fail(fmt.Sprintf("Unexpected token '%c', \"%s\"... is not valid JSON", r, string(units[:pos+ctx])))
	case pos < len(units)-ctx:
		return p.fail(fmt.Sprintf("Unexpected token '%c', ...\"%s\"... is not valid JSON", r, string(units[pos-ctx:pos+ctx])))
	}
	return p.fail(fmt.Sprintf("Unexpected token '%c', ...\"%s\" is not valid JSON", r, string(units[pos-ctx:])))
}

func (p *v8parser) ws() {
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *v8parser) value() bool {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return p.fail(p.at("Maximum nesting depth exceeded"))
	}
	p.ws()
	if p.i >= len(p.src) {
		return p.eos()
	}
	switch c := p.src[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == 't':
		return p.literal("true")
	case c == 'f':
		return p.literal("false")
	case c == 'n':
		return p.literal("null")
	}
	return p.unexpected()
}

func (p *v8parser) literal(word string) bool {
	for k := 0; k < len(word); k++ {
		if p.i >= len(p.src) {
			return p.eos()
		}
		if p.src[p.i] != word[k] {
			return p.unexpected()
		}
		p.i++
	}
	return true
}

func (p *v8parser) object() bool {
	p.i++ // {
	p.ws()
	if p.i < len(p.src) && p.src[p.i] == '}' {
		p.i++
		return true
	}
	first := true
	for {
		p.ws()
		if p.i >= len(p.src) || p.src[p.i] != '"' {
			if first {
				return p.fail(p.at("Expected property name or '}'"))
			}
			return p.fail(p.at("Expected double-quoted property name"))
		}
		if !p.str() {
			return false
		}
		p.ws()
		if p.i >= len(p.src) || p.src[p.i] != ':' {
			return p.fail(p.at("Expected ':' after property name"))
		}
		p.i++
		if !p.value() {
			return false
		}
		p.ws()
		if p.i < len(p.src) && p.src[p.i] == ',' {
			p.i++
			first = false
			continue
		}
		if p.i < len(p.src) && p.src[p.i] == '}' {
			p.i++
			return true
		}
		return p.fail(p.at("Expected ',' or '}' after property value"))
	}
}

func (p *v8parser) array() bool {
	p.i++ // [
	p.ws()
	if p.i < len(p.src) && p.src[p.i] == ']' {
		p.i++
		return true
	}
	for {
		if !p.value() {
			return false
		}
		p.ws()
		if p.i < len(p.src) && p.src[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.src) && p.src[p.i] == ']' {
			p.i++
			return true
		}
		return p.fail(p.at("Expected ',' or ']' after array element"))
	}
}

func (p *v8parser) str() bool {
	p.i++ // opening quote
	for p.i < len(p.src) {
		c := p.src[p.i]
		switch {
		case c == '"':
			p.i++
			return true
		case c < 0x20:
			return p.fail(p.at("Bad control character in string literal"))
		case c == '\\':
			p.i++
			if p.i >= len(p.src) {
				return p.eos()
			}
			switch p.src[p.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.i++
			case 'u':
				p.i++
				for k := 0; k < 4; k++ {
					if p.i >= len(p.src) {
						return p.eos()
					}
					if !isHex(p.src[p.i]) {
						return p.fail(p.at("Bad Unicode escape"))
					}
					p.i++
				}
			default:
				return p.fail(p.at("Bad escaped character"))
			}
		default:
			p.i++
		}
	}
	return p.fail(p.at("Unterminated string"))
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isDigit(p *v8parser) bool { return p.i < len(p.src) && p.src[p.i] >= '0' && p.src[p.i] <= '9' }

func (p *v8parser) number() bool {
	if p.src[p.i] == '-' {
		p.i++
		if !isDigit(p) {
			return p.fail(p.at("No number after minus sign"))
		}
	}
	if p.src[p.i] == '0' {
		p.i++
		if isDigit(p) {
			return p.fail(p.at("Unexpected number"))
		}
	} else {
		for isDigit(p) {
			p.i++
		}
	}
	if p.i < len(p.src) && p.src[p.i] == '.' {
		p.i++
		if !isDigit(p) {
			return p.fail(p.at("Unterminated fractional number"))
		}
		for isDigit(p) {
			p.i++
		}
	}
	if p.i < len(p.src) && (p.src[p.i] == 'e' || p.src[p.i] == 'E') {
		p.i++
		if p.i < len(p.src) && (p.src[p.i] == '+' || p.src[p.i] == '-') {
			p.i++
		}
		if !isDigit(p) {
			return p.fail(p.at("Exponent part is missing a number"))
		}
		for isDigit(p) {
			p.i++
		}
	}
	return true
}
