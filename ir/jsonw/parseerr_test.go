package jsonw

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// TestParseErrorMatchesV8 pins messages observed from Node 20's JSON.parse (Strapi's runtime).
func TestParseErrorMatchesV8(t *testing.T) {
	cases := map[string]string{
		`{bad`:                                `Expected property name or '}' in JSON at position 1`,
		`{"a":1,}`:                            `Expected double-quoted property name in JSON at position 7`,
		`{"a" 1}`:                             `Expected ':' after property name in JSON at position 5`,
		`{"a":1 "b":2}`:                       `Expected ',' or '}' after property value in JSON at position 7`,
		`[1 2]`:                               `Expected ',' or ']' after array element in JSON at position 3`,
		``:                                    `Unexpected end of JSON input`,
		` `:                                   `Unexpected end of JSON input`,
		`{"a":`:                               `Unexpected end of JSON input`,
		`tru`:                                 `Unexpected end of JSON input`,
		`nul`:                                 `Unexpected end of JSON input`,
		`[`:                                   `Unexpected end of JSON input`,
		`[1,`:                                 `Unexpected end of JSON input`,
		`"abc\`:                               `Unexpected end of JSON input`,
		`{"a":undefined}`:                     `Unexpected token 'u', "{"a":undefined}" is not valid JSON`,
		`"abc`:                                `Unterminated string in JSON at position 4`,
		"{\"a\":\"x\u0001\"}":                 `Bad control character in string literal in JSON at position 7`,
		`01`:                                  `Unexpected number in JSON at position 1`,
		`{"a":01}`:                            `Unexpected number in JSON at position 6`,
		`{"a":-01}`:                           `Unexpected number in JSON at position 7`,
		`{"a":-}`:                             `No number after minus sign in JSON at position 6`,
		`-`:                                   `No number after minus sign in JSON at position 1`,
		`{"a":1.}`:                            `Unterminated fractional number in JSON at position 7`,
		`{"a":1e}`:                            `Exponent part is missing a number in JSON at position 7`,
		`1e+`:                                 `Exponent part is missing a number in JSON at position 3`,
		`{"a":1.5e+}`:                         `Exponent part is missing a number in JSON at position 10`,
		`{"data":{"title":"x"}}}`:             `Unexpected non-whitespace character after JSON at position 22`,
		`{"a":[1,]}`:                          `Unexpected token ']', "{"a":[1,]}" is not valid JSON`,
		`{"a":"\x"}`:                          `Bad escaped character in JSON at position 7`,
		`{"a":tr}`:                            `Unexpected token '}', "{"a":tr}" is not valid JSON`,
		`{"a":1`:                              `Expected ',' or '}' after property value in JSON at position 6`,
		`{"data":{"title":"héllo",}}`:         `Expected double-quoted property name in JSON at position 25`,
		`{"a":"\u12"}`:                        `Bad Unicode escape in JSON at position 10`,
		`{"a":"é\u12"}`:                       `Bad Unicode escape in JSON at position 11`,
		`{,}`:                                 `Expected property name or '}' in JSON at position 1`,
		`]`:                                   `Unexpected token ']', "]" is not valid JSON`,
		`{"a":1}x`:                            `Unexpected non-whitespace character after JSON at position 7`,
		`1 2`:                                 `Unexpected non-whitespace character after JSON at position 2`,
		`[1`:                                  `Expected ',' or ']' after array element in JSON at position 2`,
		`{"a"`:                                `Expected ':' after property name in JSON at position 4`,
		`{`:                                   `Expected property name or '}' in JSON at position 1`,
		`{"a":1,`:                             `Expected double-quoted property name in JSON at position 7`,
		`éx`:                                  `Unexpected token 'é', "éx" is not valid JSON`,
		`"😀" x`:                               `Unexpected non-whitespace character after JSON at position 5`,
		`{"a":.5}`:                            `Unexpected token '.', "{"a":.5}" is not valid JSON`,
		`undefined`:                           `"undefined" is not valid JSON`,
		`NaN`:                                 `"NaN" is not valid JSON`,
		`{"abcdefghijklmn":x}`:                `Unexpected token 'x', "{"abcdefghijklmn":x}" is not valid JSON`,
		`{"abcdefghijklmno":x}`:               `Unexpected token 'x', ..."hijklmno":x}" is not valid JSON`,
		`x23456789012345678901234`:            `Unexpected token 'x', "x234567890"... is not valid JSON`,
		`{"a":1,"b":[x]}12345678901234567890`: `Unexpected token 'x', ..."a":1,"b":[x]}1234567"... is not valid JSON`,
		`{"data":{"title":"abcdefghijklmnopqrstuvwxyz","x":undefined,"y":1}}`:                          `Unexpected token 'u', ..."wxyz","x":undefined,"... is not valid JSON`,
		`{"a":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,]}`: `Unexpected token ']', ...",29,30,31,]}" is not valid JSON`,
		"\t\n {\"a\":1 ,\"b\" :2 }  ": ``,
	}
	for in, want := range cases {
		if got := ParseError([]byte(in)); got != want {
			t.Errorf("%q:\n got %s\nwant %s", in, got, want)
		}
	}
}

// FuzzParseError checks the V8-worded parser accepts exactly what encoding/json accepts
// (bodies come from clients, so it must also never panic).
func FuzzParseError(f *testing.F) {
	for _, s := range []string{`{"data":{"title":"x"}}`, `{bad`, `[1,2,{"a":[null,true,false,-1.5e+3]}]`, `"\u00e9\n"`, `{"a":01}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if !utf8.Valid(src) {
			return // encoding/json and V8 differ on invalid UTF-8 in strings
		}
		msg := ParseError(src)
		if (msg == "") != json.Valid(src) {
			t.Fatalf("%q: ParseError %q, json.Valid %v", src, msg, json.Valid(src))
		}
	})
}
