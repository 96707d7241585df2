package sqlgen

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"

	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/schemas"
)

// Stmt is rendered SQL with its bind values.
type Stmt struct {
	SQL  string
	Args []any
}

// Column aliases the executor reads besides the model's own columns.
const (
	ParentCol = "__pid"
	OrderCol  = "__ord"
	CountCol  = "__count"
	TotalCol  = "__total"
)

// renderer carries alias numbering and value slots for one statement.
type renderer struct {
	d  Dialect
	n  int
	sh *shape
}

func (r *renderer) alias(prefix string) string {
	r.n++
	return prefix + strconv.Itoa(r.n)
}

// Select renders a plan step without caching. Child steps take the ids of their parents in
// one bind value.
func Select(d Dialect, s *plan.Select, parentIDs []int64) (Stmt, error) {
	sh := newShape(d, s, Parents{ids: parentIDs})
	defer sh.release()
	sql, tmpl, err := render(d, s, sh)
	if err != nil {
		return Stmt{}, err
	}
	return Stmt{SQL: sql, Args: resolve(d, tmpl, sh.vals)}, nil
}

// render renders a step with slots in place of its values.
func render(d Dialect, s *plan.Select, sh *shape) (string, []any, error) {
	r := &renderer{d: d, sh: sh}
	var b sq.SelectBuilder
	const t = "t0"
	table := d.Quote(s.Model.Table) + " " + t
	var orderBy []string
	var orderArgs []any
	var partition string

	if s.CountOnly {
		b = sq.Select("COUNT(*)").From(table)
	} else if s.Via != nil && s.Via.Count {
		b = sq.Select()
	} else {
		cols := make([]string, 0, len(s.Columns)+3)
		cols = append(cols, Col(d, t, "id"))
		for _, a := range s.Columns {
			cols = append(cols, Col(d, t, a.Column))
		}
		b = sq.Select(cols...).From(table)
		if s.WithTotal && s.Via == nil {
			// The window runs in a derived table of its own, so the engine reads every matching
			// row once (as the count would) and then sorts the page from them: over ORDER BY …
			// LIMIT directly PostgreSQL costs the window as if the limit stopped it early, and
			// chose nested loops over every row (100 000 articles: 360 ms against 260 ms for the
			// page and the count).
			// It keeps only the columns the page reads and sorts by: the window holds every
			// matching row.
			// A page sorted on its keys alone (deferredPage) counts over those keys only.
			if keys, ok := deferredKeys(d, s); ok {
				cols = cols[:1]
				for _, c := range keys {
					cols = append(cols, Col(d, t, c))
				}
			}
			inner := sq.Select(append(innerColumns(d, t, s, cols), "COUNT(*) OVER () AS "+TotalCol)...).From(table)
			if s.Where != nil {
				cond, args, err := r.where(s.Model, t, s.Where)
				if err != nil {
					return "", nil, err
				}
				inner = inner.Where(cond, args...)
			}
			b = sq.Select(append(cols, t+"."+TotalCol)...).FromSelect(inner, t)
		}
	}
	if v := s.Via; v != nil {
		const j = "j0"
		var pid, join string
		var joinArgs []any
		switch v.Kind {
		case plan.ViaLink:
			pid = Col(d, j, v.Join.SourceCol)
			join = fmt.Sprintf("%s %s ON %s = %s", d.Quote(v.Join.Table), j, Col(d, j, v.Join.TargetCol), Col(d, t, "id"))
			if v.Join.OrderCol != "" {
				orderBy = append(orderBy, Col(d, j, v.Join.OrderCol))
			}
			orderBy = append(orderBy, Col(d, j, "id"))
		case plan.ViaMorph:
			pid = Col(d, j, "related_id")
			join = fmt.Sprintf("%s %s ON %s = %s AND %s = ? AND %s = ?", d.Quote("files_related_morphs"), j,
				Col(d, j, "file_id"), Col(d, t, "id"), Col(d, j, "related_type"), Col(d, j, "field"))
			joinArgs = []any{v.Join.MorphType, v.Join.MorphField}
			orderBy = append(orderBy, Col(d, j, "order"), Col(d, j, "id"))
		case plan.ViaComponents:
			pid = Col(d, j, "entity_id")
			join = fmt.Sprintf("%s %s ON %s = %s AND %s = ? AND %s = ?", d.Quote(v.ComponentsTable), j,
				Col(d, j, "component_id"), Col(d, t, "id"), d.filterCol(j, "field"), d.filterCol(j, "component_type"))
			joinArgs = []any{v.Field, v.ComponentType}
			orderBy = append(orderBy, Col(d, j, "order"), Col(d, j, "id"))
			if !v.Count {
				b = b.Column(Col(d, j, "order") + " AS " + OrderCol)
			}
		}
		partition = pid
		if v.Count {
			b = b.Column(pid + " AS " + ParentCol).Column("COUNT(*) AS " + CountCol).From(table).GroupBy(pid)
		} else {
			b = b.Column(pid + " AS " + ParentCol)
		}
		b = b.Join(join, joinArgs...).Where(d.InList(pid), slot(sh.parent))
	}
	if s.Where != nil && !(s.WithTotal && s.Via == nil && !s.CountOnly) {
		cond, args, err := r.where(s.Model, t, s.Where)
		if err != nil {
			return "", nil, err
		}
		b = b.Where(cond, args...)
	}
	if !s.CountOnly && (s.Via == nil || !s.Via.Count) {
		var explicit []string
		for _, o := range s.Order {
			expr, args := r.orderExpr(s.Model, t, o)
			term, n := d.sortTerm(expr, o.Desc)
			explicit = append(explicit, term)
			for range n {
				orderArgs = append(orderArgs, args...)
			}
		}
		if len(explicit) > 0 {
			orderBy = append(explicit, orderBy...)
		}
		if s.Via == nil {
			// Strapi adds no ORDER BY without sort; Quarry orders by id so pages are stable.
			orderBy = append(orderBy, Col(d, t, "id")+" ASC")
		} else if len(orderBy) == 0 || len(explicit) > 0 {
			orderBy = append(orderBy, Col(d, t, "id")+" ASC")
		}
	}
	if s.Via != nil && !s.Via.Count && s.Limit >= 0 {
		// Limits inside populate apply per parent: number rows within each parent.
		over := "ROW_NUMBER() OVER (PARTITION BY " + partition + " ORDER BY " + strings.Join(orderBy, ", ") + ") AS __rn"
		b = b.Column(sq.Expr(over, orderArgs...))
		inner, args, err := b.ToSql()
		if err != nil {
			return "", nil, err
		}
		sql := "SELECT * FROM (" + inner + ") x WHERE x.__rn > ? AND x.__rn <= ? ORDER BY x." + ParentCol + ", x.__rn"
		args = append(args, slot(sh.offset), slot(sh.upper))
		return finish(d, sql, args)
	}
	if len(orderBy) > 0 && !s.CountOnly && (s.Via == nil || !s.Via.Count) {
		if s.Via != nil {
			orderBy = append([]string{Col(d, "j0", viaParentCol(s.Via))}, orderBy...)
		}
		b = b.OrderByClause(strings.Join(orderBy, ", "), orderArgs...)
	}
	if s.Via == nil && !s.CountOnly && s.Limit >= 0 {
		b = b.Suffix("LIMIT ? OFFSET ?", slot(sh.limit), slot(sh.offset))
		if keys, ok := deferredKeys(d, s); ok {
			return r.deferredPage(b, s, keys)
		}
	} else if s.Via == nil && !s.CountOnly && s.Offset > 0 {
		b = b.Suffix(d.offsetOnly(), slot(sh.offset))
	}
	sql, args, err := b.ToSql()
	if err != nil {
		return "", nil, err
	}
	return finish(d, sql, args)
}

// deferredKeys reports whether a root page is sorted on its sort keys alone before its rows
// are read (deferredPage), and which columns those keys are: a page without its own total,
// with or without its own total (the window then counts over the keys),
// sorted by at least one column of its own other than id, with only its own columns in the
// ORDER BY, and selecting a long value (text, rich text, blocks, JSON): a narrow page gains
// nothing from the second read. Not a page whose first key has its sort index (Order.Indexed),
// which the index serves without a sort.
func deferredKeys(d Dialect, s *plan.Select) ([]string, bool) {
	if !d.deferredPage() || s.Via != nil || s.CountOnly || s.Limit < 0 || len(s.Order) == 0 {
		return nil, false
	}
	if s.Order[0].Indexed {
		return nil, false // a walk of the sort index reads the page's rows alone
	}
	var keys []string
	for _, o := range s.Order {
		if len(o.Path) > 0 || o.Attr == nil {
			return nil, false
		}
		if o.Attr.Column != "id" && !slices.Contains(keys, o.Attr.Column) {
			keys = append(keys, o.Attr.Column)
		}
	}
	if len(keys) == 0 {
		return nil, false // sorted by id: the primary key serves the page
	}
	for _, a := range s.Columns {
		switch a.Type {
		case schemas.Text, schemas.RichText, schemas.Blocks, schemas.JSON:
			return keys, true // a long value the sort would otherwise carry for every row
		}
	}
	return nil, false
}

// deferredPage renders a root page as its sort keys' page joined back to its rows:
//
//	SELECT t0.cols FROM (SELECT t0.id, t0.keys FROM table t0 WHERE … ORDER BY … LIMIT ? OFFSET ?) k
//	JOIN table t0 ON t0.id = k.id ORDER BY k.keys…, k.id
//
// An unindexed sort reads every candidate row into the sort; with the keys alone PostgreSQL
// extracts two or three columns of each row instead of all of them, and reads the page's own
// rows by primary key afterwards (the list page sorted by publishDate at 10 000 articles: page
// and count 5.5 ms → 3.5 ms, bench/README.md). The rows and their order are the plain page's:
// the inner ORDER BY ends with the unique id, and the outer one repeats it.
func (r *renderer) deferredPage(inner sq.SelectBuilder, s *plan.Select, keys []string) (string, []any, error) {
	d := r.d
	const t, k = "t0", "k"
	cols := make([]string, 0, len(keys)+1)
	cols = append(cols, Col(d, t, "id"))
	for _, c := range keys {
		cols = append(cols, Col(d, t, c))
	}
	if s.WithTotal {
		cols = append(cols, t+"."+TotalCol)
	}
	inner = inner.RemoveColumns().Columns(cols...)
	out := make([]string, 0, len(s.Columns)+2)
	out = append(out, Col(d, t, "id"))
	for _, a := range s.Columns {
		out = append(out, Col(d, t, a.Column))
	}
	if s.WithTotal {
		out = append(out, k+"."+TotalCol)
	}
	var orderBy []string
	for _, o := range s.Order {
		expr, _ := r.orderExpr(s.Model, k, o) // own columns only: no bind values
		term, _ := d.sortTerm(expr, o.Desc)
		orderBy = append(orderBy, term)
	}
	orderBy = append(orderBy, Col(d, k, "id")+" ASC")
	b := sq.Select(out...).FromSelect(inner, k).
		Join(fmt.Sprintf("%s %s ON %s = %s", d.Quote(s.Model.Table), t, Col(d, t, "id"), Col(d, k, "id"))).
		OrderBy(strings.Join(orderBy, ", "))
	sql, args, err := b.ToSql()
	if err != nil {
		return "", nil, err
	}
	return finish(d, sql, args)
}

// KeysCarryTotal reports whether a first page s, run with its count (not its own total), would
// rather carry the total in its key scan on dialect d: a page sorted on its keys alone reads
// every candidate row's keys anyway, and counting them there replaces the count's second scan
// (the list page at 100 000 articles, page and total: 133–139 ms with the count, 86–96 ms
// carrying it; at 10 000 alike, 3.5 and 3.4 ms). Only the runner on PostgreSQL asks.
func KeysCarryTotal(d Dialect, s *plan.Select) bool {
	if s.WithTotal || s.Offset != 0 {
		return false
	}
	_, ok := deferredKeys(d, s)
	return ok
}

// innerColumns are the columns of the derived table a page with its own total reads from:
// those the page selects and those its ORDER BY names (a sort through relations names t0's
// id only).
func innerColumns(d Dialect, t string, s *plan.Select, cols []string) []string {
	out := append([]string(nil), cols...)
	for _, o := range s.Order {
		if len(o.Path) > 0 || o.Attr == nil {
			continue
		}
		c := Col(d, t, o.Attr.Column)
		found := false
		for _, x := range out {
			if x == c {
				found = true
				break
			}
		}
		if !found {
			out = append(out, c)
		}
	}
	return out
}

func viaParentCol(v *plan.Via) string {
	switch v.Kind {
	case plan.ViaMorph:
		return "related_id"
	case plan.ViaComponents:
		return "entity_id"
	}
	return v.Join.SourceCol
}

// finish converts placeholders to the dialect's.
func finish(d Dialect, sql string, args []any) (string, []any, error) {
	sql, err := d.Placeholder().ReplacePlaceholders(sql)
	if err != nil {
		return "", nil, err
	}
	return sql, args, nil
}

// bindCommon converts the planner's typed values every engine binds alike; datetimes are
// each engine's own (Dialect.Bind).
func bindCommon(v any) any {
	switch x := v.(type) {
	case time.Time:
		return x.UTC()
	case plan.Date:
		return string(x)
	case plan.TimeOfDay:
		return string(x)
	}
	return v
}

func (r *renderer) hop(from string, a *schemas.Attribute, join string) (joins []string, args []any, to string) {
	d := r.d
	j, t := r.alias("j"), r.alias("t")
	switch a.Type {
	case schemas.Relation:
		l := a.Link
		joins = append(joins,
			fmt.Sprintf(join+" %s %s ON %s = %s", d.Quote(l.Table), j, Col(d, j, l.SourceCol), Col(d, from, "id")),
			fmt.Sprintf(join+" %s %s ON %s = %s", d.Quote(a.Target.Table), t, Col(d, t, "id"), Col(d, j, l.TargetCol)))
	case schemas.Media:
		joins = append(joins,
			fmt.Sprintf(join+" %s %s ON %s = %s AND %s = ? AND %s = ?", d.Quote("files_related_morphs"), j,
				Col(d, j, "related_id"), Col(d, from, "id"), Col(d, j, "related_type"), Col(d, j, "field")),
			fmt.Sprintf(join+" %s %s ON %s = %s", d.Quote("files"), t, Col(d, t, "id"), Col(d, j, "file_id")))
		args = append(args, a.Link.MorphType, a.Name)
	case schemas.ComponentT:
		c := a.Components[0]
		joins = append(joins,
			fmt.Sprintf(join+" %s %s ON %s = %s AND %s = ? AND %s = ?", d.Quote(a.Owner.ComponentsTable), j,
				Col(d, j, "entity_id"), Col(d, from, "id"), d.filterCol(j, "field"), d.filterCol(j, "component_type")),
			fmt.Sprintf(join+" %s %s ON %s = %s", d.Quote(c.Table), t, Col(d, t, "id"), Col(d, j, "component_id")))
		args = append(args, a.Name, c.UID)
	}
	return joins, args, t
}

// orderExpr renders one ORDER BY expression. Sorting through relations uses a correlated
// subquery (MIN for ascending, MAX for descending) so to-many paths never duplicate rows.
func (r *renderer) orderExpr(m *schemas.Model, t string, o plan.Order) (string, []any) {
	d := r.d
	col := "id"
	exact := func(e string) string { return e }
	if o.Attr != nil {
		col = o.Attr.Column
		if isText(o.Attr.Type) {
			exact = d.exact
		}
	}
	if len(o.Path) == 0 {
		if o.Indexed && o.Attr != nil && d == Postgres {
			if e, ok := SortExpr(o.Attr.Type, Col(d, t, col)); ok {
				return "(" + e + ")", nil
			}
		}
		return exact(Col(d, t, col)), nil
	}
	base := r.alias("s")
	var joins []string
	var args []any
	from := base
	for _, a := range o.Path {
		js, as, to := r.hop(from, a, "LEFT JOIN")
		joins = append(joins, js...)
		args = append(args, as...)
		from = to
	}
	agg := "MIN"
	if o.Desc {
		agg = "MAX"
	}
	expr := fmt.Sprintf("(SELECT %s(%s) FROM %s %s %s WHERE %s = %s)", agg, exact(Col(d, from, col)),
		d.Quote(m.Table), base, strings.Join(joins, " "), Col(d, base, "id"), Col(d, t, "id"))
	return expr, args
}
