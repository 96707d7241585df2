package transport

import (
	"bytes"
	"context"
	"strconv"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/transport/envelope"
	"github.com/quarrycms/quarry/transport/webhook"
)

// entryEvent queues a webhook event for an entry Quarry wrote (after its transaction
// committed): the entry as read for the answer.
func (s *Server) entryEvent(name string, m *schemas.Model, pl *plan.Plan, e *exec.Entry) {
	if s.Webhooks == nil || e == nil || pl == nil {
		return
	}
	var b envelope.Buf
	b.RawEntry(pl.Root, e)
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
	var b envelope.Buf
	b.RawEntry(pl.Root, e)
	payload := bytes.Clone(b.Bytes())
	return func() { s.Webhooks.Entry(name, m.SingularName, m.UID, payload) }, nil
}
