package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Budget is the committed ceiling of the CI guard (bench/testdata/budget.json). Allocation
// counts per operation are stable on noisy machines, unlike times, so they are what CI holds.
type Budget struct {
	Note string `json:"note,omitempty"`
	// Allocs maps a benchmark name (without the -GOMAXPROCS suffix) to its maximum
	// allocs/op.
	Allocs map[string]int64 `json:"allocs"`
	// Statements maps a corpus request to its SQL statements per request (any page size).
	Statements map[string]int `json:"statements"`
}

// LoadBudget reads a budget file.
func LoadBudget(path string) (*Budget, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var b Budget
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &b, nil
}

// Sample is one result line of `go test -bench` output.
type Sample struct {
	Name    string // without the -GOMAXPROCS suffix
	N       int64
	Metrics map[string]float64 // unit → value: ns/op, B/op, allocs/op, stmts/op, …
}

var procSuffix = regexp.MustCompile(`-\d+$`)

// ParseBench reads the result lines of `go test -bench` output (other lines are skipped).
func ParseBench(r io.Reader) ([]Sample, error) {
	var out []Sample
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") || len(f)%2 != 0 {
			continue
		}
		n, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			continue
		}
		s := Sample{Name: procSuffix.ReplaceAllString(f[0], ""), N: n, Metrics: map[string]float64{}}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			s.Metrics[f[i+1]] = v
		}
		out = append(out, s)
	}
	return out, sc.Err()
}

// Violation is one failed check of the guard.
type Violation struct {
	Name, Message string
}

// Check compares samples with the budget: every budgeted benchmark must be present and
// the median of its samples' allocs/op may not exceed its budget; an Exec benchmark's stmts/op must not
// exceed its request's statement budget. Notes report benchmarks well under their budget.
func (b *Budget) Check(samples []Sample) (violations []Violation, notes []string) {
	byName := map[string][]Sample{}
	for _, s := range samples {
		byName[s.Name] = append(byName[s.Name], s)
	}
	names := make([]string, 0, len(b.Allocs))
	for n := range b.Allocs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		limit := b.Allocs[name]
		ss := byName[name]
		if len(ss) == 0 {
			violations = append(violations, Violation{name, "not run (renamed or removed? update bench/testdata/budget.json)"})
			continue
		}
		// The median of the runs: a regression shows in every run, while one run's extra
		// allocations are the runtime's (a GC emptying sync.Pools mid-run, seen on CI as 63
		// where five runs of the same code gave 55).
		vals := make([]float64, 0, len(ss))
		for _, s := range ss {
			v, ok := s.Metrics["allocs/op"]
			if !ok {
				violations = append(violations, Violation{name, "no allocs/op (run with -benchmem)"})
				break
			}
			vals = append(vals, v)
		}
		if len(vals) == 0 {
			continue
		}
		sort.Float64s(vals)
		worst := vals[len(vals)/2]
		switch {
		case worst > float64(limit):
			violations = append(violations, Violation{name, fmt.Sprintf("%.0f allocs/op, budget %d", worst, limit)})
		case float64(limit) > max(worst*1.3, worst+5):
			notes = append(notes, fmt.Sprintf("%s: %.0f allocs/op, well under the budget of %d (tighten it)", name, worst, limit))
		}
	}
	for _, s := range samples {
		v, ok := s.Metrics["stmts/op"]
		if !ok || !strings.HasPrefix(s.Name, "BenchmarkExec/") {
			continue
		}
		req := strings.Split(strings.TrimPrefix(s.Name, "BenchmarkExec/"), "/")[0]
		if want, ok := b.Statements[req]; ok && v > float64(want) {
			violations = append(violations, Violation{s.Name, fmt.Sprintf("%.0f statements per request, budget %d", v, want)})
		}
	}
	return violations, notes
}
