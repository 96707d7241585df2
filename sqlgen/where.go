package sqlgen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/schemas"
)

// where renders a condition on alias t of model m. A condition that reaches through
// relations, components or media becomes semi-joins (see cond): Strapi joins each path once
// and keeps the rows any joined combination matches, and these forms answer the same without
// joining to-many paths into the outer statement or de-duplicating its rows.
func (r *renderer) where(m *schemas.Model, t string, e plan.Expr) (string, []any, error) {
	var b strings.Builder
	var args []any
	if err := r.cond(&b, &args, m, t, e); err != nil {
		return "", nil, err
	}
	return b.String(), args, nil
}

// cond renders e on alias t, splitting it where the existential over the joined paths
// distributes: over OR always, and over AND between conjuncts that reach through different
// first hops (their joined rows combine as a product, and a LEFT JOIN always yields a row, so
// a combination matching both exists exactly when each has a match of its own). Conjuncts
// through the same first hop stay together: Strapi compares them on the same joined row.
func (r *renderer) cond(b *strings.Builder, args *[]any, m *schemas.Model, t string, e plan.Expr) error {
	if !plan.HasPath(e) {
		return r.expr(b, args, m, t, nil, e)
	}
	switch x := e.(type) {
	case plan.Or:
		b.WriteByte('(')
		for i, c := range cheapFirst(x) {
			if i > 0 {
				b.WriteString(" OR ")
			}
			if err := r.cond(b, args, m, t, c); err != nil {
				return err
			}
		}
		b.WriteByte(')')
		return nil
	case plan.And:
		groups := conjunctGroups(x)
		if len(groups) == 1 {
			break
		}
		b.WriteByte('(')
		for i, g := range groups {
			if i > 0 {
				b.WriteString(" AND ")
			}
			var err error
			if len(g) == 1 {
				err = r.cond(b, args, m, t, g[0])
			} else {
				err = r.semi(b, args, m, t, plan.And(g))
			}
			if err != nil {
				return err
			}
		}
		b.WriteByte(')')
		return nil
	}
	return r.semi(b, args, m, t, e)
}

// conjunctGroups groups the conjuncts of a: those on the step's own row alone, and those
// through paths by the first hops they reach (one conjunct through two first hops joins
// their groups).
func conjunctGroups(a plan.And) [][]plan.Expr {
	var groups [][]plan.Expr
	var hops [][]*schemas.Attribute // each group's first hops
	for _, c := range a {
		first := firstHops(c, nil)
		if len(first) == 0 {
			groups, hops = append(groups, []plan.Expr{c}), append(hops, nil)
			continue
		}
		into := -1
		for i := 0; i < len(groups); i++ {
			if !sharesHop(hops[i], first) {
				continue
			}
			if into < 0 {
				into = i
				continue
			}
			// c joins two groups: merge the later into the first.
			groups[into] = append(groups[into], groups[i]...)
			hops[into] = append(hops[into], hops[i]...)
			groups, hops = append(groups[:i], groups[i+1:]...), append(hops[:i], hops[i+1:]...)
			i--
		}
		if into < 0 {
			groups, hops = append(groups, []plan.Expr{c}), append(hops, first)
			continue
		}
		groups[into] = append(groups[into], c)
		hops[into] = append(hops[into], first...)
	}
	return groups
}

func sharesHop(x, y []*schemas.Attribute) bool {
	for _, a := range x {
		for _, b := range y {
			if a == b {
				return true
			}
		}
	}
	return false
}

// firstHops appends the first attribute of every path e reaches through.
func firstHops(e plan.Expr, out []*schemas.Attribute) []*schemas.Attribute {
	switch x := e.(type) {
	case plan.And:
		for _, c := range x {
			out = firstHops(c, out)
		}
	case plan.Or:
		for _, c := range x {
			out = firstHops(c, out)
		}
	case plan.Not:
		out = firstHops(x.E, out)
	case *plan.Cmp:
		if len(x.Path) > 0 && !sharesHop(out, x.Path[:1]) {
			out = append(out, x.Path[0])
		}
	}
	return out
}

// semi renders one condition through paths as a semi-join. When the condition cannot hold
// on a row the LEFT JOINs extend with NULLs (nullSafe), only rows of the relation itself can
// match, so it reads the link table from the outer id with inner joins: an index lookup per
// outer row or one pass over the matching links, as each engine chooses. Otherwise (IS NULL,
// NOT, an empty $notIn, comparisons on the step's own row beside the path) it keeps Strapi's
// shape: the outer table joined along every path in a subquery.
func (r *renderer) semi(b *strings.Builder, args *[]any, m *schemas.Model, t string, e plan.Expr) error {
	first := firstHops(e, nil)
	if len(first) != 1 || !r.nullSafeAll(e) {
		return r.joined(b, args, m, t, e)
	}
	d := r.d
	a := first[0]
	j, to := r.alias("j"), r.alias("t")
	var from, src string
	var fromArgs []any
	switch a.Type {
	case schemas.Relation:
		l := a.Link
		from = fmt.Sprintf("%s %s JOIN %s %s ON %s = %s", d.Quote(l.Table), j, d.Quote(a.Target.Table), to, Col(d, to, "id"), Col(d, j, l.TargetCol))
		src = Col(d, j, l.SourceCol)
	case schemas.Media:
		from = fmt.Sprintf("%s %s JOIN %s %s ON %s = %s AND %s = ? AND %s = ?", d.Quote("files_related_morphs"), j,
			d.Quote("files"), to, Col(d, to, "id"), Col(d, j, "file_id"), Col(d, j, "related_type"), Col(d, j, "field"))
		fromArgs = []any{a.Link.MorphType, a.Name}
		src = Col(d, j, "related_id")
	case schemas.ComponentT:
		c := a.Components[0]
		from = fmt.Sprintf("%s %s JOIN %s %s ON %s = %s AND %s = ? AND %s = ?", d.Quote(a.Owner.ComponentsTable), j,
			d.Quote(c.Table), to, Col(d, to, "id"), Col(d, j, "component_id"), d.filterCol(j, "field"), d.filterCol(j, "component_type"))
		fromArgs = []any{a.Name, c.UID}
		src = Col(d, j, "entity_id")
	default:
		return r.joined(b, args, m, t, e)
	}
	paths := map[string]string{pathKey([]*schemas.Attribute{a}): to}
	var joins []string
	r.collectJoins(e, "", paths, &joins, &fromArgs, "JOIN")
	*args = append(*args, fromArgs...)
	if d.correlatedSemiJoin() {
		b.WriteString("EXISTS (SELECT 1 FROM " + from)
	} else {
		b.WriteString(Col(d, t, "id") + " IN (SELECT " + src + " FROM " + from)
	}
	for _, js := range joins {
		b.WriteByte(' ')
		b.WriteString(js)
	}
	b.WriteString(" WHERE ")
	if d.correlatedSemiJoin() {
		b.WriteString(src + " = " + Col(d, t, "id") + " AND ")
	}
	if err := r.expr(b, args, m, t, paths, e); err != nil {
		return err
	}
	b.WriteByte(')')
	return nil
}

// nullSafeAll reports whether e cannot hold on a row where any hop of its paths found
// nothing, so that inner joins drop no row Strapi's LEFT JOINs would keep.
func (r *renderer) nullSafeAll(e plan.Expr) bool {
	ok := true
	var visit func(plan.Expr)
	visit = func(x plan.Expr) {
		switch y := x.(type) {
		case plan.And:
			for _, c := range y {
				visit(c)
			}
		case plan.Or:
			for _, c := range y {
				visit(c)
			}
		case plan.Not:
			ok = false
		case *plan.Cmp:
			for i := range y.Path {
				if !nullSafe(e, y.Path[:i+1]) {
					ok = false
				}
			}
		}
	}
	visit(e)
	return ok
}

// nullSafe reports whether e is never true when the hop at the end of path found nothing
// (its columns and those of every hop after it NULL).
func nullSafe(e plan.Expr, path []*schemas.Attribute) bool {
	switch x := e.(type) {
	case plan.And:
		for _, c := range x {
			if nullSafe(c, path) {
				return true
			}
		}
		return false
	case plan.Or:
		for _, c := range x {
			if !nullSafe(c, path) {
				return false
			}
		}
		return true
	case *plan.Cmp:
		if len(x.Path) < len(path) {
			return false
		}
		for i, a := range path {
			if x.Path[i] != a {
				return false
			}
		}
		switch x.Op {
		case ir.CmpNull:
			return false
		case ir.CmpNotIn:
			return len(x.Args) > 0 // an empty list renders as 1 = 1
		}
		return true
	}
	return false // NOT, and anything on the step's own row
}

// joined renders e in Strapi's shape: the step's table joined along each path once in a
// subquery, so to-many joins never duplicate or miscount the outer rows.
func (r *renderer) joined(b *strings.Builder, args *[]any, m *schemas.Model, t string, e plan.Expr) error {
	base := r.alias("f")
	paths := map[string]string{"": base}
	var joins []string
	r.collectJoins(e, base, paths, &joins, args, "LEFT JOIN")
	d := r.d
	b.WriteString(Col(d, t, "id") + " IN (SELECT " + Col(d, base, "id") + " FROM " + d.Quote(m.Table) + " " + base)
	for _, js := range joins {
		b.WriteByte(' ')
		b.WriteString(js)
	}
	b.WriteString(" WHERE ")
	if err := r.expr(b, args, m, base, paths, e); err != nil {
		return err
	}
	b.WriteByte(')')
	return nil
}

func pathKey(path []*schemas.Attribute) string {
	var b strings.Builder
	for _, a := range path {
		b.WriteString(a.Owner.UID)
		b.WriteByte('.')
		b.WriteString(a.Name)
		b.WriteByte('/')
	}
	return b.String()
}

// collectJoins joins every hop of e's paths not yet in paths (keyed by pathKey, the empty
// key being the step's row), with join ("LEFT JOIN" or "JOIN").
func (r *renderer) collectJoins(e plan.Expr, base string, paths map[string]string, joins *[]string, args *[]any, join string) {
	switch x := e.(type) {
	case plan.And:
		for _, c := range x {
			r.collectJoins(c, base, paths, joins, args, join)
		}
	case plan.Or:
		for _, c := range x {
			r.collectJoins(c, base, paths, joins, args, join)
		}
	case plan.Not:
		r.collectJoins(x.E, base, paths, joins, args, join)
	case *plan.Cmp:
		for i := range x.Path {
			k := pathKey(x.Path[:i+1])
			if _, ok := paths[k]; ok {
				continue
			}
			from := paths[pathKey(x.Path[:i])]
			js, as, to := r.hop(from, x.Path[i], join)
			*joins = append(*joins, js...)
			*args = append(*args, as...)
			paths[k] = to
		}
	}
}

func (r *renderer) expr(b *strings.Builder, args *[]any, m *schemas.Model, t string, paths map[string]string, e plan.Expr) error {
	d := r.d
	switch x := e.(type) {
	case plan.And, plan.Or:
		var list []plan.Expr
		sep := " AND "
		if o, ok := x.(plan.Or); ok {
			list, sep = cheapFirst(o), " OR "
		} else {
			list = x.(plan.And)
		}
		b.WriteByte('(')
		for i, c := range list {
			if i > 0 {
				b.WriteString(sep)
			}
			if err := r.expr(b, args, m, t, paths, c); err != nil {
				return err
			}
		}
		b.WriteByte(')')
	case plan.Not:
		b.WriteString("NOT (")
		if err := r.expr(b, args, m, t, paths, x.E); err != nil {
			return err
		}
		b.WriteByte(')')
	case plan.Published:
		b.WriteString(Col(d, t, "published_at") + " IS NOT NULL")
	case *plan.Cmp:
		alias := t
		if len(x.Path) > 0 {
			alias = paths[pathKey(x.Path)]
		}
		col := "id"
		var typ schemas.AttrType = schemas.Integer
		if x.Attr != nil {
			col, typ = x.Attr.Column, x.Attr.Type
		}
		c := Col(d, alias, col)
		if x.Text || typ == schemas.JSON || typ == schemas.Blocks {
			c = d.asText(c)
		}
		r.cmp(b, args, c, typ, x)
	default:
		return fmt.Errorf("unknown condition %T", e)
	}
	return nil
}

func (r *renderer) cmp(b *strings.Builder, args *[]any, c string, typ schemas.AttrType, x *plan.Cmp) {
	base := r.sh.slotOf(x)
	bind := func(i int) { *args = append(*args, slot(base+i)) }
	p := "?"
	if x.Text || isText(typ) {
		p = r.d.exact("?")
	}
	switch x.Op {
	case ir.CmpNull:
		b.WriteString(c + " IS NULL")
	case ir.CmpNotNull:
		b.WriteString(c + " IS NOT NULL")
	case ir.CmpEq, ir.CmpNe, ir.CmpLt, ir.CmpLte, ir.CmpGt, ir.CmpGte:
		b.WriteString(c + " " + sqlComparison[x.Op] + " " + p)
		bind(0)
	case ir.CmpIn, ir.CmpNotIn:
		if len(x.Args) == 0 {
			if x.Op == ir.CmpIn {
				b.WriteString("1 = 0")
			} else {
				b.WriteString("1 = 1")
			}
			return
		}
		b.WriteString(c)
		if x.Op == ir.CmpNotIn {
			b.WriteString(" NOT")
		}
		b.WriteString(" IN (")
		for i := range x.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(p)
			bind(i)
		}
		b.WriteByte(')')
	case ir.CmpBetween:
		b.WriteString(c + " BETWEEN " + p + " AND " + p)
		bind(0)
		bind(1)
	case ir.CmpLike:
		b.WriteString(c + " LIKE " + r.d.exact("?"))
		bind(0)
	case ir.CmpNotLike:
		b.WriteString(c + " NOT LIKE " + r.d.exact("?"))
		bind(0)
	case ir.CmpILike:
		// Both sides lowered, then compared by bytes: case-insensitive, but not accent- or
		// space-insensitive as a MySQL collation would be.
		b.WriteString("LOWER(" + c + ") LIKE " + r.d.exact("LOWER(?)"))
		bind(0)
	case ir.CmpNotILike:
		b.WriteString("LOWER(" + c + ") NOT LIKE " + r.d.exact("LOWER(?)"))
		bind(0)
	case ir.CmpSearch:
		b.WriteString(r.d.search(c))
		bind(0)
	}
}

// sqlComparison spells the ordering and equality comparisons.
var sqlComparison = map[ir.Comparison]string{
	ir.CmpEq: "=", ir.CmpNe: "<>", ir.CmpLt: "<", ir.CmpLte: "<=", ir.CmpGt: ">", ir.CmpGte: ">=",
}

// isText reports whether an attribute type is stored as a string compared by its text.
func isText(t schemas.AttrType) bool {
	switch t {
	case schemas.String, schemas.Text, schemas.RichText, schemas.Enumeration, schemas.Email,
		schemas.UID, schemas.Password:
		return true
	}
	return false
}

// JoinedIDs renders the ids of s's model that s's condition keeps, in Strapi's own shape:
// the table joined along every path once in one subquery. The semi-join forms Select renders
// must keep exactly these rows; tests compare the two on real databases.
func JoinedIDs(d Dialect, s *plan.Select) (Stmt, error) {
	sh := newShape(d, &plan.Select{Model: s.Model, Where: s.Where}, Parents{})
	defer sh.release()
	r := &renderer{d: d, sh: sh}
	var b strings.Builder
	var args []any
	b.WriteString("SELECT " + Col(d, "t0", "id") + " FROM " + d.Quote(s.Model.Table) + " t0")
	if s.Where != nil {
		b.WriteString(" WHERE ")
		if err := r.joined(&b, &args, s.Model, "t0", s.Where); err != nil {
			return Stmt{}, err
		}
	}
	b.WriteString(" ORDER BY " + Col(d, "t0", "id"))
	sql, tmpl, err := finish(d, b.String(), args)
	if err != nil {
		return Stmt{}, err
	}
	return Stmt{SQL: sql, Args: resolve(d, tmpl, sh.vals)}, nil
}

// cheapFirst orders the alternatives of an OR by what they cost per row: comparisons of the
// row's own columns, then pattern matches (LIKE, LOWER … LIKE), then conditions through
// relations (semi-joins), keeping the request's order within each. The engines evaluate an
// OR from its left and stop at the first true arm, and do not reorder its arms themselves
// (PostgreSQL orders the conjuncts of a WHERE by cost, not the arms of an OR), so a cheap arm
// written first spares the pattern match on the rows it keeps: the bench corpus's filters
// request, (title $containsi 'go' OR views >= 50000) over 100 000 articles of which half have
// 50 000 views or more, lowers and matches half the titles instead of all of them
// (bench/README.md). OR is commutative in SQL's three-valued logic, so the rows are the same.
func cheapFirst(o plan.Or) []plan.Expr {
	sorted := true
	for i := 1; i < len(o); i++ {
		if exprCost(o[i]) < exprCost(o[i-1]) {
			sorted = false
			break
		}
	}
	if sorted {
		return o
	}
	out := make([]plan.Expr, len(o))
	copy(out, o)
	slices.SortStableFunc(out, func(a, b plan.Expr) int { return exprCost(a) - exprCost(b) })
	return out
}

// exprCost ranks a condition for cheapFirst: 0 for comparisons of the row's own columns, 1 for
// pattern matches and comparisons of a value converted to text, 2 for anything through a path.
func exprCost(e plan.Expr) int {
	switch x := e.(type) {
	case plan.And:
		return maxCost(x)
	case plan.Or:
		return maxCost(x)
	case plan.Not:
		return exprCost(x.E)
	case *plan.Cmp:
		if len(x.Path) > 0 {
			return 2
		}
		switch x.Op {
		case ir.CmpLike, ir.CmpNotLike, ir.CmpILike, ir.CmpNotILike:
			return 1
		}
		if x.Text {
			return 1
		}
	}
	return 0
}

func maxCost(list []plan.Expr) int {
	c := 0
	for _, e := range list {
		c = max(c, exprCost(e))
	}
	return c
}
