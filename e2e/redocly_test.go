package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// redoclyDir holds the pinned Redocly CLI (package.json) and its rules (redocly.yaml).
const redoclyDir = "testdata/redocly"

// redoclyCLI is the Redocly CLI of testdata/redocly: installed there by npm when
// QUARRY_TEST_NODE=1 (CI sets it) and missing; the test skips only where it is absent.
func redoclyCLI(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(redoclyDir)
	if err != nil {
		t.Fatal(err)
	}
	cli := filepath.Join(dir, "node_modules", ".bin", "redocly")
	if _, err := os.Stat(cli); err != nil && os.Getenv("QUARRY_TEST_NODE") == "1" {
		install := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
		install.Dir = dir
		if out, err := install.CombinedOutput(); err != nil {
			t.Fatalf("npm ci (Redocly CLI): %v\n%s", err, out)
		}
	}
	if _, err := os.Stat(cli); err != nil {
		t.Skip("Redocly CLI not installed: set QUARRY_TEST_NODE=1 (with node and npm) to install it into e2e/testdata/redocly")
	}
	return cli
}

// TestRedoclyLint runs Redocly CLI on the OpenAPI document the server serves, for the example
// app and for an e2e project with custom routes and controllers, under Redocly's
// recommended-strict rules: every problem, warnings too, fails (issue 28, item 15). The one
// rule turned off is justified in testdata/redocly/redocly.yaml.
func TestRedoclyLint(t *testing.T) {
	cli := redoclyCLI(t)
	be := backends()[0]
	for _, p := range []struct{ name, app string }{
		{"blog", "../examples/blog"},
		{"corporate", "testdata/projects/corporate"},
	} {
		t.Run(p.name, func(t *testing.T) {
			app := copyProject(t, p.app)
			env := append(be.Env(t), "API_TOKEN_SALT=redocly-salt", "LOG_LEVEL=warn")
			srv := serve(t, env, app, "")
			st, doc := srv.doAs(t, "", "GET", "/documentation/v1.0.0/openapi.json", nil)
			if st != 200 {
				t.Fatalf("GET /documentation/v1.0.0/openapi.json: %d %s", st, doc)
			}
			file := filepath.Join(t.TempDir(), p.name+".openapi.json")
			if err := os.WriteFile(file, doc, 0o644); err != nil {
				t.Fatal(err)
			}
			dir, _ := filepath.Abs(redoclyDir)
			cmd := exec.Command(cli, "lint", "--config", filepath.Join(dir, "redocly.yaml"), "--format", "json", file)
			// No update check or usage report over the network from a test.
			cmd.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			runErr := cmd.Run()
			var report struct {
				Totals   struct{ Errors, Warnings, Ignored int }
				Problems []struct {
					RuleID, Severity, Message string
					Location                  []struct{ Pointer string }
				}
			}
			if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
				t.Fatalf("redocly lint: %v; no JSON report (%v):\n%s\n%s", runErr, err, stdout.String(), stderr.String())
			}
			for _, pr := range report.Problems {
				var at []string
				for _, l := range pr.Location {
					at = append(at, l.Pointer)
				}
				t.Errorf("%s %s: %s (%s)", pr.Severity, pr.RuleID, pr.Message, strings.Join(at, ", "))
			}
			if report.Totals.Errors+report.Totals.Warnings+report.Totals.Ignored != 0 || runErr != nil {
				t.Errorf("redocly lint: %d errors, %d warnings, %d ignored (%v)\n%s", report.Totals.Errors,
					report.Totals.Warnings, report.Totals.Ignored, runErr, stderr.String())
			}
		})
	}
}
