package main

import (
	"bytes"
	"context"
	"flag"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/ir/casefile"
)

var update = flag.Bool("update", false, "rewrite the case files in testdata/cases")

// TestQplanJSON pins qplan's --json output, which users diff between versions. Each case
// file of testdata/cases holds qplan's arguments (one a line, after --app examples/blog
// --json), its exit code and its output; -update rewrites them, -run 'TestQplanJSON/<name>'
// runs one.
func TestQplanJSON(t *testing.T) {
	casefile.Run(t, "testdata/cases/*.txt", *update, func(t *testing.T, in casefile.Section) []casefile.Section {
		if in.Name != "qplan" {
			t.Fatalf("the first section is `qplan` with the arguments below, not %q", in.Header())
		}
		var out bytes.Buffer
		args := append([]string{"--app", "../../examples/blog", "--json"}, strings.Split(in.Body, "\n")...)
		db := filepath.Join(t.TempDir(), "data.db")
		getenv := func(k string) string {
			if k == "DATABASE_FILENAME" {
				return db
			}
			return ""
		}
		code, err := run(context.Background(), args, &out, getenv)
		if err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		return []casefile.Section{
			{Name: "exit", Body: strconv.Itoa(code)},
			{Name: "json", Body: strings.TrimRight(out.String(), "\n")},
		}
	})
}

// qplan --help is a request for the usage, answered on stdout with exit 0; the usage names
// every dialect; without --app outside an app folder the error says to pass --app (issue 28,
// item 13).
func TestQplanUsage(t *testing.T) {
	noenv := func(string) string { return "" }
	for _, h := range []string{"--help", "-h"} {
		var out bytes.Buffer
		code, err := run(context.Background(), []string{h}, &out, noenv)
		if code != 0 || err != nil {
			t.Errorf("qplan %s: exit %d, %v", h, code, err)
		}
		if !strings.Contains(out.String(), "sqlite|postgres|mysql") {
			t.Errorf("qplan %s: usage lacks the mysql dialect:\n%s", h, out.String())
		}
	}
	t.Chdir(t.TempDir())
	var out bytes.Buffer
	code, err := run(context.Background(), []string{"GET /api/articles"}, &out, noenv)
	if code == 0 || err == nil || !strings.Contains(err.Error(), "--app DIR") || strings.Contains(err.Error(), "stat ") {
		t.Errorf("qplan without --app: exit %d, %v", code, err)
	}
}
