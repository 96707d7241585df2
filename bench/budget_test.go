package bench

import (
	"strings"
	"testing"
)

// TestBudgetCheck: the guard holds the median of a benchmark's runs to its budget, so one
// run's stray allocations pass and a regression in every run fails.
func TestBudgetCheck(t *testing.T) {
	b := &Budget{Allocs: map[string]int64{"BenchmarkX": 60}}
	run := func(allocs ...float64) []Violation {
		var ss []Sample
		for _, a := range allocs {
			ss = append(ss, Sample{Name: "BenchmarkX", N: 100, Metrics: map[string]float64{"allocs/op": a}})
		}
		v, _ := b.Check(ss)
		return v
	}
	if v := run(55, 55, 63, 55, 55, 55); len(v) != 0 {
		t.Errorf("one stray run failed the guard: %v", v)
	}
	if v := run(63, 63, 63, 62, 61, 63); len(v) != 1 || !strings.Contains(v[0].Message, "budget 60") {
		t.Errorf("a regression in every run passed: %v", v)
	}
	if v, _ := b.Check(nil); len(v) != 1 || !strings.Contains(v[0].Message, "not run") {
		t.Errorf("a missing benchmark passed: %v", v)
	}
}
