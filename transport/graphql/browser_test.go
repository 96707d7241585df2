package graphql_test

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/quarrycms/quarry/parser/gqlschema"
)

// TestPlaygroundInChromium loads the playground in headless Chromium (Debian's chromium,
// --headless --no-sandbox), lets it press its run button and checks the answer is on the
// page: the embedded assets load without any network beyond the server, and the page's
// fetcher talks to the endpoint. Skipped when chromium is not installed.
func TestPlaygroundInChromium(t *testing.T) {
	bin := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		t.Skip("chromium is not installed (apt-get install chromium)")
	}
	e := newEnv(t, gqlschema.DefaultConfig())
	srv := httptest.NewServer(e.h)
	defer srv.Close()
	// One retry: a loaded CI machine can starve the browser's first start.
	var dom, stderr string
	for attempt := 0; attempt < 2; attempt++ {
		dom, stderr = runChromium(t, bin, srv.URL+"/graphql#quarry-selftest")
		if resultShown(dom) {
			return
		}
	}
	if os.Getenv("QUARRY_TEST_VERBOSE") != "" {
		t.Logf("%s", dom)
	}
	if !strings.Contains(dom, "graphiql-container") {
		t.Fatalf("GraphiQL did not render:\n%.2000s\n%s", dom, stderr)
	}
	t.Fatalf("the query's answer is not in the result pane")
}

func runChromium(t *testing.T, bin, url string) (dom, stderr string) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--user-data-dir="+t.TempDir(), "--virtual-time-budget=20000", "--dump-dom", url)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Logf("chromium: %v", err)
	}
	return out.String(), errb.String()
}

// resultShown reports whether the result pane (CodeMirror, one span per token) shows
// {"data": {"__typename": "Query"}}.
func resultShown(dom string) bool {
	i := strings.Index(dom, "result-window")
	return i >= 0 && strings.Contains(dom[i:], `>"data"<`) && strings.Contains(dom[i:], `>"__typename"<`) && strings.Contains(dom[i:], `>"Query"<`)
}
