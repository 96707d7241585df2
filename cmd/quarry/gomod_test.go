package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// go.mod and go.sum are what `go mod tidy` makes of the code: every module the code imports is
// a direct requirement and go.sum holds no stale lines (issue 28, item 17). A dependency added
// by hand or left over after a removal fails here, not on a newcomer's machine.
func TestGoModIsTidy(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go mod tidy")
	}
	cmd := exec.Command("go", "mod", "tidy", "-diff")
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if err == nil {
		return
	}
	if out.Len() == 0 {
		// No diff printed: tidy could not resolve the module graph (no module cache and no
		// network), which says nothing about the files.
		t.Skipf("go mod tidy -diff could not run: %v\n%s", err, strings.TrimSpace(errb.String()))
	}
	t.Errorf("go.mod/go.sum are not tidy; run `go mod tidy`:\n%s", out.String())
}
