package planner

import (
	"fmt"
	"strconv"
	"strings"

	"quarry/apierror"
	"quarry/ir"
	"quarry/schemas"
)

// Config holds the REST limits of config/api.json.
type Config struct {
	DefaultLimit int // default 25
	MaxLimit     int // 0: none
	WithCount    bool
	// MaxPopulateDepth bounds nested populate (qs already bounds nesting at 20 brackets).
	MaxPopulateDepth int
}

// DefaultConfig is Strapi v4's REST default.
func DefaultConfig() Config {
	return Config{DefaultLimit: 25, WithCount: true, MaxPopulateDepth: 10}
}

// Principal is what the planner needs to know about the caller: which content types it may
// read. Populate leaves out relations it may not read; filters and sort through them fail.
type Principal interface {
	CanFind(uid string) bool
}

// Everyone may read everything (full-access and read-only tokens).
type Everyone struct{}

func (Everyone) CanFind(string) bool { return true }

// Planner plans reads against one schema.
type Planner struct {
	Schema *schemas.Schema
	Config Config
}

type builder struct {
	p       *Planner
	who     Principal
	removed []string
}

// Read plans a FindMany or FindOne.
func (p *Planner) Read(q *ir.Query, who Principal) (*Plan, error) {
	m, ok := p.Schema.Models[q.Model]
	if !ok || !m.IsContentType() {
		return nil, apierror.NotFound()
	}
	if who == nil {
		who = Everyone{}
	}
	b := &builder{p: p, who: who}
	plan := &Plan{Model: m, One: q.Op != ir.FindMany || m.Kind == schemas.SingleType}
	root := &Select{Model: m, Limit: -1}
	var err error
	if root.Columns, err = columns(m, q.Fields); err != nil {
		return nil, err
	}
	var where And
	if q.Filters != nil {
		// findOne validates its filters, as Strapi does, but does not apply them.
		e, err := b.filter(m, q.Filters, nil, "filters")
		if err != nil {
			return nil, err
		}
		if e != nil && (q.Op == ir.FindMany || m.Kind == schemas.SingleType) {
			where = append(where, e)
		}
	}
	for _, c := range q.Locale {
		if strings.IndexByte(c, 0) >= 0 {
			return nil, apierror.InvalidParam("locale") // PostgreSQL cannot compare NUL characters
		}
	}
	if m.Localized && q.Op == ir.FindMany {
		if e := localeFilter(m, q.Locale); e != nil {
			where = append(where, e)
		}
	}
	live := q.PublicationState != "preview"
	if m.DraftAndPublish && live && q.Op == ir.FindMany {
		// findOne by id shows drafts, as Strapi does.
		where = append(where, Published{})
	}
	if q.Op == ir.FindOne && q.ID != "" {
		id, err := ParseID(q.ID)
		if err != nil {
			return nil, apierror.NotFound()
		}
		where = append(where, &Cmp{Op: "eq", Args: []any{id}})
	}
	if len(where) == 1 {
		root.Where = where[0]
	} else if len(where) > 1 {
		root.Where = where
	}
	if root.Order, err = b.sort(m, q.Sort); err != nil {
		return nil, err
	}
	if plan.One {
		root.Order = nil
	}
	if q.Fields != nil && root.Where != nil && HasPath(root.Where) {
		root.Columns = sortColumnsFirst(root.Columns, root.Order)
	}
	if plan.One {
		root.Limit = 1
	} else {
		plan.Page, err = p.page(q.Pagination)
		if err != nil {
			return nil, err
		}
		root.Limit, root.Offset = plan.Page.Limit, plan.Page.Start
		if plan.Page.WithCount {
			plan.Count = &Select{Model: m, Where: root.Where, CountOnly: true, Limit: -1}
		}
	}
	if q.Populate != nil {
		state := q.PublicationState
		if q.Op != ir.FindMany {
			// Strapi's findOne (and the entry a write returns) shows drafts in populated
			// relations too.
			state = "preview"
		}
		if root.Children, err = b.populate(m, q.Populate, state, 0); err != nil {
			return nil, err
		}
	}
	plan.Root = root
	plan.Removed = b.removed
	return plan, nil
}

// ParseID parses an entry id from a path segment.
func ParseID(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("invalid id %q", s)
	}
	return n, nil
}

// columns resolves a field selection; nil selects every visible scalar in schema order.
func columns(m *schemas.Model, fields []string) ([]*schemas.Attribute, error) {
	if fields == nil {
		return m.VisibleScalars(), nil
	}
	out := make([]*schemas.Attribute, 0, len(fields))
next:
	for _, f := range fields {
		if f == "id" {
			continue
		}
		a, ok := m.Attr(f)
		if !ok || !a.IsScalar() || a.Hidden() {
			return nil, apierror.InvalidParam(f).At("fields")
		}
		for _, o := range out { // field lists are short: a scan beats a map
			if o == a {
				continue next
			}
		}
		out = append(out, a)
	}
	return out, nil
}

func (p *Planner) page(in ir.Pagination) (PageMeta, error) {
	c := p.Config
	pm := PageMeta{WithCount: c.WithCount}
	if in.WithCount != nil {
		pm.WithCount = *in.WithCount
	}
	if in.Start != nil || in.Limit != nil {
		pm.OffsetMode = true
		if in.Start != nil && *in.Start > 0 {
			pm.Start = *in.Start
		}
		pm.Limit = c.DefaultLimit
		if in.Limit != nil {
			pm.Limit = *in.Limit
		}
		switch {
		case pm.Limit == -1:
			pm.Limit = -1
			if c.MaxLimit > 0 {
				pm.Limit = c.MaxLimit
			}
		case pm.Limit < 1:
			pm.Limit = 1
		case c.MaxLimit > 0 && pm.Limit > c.MaxLimit:
			pm.Limit = c.MaxLimit
		}
		return pm, nil
	}
	pm.Page = 1
	if in.Page != nil && *in.Page > 1 {
		pm.Page = *in.Page
	}
	pm.PageSize = c.DefaultLimit
	if in.PageSize != nil {
		pm.PageSize = *in.PageSize
		if pm.PageSize < 1 {
			pm.PageSize = 1
		}
	}
	if c.MaxLimit > 0 && pm.PageSize > c.MaxLimit {
		pm.PageSize = c.MaxLimit
	}
	pm.Start = (pm.Page - 1) * pm.PageSize
	pm.Limit = pm.PageSize
	return pm, nil
}

// sort resolves sort keys; a path through relations must end in a scalar.
func (b *builder) sort(m *schemas.Model, keys []ir.Sort) ([]Order, error) {
	var out []Order
	for _, k := range keys {
		cur := m
		var path []*schemas.Attribute
		var o Order
		for i, name := range k.Path {
			last := i == len(k.Path)-1
			if name == "id" && last {
				o = Order{Path: path, Desc: k.Desc}
				break
			}
			a, ok := cur.Attr(name)
			if !ok || a.Hidden() || a.Type == schemas.DynamicZone {
				return nil, apierror.InvalidParam(name).At("sort")
			}
			if a.IsScalar() {
				if !last {
					return nil, apierror.InvalidParam(name)
				}
				o = Order{Path: path, Attr: a, Desc: k.Desc}
				break
			}
			if last {
				// A relation with nothing after it cannot be sorted on.
				return nil, apierror.InvalidParam(name)
			}
			if a.Type == schemas.Relation && !b.who.CanFind(a.Target.UID) {
				return nil, apierror.InvalidParam(name)
			}
			path = append(path, a)
			cur = target(a)
		}
		out = append(out, o)
	}
	return out, nil
}

// target is the model an attribute leads to (component attributes lead to their component).
func target(a *schemas.Attribute) *schemas.Model {
	if a.Type == schemas.ComponentT {
		return a.Components[0]
	}
	return a.Target
}

// populate builds the child steps of one level.
func (b *builder) populate(m *schemas.Model, pop *ir.Populate, pubState string, depth int) ([]*Child, error) {
	if depth >= b.p.Config.MaxPopulateDepth {
		return nil, apierror.Validation("Invalid populate: nested more than %d levels", b.p.Config.MaxPopulateDepth)
	}
	var fields []*ir.PopulateField
	if pop.All {
		for _, a := range m.Attributes {
			if a.IsScalar() {
				continue
			}
			if f := pop.Find(a.Name); f != nil {
				fields = append(fields, f)
			} else {
				fields = append(fields, &ir.PopulateField{Field: a.Name})
			}
		}
	} else {
		fields = pop.Children
	}
	var out []*Child
	for _, f := range fields {
		a, ok := m.Attr(f.Field)
		if !ok || a.IsScalar() {
			continue // unknown populate keys are ignored, as in Strapi
		}
		if a.Hidden() {
			b.removed = append(b.removed, fmt.Sprintf("populate %s: private attribute", a.Name))
			continue
		}
		if a.Type == schemas.Relation && !b.who.CanFind(a.Target.UID) {
			b.removed = append(b.removed, fmt.Sprintf("populate %s: caller may not find %s", a.Name, a.Target.UID))
			continue
		}
		c, err := b.child(m, a, f, pubState, depth)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func (b *builder) child(owner *schemas.Model, a *schemas.Attribute, f *ir.PopulateField, pubState string, depth int) (*Child, error) {
	c := &Child{Attr: a}
	switch a.Type {
	case schemas.Relation, schemas.Media:
		via := &Via{Kind: ViaLink, Join: a.Link}
		if a.Type == schemas.Media {
			via.Kind = ViaMorph
			via.Join = &schemas.Join{Table: a.Link.Table, SourceCol: a.Link.SourceCol, TargetCol: a.Link.TargetCol,
				OrderCol: a.Link.OrderCol, Morph: true, MorphType: owner.UID, MorphField: a.Name}
		}
		if f.Count && a.Type == schemas.Relation {
			via.Count = true
			c.Count = true
		}
		s, err := b.childSelect(a.Target, f, via, pubState, depth)
		if err != nil {
			return nil, err
		}
		if a.Type == schemas.Relation && !a.IsToMany() {
			s.Limit = -1 // a to-one relation holds at most one target per parent
		}
		c.one[0] = s
		c.Steps = c.one[:]
	case schemas.ComponentT:
		comp := a.Components[0]
		via := &Via{Kind: ViaComponents, ComponentsTable: owner.ComponentsTable, Field: a.Name, ComponentType: comp.UID}
		s, err := b.childSelect(comp, f, via, pubState, depth)
		if err != nil {
			return nil, err
		}
		c.one[0] = s
		c.Steps = c.one[:]
	case schemas.DynamicZone:
		for _, comp := range a.Components {
			cf := f
			if len(f.On) > 0 {
				cf = nil
				for _, on := range f.On {
					if on.Component == comp.UID {
						cf = on.Field
					}
				}
				if cf == nil {
					continue
				}
			}
			via := &Via{Kind: ViaComponents, ComponentsTable: owner.ComponentsTable, Field: a.Name, ComponentType: comp.UID}
			s, err := b.childSelect(comp, cf, via, pubState, depth)
			if err != nil {
				return nil, err
			}
			c.Steps = append(c.Steps, s)
		}
	}
	return c, nil
}

func (b *builder) childSelect(m *schemas.Model, f *ir.PopulateField, via *Via, pubState string, depth int) (*Select, error) {
	s := &Select{Model: m, Via: via, Limit: -1}
	var err error
	if s.Columns, err = columns(m, f.Fields); err != nil {
		return nil, err
	}
	var where And
	if f.Filters != nil {
		e, err := b.filter(m, f.Filters, nil, "populate["+f.Field+"][filters]")
		if err != nil {
			return nil, err
		}
		if e != nil {
			where = append(where, e)
		}
	}
	state := pubState
	if f.PublicationState != "" {
		state = f.PublicationState
	}
	if m.DraftAndPublish && state != "preview" {
		where = append(where, Published{})
	}
	if len(where) == 1 {
		s.Where = where[0]
	} else if len(where) > 1 {
		s.Where = where
	}
	if s.Order, err = b.sort(m, f.Sort); err != nil {
		return nil, err
	}
	if f.Pagination != nil {
		pg := f.Pagination
		if pg.Start != nil || pg.Limit != nil {
			if pg.Start != nil && *pg.Start > 0 {
				s.Offset = *pg.Start
			}
			if pg.Limit != nil && *pg.Limit >= 0 {
				s.Limit = max(*pg.Limit, 1)
			}
		}
		// Strapi 4.26 ignores page/pageSize inside populate; only start/limit apply.
	}
	if f.Populate != nil && !via.Count {
		if s.Children, err = b.populate(m, f.Populate, state, depth+1); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// sortColumnsFirst mirrors Strapi's answer when filters join other tables: its query selects
// DISTINCT with the sort columns first, and the entry keeps the row's column order.
func sortColumnsFirst(cols []*schemas.Attribute, order []Order) []*schemas.Attribute {
	var out []*schemas.Attribute
	seen := map[*schemas.Attribute]bool{}
	for _, o := range order {
		if len(o.Path) == 0 && o.Attr != nil && !seen[o.Attr] {
			seen[o.Attr] = true
			out = append(out, o.Attr)
		}
	}
	if len(out) == 0 {
		return cols
	}
	for _, c := range cols {
		if !seen[c] {
			out = append(out, c)
		}
	}
	return out
}

// localeFilter keeps the entries of the requested locales; "all" keeps every locale. The
// transport fills in the default locale when the request names none.
func localeFilter(m *schemas.Model, codes []string) Expr {
	if len(codes) == 0 {
		return nil
	}
	args := make([]any, 0, len(codes))
	for _, c := range codes {
		if c == "all" {
			return nil
		}
		args = append(args, c)
	}
	a, _ := m.Attr("locale")
	if len(args) == 1 {
		return &Cmp{Attr: a, Op: "eq", Args: args}
	}
	return &Cmp{Attr: a, Op: "in", Args: args}
}
