package sqlgen

import (
	"fmt"
	"strings"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/schemas"
)

// where renders a condition on alias t of model m. A condition that reaches through
// relations, components or media runs in a subquery that joins each path once (as Strapi
// joins them), so to-many joins never duplicate or miscount the outer rows.
func (r *renderer) where(m *schemas.Model, t string, e plan.Expr) (string, []any, error) {
	if !plan.HasPath(e) {
		var b strings.Builder
		var args []any
		if err := r.expr(&b, &args, m, t, nil, e); err != nil {
			return "", nil, err
		}
		return b.String(), args, nil
	}
	base := r.alias("f")
	paths := map[string]string{"": base}
	var joins []string
	var joinArgs []any
	r.collectJoins(e, base, paths, &joins, &joinArgs)
	var b strings.Builder
	var args []any
	if err := r.expr(&b, &args, m, base, paths, e); err != nil {
		return "", nil, err
	}
	d := r.d
	sql := fmt.Sprintf("%s IN (SELECT %s FROM %s %s %s WHERE %s)", Col(d, t, "id"), Col(d, base, "id"),
		d.Quote(m.Table), base, strings.Join(joins, " "), b.String())
	return sql, append(joinArgs, args...), nil
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

func (r *renderer) collectJoins(e plan.Expr, base string, paths map[string]string, joins *[]string, args *[]any) {
	switch x := e.(type) {
	case plan.And:
		for _, c := range x {
			r.collectJoins(c, base, paths, joins, args)
		}
	case plan.Or:
		for _, c := range x {
			r.collectJoins(c, base, paths, joins, args)
		}
	case plan.Not:
		r.collectJoins(x.E, base, paths, joins, args)
	case *plan.Cmp:
		for i := range x.Path {
			k := pathKey(x.Path[:i+1])
			if _, ok := paths[k]; ok {
				continue
			}
			from := paths[pathKey(x.Path[:i])]
			js, as, to := r.hop(from, x.Path[i])
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
			list, sep = o, " OR "
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
		b.WriteString(c + " LIKE " + r.d.exact(r.d.likePattern("?")))
		bind(0)
	case ir.CmpNotLike:
		b.WriteString(c + " NOT LIKE " + r.d.exact(r.d.likePattern("?")))
		bind(0)
	case ir.CmpILike:
		// Both sides lowered, then compared by bytes: case-insensitive, but not accent- or
		// space-insensitive as a MySQL collation would be.
		b.WriteString("LOWER(" + c + ") LIKE " + r.d.exact(r.d.likePattern("LOWER(?)")))
		bind(0)
	case ir.CmpNotILike:
		b.WriteString("LOWER(" + c + ") NOT LIKE " + r.d.exact(r.d.likePattern("LOWER(?)")))
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
