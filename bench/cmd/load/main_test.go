package main

import (
	"flag"
	"io"
	"slices"
	"testing"
)

// -cache keeps working bare (on) and takes off, on and both with "=" or as the next word.
func TestCacheFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want cacheMode
		rest []string
	}{
		{nil, cacheBoth, nil},
		{[]string{"-cache"}, cacheOn, nil},
		{[]string{"-cache", "-rounds", "3"}, cacheOn, nil},
		{[]string{"-cache=false"}, cacheOff, nil},
		{[]string{"-cache=both"}, cacheBoth, nil},
		{[]string{"-cache", "both", "-rounds", "3"}, cacheBoth, nil},
		{[]string{"-cache", "off"}, cacheOff, nil},
		{[]string{"-cache", "on"}, cacheOn, nil},
		{[]string{"-cache", "maybe"}, cacheOn, []string{"maybe"}},
	} {
		fs := flag.NewFlagSet("load", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		m := cacheBoth
		fs.Var(&m, "cache", "")
		fs.Int("rounds", 1, "")
		if err := fs.Parse(joinCacheValue(c.args)); err != nil {
			t.Errorf("%q: %v", c.args, err)
			continue
		}
		if m != c.want || !slices.Equal(fs.Args(), c.rest) {
			t.Errorf("%q: cache %s, args %q; want %s, %q", c.args, m, fs.Args(), c.want, c.rest)
		}
	}
	var m cacheMode
	if err := m.Set("sometimes"); err == nil {
		t.Error("Set accepts sometimes")
	}
}
