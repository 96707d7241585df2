package graphql_test

import (
	"bytes"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/parser/gqlschema"
)

// TestNodeClient checks introspection with a real client: graphql-js (npm graphql) fetches
// the introspection result from a running endpoint, builds a client schema from it
// (buildClientSchema, as GraphiQL and Apollo tooling do), validates client documents and
// prints it; the printed SDL must equal Quarry's own. It needs node and npm, so it runs
// only with QUARRY_TEST_NODE=1 (CI sets it).
func TestNodeClient(t *testing.T) {
	if os.Getenv("QUARRY_TEST_NODE") != "1" {
		t.Skip("set QUARRY_TEST_NODE=1 to run the graphql-js client check")
	}
	dir, err := filepath.Abs("testdata/client")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "graphql")); err != nil {
		install := exec.Command("npm", "install", "--no-audit", "--no-fund", "--loglevel=error")
		install.Dir = dir
		if out, err := install.CombinedOutput(); err != nil {
			t.Fatalf("npm install: %v\n%s", err, out)
		}
	}
	e := newEnv(t, gqlschema.DefaultConfig())
	srv := httptest.NewServer(e.h)
	defer srv.Close()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("node", "introspect.js", srv.URL, "token")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node introspect.js: %v\n%s", err, stderr.String())
	}
	got := strings.TrimSpace(stdout.String())
	want := strings.TrimSpace(e.h.Schema().SDL())
	if got != want {
		t.Errorf("graphql-js prints a different schema from the introspection result:\n%s", lineDiff(want, got))
	}
}

// lineDiff lists the first differing lines of two texts.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	n := 0
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString("line " + itoa(i+1) + ":\n  want: " + wl + "\n  got:  " + gl + "\n")
			if n++; n > 20 {
				break
			}
		}
	}
	return b.String()
}

func itoa(i int) string { return strconv.Itoa(i) }
