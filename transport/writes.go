package transport

import (
	"bytes"
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/planner/localize"
	"github.com/quarrycms/quarry/planner/write"
	"github.com/quarrycms/quarry/transport/envelope"
	"github.com/quarrycms/quarry/transport/webhook"
)

// WriteService is the server's write path (planner/write's Service), built from its fields
// on first use: REST's handlers, the plugins and GraphQL's executor all write through it, so
// every write runs the same checks, transaction, i18n rules and events.
func (s *Server) WriteService() *write.Service {
	if s.writes != nil || s.Writer == nil {
		return s.writes
	}
	s.writes = &write.Service{Writer: s.Writer, Planner: s.Planner, Runner: s.Runner, DB: s.DB,
		Localize: s.localizer(), Lifecycles: s.Lifecycles, Listeners: s.Listeners, TxEnd: s.txEnd}
	if s.Webhooks != nil {
		s.writes.Announcer = announcer{s.Webhooks}
	}
	return s.writes
}

// localizer is i18n's rules (planner/localize), built from the server's fields when
// Localize is nil.
func (s *Server) localizer() *localize.Service {
	if s.Localize == nil {
		s.Localize = &localize.Service{Planner: s.Planner, Runner: s.Runner, Writer: s.Writer}
		if s.DB != nil {
			s.Localize.Dialect = s.DB.Dialect
		}
		if s.I18n != nil { // a nil *i18n.Service must stay a nil interface
			s.Localize.Locales = s.I18n
		}
	}
	return s.Localize
}

// txEnd puts the files sent with an entry in place once its transaction committed, or
// drops them (upload.Inline).
func (s *Server) txEnd(ctx context.Context, tx *sqlx.Tx, committed bool) error {
	return s.inline.AfterTx(ctx, tx, committed)
}

// tx runs fn in one transaction, for the plugins' own writes: files sent with an entry go
// in place when it commits.
func (s *Server) tx(ctx context.Context, fn func(tx *sqlx.Tx) error) error {
	t, err := s.DB.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(t); err != nil {
		t.Rollback()
		s.inline.AfterTx(ctx, t, false)
		return err
	}
	if err := s.DB.Commit(ctx, t); err != nil {
		s.inline.AfterTx(ctx, t, false)
		return fmt.Errorf("commit: %w", err)
	}
	return s.inline.AfterTx(ctx, t, true)
}

// announcer delivers the write path's events as webhooks, with Strapi v4's payloads: the
// entry flat, as the entity service returns it, or the file as the upload plugin answers it.
type announcer struct{ d *webhook.Dispatcher }

func (a announcer) Announce(_ context.Context, ev write.Event) {
	payload := ev.JSON
	if payload == nil {
		var b envelope.Buf
		b.RawEntry(ev.Step, ev.Entry)
		payload = b.Bytes()
	}
	// The dispatcher sends later: it gets its own copy.
	payload = bytes.Clone(payload)
	switch ev.Name {
	case write.MediaCreate, write.MediaUpdate, write.MediaDelete:
		a.d.Media(ev.Name, payload)
	default:
		a.d.Entry(ev.Name, ev.Model.SingularName, ev.Model.UID, payload)
	}
}
