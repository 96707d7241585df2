//go:build unix

package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The README's two commands: one serves the example app on embedded SQLite, one runs the
// tests (the one .ci/run runs). Both must stay in the README, and the first must serve.
const (
	readmeServe = "go run ./cmd/quarry serve --app ./examples/blog"
	readmeTest  = "go test ./..."
)

func TestReadmeCommands(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	cmds := shellBlocks(string(data))
	for _, want := range []string{readmeServe, readmeTest} {
		found := false
		for _, c := range cmds {
			found = found || c == want
		}
		if !found {
			t.Errorf("the README has no shell block line %q", want)
		}
	}
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ci), "go test ") || !strings.Contains(string(ci), " ./...") {
		t.Error(".ci/run no longer runs the README's test command")
	}
	if testing.Short() {
		t.Skip("runs the README's serve command")
	}

	// The serve command as written, from the repository root, on a free port; the database
	// goes to a temporary file so the run leaves nothing but the generated secrets in
	// examples/blog/.tmp (which a user's run leaves too, and .gitignore ignores).
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	f := strings.Fields(readmeServe)
	cmd := exec.Command(f[0], f[1:]...)
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port), "HOST=127.0.0.1",
		"DATABASE_FILENAME="+filepath.Join(t.TempDir(), "data.db"), "LOG_LEVEL=warn", "QUARRY_UPSTREAM=", "NODE_ENV=", "QUARRY_ENV=")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // go run's child too
	// The output goes to a file, read only on failure: no goroutine shares a buffer with the test.
	logFile, err := os.Create(filepath.Join(t.TempDir(), "serve.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	logs := func() string { b, _ := os.ReadFile(logFile.Name()); return string(b) }
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	defer func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	}()
	url := fmt.Sprintf("http://127.0.0.1:%d/_health", port)
	deadline := time.Now().Add(5 * time.Minute) // go run compiles first
	for time.Now().Before(deadline) {
		select {
		case err := <-done:
			done <- err
			t.Fatalf("%s exited: %v\n%s", readmeServe, err, logs())
		default:
		}
		if res, err := http.Get(url); err == nil {
			res.Body.Close()
			if res.StatusCode/100 == 2 {
				return
			}
		}
		time.Sleep(250 * time.Millisecond)
	}
	t.Fatalf("%s: no answer at %s\n%s", readmeServe, url, logs())
}
