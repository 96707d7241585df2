package jsonw

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/quarrycms/quarry/ir/apierror"
)

// The expected texts are what node prints for JSON.stringify / String(n) of the same values.

func TestStr(t *testing.T) {
	for in, want := range map[string]string{
		"plain":               `"plain"`,
		`a"b\c`:               `"a\"b\\c"`,
		"\n\r\t\b\f":          `"\n\r\t\b\f"`,
		"\x00\x01\x1f\x7f":    `"\u0000\u0001\u001f` + "\x7f" + `"`,
		"<script>&'":          `"<script>&'"`,
		"é € 😀":               `"é € 😀"`,
		"\u2028\u2029":        "\"\u2028\u2029\"",
		"bad \xff utf-8 \xc3": `"bad \ufffd utf-8 \ufffd"`,
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestFormatNumber(t *testing.T) {
	tenth, fifth := 0.1, 0.2
	for _, c := range []struct {
		f    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {1, "1"}, {-1.5, "-1.5"}, {tenth + fifth, "0.30000000000000004"},
		{1e21, "1e+21"}, {1.5e21, "1.5e+21"}, {123456789012345680000, "123456789012345680000"},
		{1e-6, "0.000001"}, {1e-7, "1e-7"}, {-2.5e-8, "-2.5e-8"}, {5e-324, "5e-324"},
		{math.NaN(), "NaN"}, {math.Inf(1), "Infinity"}, {math.Inf(-1), "-Infinity"},
	} {
		if got := FormatNumber(c.f); got != c.want {
			t.Errorf("FormatNumber(%v) = %s, want %s", c.f, got, c.want)
		}
	}
	var b Buffer
	b.Num(math.NaN())
	b.WriteByte(' ')
	b.Num(math.Inf(1))
	if b.String() != "null null" {
		t.Errorf("JSON numbers that are not finite: %s", b.String())
	}
}

func TestJSONBAndAny(t *testing.T) {
	var b Buffer
	b.JSONB([]byte(`{"bb":1,"a":[1.50,2e3,{"zz":null,"y":true}],"ccc":"x","b":1e-7}`))
	if want := `{"a":[1.5,2000,{"y":true,"zz":null}],"b":1e-7,"bb":1,"ccc":"x"}`; b.String() != want {
		t.Errorf("JSONB: %s, want %s", b.String(), want)
	}
	b.Reset()
	b.JSONB([]byte(`{bad`))
	if b.String() != "null" {
		t.Errorf("JSONB of bad text: %s", b.String())
	}
	b.Reset()
	at := time.Date(2024, 1, 2, 3, 4, 5, 600000000, time.FixedZone("x", 3600))
	b.Any(map[string]any{"when": at, "n": json.Number("10"), "i": 3, "list": []string{"a"}, "raw": json.RawMessage(`{"b":1,"a":2}`), "u": uint8(7)})
	if want := `{"i":3,"n":10,"u":7,"raw":{"a":2,"b":1},"list":["a"],"when":"2024-01-02T02:04:05.600Z"}`; b.String() != want {
		t.Errorf("Any: %s, want %s", b.String(), want)
	}
}

func TestEnvelope(t *testing.T) {
	var b Buffer
	b.Envelope(apierror.Validation("bad %s", "x"))
	if want := `{"data":null,"error":{"status":400,"name":"ValidationError","message":"bad x","details":{}}}`; b.String() != want {
		t.Errorf("Envelope: %s", b.String())
	}
	b.Reset()
	b.Envelope(&apierror.Error{Status: 400, Name: "ValidationError", Message: "m", Details: apierror.ValidationDetails{
		Errors: []apierror.FieldError{{Path: []string{"a", "0"}, Message: "m", Name: "ValidationError"}}}})
	if want := `{"data":null,"error":{"status":400,"name":"ValidationError","message":"m","details":{"errors":[{"path":["a","0"],"message":"m","name":"ValidationError"}]}}}`; b.String() != want {
		t.Errorf("Envelope with field errors: %s", b.String())
	}
	b.Reset()
	b.Envelope(&apierror.Error{Status: 413, Name: "PayloadTooLargeError", Message: "too large", NoDetails: true})
	if want := `{"data":null,"error":{"status":413,"name":"PayloadTooLargeError","message":"too large"}}`; b.String() != want {
		t.Errorf("Envelope without details: %s", b.String())
	}
}

// refNumber is FormatNumber through strconv alone, for finite non-zero f within plain
// decimal range.
func refNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// The shortcuts for integers and two-decimal values write what strconv's shortest
// formatting writes.
func TestFormatNumberShortcuts(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 10))
	fs := []float64{0.01, -0.01, 0.07, 0.1, 0.29, 1.005, 6.19, 157.85, 333.25, 999999999.99, 999999999.5, 1e9 - 0.01,
		123456.78, 0.015, 1.1, -2.5, 4.35, 8.675, 1e-6, 3e8, -999999999, 0.3}
	for n := 0; n < 200000; n++ {
		switch rnd.IntN(4) {
		case 0:
			fs = append(fs, float64(rnd.Int64N(2e11)-1e11)/100)
		case 1:
			fs = append(fs, float64(rnd.Int64N(2e4)-1e4)/100)
		case 2:
			fs = append(fs, (rnd.Float64()-0.5)*math.Pow(10, float64(rnd.IntN(12)-3)))
		default:
			fs = append(fs, math.Round(rnd.Float64()*1e6)/1000)
		}
	}
	for _, f := range fs {
		if f == 0 || math.Abs(f) < 1e-6 {
			continue
		}
		if got, want := FormatNumber(f), refNumber(f); got != want {
			t.Fatalf("FormatNumber(%v) = %s, want %s", f, got, want)
		}
	}
}

func FuzzFormatNumber(f *testing.F) {
	f.Add(6.19)
	f.Add(-0.07)
	f.Fuzz(func(t *testing.T, x float64) {
		if a := math.Abs(x); a < 1e-6 || a >= 1e21 || math.IsNaN(x) {
			return
		}
		if got, want := FormatNumber(x), refNumber(x); got != want {
			t.Errorf("FormatNumber(%v) = %s, want %s", x, got, want)
		}
	})
}

// BenchmarkStr writes strings of a list page's lengths: keys, slugs, titles, a body.
func BenchmarkStr(b *testing.B) {
	strs := []string{"image_58", ".jpg", "image/jpeg", "local", "relations-errors-and-migrations--1-1",
		"relations errors and migrations #1", "under load, under load. under load, without N+1 queries.",
		"## body 1\n\nat a fixed concurrency, and the same JSON. under load, without N+1 queries. Quarry serves the content API, under load.",
		"A short summary, with ünïcödé.", "a-b"}
	var buf Buffer
	for b.Loop() {
		buf.Reset()
		for _, s := range strs {
			buf.Str(s)
		}
	}
}
