package envelope

import (
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
)

// Entry writes {"id":…,"attributes":{…}} for a content-type entry.
func (b *Buf) Entry(s *plan.Select, e *exec.Entry) {
	b.WriteString(`{"id":`)
	b.Int(e.ID)
	b.WriteString(`,"attributes":{`)
	b.Fields(s, e, false)
	b.WriteString("}}")
}

// Fields writes the scalar attributes then the populated ones, Strapi's order.
func (b *Buf) Fields(s *plan.Select, e *exec.Entry, comma bool) {
	b.FieldsWith(s, e, comma, b.Child)
}

// FieldsWith writes the scalar attributes then the populated ones, each populated one
// through child: the REST envelope, the plugins' flat objects and webhook payloads differ
// only there.
func (b *Buf) FieldsWith(s *plan.Select, e *exec.Entry, comma bool, child func(*plan.Child, exec.Kid)) {
	for i, a := range s.Columns {
		if comma {
			b.WriteByte(',')
		}
		comma = true
		b.attrKey(a)
		b.Value(a.Type, e.Values[i])
	}
	for i, c := range s.Children {
		if comma {
			b.WriteByte(',')
		}
		comma = true
		b.attrKey(c.Attr)
		var k exec.Kid
		if i < len(e.Kids) {
			k = e.Kids[i]
		}
		child(c, k)
	}
}

// Component writes a component inline: {"id":…,[“__component”:…,] fields…}.
func (b *Buf) Component(s *plan.Select, e *exec.Entry, dz bool) {
	b.WriteString(`{"id":`)
	b.Int(e.ID)
	if dz {
		b.WriteString(`,"__component":`)
		b.Str(s.Model.UID)
	}
	b.Fields(s, e, true)
	b.WriteByte('}')
}

// Child writes a populated attribute in the REST envelope: relations and media as
// {"data": …}, components inline.
func (b *Buf) Child(c *plan.Child, k exec.Kid) {
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
				b.Entry(k.Steps[i], e)
			}
			b.WriteByte(']')
		case len(k.Entries) > 0 && !a.IsToMany():
			b.Entry(k.Steps[0], k.Entries[0])
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
				b.Component(k.Steps[i], e, false)
			}
			b.WriteByte(']')
			return
		}
		if len(k.Entries) == 0 {
			b.WriteString("null")
			return
		}
		b.Component(k.Steps[0], k.Entries[0], false)
	case schemas.DynamicZone:
		b.WriteByte('[')
		for i, e := range k.Entries {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Component(k.Steps[i], e, true)
		}
		b.WriteByte(']')
	}
}

// Pagination writes meta.pagination in Strapi's key order.
func (b *Buf) Pagination(p plan.PageMeta, total int64) {
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

// attrKey writes an attribute's name as an object key, quoted at Load where it could be.
func (b *Buf) attrKey(a *schemas.Attribute) {
	if a.JSONKey != "" {
		b.WriteString(a.JSONKey)
		return
	}
	b.Key(a.Name)
}
