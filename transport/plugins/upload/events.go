package upload

import (
	"context"

	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/planner/write"
	"github.com/quarrycms/quarry/transport/envelope"
)

// The plugin's writes, announced as Strapi's upload plugin announces them: media.create for
// each file stored (its service creates the rows with the query engine: no entry event),
// media.update with the entity service's entry.update for a file updated or replaced,
// media.delete for a file removed, and the entity service's entry.create of the "API
// Uploads" folder the first upload creates.

// fileEvent reads file id through db (before it goes, for a removal) as the plugin answers
// it; none when nobody listens or there is no such file.
func (s *Service) fileEvent(ctx context.Context, db exec.Queryer, name string, id int64) ([]write.Event, error) {
	ev, err := s.Events.ReadEvent(ctx, db, name, s.Schema.Files, id, nil)
	if err != nil || ev.Entry == nil {
		return nil, err
	}
	var b envelope.Buf
	WriteFile(&b, ev.Step, ev.Entry, nil, false)
	ev.JSON, ev.Step, ev.Entry = b.Bytes(), nil, nil
	return []write.Event{ev}, nil
}

// announceUpdate announces an updated file: entry.update, then media.update.
func (s *Service) announceUpdate(ctx context.Context, id int64) error {
	evs, err := s.fileEvent(ctx, s.DB, write.MediaUpdate, id)
	if err != nil || len(evs) == 0 {
		return err
	}
	entry := evs[0]
	entry.Name = write.EntryUpdate
	return s.Events.Announce(ctx, entry, evs[0])
}

// Announce announces a recorded batch once its transaction committed: the folder it
// created, then each file.
func (b *Batch) Announce(ctx context.Context) error {
	s := b.s
	var evs []write.Event
	if f := s.Schema.Folders(); b.folder > 0 && f != nil {
		ev, err := s.Events.ReadEvent(ctx, s.DB, write.EntryCreate, f, b.folder, nil)
		if err != nil {
			return err
		}
		evs = append(evs, ev)
	}
	for _, id := range b.ids {
		ev, err := s.fileEvent(ctx, s.DB, write.MediaCreate, id)
		if err != nil {
			return err
		}
		evs = append(evs, ev...)
	}
	return s.Events.Announce(ctx, evs...)
}

// webhooks delivers media events as webhooks alone: the project's code writes the file
// through the one write path, whose events already ran the model's lifecycle hooks (Strapi's
// upload service emits media.* on its event hub, which no lifecycle hears).
func (s *Service) webhooks(ctx context.Context, evs []write.Event) {
	if s.Events == nil || s.Events.Announcer == nil {
		return
	}
	for _, ev := range evs {
		s.Events.Announcer.Announce(ctx, ev)
	}
}

// noFile is the media event Strapi's upload service emits for a file it did not find
// (update and remove of a missing id): its webhook carries "media": null.
func (s *Service) noFile(name string) []write.Event {
	return []write.Event{{Name: name, Model: s.Schema.Files, JSON: []byte("null")}}
}
