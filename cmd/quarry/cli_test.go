package main

import (
	"bytes"
	"context"
	"errors"
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
