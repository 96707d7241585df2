package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `quarry help CMD` prints CMD's own usage (not the general one), and --version is the
// version command, as newcomers type them (issue 28, item 13).
func TestHelpAndVersionSpellings(t *testing.T) {
	noenv := func(string) string { return "" }
	cases := []struct {
		args  []string
		wants []string
		not   string
	}{
		{[]string{"help", "serve"}, []string{"quarry serve", "-port"}, "quarry tokens create"},
		{[]string{"help", "tokens", "create"}, []string{"-name", "-lifespan"}, "quarry serve"},
		{[]string{"--version"}, []string{"quarry ", "commit "}, "Usage"},
		{[]string{"version"}, []string{"quarry ", "commit "}, "Usage"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		err := run(context.Background(), c.args, &out, &errb, noenv)
		if err != nil && !errors.Is(err, errHelp) {
			t.Errorf("quarry %q: %v\n%s", c.args, err, errb.String())
			continue
		}
		for _, w := range c.wants {
			if !strings.Contains(out.String(), w) {
				t.Errorf("quarry %q: output lacks %q:\n%s", c.args, w, out.String())
			}
		}
		if strings.Contains(out.String(), c.not) {
			t.Errorf("quarry %q: output holds %q:\n%s", c.args, c.not, out.String())
		}
	}
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"help", "frob"}, &out, &errb, noenv); err == nil || !strings.Contains(err.Error(), `"frob"`) {
		t.Errorf("quarry help frob: %v", err)
	}
}

// An admin command run without the server's database settings finds no database at the
// project's default file: it says so (and how to reach the server's) rather than creating an
// empty one the server never reads; asked to, it creates it and names it (issue 28, item 10).
func TestAdminCommandFindsNoDatabase(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../../examples/blog")); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(dir, ".tmp"))
	env := map[string]string{"API_TOKEN_SALT": "salt"}
	getenv := func(k string) string { return env[k] }
	var out, errb bytes.Buffer
	err := run(context.Background(), []string{"tokens", "list", "--app", dir}, &out, &errb, getenv)
	if err == nil || !strings.Contains(err.Error(), "no database for this project") || !strings.Contains(err.Error(), "DATABASE_FILENAME") {
		t.Fatalf("tokens list without a database: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".tmp", "data.db")); err == nil {
		t.Errorf("the refused command created the database")
	}
	env["QUARRY_CREATE_DATABASE"] = "1"
	if err := run(context.Background(), []string{"tokens", "list", "--app", dir}, &out, &errb, getenv); err != nil {
		t.Fatalf("tokens list with QUARRY_CREATE_DATABASE=1: %v\n%s", err, errb.String())
	}
	if !strings.Contains(errb.String(), "database opened") || !strings.Contains(errb.String(), filepath.Join(dir, ".tmp", "data.db")) {
		t.Errorf("the command does not say which database it opened:\n%s", errb.String())
	}
}

// Under LOG_FORMAT=json the error a command stops with is a JSON record too (issue 28,
// item 12).
func TestFatalErrorAsJSON(t *testing.T) {
	var out bytes.Buffer
	getenv := func(k string) string { return map[string]string{"LOG_FORMAT": "json"}[k] }
	reportFatal(&out, []string{"serve", "--app", t.TempDir()}, getenv, errors.New("listen tcp :1337: address already in use"))
	var rec map[string]any
	if err := json.Unmarshal(out.Bytes(), &rec); err != nil || rec["level"] != "ERROR" || !strings.Contains(fmt.Sprint(rec["err"]), "already in use") {
		t.Errorf("LOG_FORMAT=json fatal error: %v %q", err, out.String())
	}
	out.Reset()
	reportFatal(&out, []string{"serve"}, func(string) string { return "" }, errors.New("boom"))
	if out.String() != "quarry: boom\n" {
		t.Errorf("text fatal error: %q", out.String())
	}
}
