package planner

import (
	"math"
	"testing"
)

// TestJSNumber: what JavaScript's Number and lodash's toNumber read as numbers, including
// the forms Go's ParseFloat reads and JavaScript does not.
func TestJSNumber(t *testing.T) {
	for s, want := range map[string]float64{
		"12": 12, "-1.5e3": -1500, ".5": 0.5, "5.": 5, "+Infinity": math.Inf(1), "-Infinity": math.Inf(-1),
		"0x1F": 31, "0b101": 5, "0o17": 15,
	} {
		if got := JSNumber(s); got != want {
			t.Errorf("JSNumber(%q) = %v, want %v", s, got, want)
		}
	}
	for _, s := range []string{"inf", "NaN", "1_000", "0x1p-2", "0x-5", "0x", "--1", "1e", "Infinityx", "12abc"} {
		if got := JSNumber(s); !math.IsNaN(got) {
			t.Errorf("JSNumber(%q) = %v, want NaN", s, got)
		}
	}
	for s, want := range map[string]bool{"": true, "  ": true, " 42 ": true, "go": false, "0x-5": false, "1e3": true} {
		if got := isJSNumber(s); got != want {
			t.Errorf("isJSNumber(%q) = %v, want %v", s, got, want)
		}
	}
}
