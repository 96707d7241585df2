// Package casefile reads and rewrites the case files of Quarry's data-driven tests: one file
// per case, holding the request and everything the stages make of it (the IR, the plan, the
// SQL of each dialect), so that a reader sees what a request turns into in one place and a
// change to any stage shows up as a diff of text.
//
// A file is a leading comment, then sections separated by lines of four dashes. Each section
// opens with a header line (a name and arguments) and holds the text below it:
//
//	# $containsi on a relation's attribute.
//	request rest api::article.article
//	filters[author][name][$containsi]=ann
//	----
//	ir
//	{ … }
//	----
//	plan
//	- root: articles select
//	----
//	sql sqlite
//	root: SELECT …
//	----
//	sql postgres
//	root: SELECT …
//
// The first section is the input; the test computes the others. Run compares them with the
// file or, when asked to update, rewrites the file with what was computed: a new dialect adds
// its section on the next update, a section nobody computes any more goes away. Each file is a
// subtest named after it, so one case runs alone with -run 'TestCases/<name>'.
package casefile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// separator is the line between sections.
const separator = "----"

// Section is one part of a case file.
type Section struct {
	// Name is the header's first word ("request", "ir", "plan", "sql"); Args the others
	// ("rest", a model; a dialect).
	Name string
	Args []string
	// Body is the text under the header, without a final newline.
	Body string
	// Unavailable marks a section the test could not compute on this run (the database its
	// dialect runs on is not configured): the file's section is kept as it is, neither
	// compared nor dropped.
	Unavailable bool
}

// Header is the section's header line.
func (s Section) Header() string { return strings.Join(append([]string{s.Name}, s.Args...), " ") }

// File is a parsed case file.
type File struct {
	Path string
	// Comment is the text before the first section (each line starts with #).
	Comment string
	// Sections are in file order; the first is the input.
	Sections []Section
}

// Parse reads a case file's text.
func Parse(path, text string) (*File, error) {
	f := &File{Path: path}
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	i := 0
	var comment []string
	for ; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "#") || strings.TrimSpace(l) == "" {
			comment = append(comment, l)
			continue
		}
		break
	}
	f.Comment = strings.TrimSpace(strings.Join(comment, "\n"))
	var cur *Section
	var body []string
	flush := func() {
		if cur != nil {
			cur.Body = strings.TrimRight(strings.Join(body, "\n"), "\n")
			f.Sections = append(f.Sections, *cur)
		}
		cur, body = nil, nil
	}
	for ; i < len(lines); i++ {
		l := lines[i]
		if l == separator {
			flush()
			continue
		}
		if cur == nil {
			fields := strings.Fields(l)
			if len(fields) == 0 {
				continue // blank lines around separators
			}
			cur = &Section{Name: fields[0], Args: fields[1:]}
			continue
		}
		body = append(body, l)
	}
	flush()
	if len(f.Sections) == 0 {
		return nil, fmt.Errorf("%s: no sections", path)
	}
	return f, nil
}

// Read reads and parses a case file.
func Read(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, string(b))
}

// Input is the file's first section, the request the others are computed from.
func (f *File) Input() Section { return f.Sections[0] }

// Find is the section with this header, if the file has one.
func (f *File) Find(header string) (Section, bool) {
	for _, s := range f.Sections {
		if s.Header() == header {
			return s, true
		}
	}
	return Section{}, false
}

// String is the file's text.
func (f *File) String() string {
	var b strings.Builder
	if f.Comment != "" {
		b.WriteString(f.Comment)
		b.WriteString("\n")
	}
	for i, s := range f.Sections {
		if i > 0 {
			b.WriteString(separator + "\n")
		}
		b.WriteString(s.Header() + "\n")
		if s.Body != "" {
			b.WriteString(s.Body + "\n")
		}
	}
	return b.String()
}

// Run runs fn on every case file matching pattern, each as a subtest named after the file
// (without its extension). fn computes the output sections from the input; they are
// compared with the file's, or the file is rewritten with them when update is set.
func Run(t *testing.T, pattern string, update bool, fn func(t *testing.T, in Section) []Section) {
	t.Helper()
	paths, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no case files match %s", pattern)
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		t.Run(name, func(t *testing.T) {
			f, err := Read(path)
			if err != nil {
				t.Fatal(err)
			}
			got := fn(t, f.Input())
			if t.Failed() {
				return
			}
			if update {
				var kept []Section
				for _, g := range got {
					if !g.Unavailable {
						kept = append(kept, g)
					} else if old, ok := f.Find(g.Header()); ok {
						kept = append(kept, old)
					}
				}
				out := &File{Path: path, Comment: f.Comment, Sections: append([]Section{f.Input()}, kept...)}
				if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			Compare(t, f, got)
		})
	}
}

// Compare reports every computed section that differs from the file's, is missing from it,
// or that the file has and nothing computed.
func Compare(t *testing.T, f *File, got []Section) {
	t.Helper()
	computed := map[string]bool{}
	for _, g := range got {
		computed[g.Header()] = true
		if g.Unavailable {
			continue
		}
		want, ok := f.Find(g.Header())
		if !ok {
			t.Errorf("%s: no %q section (run the test with -update to add it):\n%s", f.Path, g.Header(), g.Body)
			continue
		}
		if strings.TrimSpace(want.Body) != strings.TrimSpace(g.Body) {
			t.Errorf("%s: %q changed (run the test with -update after checking the change)\n--- got\n%s\n--- want\n%s",
				f.Path, g.Header(), g.Body, want.Body)
		}
	}
	for _, s := range f.Sections[1:] {
		if !computed[s.Header()] {
			t.Errorf("%s: section %q is no longer computed (run the test with -update to drop it)", f.Path, s.Header())
		}
	}
}
