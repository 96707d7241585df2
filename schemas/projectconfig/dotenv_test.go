package projectconfig

import (
	"os"
	"reflect"
	"regexp"
	"testing"
)

// TestParseDotenv compares with what dotenv 14.2.0 (Strapi 4.26.2's) parses from
// testdata/tricky.env: node -e 'console.log(JSON.stringify(require("dotenv").parse(fs.readFileSync(f))))'.
func TestParseDotenv(t *testing.T) {
	data, err := os.ReadFile("testdata/tricky.env")
	if err != nil {
		t.Fatal(err)
	}
	got, keys := ParseDotenv(data)
	want := map[string]string{"A": "again", "C": " spaced \n two ", "D": `single \n`, "E": "unquoted", "F": "x", "G": "",
		"H": `"unterminated`, "I.J-K": "dots", "L": `a"b`, "M": "q", "N": `"`, "O": "tail", "P": "'", "Q": "bom", "R": "#notcomment"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if keys[0] != "A" || len(keys) != len(want) {
		t.Errorf("keys %q", keys)
	}
}

func FuzzParseDotenv(f *testing.F) {
	if data, err := os.ReadFile("testdata/tricky.env"); err == nil {
		f.Add(data)
	}
	f.Add([]byte("A=1\r\nB='x'\rC=\"y\\n\" # z\n"))
	key := regexp.MustCompile(`^[\w.-]+$`)
	f.Fuzz(func(t *testing.T, data []byte) {
		vars, keys := ParseDotenv(data)
		if len(vars) != len(keys) {
			t.Fatalf("%d vars, %d keys", len(vars), len(keys))
		}
		for _, k := range keys {
			if !key.MatchString(k) {
				t.Fatalf("bad key %q", k)
			}
			if _, ok := vars[k]; !ok {
				t.Fatalf("key %q has no value", k)
			}
		}
	})
}
