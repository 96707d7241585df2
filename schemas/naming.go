package schemas

import (
	"strings"
	"unicode"
)

// SnakeCase converts a name the way lodash's snakeCase does, which is how Strapi v4 derives
// column and table names: words split at case changes, digit runs and separators.
func SnakeCase(s string) string {
	words := splitWords(s)
	for i, w := range words {
		words[i] = strings.ToLower(w)
	}
	return strings.Join(words, "_")
}

// splitWords mirrors lodash's ASCII word rules: an upper-case run followed by a capitalised
// word splits before the last capital ("XMLHttp" → XML, Http); digits form their own words.
func splitWords(s string) []string {
	var words []string
	rs := []rune(s)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			words = append(words, string(rs[start:end]))
		}
		start = -1
	}
	class := func(r rune) int {
		switch {
		case unicode.IsDigit(r):
			return 1
		case unicode.IsUpper(r):
			return 2
		case unicode.IsLetter(r):
			return 3
		}
		return 0
	}
	for i, r := range rs {
		c := class(r)
		if c == 0 {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		p := class(rs[i-1])
		switch {
		case c == 1 && p != 1, c != 1 && p == 1:
			flush(i)
			start = i
		case c == 2 && p == 3:
			flush(i)
			start = i
		case c == 3 && p == 2 && i-1 > start:
			// "HTTPServer": the S starts the next word.
			flush(i - 1)
			start = i - 1
		}
	}
	flush(len(rs))
	return words
}

// CamelCase converts a name the way lodash's camelCase does.
func CamelCase(s string) string {
	words := splitWords(s)
	var b strings.Builder
	for i, w := range words {
		w = strings.ToLower(w)
		if i > 0 {
			w = UpperFirst(w)
		}
		b.WriteString(w)
	}
	return b.String()
}

// UpperFirst upper-cases the first letter.
func UpperFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// LowerFirst lower-cases the first letter.
func LowerFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToLower(r[0])
	return string(r)
}
