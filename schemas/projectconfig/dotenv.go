package projectconfig

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// jsSpace is JavaScript's \s (WhiteSpace and LineTerminator), which dotenv's expressions and
// String.prototype.trim use; Go's \s is ASCII only.
const jsSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// dotenvLine is dotenv 14.2's RE_INI_KEY_VAL (the version Strapi 4.26.2 depends on), with
// JavaScript's \s and `.` spelled out. Go's regexp picks the submatches a backtracking engine
// would, so the captures are JavaScript's.
var dotenvLine = regexp.MustCompile(`^[` + jsSpace + `]*([\w.-]+)[` + jsSpace + `]*=[` + jsSpace + `]*("[^"]*"|'[^']*'|[^#]*)?([` + jsSpace + `]*|[` + jsSpace + `]*#[^\n\r\x{2028}\x{2029}]*)?$`)

var dotenvNewlines = regexp.MustCompile(`\r\n|\n|\r`)

// ParseDotenv parses a .env file as dotenv 14.2's parse does: one KEY=VALUE per line, no
// multi-line values, no variable expansion; a value in double quotes gets its `\n` turned
// into newlines; an unquoted value is trimmed and ends at `#`; the last of repeated keys wins.
// Lines that do not match are ignored. The order of first appearance is returned in keys.
func ParseDotenv(src []byte) (vars map[string]string, keys []string) {
	vars = map[string]string{}
	text := string(src)
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, "\uFFFD")
	}
	for _, line := range dotenvNewlines.Split(text, -1) {
		m := dotenvLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		key, val := m[1], m[2]
		end := len(val) - 1
		dq := len(val) >= 1 && val[0] == '"' && val[end] == '"'
		sq := len(val) >= 1 && val[0] == '\'' && val[end] == '\''
		switch {
		case sq || dq:
			// A lone quote is both its first and last character: JavaScript's
			// substring(1, 0) swaps its arguments and keeps the quote.
			if end >= 1 {
				val = val[1:end]
			}
			if dq {
				val = strings.ReplaceAll(val, `\n`, "\n")
			}
		default:
			val = strings.TrimFunc(val, isJSSpace)
		}
		if _, ok := vars[key]; !ok {
			keys = append(keys, key)
		}
		vars[key] = val
	}
	return vars, keys
}

func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}
