package casefile

import (
	"strings"
	"testing"
)

const sample = `# A comment,
# on two lines.

request rest api::article.article
filters[title][$eq]=x
----
ir
{
  "model": "api::article.article"
}
----
plan

- root: articles select

  with a blank line inside
----
sql sqlite
root: SELECT 1
`

func TestParseAndPrint(t *testing.T) {
	f, err := Parse("sample.txt", sample)
	if err != nil {
		t.Fatal(err)
	}
	if f.Comment != "# A comment,\n# on two lines." {
		t.Errorf("comment %q", f.Comment)
	}
	if len(f.Sections) != 4 {
		t.Fatalf("%d sections, want 4: %+v", len(f.Sections), f.Sections)
	}
	in := f.Input()
	if in.Name != "request" || strings.Join(in.Args, " ") != "rest api::article.article" || in.Body != "filters[title][$eq]=x" {
		t.Errorf("input %+v", in)
	}
	if p, ok := f.Find("plan"); !ok || p.Body != "\n- root: articles select\n\n  with a blank line inside" {
		t.Errorf("plan %q", p.Body)
	}
	if s, ok := f.Find("sql sqlite"); !ok || s.Body != "root: SELECT 1" {
		t.Errorf("sql %+v", s)
	}
	again, err := Parse("sample.txt", f.String())
	if err != nil {
		t.Fatal(err)
	}
	if again.String() != f.String() {
		t.Errorf("printing is not stable:\n%s\n---\n%s", f.String(), again.String())
	}
}

func TestEmptyInput(t *testing.T) {
	f, err := Parse("x.txt", "request rest api::a.a\n----\nir\n{}\n")
	if err != nil {
		t.Fatal(err)
	}
	if f.Input().Body != "" || len(f.Sections) != 2 {
		t.Errorf("%+v", f.Sections)
	}
	if _, err := Parse("y.txt", "# only a comment\n"); err == nil {
		t.Error("a file without sections is refused")
	}
}
