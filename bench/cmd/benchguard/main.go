// Command benchguard is the CI guard of the hot path: it reads `go test -bench -benchmem`
// output and fails when a budgeted benchmark allocates more per operation than
// bench/testdata/budget.json allows, or runs more SQL statements per request. Times are
// never checked: they are too noisy on shared machines (benchstat prints them instead).
//
//	go test -run '^$' -bench . -benchmem -benchtime 100x -count 6 ./bench | tee new.txt
//	go run ./bench/cmd/benchguard -budget bench/testdata/budget.json new.txt
//
// With -update it rewrites the budget from the output instead: each budgeted benchmark's
// worst allocs/op plus headroom, and each request's statements per request.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/quarrycms/quarry/bench"
)

// budgeted selects the benchmarks the budget holds: Quarry's own work. The sqlite variants
// and the raw-SQL baseline also count the allocations of the (pure Go) SQLite engine.
var budgeted = regexp.MustCompile(`^Benchmark(Parse|GraphQLParse|Plan|SQL|Front|Exec/[^/]+/replay|Handler/[^/]+/replay|HandlerPostgres/[^/]+)(/|$)`)

func main() {
	budgetPath := flag.String("budget", "bench/testdata/budget.json", "budget file")
	update := flag.Bool("update", false, "rewrite the budget from the output (with headroom) instead of checking it")
	headroom := flag.Float64("headroom", 0.15, "with -update: allowed growth over the measured allocs/op (at least 3 allocations)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: benchguard [-budget FILE] [BENCH-OUTPUT...] (stdin when none)")
		flag.PrintDefaults()
	}
	flag.Parse()
	budget, err := bench.LoadBudget(*budgetPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchguard:", err)
		os.Exit(2)
	}
	var samples []bench.Sample
	read := func(r io.Reader) {
		s, err := bench.ParseBench(r)
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchguard:", err)
			os.Exit(2)
		}
		samples = append(samples, s...)
	}
	if flag.NArg() == 0 {
		read(os.Stdin)
	}
	for _, p := range flag.Args() {
		f, err := os.Open(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchguard:", err)
			os.Exit(2)
		}
		read(f)
		f.Close()
	}
	if *update {
		if err := rewrite(*budgetPath, budget, samples, *headroom); err != nil {
			fmt.Fprintln(os.Stderr, "benchguard:", err)
			os.Exit(2)
		}
		return
	}
	violations, notes := budget.Check(samples)
	for _, n := range notes {
		fmt.Println("note:", n)
	}
	for _, v := range violations {
		fmt.Printf("FAIL %s: %s\n", v.Name, v.Message)
	}
	if len(violations) > 0 {
		fmt.Printf("benchguard: %d of %d budgeted benchmarks failed the guard (bench/testdata/budget.json)\n", len(violations), len(budget.Allocs))
		os.Exit(1)
	}
	fmt.Printf("benchguard: %d budgeted benchmarks within their allocation budget\n", len(budget.Allocs))
}

// rewrite sets the budget's allocation ceilings and statement counts from samples.
func rewrite(path string, b *bench.Budget, samples []bench.Sample, headroom float64) error {
	worst := map[string]float64{}
	b.Statements = map[string]int{}
	for _, s := range samples {
		if v, ok := s.Metrics["allocs/op"]; ok && budgeted.MatchString(s.Name) {
			worst[s.Name] = max(worst[s.Name], v)
		}
		if v, ok := s.Metrics["stmts/op"]; ok && strings.HasPrefix(s.Name, "BenchmarkRawSQL/") {
			b.Statements[strings.TrimPrefix(s.Name, "BenchmarkRawSQL/")] = int(v)
		}
	}
	if len(worst) == 0 {
		return fmt.Errorf("no budgeted benchmark in the output")
	}
	b.Allocs = map[string]int64{}
	names := make([]string, 0, len(worst))
	for n := range worst {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		v := worst[n]
		b.Allocs[n] = int64(math.Max(math.Ceil(v*(1+headroom)), v+3))
	}
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return err
	}
	fmt.Printf("benchguard: wrote %d allocation ceilings and %d statement counts to %s\n", len(b.Allocs), len(b.Statements), path)
	return nil
}
