package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// run runs the quarry binary and returns its exit code, stdout and stderr.
func runQuarry(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, out.String(), errb.String()
	case errors.As(err, &ee):
		return ee.ExitCode(), out.String(), errb.String()
	}
	t.Fatalf("quarry %v: %v", args, err)
	return 0, "", ""
}

// Every command and subcommand prints its own usage on --help and -h, to stdout, and exits 0;
// a subcommand lists only its own flags.
func TestCLIHelp(t *testing.T) {
	cases := map[string][]string{ // args → text the usage must hold
		"serve":               {"quarry serve", "-port", "LOG_FORMAT"},
		"schema":              {"quarry schema", "-app"},
		"version":             {"quarry version"},
		"tokens":              {"create", "list", "revoke"},
		"tokens create":       {"-name", "-type", "-lifespan", "-actions"},
		"tokens list":         {"quarry tokens list", "-app"},
		"tokens revoke":       {"ID|NAME"},
		"permissions":         {"grant"},
		"permissions grant":   {"-role"},
		"permissions list":    {"-role"},
		"permissions actions": {"-app"},
		"locales":             {"default"},
		"locales add":         {"CODE"},
		"indexes":             {"quarry indexes", "-apply", "schema sync"},
	}
	for cmd, wants := range cases {
		for _, h := range []string{"--help", "-h"} {
			args := append(strings.Fields(cmd), h)
			code, out, errs := runQuarry(t, nil, args...)
			if code != 0 {
				t.Errorf("quarry %s %s: exit %d, stderr %q", cmd, h, code, errs)
			}
			for _, w := range wants {
				if !strings.Contains(out, w) {
					t.Errorf("quarry %s %s: usage lacks %q:\n%s", cmd, h, w, out)
				}
			}
			if cmd == "tokens list" && strings.Contains(out, "-name") {
				t.Errorf("quarry tokens list --help lists create's flags:\n%s", out)
			}
		}
	}
	code, out, _ := runQuarry(t, nil, "--help")
	if code != 0 || !strings.Contains(out, "quarry version") {
		t.Errorf("quarry --help: exit %d\n%s", code, out)
	}
}

func TestCLIWrongInput(t *testing.T) {
	app := copyBlog(t)
	db := "DATABASE_FILENAME=" + filepath.Join(t.TempDir(), "data.db")
	env := []string{db, "API_TOKEN_SALT=cli-salt", "DATABASE_CLIENT=sqlite"}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	busy := fmt.Sprint(l.Addr().(*net.TCPAddr).Port)
	cases := []struct {
		args  []string
		env   []string
		wants []string
	}{
		{[]string{"serve", "--app", app, "extra", "--port", "1451"}, nil, []string{`"extra"`, "quarry serve --help"}},
		{[]string{"serve", "--app", t.TempDir()}, nil, []string{"not a Strapi app folder", "src/api/<api>/content-types/<type>/schema.json", "--app"}},
		{[]string{"serve", "--app", "/does/not/exist"}, nil, []string{"/does/not/exist", "--app"}},
		{[]string{"serve", "--app", app, "--host", "127.0.0.1", "--port", busy}, nil, []string{"already in use", "--port", "PORT"}},
		{[]string{"serve", "--app", app}, []string{"LOG_LEVEL=verbose"}, []string{"LOG_LEVEL", "debug, info, warn, error"}},
		{[]string{"serve", "--app", app}, []string{"LOG_FORMAT=xml"}, []string{"LOG_FORMAT", "text, json"}},
		{[]string{"tokens", "create", "--app", app, "--name", "x", "--type", "admin"}, nil, []string{`"admin"`, "read-only, full-access, custom"}},
		{[]string{"tokens", "frob"}, nil, []string{"create, list, revoke"}},
		{[]string{"tokens", "list", "--app", app}, []string{"DATABASE_CLIENT=postgres", "DATABASE_URL=postgres://nobody@127.0.0.1:" + busy + "/none?connect_timeout=2"}, []string{"Check DATABASE_URL"}},
		{[]string{"tokens", "list", "--app", app}, []string{"DATABASE_CLIENT=mongo"}, []string{`"mongo"`, "sqlite, postgres or mysql"}},
		{[]string{"locales", "add", "--app", app, "xx-notacode"}, nil, []string{`"xx-notacode"`, "ISO code"}},
		{[]string{"locales", "add", "en-us", "--app", app}, nil, []string{`did you mean en-US`}},
	}
	for _, c := range cases {
		code, _, errs := runQuarry(t, append(append([]string{}, env...), c.env...), c.args...)
		if code == 0 {
			t.Errorf("quarry %q with %q: exit 0", c.args, c.env)
			continue
		}
		for _, w := range c.wants {
			if !strings.Contains(errs, w) {
				t.Errorf("quarry %q with %q: error lacks %q:\n%s", c.args, c.env, w, errs)
			}
		}
	}

	// A taken token name says how to list or revoke it; flags after the positional argument
	// are read.
	quarry(t, env, "tokens", "create", "--app", app, "--name", "demo")
	code, _, errs := runQuarry(t, env, "tokens", "create", "--app", app, "--name", "demo")
	if code == 0 || !strings.Contains(errs, "quarry tokens list") || !strings.Contains(errs, "quarry tokens revoke") {
		t.Errorf("taken name: exit %d, %q", code, errs)
	}
	if out := quarry(t, env, "tokens", "revoke", "demo", "--app", app); !strings.Contains(out, "revoked") {
		t.Errorf("revoke with the flag after the name: %q", out)
	}
	if out := quarry(t, env, "locales", "add", "de-CH", "--app", app); out != "" {
		t.Errorf("locales add de-CH: %q", out)
	}
	if out := quarry(t, env, "locales", "list", "--app", app); !strings.Contains(out, "de-CH") {
		t.Errorf("locales list after add: %q", out)
	}
}

func TestCLIVersion(t *testing.T) {
	out := quarry(t, nil, "version")
	for _, w := range []string{"quarry ", "commit ", "build time ", "go1."} {
		if !strings.Contains(out, w) {
			t.Errorf("version lacks %q:\n%s", w, out)
		}
	}
}

// copyBlog copies examples/blog into a temporary app folder.
func copyBlog(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	copyTree(t, "../examples/blog/src", filepath.Join(dir, "src"))
	copyTree(t, "../examples/blog/config", filepath.Join(dir, "config"))
	return dir
}

// The server serves the OpenAPI document `quarry openapi` prints.
func TestOpenAPIServed(t *testing.T) {
	be := backends()[0]
	app := copyBlog(t)
	env := append(be.Env(t), "API_TOKEN_SALT=openapi-salt", "LOG_LEVEL=warn")
	srv := serve(t, env, app, "")
	st, body := srv.doAs(t, "", "GET", "/documentation/v1.0.0/openapi.json", nil)
	if st != 200 {
		t.Fatalf("GET /documentation/v1.0.0/openapi.json: %d %s", st, body)
	}
	// The container's health check.
	if out := quarry(t, nil, "health", "--url", srv.URL+"/_health"); strings.TrimSpace(out) != "ok" {
		t.Errorf("quarry health: %q", out)
	}
	if code, _, errs := runQuarry(t, nil, "health", "--url", fmt.Sprintf("http://127.0.0.1:%d/_health", freePort(t))); code == 0 {
		t.Errorf("quarry health with no server: exit 0 (%s)", errs)
	}
	printed := quarry(t, env, "openapi", "--app", app)
	if strings.TrimSpace(printed) != strings.TrimSpace(string(body)) {
		t.Errorf("quarry openapi and the served document differ")
	}
	if !strings.Contains(printed, `"openapi": "3.0.3"`) || !strings.Contains(printed, `"/articles/{id}"`) {
		t.Errorf("not the blog's OpenAPI document:\n%.300s", printed)
	}
}

// LOG_LEVEL and LOG_FORMAT are read from the project's .env as every other setting is (the
// process environment winning), for each command that opens a project, wherever --app stands.
func TestLogSettingsFromDotenv(t *testing.T) {
	app := copyBlog(t)
	if err := os.WriteFile(filepath.Join(app, ".env"), []byte("LOG_LEVEL=loud\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"tokens", "list", "--app", app},
		{"tokens", "list", "--app=" + app},
		{"indexes", "-app", app},
	} {
		code, _, errs := runQuarry(t, nil, args...)
		if code == 0 || !strings.Contains(errs, `LOG_LEVEL="loud" is not allowed`) {
			t.Errorf("quarry %v with LOG_LEVEL=loud in .env: exit %d, stderr %q", args, code, errs)
		}
	}
	code, _, errs := runQuarry(t, []string{"LOG_LEVEL=warn", "QUARRY_CREATE_DATABASE=1"}, "tokens", "list", "--app", app)
	if code != 0 {
		t.Errorf("the process's LOG_LEVEL must win over .env's: exit %d, stderr %q", code, errs)
	}
}
