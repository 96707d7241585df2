package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// quarry --version answers as quarry version does, with the stamped version when the release
// build set one.
func TestVersionFlag(t *testing.T) {
	buildVersion = "v9.9.9-test"
	defer func() { buildVersion = "" }()
	for _, arg := range []string{"version", "--version", "-version"} {
		var out bytes.Buffer
		if err := run(context.Background(), []string{arg}, &out, &out, func(string) string { return "" }); err != nil {
			t.Fatalf("quarry %s: %v", arg, err)
		}
		if !strings.HasPrefix(out.String(), "quarry v9.9.9-test\ncommit ") {
			t.Errorf("quarry %s: %q", arg, out.String())
		}
	}
}
