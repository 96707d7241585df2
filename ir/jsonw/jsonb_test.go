package jsonw

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonbCases are texts as PostgreSQL prints jsonb, as SQLite keeps what was stored, and
// texts the copy must hand to the decoding path.
var jsonbCases = []string{
	// PostgreSQL's jsonb output: spaces after ':' and ',', keys by length then bytes.
	`{"n": 1, "tags": ["a", "b"], "nested": {"ok": true}}`,
	`{"thumbnail": {"ext": ".jpg", "url": "/uploads/t.jpg", "width": 156, "height": 156}}`,
	`{"a": "line\nbreak \"quoted\" back\\slash tab\t \u0001 \u001f \b \f \r", "é": "€ 😀 \u2028"}`,
	`[1.0, 1.50, 100, -0, 0, -0.0, 0.000001, 0.0000001, 1e2, 1E+2, 2e-7, 123456789012345, 1234567890123456, 12345678901234567890, -999999999999999]`,
	`[1e400, -1e400, 1e-400, 9007199254740993, 1.7976931348623157e308]`,
	`{"": 0, "a": null, "b": false, "aa": [], "bb": {}, "ccc": [[[]], {}]}`,
	`  {"x" :1 ,"yy":[ 1 , 2 ]}  `,
	`"just a string"`, `42`, `true`, `null`, `[]`, `{}`,
	// Out of jsonb order or duplicated: decoded and sorted.
	`{"b": 1, "a": 2}`, `{"a": 1, "a": 2}`, `{"nested": 1, "n": 2}`, `[{"ok": 1}, {"zz": 1, "y": 2}]`,
	// Escapes Str does not write: decoded and re-escaped.
	`{"s": "\u00e9\/\u0041\u000a\u0008\u001F\ud83d\ude00\ud800"}`, `{"k\u0065y": 1}`, `{"\n": 1}`,
	"{\"bad\": \"\xff\xfe\", \"ok\": 1}", "\"\xc3\"", "{\"\xff\": 1}",
	// Invalid or trailing text: null, or what encoding/json's Decoder makes of it.
	``, ` `, `{bad`, `{"a":1,}`, `[1,]`, `01`, `1.`, `.5`, `-`, `1e`, `+1`, `"open`, `"\x"`,
	"\"raw\x01control\"", `{"a" 1}`, `[1 2]`, `tru`, `nulll`, `{"a":1} x`, `1 2`, `{"a":1}{"b":2}`,
	`"\u12"`, `"\`, `{"a":1`, `[`, `{"a"`, `NaN`, `Infinity`,
}

func TestJSONBCopyMatchesDecode(t *testing.T) {
	for _, in := range jsonbCases {
		var fast, slow Buffer
		fast.JSONB([]byte(in))
		slow.jsonbDecoded([]byte(in))
		if fast.String() != slow.String() {
			t.Errorf("JSONB(%q) = %s, decoding gives %s", in, fast.String(), slow.String())
		}
	}
}

func TestJSONBCopiesPostgresText(t *testing.T) {
	for in, want := range map[string]string{
		`{"n": 1, "tags": ["a", "b"], "nested": {"ok": true}}`: `{"n":1,"tags":["a","b"],"nested":{"ok":true}}`,
		`[1.0, 1.50, 1e2, -0, 12345678901234567890]`:           `[1,1.5,100,0,12345678901234567000]`,
		`{"a": "x\ny \u0001"}`:                                 `{"a":"x\ny \u0001"}`,
	} {
		var b Buffer
		c := compactor{b: &b, s: []byte(in)}
		if !c.document() {
			t.Errorf("%s: not copied", in)
		} else if b.String() != want {
			t.Errorf("%s: copied as %s, want %s", in, b.String(), want)
		}
	}
}

func TestJSONBAppends(t *testing.T) {
	var b Buffer
	b.WriteString(`{"x":`)
	b.JSONB([]byte(`{"b": 1, "a": 2}`)) // the decoding path must not lose what came before
	b.WriteByte(',')
	b.JSONB([]byte(`[1, {"c": 3`))
	if want := `{"x":{"a":2,"b":1},null`; b.String() != want {
		t.Errorf("got %s, want %s", b.String(), want)
	}
}

func FuzzJSONB(f *testing.F) {
	for _, in := range jsonbCases {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var fast, slow Buffer
		fast.JSONB(in)
		slow.jsonbDecoded(in)
		if fast.String() != slow.String() {
			t.Errorf("JSONB(%q) = %s, decoding gives %s", in, fast.String(), slow.String())
		}
	})
}

func BenchmarkJSONB(b *testing.B) {
	raw := []byte(`{"n": 1234, "tags": ["a", "b"], "nested": {"ok": true}}`)
	var buf Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		buf.JSONB(raw)
	}
}

// TestJSONBRandom prints random values as PostgreSQL prints jsonb (sorted keys, spaces),
// compactly and in other key orders, and compares the copy with the decode.
func TestJSONBRandom(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	copied := 0
	for n := 0; n < 20000; n++ {
		v := randomJSON(rnd, 0)
		for _, style := range []int{pgStyle, compactStyle, shuffledStyle} {
			var in strings.Builder
			writeJSONText(&in, rnd, v, style)
			var fast, slow, probe Buffer
			fast.JSONB([]byte(in.String()))
			slow.jsonbDecoded([]byte(in.String()))
			if fast.String() != slow.String() {
				t.Fatalf("JSONB(%q) = %s, decoding gives %s", in.String(), fast.String(), slow.String())
			}
			if c := (compactor{b: &probe, s: []byte(in.String())}); c.document() {
				copied++
			}
		}
	}
	if copied < 20000 {
		t.Errorf("only %d of 60000 texts took the copy", copied)
	}
}

const (
	pgStyle = iota
	compactStyle
	shuffledStyle
)

type jsonMember struct {
	key string
	val any
}

func randomJSON(rnd *rand.Rand, depth int) any {
	k := rnd.IntN(10)
	if depth > 3 && k >= 7 {
		k = rnd.IntN(7)
	}
	switch k {
	case 0:
		return nil
	case 1:
		return rnd.IntN(2) == 0
	case 2, 3:
		return randomNumber(rnd)
	case 4, 5, 6:
		return randomString(rnd)
	case 7:
		a := make([]any, rnd.IntN(4))
		for i := range a {
			a[i] = randomJSON(rnd, depth+1)
		}
		return a
	default:
		var o []jsonMember
		for i := rnd.IntN(5); i > 0; i-- {
			o = append(o, jsonMember{randomString(rnd), randomJSON(rnd, depth+1)})
		}
		return o
	}
}

// numText is a number's JSON text.
type numText string

func randomNumber(rnd *rand.Rand) numText {
	nums := []string{"0", "-0", "1", "-1", "10", "1.0", "1.50", "0.1", "1e2", "1E-7", "2.5e+21", "123456789012345",
		"1234567890123456", "-9007199254740993", "12345678901234567890", "1e400", "0.000001", "5e-324", "3.14159"}
	if rnd.IntN(3) == 0 {
		return numText(nums[rnd.IntN(len(nums))])
	}
	switch rnd.IntN(3) {
	case 0:
		return numText(strconv.FormatInt(rnd.Int64N(1<<53)-1<<52, 10))
	case 1:
		return numText(strconv.FormatFloat(rnd.NormFloat64()*math.Pow(10, float64(rnd.IntN(40)-20)), 'g', -1, 64))
	}
	return numText(strconv.Itoa(rnd.IntN(1000)) + "." + strconv.Itoa(rnd.IntN(1000)))
}

func randomString(rnd *rand.Rand) string {
	parts := []string{"a", "b", "tags", "n", "é", "€", "😀", "\u2028", "\n", "\t", "\x01", "\x1f", `"`, `\`, "/", "<", "\x7f", "ok", "nested", " "}
	var s strings.Builder
	for i := rnd.IntN(4); i > 0; i-- {
		s.WriteString(parts[rnd.IntN(len(parts))])
	}
	return s.String()
}

// writeJSONText writes v: pgStyle as PostgreSQL prints jsonb, compactStyle the same
// without spaces, shuffledStyle with keys in random order (duplicates kept) and escapes
// chosen at random.
func writeJSONText(w *strings.Builder, rnd *rand.Rand, v any, style int) {
	switch x := v.(type) {
	case nil:
		w.WriteString("null")
	case bool:
		w.WriteString(strconv.FormatBool(x))
	case string:
		if style == shuffledStyle {
			writeOddString(w, rnd, x)
		} else {
			w.WriteString(pgQuote(x))
		}
	case []any:
		w.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				w.WriteByte(',')
				if style == pgStyle {
					w.WriteByte(' ')
				}
			}
			writeJSONText(w, rnd, e, style)
		}
		w.WriteByte(']')
	case []jsonMember:
		members := slices.Clone(x)
		if style == shuffledStyle {
			rnd.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
		} else {
			// jsonb: sorted, the last of duplicates kept
			slices.SortStableFunc(members, func(a, b jsonMember) int {
				if jsonbLess(a.key, b.key) {
					return -1
				} else if jsonbLess(b.key, a.key) {
					return 1
				}
				return 0
			})
			var dedup []jsonMember
			for i, m := range members {
				if i+1 < len(members) && members[i+1].key == m.key {
					continue
				}
				dedup = append(dedup, m)
			}
			members = dedup
		}
		w.WriteByte('{')
		for i, m := range members {
			if i > 0 {
				w.WriteByte(',')
				if style == pgStyle {
					w.WriteByte(' ')
				}
			}
			writeJSONText(w, rnd, m.key, style)
			w.WriteByte(':')
			if style == pgStyle {
				w.WriteByte(' ')
			}
			writeJSONText(w, rnd, m.val, style)
		}
		w.WriteByte('}')
	case numText:
		w.WriteString(string(x))
	}
}

// pgQuote is PostgreSQL's escape_json.
func pgQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range []byte(s) {
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if c < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

func writeOddString(w *strings.Builder, rnd *rand.Rand, s string) {
	w.WriteByte('"')
	for _, r := range s {
		switch {
		case r < 0x20 || r == '"' || r == '\\' || rnd.IntN(4) == 0:
			if r > 0xffff {
				r1, r2 := utf16.EncodeRune(r)
				fmt.Fprintf(w, `\u%04X\u%04x`, r1, r2)
			} else if rnd.IntN(2) == 0 {
				fmt.Fprintf(w, `\u%04X`, r)
			} else {
				fmt.Fprintf(w, `\u%04x`, r)
			}
		default:
			w.WriteRune(r)
		}
	}
	w.WriteByte('"')
}

func TestAppendISOTime(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	zone := time.FixedZone("x", -5*3600-30*60)
	times := []time.Time{{}, time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2024, 1, 1, 0, 30, 0, 1e6-1, zone), time.Unix(0, 0)}
	for n := 0; n < 10000; n++ {
		times = append(times, time.Unix(rnd.Int64N(400e9)-200e9, rnd.Int64N(1e9)).In(zone))
	}
	// Every day the civil-date shortcut sees in the years data holds, the end of each
	// of its days, and leap days of the 100- and 400-year rules.
	for d := time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC); d.Year() < 2500; d = d.AddDate(0, 0, 1) {
		times = append(times, d, d.Add(24*time.Hour-time.Millisecond))
	}
	for _, y := range []int{2100, 2400, 4000, 9996, 9999} {
		times = append(times, time.Date(y, 2, 28, 12, 0, 0, 0, time.UTC), time.Date(y, 3, 1, 0, 0, 0, 0, time.UTC),
			time.Date(y, 12, 31, 23, 59, 59, 0, time.UTC))
	}
	for _, at := range times {
		want := at.UTC().Format("2006-01-02T15:04:05.000Z")
		if got := ISOTime(at); got != want {
			t.Errorf("ISOTime(%v) = %s, want %s", at, got, want)
		}
	}
}

// refQuote is Str written plainly, rune by rune.
func refQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\ufffd`)
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}

func TestStrEightAtATime(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	alphabet := []byte("abc XYZ 019 ~\x7f\x00\x01\x1f\x20\x21\"\\\n\t/<>\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xff\xc3\x80")
	for n := 0; n < 50000; n++ {
		s := make([]byte, rnd.IntN(40))
		for i := range s {
			if rnd.IntN(3) == 0 {
				s[i] = byte(rnd.IntN(256))
			} else {
				s[i] = alphabet[rnd.IntN(len(alphabet))]
			}
		}
		if got, want := Quote(string(s)), refQuote(string(s)); got != want {
			t.Fatalf("Quote(%q) = %s, want %s", s, got, want)
		}
	}
}

func FuzzStr(f *testing.F) {
	f.Add("plain text long enough for words")
	f.Add("tab\there \"quoted\" back\\slash é € 😀 \xff")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Quote(s), refQuote(s); got != want {
			t.Errorf("Quote(%q) = %s, want %s", s, got, want)
		}
	})
}

// pgCopyAgrees reports a difference between pgCopy and the compactor on in: whenever the
// fast path copies a text, the compactor must copy it too, to the same bytes.
func pgCopyAgrees(t *testing.T, in []byte) (copied bool) {
	t.Helper()
	var fast, general Buffer
	fast.WriteString("x") // pgCopy appends after what is there
	general.WriteString("x")
	if !fast.pgCopy(in) {
		return false
	}
	if c := (compactor{b: &general, s: in}); !c.document() {
		t.Errorf("pgCopy(%q) = %s, the compactor does not copy it", in, fast.String())
	} else if fast.String() != general.String() {
		t.Errorf("pgCopy(%q) = %s, the compactor writes %s", in, fast.String(), general.String())
	}
	return true
}

func TestPGCopy(t *testing.T) {
	for _, in := range jsonbCases {
		pgCopyAgrees(t, []byte(in))
	}
	// PostgreSQL's output and the same compact always take the fast path.
	for _, in := range []string{
		`{"n": 1, "tags": ["a", "b"], "nested": {"ok": true}}`,
		`{"thumbnail": {"ext": ".jpg", "url": "/uploads/t.jpg", "width": 156, "height": 156}}`,
		`{"a": "line\nbreak \"quoted\" back\\slash tab\t \u0001 \u001f \b \f \r", "é": "€ 😀  "}`,
		`[1.0, 1.50, 100, -0, 0, 0.000001, 12345678901234567890, -999999999999999]`,
		`{"": 0, "a": null, "b": false, "aa": [], "bb": {}, "ccc": [[[]], {}]}`,
		`{"n":1,"tags":["a","b"],"nested":{"ok":true}}`,
		`"just a string"`, `42`, `true`, `null`, `[]`, `{}`,
	} {
		if !pgCopyAgrees(t, []byte(in)) {
			t.Errorf("%s: not copied", in)
		}
	}
	// Whitespace PostgreSQL does not print, unsorted or escaped keys and depth past
	// pgMaxDepth are the compactor's.
	for _, in := range []string{
		` {}`, `{} `, `{"a" : 1}`, `{"a":  1}`, `[1 ,2]`, "[1,\n2]", `{"b": 1, "a": 2}`, `{"a": 1, "a": 2}`,
		`{"k\u0065y": 1}`, `{"\n": 1}`, `"\/"`, `"\u00e9"`, `"\u000a"`, "\"\xff\"",
		strings.Repeat("[", pgMaxDepth+2) + strings.Repeat("]", pgMaxDepth+2), // the innermost is empty
	} {
		if pgCopyAgrees(t, []byte(in)) {
			t.Errorf("%q: copied by the fast path", in)
		}
	}
	deep := strings.Repeat("[", pgMaxDepth+1) + strings.Repeat("]", pgMaxDepth+1)
	if !pgCopyAgrees(t, []byte(deep)) {
		t.Errorf("%d nested arrays: not copied", pgMaxDepth)
	}
}

// TestPGCopyRandom: random values printed as PostgreSQL prints jsonb all take the fast
// path (unless a key needs an escape), and every text it takes is copied as the compactor copies it.
func TestPGCopyRandom(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	for n := 0; n < 20000; n++ {
		v := randomJSON(rnd, 0)
		for _, style := range []int{pgStyle, compactStyle, shuffledStyle} {
			var in strings.Builder
			writeJSONText(&in, rnd, v, style)
			if !pgCopyAgrees(t, []byte(in.String())) && style == pgStyle && plainKeys(v) {
				t.Fatalf("%s: PostgreSQL's text not copied", in.String())
			}
		}
	}
}

func FuzzPGCopy(f *testing.F) {
	for _, in := range jsonbCases {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, in []byte) { pgCopyAgrees(t, in) })
}

// plainKeys reports that no object key in v needs an escape.
func plainKeys(v any) bool {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if !plainKeys(e) {
				return false
			}
		}
	case []jsonMember:
		for _, m := range x {
			if strings.ContainsFunc(m.key, func(r rune) bool { return r < 0x20 || r == '"' || r == '\\' }) || !plainKeys(m.val) {
				return false
			}
		}
	}
	return true
}
