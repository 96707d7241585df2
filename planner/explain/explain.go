// Package explain renders a plan as data and text: the tree of steps, what each batches on,
// and each step's SQL with its bind values for a dialect, optionally with the database's
// EXPLAIN. qplan prints it; golden tests pin it.
package explain

import (
	"context"
	"fmt"
	"strings"

	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/sqlgen/database"
)

// Step is one statement of a plan.
type Step struct {
	Label string `json:"label"` // root, count, or the populated attribute
	Depth int    `json:"depth"` // populate level (root and count: 0)
	Table string `json:"table"`
	// BatchOn names the column whose values are the parent ids a child step batches on.
	BatchOn string   `json:"batchOn,omitempty"`
	Count   bool     `json:"count,omitempty"`
	SQL     string   `json:"sql"`
	Args    []string `json:"args"`
	Explain []string `json:"explain,omitempty"`

	args []any // sample bind values (parent ids [1]) for EXPLAIN
}

// Steps lists the plan's statements in execution order: root, each populate level depth
// first, then the count.
func Steps(p *plan.Plan, d sqlgen.Dialect) ([]Step, error) {
	var out []Step
	add := func(label string, s *plan.Select, depth int) error {
		st := Step{Label: label, Depth: depth, Table: s.Model.Table, Count: s.CountOnly}
		var ids []int64
		if v := s.Via; v != nil {
			ids = []int64{}
			st.Count = v.Count
			switch v.Kind {
			case plan.ViaLink:
				st.BatchOn = v.Join.Table + "." + v.Join.SourceCol
			case plan.ViaMorph:
				st.BatchOn = "files_related_morphs.related_id"
			case plan.ViaComponents:
				st.BatchOn = v.ComponentsTable + ".entity_id"
			}
		}
		stmt, err := sqlgen.Select(d, s, ids)
		if err != nil {
			return err
		}
		st.SQL = stmt.SQL
		st.Args = make([]string, len(stmt.Args))
		for i, a := range stmt.Args {
			if s.Via != nil && isParentArg(a) {
				st.Args[i] = "<parent ids>"
				continue
			}
			st.Args[i] = fmt.Sprintf("%#v", a)
		}
		if s.Via != nil {
			sample, err := sqlgen.Select(d, s, []int64{1})
			if err != nil {
				return err
			}
			st.args = sample.Args
		} else {
			st.args = stmt.Args
		}
		out = append(out, st)
		return nil
	}
	var children func(s *plan.Select, depth int) error
	children = func(s *plan.Select, depth int) error {
		for _, c := range s.Children {
			for _, cs := range c.Steps {
				label := c.Attr.Name
				if len(c.Steps) > 1 {
					label += " on " + cs.Model.UID
				}
				if err := add(label, cs, depth); err != nil {
					return err
				}
				if err := children(cs, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := add("root", p.Root, 0); err != nil {
		return nil, err
	}
	if err := children(p.Root, 1); err != nil {
		return nil, err
	}
	if p.Count != nil && !p.Root.WithTotal { // else the root counts its rows (COUNT(*) OVER ())
		if err := add("count", p.Count, 0); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func isParentArg(a any) bool {
	switch x := a.(type) {
	case []int64:
		return true
	case string:
		return x == "[]"
	}
	return false
}

// Format renders steps as an indented tree.
func Format(steps []Step) string {
	var b strings.Builder
	for _, st := range steps {
		ind := strings.Repeat("  ", st.Depth)
		kind := "select"
		if st.BatchOn != "" {
			kind = "batch by parent id via " + st.BatchOn
		}
		if st.Count {
			kind += " (count)"
		}
		fmt.Fprintf(&b, "%s- %s: %s %s\n", ind, st.Label, st.Table, kind)
		fmt.Fprintf(&b, "%s  sql: %s\n", ind, st.SQL)
		if len(st.Args) > 0 {
			fmt.Fprintf(&b, "%s  args: %s\n", ind, strings.Join(st.Args, ", "))
		}
		for _, l := range st.Explain {
			fmt.Fprintf(&b, "%s  | %s\n", ind, l)
		}
	}
	return b.String()
}

// Text renders a plan for dialect d.
func Text(p *plan.Plan, d sqlgen.Dialect) (string, error) {
	steps, err := Steps(p, d)
	if err != nil {
		return "", err
	}
	s := Format(steps)
	for _, r := range p.Removed {
		s += "removed: " + r + "\n"
	}
	return s, nil
}

// Run fills each step's Explain with the database's plan for it.
func Run(ctx context.Context, db *database.DB, steps []Step, analyze bool) error {
	for i := range steps {
		st := &steps[i]
		ex, planCol := sqlgen.Explain(db.Dialect, sqlgen.Stmt{SQL: st.SQL, Args: st.args}, analyze)
		rows, err := db.QueryxContext(ctx, ex.SQL, ex.Args...)
		if err != nil {
			return fmt.Errorf("explain %s: %w", st.Label, err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals, err := rows.SliceScan()
			if err != nil {
				rows.Close()
				return err
			}
			var parts []string
			for j, v := range vals {
				if b, ok := v.([]byte); ok {
					v = string(b)
				}
				if planCol != "" && cols[j] != planCol {
					continue
				}
				parts = append(parts, fmt.Sprint(v))
			}
			st.Explain = append(st.Explain, strings.Join(parts, " "))
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return nil
}
