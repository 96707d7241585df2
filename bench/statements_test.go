package bench

import (
	"net/http"
	"strconv"
	"testing"
)

// TestStatementsPerRequest holds the number of SQL statements of every corpus request to the
// committed budget and shows it does not depend on the page size (10 and 100 entries).
func TestStatementsPerRequest(t *testing.T) {
	e, _ := envs(t)
	budget, err := LoadBudget("testdata/budget.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Corpus {
		t.Run(r.Name, func(t *testing.T) {
			counts := map[int]int{}
			for _, size := range []int{10, 100} {
				a, body := get(t, e, r, size)
				if a.status != http.StatusOK {
					t.Fatalf("page size %d: status %d: %s", size, a.status, body)
				}
				n, err := strconv.Atoi(a.stmts)
				if err != nil {
					t.Fatalf("page size %d: no statement count (%q)", size, a.stmts)
				}
				counts[size] = n
			}
			if counts[10] != counts[100] {
				t.Errorf("statements depend on the page size: %d at 10, %d at 100", counts[10], counts[100])
			}
			want, ok := budget.Statements[r.Name]
			switch {
			case !ok:
				t.Errorf("no statement budget for %q in testdata/budget.json (it runs %d)", r.Name, counts[10])
			case counts[10] > want:
				t.Errorf("%d statements per request, budget %d", counts[10], want)
			case counts[10] < want:
				t.Logf("%d statements per request, under the budget of %d: lower the budget", counts[10], want)
			}
		})
	}
}
