package envelope

import (
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
)

// FlatEntry writes an entry as plugins answer: {"id":…, fields…, relation: {…}|[…]}.
func (b *Buf) FlatEntry(s *plan.Select, e *exec.Entry) { b.FlatObject(s, e, false) }

// FlatObject writes an entry, component or (dz) dynamic-zone item without the attributes
// wrapper.
func (b *Buf) FlatObject(s *plan.Select, e *exec.Entry, dz bool) {
	b.WriteString(`{"id":`)
	b.Int(e.ID)
	if dz {
		b.WriteString(`,"__component":`)
		b.Str(s.Model.UID)
	}
	b.FieldsWith(s, e, true, b.FlatChild)
	b.WriteByte('}')
}

// FlatChild writes a populated attribute of a flat object.
func (b *Buf) FlatChild(c *plan.Child, k exec.Kid) {
	a := c.Attr
	if c.Count {
		b.WriteString(`{"count":`)
		b.Int(k.Count)
		b.WriteByte('}')
		return
	}
	switch {
	case a.Type == schemas.DynamicZone || a.IsToMany():
		b.WriteByte('[')
		for i, e := range k.Entries {
			if i > 0 {
				b.WriteByte(',')
			}
			b.FlatObject(k.Steps[i], e, a.Type == schemas.DynamicZone)
		}
		b.WriteByte(']')
	case len(k.Entries) == 0:
		b.WriteString("null")
	default:
		b.FlatEntry(k.Steps[0], k.Entries[0])
	}
}

// RawEntry writes a webhook's `entry`: the entry as Strapi's entity service returns it, flat
// (no data/attributes wrappers), with what the request populated.
func (b *Buf) RawEntry(s *plan.Select, e *exec.Entry) {
	b.WriteString(`{"id":`)
	b.Int(e.ID)
	b.FieldsWith(s, e, true, b.RawChild)
	b.WriteByte('}')
}

// RawChild writes a populated attribute of a webhook's entry.
func (b *Buf) RawChild(c *plan.Child, k exec.Kid) {
	a := c.Attr
	if c.Count {
		b.WriteString(`{"count":`)
		b.Int(k.Count)
		b.WriteByte('}')
		return
	}
	many := a.IsToMany() || a.Type == schemas.DynamicZone || (a.Type == schemas.ComponentT && a.Repeatable)
	if many && a.Type == schemas.Media && len(k.Entries) == 0 {
		// The entity service reads a multiple media attribute without files as null.
		b.WriteString("null")
		return
	}
	if many {
		b.WriteByte('[')
		for i, e := range k.Entries {
			if i > 0 {
				b.WriteByte(',')
			}
			b.RawItem(a, k.Steps[i], e)
		}
		b.WriteByte(']')
		return
	}
	if len(k.Entries) == 0 {
		b.WriteString("null")
		return
	}
	b.RawItem(a, k.Steps[0], k.Entries[0])
}

// RawItem writes one related entry, component or dynamic-zone item of a webhook's entry.
func (b *Buf) RawItem(a *schemas.Attribute, s *plan.Select, e *exec.Entry) {
	if a.Type != schemas.DynamicZone {
		b.RawEntry(s, e)
		return
	}
	// The entity service puts __component first in a dynamic zone's items.
	b.WriteString(`{"__component":`)
	b.Str(s.Model.UID)
	b.WriteString(`,"id":`)
	b.Int(e.ID)
	b.FieldsWith(s, e, true, b.RawChild)
	b.WriteByte('}')
}
