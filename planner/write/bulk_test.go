package write

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/sqlgen"
)

// TestCreateManyOneStatement: createMany writes its entries with one INSERT whatever their
// number, answers their ids in the order given, and stores each entry's own values (a key
// one entry leaves out is NULL there, not another entry's value).
func TestCreateManyOneStatement(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		svc := applyService(t, e)
		m := e.model(t, "api::article.article")
		for _, n := range []int{1, 3, 40} {
			rows := make([]map[string]any, n)
			for i := range rows {
				rows[i] = map[string]any{"title": fmt.Sprintf("bulk-%d-%02d", n, i)}
				if i%2 == 1 {
					rows[i]["summary"] = fmt.Sprintf("s-%d-%02d", n, i)
				}
			}
			var inserts int
			ctx := exec.WithTrace(context.Background(), func(st sqlgen.Stmt, _ int, _ time.Duration) {
				if strings.HasPrefix(st.SQL, "INSERT") {
					inserts++
				}
			})
			ids, err := svc.CreateMany(ctx, m, rows)
			if err != nil {
				t.Fatalf("createMany of %d: %v", n, err)
			}
			if inserts != 1 {
				t.Errorf("createMany of %d: %d INSERT statements, want 1", n, inserts)
			}
			if len(ids) != n {
				t.Fatalf("createMany of %d: ids %v", n, ids)
			}
			for i, id := range ids {
				r := e.row(t, "api::article.article", id)
				if r["title"] != rows[i]["title"] {
					t.Errorf("id %d (entry %d) has title %v, want %v", id, i, r["title"], rows[i]["title"])
				}
				if want, _ := rows[i]["summary"].(string); i%2 == 1 && r["summary"] != want || i%2 == 0 && r["summary"] != nil {
					t.Errorf("id %d (entry %d) has summary %v, want %v", id, i, r["summary"], rows[i]["summary"])
				}
			}
		}
	})
}
