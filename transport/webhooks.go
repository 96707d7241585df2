package transport

import (
	"bytes"
	"context"
	"strconv"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/transport/webhook"
)

// The webhooks' `entry` is the entry as Strapi's entity service returns it: flat (no
// data/attributes wrappers), with what the request populated.

func (b *buf) rawEntry(s *plan.Select, e *exec.Entry) {
	b.WriteString(`{"id":`)
	b.Int(e.ID)
	b.fieldsWith(s, e, true, b.rawChild)
	b.WriteByte('}')
}

func (b *buf) rawChild(c *plan.Child, k exec.Kid) {
	a := c.Attr
	if c.Count {
		b.WriteString(`{"count":`)
		b.Int(k.Count)
		b.WriteByte('}')
		return
	}
	many := a.IsToMany() || a.Type == schemas.DynamicZone || (a.Type == schemas.ComponentT && a.Repeatable)
	if many {
		b.WriteByte('[')
		for i, e := range k.Entries {
			if i > 0 {
				b.WriteByte(',')
			}
			b.rawItem(a, k.Steps[i], e)
		}
		b.WriteByte(']')
		return
	}
	if len(k.Entries) == 0 {
		b.WriteString("null")
		return
	}
	b.rawItem(a, k.Steps[0], k.Entries[0])
}

func (b *buf) rawItem(a *schemas.Attribute, s *plan.Select, e *exec.Entry) {
	if a.Type != schemas.DynamicZone {
		b.rawEntry(s, e)
		return
	}
	b.WriteString(`{"id":`)
	b.Int(e.ID)
	b.WriteString(`,"__component":`)
	b.Str(s.Model.UID)
	b.fieldsWith(s, e, true, b.rawChild)
	b.WriteByte('}')
}

// entryEvent queues a webhook event for an entry Quarry wrote (after its transaction
// committed): the entry as read for the answer.
func (s *Server) entryEvent(name string, m *schemas.Model, pl *plan.Plan, e *exec.Entry) {
	if s.Webhooks == nil || e == nil || pl == nil {
		return
	}
	var b buf
	b.rawEntry(pl.Root, e)
	s.Webhooks.Entry(name, m.SingularName, m.UID, b.Bytes())
}

// mediaEvent queues a media webhook event for a file Quarry stored, updated or removed. As
// in Strapi, updating a file (an entity-service update) also fires entry.update.
func (s *Server) mediaEvent(name string, file []byte) {
	if s.Webhooks == nil || name == "" {
		return
	}
	file = bytes.Clone(file)
	if name == webhook.MediaUpdate {
		s.Webhooks.Entry(webhook.EntryUpdate, "file", "plugin::upload.file", file)
	}
	s.Webhooks.Media(name, file)
}

// EntryEvent reads entry id of m through q (inside the write's transaction: a deleted entry
// is read before it goes) as Strapi's entity service returns it without populate, and
// returns what queues its webhook event, to call once the transaction committed.
func (s *Server) EntryEvent(ctx context.Context, q exec.Queryer, name string, m *schemas.Model, id int64) (func(), error) {
	if s.Webhooks == nil {
		return func() {}, nil
	}
	pl, e, err := s.readOne(ctx, q, &ir.Query{Model: m.UID, Op: ir.FindOne, ID: strconv.FormatInt(id, 10)}, nil)
	if err != nil || e == nil {
		return func() {}, err
	}
	var b buf
	b.rawEntry(pl.Root, e)
	payload := bytes.Clone(b.Bytes())
	return func() { s.Webhooks.Entry(name, m.SingularName, m.UID, payload) }, nil
}
