package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestQplanJSON pins qplan's --json output, which users diff between versions.
func TestQplanJSON(t *testing.T) {
	cases := []struct {
		name string
		args []string
		code int
	}{
		{"two_level_populate", []string{"--dialect", "postgres", "GET /api/articles?filters[title][$containsi]=go&populate[author][populate]=*"}, 0},
		{"sqlite_dz", []string{"--dialect", "sqlite", "GET /api/articles/1?populate[blocks][on][shared.link][populate]=tag"}, 0},
		{"private_through_relation", []string{"GET /api/writers?filters[articles][secret][$eq]=x"}, 3},
		{"public_forbidden", []string{"--as", "public", "GET /api/articles"}, 3},
		{"authenticated_forbidden", []string{"--as", "authenticated", "GET /api/writers"}, 3},
		{"graphql_two_levels", []string{"--graphql", "--dialect", "postgres", "--variables", `{"n":"go"}`,
			`query Q($n: String) { articles(filters: {title: {containsi: $n}}) { data { id attributes { title author { data { attributes { name articles { data { id } } } } } } } meta { pagination { total } } } }`}, 0},
		{"graphql_invalid", []string{"--graphql", `{ articles { data { nope } } }`}, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			args := append([]string{"--app", "../../examples/blog", "--json"}, c.args...)
			db := filepath.Join(t.TempDir(), "data.db")
			getenv := func(k string) string {
				if k == "DATABASE_FILENAME" {
					return db
				}
				return ""
			}
			code, err := run(context.Background(), args, &out, getenv)
			if err != nil || code != c.code {
				t.Fatalf("exit %d (%v), want %d\n%s", code, err, c.code, out.String())
			}
			path := filepath.Join("testdata", c.name+".json")
			if *update {
				os.MkdirAll("testdata", 0o755)
				if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if !bytes.Equal(want, out.Bytes()) {
				t.Errorf("output changed:\n%s\nwant:\n%s", out.String(), want)
			}
		})
	}
}
