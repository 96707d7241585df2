package write

import (
	"context"
	"fmt"
	"strings"

	"github.com/quarrycms/quarry/schemas"
)

// planKey holds, in a context, the function the Writer reports its plans to.
type planKey struct{}

// WithPlanTrace returns a context under which the Writer reports the plan of each write it
// runs — what its second phase writes, once the payload is valid — as text, one line per
// row with the columns it sets, its components, relations and media. The write case files
// (planner/testdata/cases) show it.
func WithPlanTrace(ctx context.Context, fn func(plan string)) context.Context {
	return context.WithValue(ctx, planKey{}, fn)
}

// planTracer is the function ctx reports plans to, nil when none.
func planTracer(ctx context.Context) func(string) {
	fn, _ := ctx.Value(planKey{}).(func(string))
	return fn
}

// planText is an operation tree's plan.
func (op *entryOp) planText() string {
	var b strings.Builder
	op.text(&b, 0, "")
	return strings.TrimRight(b.String(), "\n")
}

// text writes the plan of one row and what hangs off it.
func (op *entryOp) text(b *strings.Builder, depth int, head string) {
	ind := strings.Repeat("  ", depth)
	cols := make([]string, len(op.cols))
	for i, c := range op.cols {
		cols[i] = c.col
	}
	verb := "insert " + op.model.Table
	if op.id != 0 {
		verb = fmt.Sprintf("update %s #%d", op.model.Table, op.id)
	}
	fmt.Fprintf(b, "%s%s%s (%s)\n", ind, head, verb, strings.Join(cols, ", "))
	for _, cf := range op.comps {
		kind := "component"
		if cf.attr.Type == schemas.DynamicZone {
			kind = "dynamic zone"
		}
		if len(cf.items) == 0 {
			fmt.Fprintf(b, "%s  %s %s: none\n", ind, kind, cf.attr.Name)
		}
		for i, it := range cf.items {
			h := fmt.Sprintf("%s %s", kind, cf.attr.Name)
			if cf.attr.Repeatable || cf.attr.Type == schemas.DynamicZone {
				h += fmt.Sprintf("[%d]", i)
			}
			if cf.attr.Type == schemas.DynamicZone {
				h += " " + it.uid
			}
			it.op.text(b, depth+1, h+": ")
		}
	}
	for _, rf := range op.rels {
		kind := "relation"
		if rf.attr.Type == schemas.Media {
			kind = "media"
		}
		var parts []string
		if rf.set {
			parts = append(parts, fmt.Sprintf("set %v", rf.ids))
		}
		if len(rf.connect) > 0 {
			ids := make([]string, len(rf.connect))
			for i, c := range rf.connect {
				ids[i] = fmt.Sprint(c.id)
				switch c.kind {
				case posStart:
					ids[i] += " at start"
				case posBefore:
					ids[i] += " before " + c.adjKey
				case posAfter:
					ids[i] += " after " + c.adjKey
				}
			}
			parts = append(parts, "connect ["+strings.Join(ids, ", ")+"]")
		}
		if len(rf.disconnect) > 0 {
			parts = append(parts, fmt.Sprintf("disconnect %v", rf.disconnect))
		}
		if len(parts) == 0 {
			parts = []string{"unchanged"}
		}
		note := ""
		if rf.attr.Unlinked {
			note = " (no link table: validated, not stored)"
		}
		fmt.Fprintf(b, "%s  %s %s: %s%s\n", ind, kind, rf.attr.Name, strings.Join(parts, ", "), note)
	}
}
