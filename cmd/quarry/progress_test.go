package main

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// clock is a progress clock the test moves by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time       { return c.t }
func (c *clock) step(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *clock                { return &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }
func lines(s string) []string         { return strings.Split(strings.TrimSpace(s), "\n") }
func hasAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// TestProgressBar: on a terminal the bar is redrawn in place with counts, bytes, rate and
// time left, and a finished stage ends its line.
func TestProgressBar(t *testing.T) {
	var out bytes.Buffer
	c := newClock()
	p := &progress{w: &out, log: slog.New(slog.DiscardHandler), bar: true, every: 100 * time.Millisecond, now: c.now,
		action: "import", starts: map[string]time.Time{}}
	p.update("entities", 0, 100, 0, 0, false)
	c.step(time.Second)
	p.update("entities", 50, 100, 0, 0, false)
	c.step(10 * time.Millisecond)
	p.update("entities", 51, 100, 0, 0, false) // within the redraw interval: not drawn
	c.step(time.Second)
	p.update("entities", 100, 100, 0, 0, true)
	p.update("assets", 1, 2, 1<<20, 2<<20, false)
	p.done()
	s := out.String()
	if !hasAll(s, "\r\033[K", "[==============              ] 50/100 50/s ETA 1s", "100/100", "1/2 (1.0 MiB/2.0 MiB)") {
		t.Errorf("bar:\n%q", s)
	}
	if strings.Contains(s, "51/100") {
		t.Errorf("redrawn within the interval:\n%q", s)
	}
	if n := strings.Count(s, "\n"); n != 2 {
		t.Errorf("%d line ends, want one per stage:\n%q", n, s)
	}
}

// TestProgressLines: without a terminal, a log line every interval and one when a stage
// ends; with LOG_FORMAT=json those lines are JSON.
func TestProgressLines(t *testing.T) {
	var out bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&out, nil))
	p := newProgress("export", &bytes.Buffer{}, log, func(k string) string {
		if k == "LOG_FORMAT" {
			return "json"
		}
		return ""
	})
	c := newClock()
	p.now = c.now
	p.update("entities", 0, 10, 0, 0, false)
	c.step(time.Second)
	p.update("entities", 3, 10, 0, 0, false) // under the 2 s interval
	c.step(2 * time.Second)
	p.update("entities", 6, 10, 0, 0, false)
	c.step(time.Second)
	p.update("entities", 10, 10, 0, 0, true)
	got := lines(out.String())
	if len(got) != 2 {
		t.Fatalf("%d lines, want a progress line and a stage-done line:\n%s", len(got), out.String())
	}
	var first, last map[string]any
	if json.Unmarshal([]byte(got[0]), &first) != nil || json.Unmarshal([]byte(got[1]), &last) != nil {
		t.Fatalf("not JSON:\n%s", out.String())
	}
	if first["msg"] != "export progress" || first["done"] != 6.0 || first["total"] != 10.0 || first["eta_s"] != 2.0 {
		t.Errorf("progress line: %v", first)
	}
	if last["msg"] != "export stage done" || last["done"] != 10.0 {
		t.Errorf("stage-done line: %v", last)
	}
}
