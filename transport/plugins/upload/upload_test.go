package upload

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/ir/apierror"
)

// Expected slugs were produced by @sindresorhus/slugify 1.1.0 with Strapi's options.
func TestSlugify(t *testing.T) {
	for _, c := range [][2]string{
		{"My Note", "My_Note"}, {"big", "big"}, {"HelloWORLD2", "Hello_WORLD_2"}, {"IMG_1234", "IMG_1234"},
		{"Ärger über Öl", "Aerger_ueber_Oel"}, {"café crème", "cafe_creme"}, {"naïve—résumé", "naive_resume"},
		{"a&b", "a_and_b"}, {"  spaced  out ", "spaced_out"}, {"__x__", "x"}, {"日本語", ""},
		{"Привет мир", "Privet_mir"}, {"fooBar_baz-qux", "foo_Bar_baz_qux"}, {"ABCDef", "ABC_Def"},
		{"x.y.z", "x_y_z"}, {"CamelCaseURL99x", "Camel_Case_URL_99x"}, {"ŁódźŻółć", "Lodz_Zolc"},
		{"ÆØÅ æøå ß", "AEOA_aeoa_ss"}, {"123", "123"}, {"---", ""}, {"a\u0301b", "ab"},
	} {
		if got := Slugify(c[0]); got != c[1] {
			t.Errorf("Slugify(%q) = %q, want %q", c[0], got, c[1])
		}
	}
}

func TestNames(t *testing.T) {
	for _, c := range [][2]string{{"a.png", ".png"}, {".bashrc", ""}, {"noext", ""}, {"a.b.c", ".c"}, {"a.", "."}} {
		if got := extName(c[0]); got != c[1] {
			t.Errorf("extName(%q) = %q, want %q", c[0], got, c[1])
		}
	}
	if got := baseName("tiny", ".png"); got != "tiny" {
		t.Errorf("baseName = %q", got)
	}
	if got := baseName("My Note.txt", ".txt"); got != "My Note" {
		t.Errorf("baseName = %q", got)
	}
	for _, bad := range []string{"", "a/b", "a:b", "con", "..", "x\x00y"} {
		if validFilename(bad) {
			t.Errorf("validFilename(%q) = true", bad)
		}
	}
	if KB(4846) != 4.85 || KB(12) != 0.01 || KB(1326) != 1.33 || KB(5) != 0.01 || KB(4) != 0 {
		t.Errorf("KB rounding: %v %v %v", KB(4846), KB(12), KB(1326))
	}
	if got := humanBytes(1_000_000_000); got != "1 GB" {
		t.Errorf("humanBytes = %q", got)
	}
	if got := humanBytes(2048); got != "2 KB" {
		t.Errorf("humanBytes = %q", got)
	}
}

// Sizes checked against Strapi's sharp on the same images.
func TestFitInside(t *testing.T) {
	for _, c := range [][6]int{
		{1200, 800, 245, 156, 234, 156}, {1200, 800, 1000, 1000, 1000, 667}, {1200, 800, 500, 500, 500, 333},
		{373, 2000, 1000, 1000, 187, 1000}, {373, 2000, 500, 500, 93, 500}, {373, 2000, 750, 750, 140, 750},
		{373, 2000, 245, 156, 29, 156}, {2000, 373, 245, 156, 245, 46}, {250, 100, 245, 156, 245, 98},
		{246, 157, 245, 156, 244, 156}, {501, 300, 500, 500, 500, 299}, {501, 300, 245, 156, 245, 147},
	} {
		w, h := fitInside(c[0], c[1], c[2], c[3])
		if w != c[4] || h != c[5] {
			t.Errorf("fitInside(%d×%d in %d×%d) = %d×%d, want %d×%d", c[0], c[1], c[2], c[3], w, h, c[4], c[5])
		}
	}
}

func TestParseInfos(t *testing.T) {
	s := &Service{}
	infos, err := s.ParseInfos([]string{`[{"name":"My Note.txt","caption":"cap1"},{"alternativeText":"alt2","name":5}]`}, true)
	if err != nil || len(infos) != 2 || *infos[0].Name != "My Note.txt" || *infos[0].Caption != "cap1" ||
		*infos[1].Name != "5" || *infos[1].AlternativeText != "alt2" || infos[1].Caption != nil {
		t.Fatalf("got %+v, %v", infos, err)
	}
	infos, err = s.ParseInfos([]string{`{"name":"a"}`, `{"caption":null}`}, true)
	if err != nil || len(infos) != 2 || !infos[1].HasCaption || infos[1].Caption != nil {
		t.Fatalf("got %+v, %v", infos, err)
	}
	// Type errors as Strapi 4.26.2 answers them (each compared with the oracle): yup casts a
	// fileInfo string with JSON.parse and anything but an object (an array) to null, quotes
	// objects and arrays pretty-printed, and quotes an item's original from the string the
	// array was parsed from.
	for _, c := range []struct {
		values []string
		multi  bool
		path   string
		msg    string
	}{
		{[]string{`{bad`}, false, "fileInfo", "fileInfo must be a `object` type, but the final value was: `null` (cast from the value `\"{bad\"`)."},
		{[]string{`[1,"a"]`}, false, "fileInfo", "fileInfo must be a `object` type, but the final value was: `null` (cast from the value `\"[1,\"a\"]\"`)."},
		{[]string{`5`}, false, "fileInfo", "fileInfo must be a `object` type, but the final value was: `null` (cast from the value `\"5\"`)."},
		{[]string{`{}`, `{}`}, false, "fileInfo", "fileInfo must be a `object` type, but the final value was: `null` (cast from the value `[\n  \"\\\"{}\\\"\",\n  \"\\\"{}\\\"\"\n]`)."},
		{[]string{`{"name":{"a":1}}`}, false, "fileInfo.name", "fileInfo.name must be a `string` type, but the final value was: `{\n  \"a\": \"1\"\n}`."},
		{[]string{`{"name":[1]}`}, false, "fileInfo.name", "fileInfo.name must be a `string` type, but the final value was: `[\n  \"1\"\n]`."},
		{[]string{`[5,{}]`}, true, "fileInfo.0", "fileInfo[0] must be a `object` type, but the final value was: `null` (cast from the value `\"[\"`)."},
		{[]string{`["x",{}]`}, true, "fileInfo.0", "fileInfo[0] must be a `object` type, but the final value was: `null` (cast from the value `\"[\"`)."},
		{[]string{`{"a":1}`}, true, "fileInfo", "fileInfo must be a `array` type, but the final value was: `null` (cast from the value `\"{\"a\":1}\"`)."},
		{[]string{`[{"caption":["c"]},{}]`}, true, "fileInfo.0.caption", "fileInfo[0].caption must be a `string` type, but the final value was: `[\n  \"\\\"c\\\"\"\n]`."},
	} {
		_, err := s.ParseInfos(c.values, c.multi)
		var ae *apierror.Error
		var det apierror.ValidationDetails
		if errors.As(err, &ae) {
			det, _ = ae.Details.(apierror.ValidationDetails)
		}
		if ae == nil || ae.Message != c.msg || len(det.Errors) != 1 || strings.Join(det.Errors[0].Path, ".") != c.path {
			t.Errorf("%q: got %v, want %s %s", c.values, err, c.path, c.msg)
		}
	}
}

func TestResolveMime(t *testing.T) {
	var pngBytes bytes.Buffer
	m := image.NewRGBA(image.Rect(0, 0, 2, 2))
	m.Set(0, 0, color.RGBA{255, 0, 0, 255})
	png.Encode(&pngBytes, m)
	for _, c := range []struct {
		declared, name string
		content        []byte
		want           string
		fails          bool
	}{
		{"image/png", "a.png", pngBytes.Bytes(), "image/png", false},
		{"", "a.png", pngBytes.Bytes(), "image/png", false},
		{"application/octet-stream", "a.bin", pngBytes.Bytes(), "application/octet-stream", false},
		{"image/jpeg", "a.jpg", pngBytes.Bytes(), "image/jpeg", false},
		{"text/plain", "a.txt", []byte("hello"), "text/plain", false},
		{"", "a.txt", []byte("hello"), "text/plain", false},
		{"image/png", "a.png", []byte("hello world"), "", true},
		{"video/mp4", "a.mp4", pngBytes.Bytes(), "", true},
		{"video/mp4", "a.mp4", []byte("just text"), "", true},
		{"application/pdf", "a.pdf", []byte("%PDF-1.4\n"), "application/pdf", false},
	} {
		got, _, err := resolveMime(c.declared, c.name, c.content)
		if (err != nil) != c.fails || got != c.want {
			t.Errorf("resolveMime(%q, %q) = %q, %v; want %q (fails %v)", c.declared, c.name, got, err, c.want, c.fails)
		}
	}
}

func TestSVGSize(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		svg  string
		w, h int
	}{
		{`<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"/>`, 100, 50},
		{`<?xml version="1.0"?><svg viewBox="0 0 30 20"></svg>`, 30, 20},
		{`<svg width="60px" viewBox="0 0 30 20"></svg>`, 60, 40},
	} {
		p := filepath.Join(dir, "a.svg")
		os.WriteFile(p, []byte(c.svg), 0o644)
		ii, err := probe(p, "image/svg+xml")
		if err != nil || ii == nil || ii.width != c.w || ii.height != c.h {
			t.Errorf("%s: got %+v %v", c.svg, ii, err)
		}
	}
}
