package transport

import (
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
)

// entry writes {"id":…,"attributes":{…}} for a content-type entry.
func (b *buf) entry(s *plan.Select, e *exec.Entry) {
	b.WriteString(`{"id":`)
	b.Int(e.ID)
	b.WriteString(`,"attributes":{`)
	b.fields(s, e, false)
	b.WriteString("}}")
}

// fields writes the scalar attributes then the populated ones, Strapi's order.
func (b *buf) fields(s *plan.Select, e *exec.Entry, comma bool) {
	b.fieldsWith(s, e, comma, b.child)
}

// fieldsWith writes the scalar attributes then the populated ones, each populated one
// through child: the REST envelope, the plugins' flat objects and webhook payloads differ
// only there.
func (b *buf) fieldsWith(s *plan.Select, e *exec.Entry, comma bool, child func(*plan.Child, exec.Kid)) {
	for i, a := range s.Columns {
		if comma {
			b.WriteByte(',')
		}
		comma = true
		b.Key(a.Name)
		b.value(a.Type, e.Values[i])
	}
	for i, c := range s.Children {
		if comma {
			b.WriteByte(',')
		}
		comma = true
		b.Key(c.Attr.Name)
		var k exec.Kid
		if i < len(e.Kids) {
			k = e.Kids[i]
		}
		child(c, k)
	}
}

// component writes a component inline: {"id":…,[“__component”:…,] fields…}.
func (b *buf) component(s *plan.Select, e *exec.Entry, dz bool) {
	b.WriteString(`{"id":`)
	b.Int(e.ID)
	if dz {
		b.WriteString(`,"__component":`)
		b.Str(s.Model.UID)
	}
	b.fields(s, e, true)
	b.WriteByte('}')
}

func (b *buf) child(c *plan.Child, k exec.Kid) {
	a := c.Attr
	if c.Count {
		if a.Type == schemas.ComponentT {
			b.WriteString(`{"count":`)
			b.Int(k.Count)
			b.WriteByte('}')
			return
		}
		b.WriteString(`{"data":{"attributes":{"count":`)
		b.Int(k.Count)
		b.WriteString("}}}")
		return
	}
	switch a.Type {
	case schemas.Relation, schemas.Media:
		b.WriteString(`{"data":`)
		switch {
		case a.IsToMany() && (len(k.Entries) > 0 || a.Type == schemas.Relation):
			b.WriteByte('[')
			for i, e := range k.Entries {
				if i > 0 {
					b.WriteByte(',')
				}
				b.entry(k.Steps[i], e)
			}
			b.WriteByte(']')
		case len(k.Entries) > 0 && !a.IsToMany():
			b.entry(k.Steps[0], k.Entries[0])
		default:
			// Strapi 4.26 answers an empty multiple media field with null, not [].
			b.WriteString("null")
		}
		b.WriteByte('}')
	case schemas.ComponentT:
		if a.Repeatable {
			b.WriteByte('[')
			for i, e := range k.Entries {
				if i > 0 {
					b.WriteByte(',')
				}
				b.component(k.Steps[i], e, false)
			}
			b.WriteByte(']')
			return
		}
		if len(k.Entries) == 0 {
			b.WriteString("null")
			return
		}
		b.component(k.Steps[0], k.Entries[0], false)
	case schemas.DynamicZone:
		b.WriteByte('[')
		for i, e := range k.Entries {
			if i > 0 {
				b.WriteByte(',')
			}
			b.component(k.Steps[i], e, true)
		}
		b.WriteByte(']')
	}
}

// pagination writes meta.pagination in Strapi's key order.
func (b *buf) pagination(p plan.PageMeta, total int64) {
	b.WriteString(`{"pagination":{`)
	if p.OffsetMode {
		b.WriteString(`"start":`)
		b.Int(int64(p.Start))
		b.WriteString(`,"limit":`)
		b.Int(int64(p.Limit))
		if p.WithCount {
			b.WriteString(`,"total":`)
			b.Int(total)
		}
	} else {
		b.WriteString(`"page":`)
		b.Int(int64(p.Page))
		b.WriteString(`,"pageSize":`)
		b.Int(int64(p.PageSize))
		if p.WithCount {
			pageCount := int64(0)
			if p.PageSize > 0 {
				pageCount = (total + int64(p.PageSize) - 1) / int64(p.PageSize)
			}
			b.WriteString(`,"pageCount":`)
			b.Int(pageCount)
			b.WriteString(`,"total":`)
			b.Int(total)
		}
	}
	b.WriteString("}}")
}
