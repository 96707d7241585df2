// Package explain renders a plan as text: the tree of steps, what each batches on, and each
// step's SQL with its bind values for a dialect. qplan prints it; golden tests pin it.
package explain

import (
	"fmt"
	"strings"

	"quarry/planner"
	"quarry/sqlgen"
)

// Text renders the plan for dialect d. Child steps show their parent-id parameter as the
// placeholder list [parent ids].
func Text(p *planner.Plan, d *sqlgen.Dialect) (string, error) {
	var b strings.Builder
	if err := step(&b, d, "root", p.Root, 0, false); err != nil {
		return "", err
	}
	if err := children(&b, d, p.Root, 1); err != nil {
		return "", err
	}
	if p.Count != nil {
		if err := step(&b, d, "count", p.Count, 0, false); err != nil {
			return "", err
		}
	}
	for _, r := range p.Removed {
		fmt.Fprintf(&b, "removed: %s\n", r)
	}
	return b.String(), nil
}

func children(b *strings.Builder, d *sqlgen.Dialect, s *planner.Select, depth int) error {
	for _, c := range s.Children {
		for _, st := range c.Steps {
			label := c.Attr.Name
			if len(c.Steps) > 1 {
				label += " on " + st.Model.UID
			}
			if err := step(b, d, label, st, depth, true); err != nil {
				return err
			}
			if err := children(b, d, st, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

func step(b *strings.Builder, d *sqlgen.Dialect, label string, s *planner.Select, depth int, child bool) error {
	ind := strings.Repeat("  ", depth)
	var ids []int64
	kind := "select"
	if s.CountOnly {
		kind = "count"
	}
	if child {
		kind = "batch by parent id"
		switch s.Via.Kind {
		case planner.ViaLink:
			kind += " via " + s.Via.Join.Table + "." + s.Via.Join.SourceCol
		case planner.ViaMorph:
			kind += " via files_related_morphs.related_id"
		case planner.ViaComponents:
			kind += " via " + s.Via.ComponentsTable + ".entity_id"
		}
		if s.Via.Count {
			kind += " (count)"
		}
		ids = []int64{}
	}
	st, err := d.Select(s, ids)
	if err != nil {
		return err
	}
	fmt.Fprintf(b, "%s- %s: %s %s\n", ind, label, s.Model.Table, kind)
	fmt.Fprintf(b, "%s  sql: %s\n", ind, st.SQL)
	if len(st.Args) > 0 {
		args := make([]string, len(st.Args))
		for i, a := range st.Args {
			if child && i == parentArgIndex(st) {
				args[i] = "[parent ids]"
				continue
			}
			args[i] = fmt.Sprintf("%#v", a)
		}
		fmt.Fprintf(b, "%s  args: %s\n", ind, strings.Join(args, ", "))
	}
	return nil
}

// parentArgIndex finds the bind value that carries the parent ids (an empty list here).
func parentArgIndex(st sqlgen.Stmt) int {
	for i, a := range st.Args {
		switch x := a.(type) {
		case []int64:
			return i
		case string:
			if x == "[]" {
				return i
			}
		}
	}
	return -1
}
