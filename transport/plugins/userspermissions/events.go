package userspermissions

import (
	"context"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/planner/write"
)

// The plugin's user writes are announced as Strapi's user service makes them: add and edit
// go through the entity service with the role populated (entry.create, entry.update: a
// registration, POST and PUT /api/users, the password routes, e-mail confirmation), while
// remove and the roles' writes go through the query engine, which announces nothing.

// userEvent is the entity service's params of the user service's add and edit.
var userEvent = &ir.Query{Populate: &ir.Populate{Children: []*ir.PopulateField{{Field: "role"}}}}

// announceUser announces a committed write of user id through the write path's event step
// (lifecycle hooks, webhooks).
func (s *Service) announceUser(ctx context.Context, name string, id int64) error {
	ev, err := s.Events.ReadEvent(ctx, s.DB, name, s.Schema.Users(), id, userEvent)
	if err != nil {
		return err
	}
	return s.Events.Announce(ctx, ev)
}

// editUser sets columns of user id (values already validated; a password already hashed)
// and its updated_at, and announces the update, as the user service's edit.
func (s *Service) editUser(ctx context.Context, id int64, cols []string, vals []any) error {
	if err := updateUser(ctx, s.DB, s.DB.Dialect, id, cols, vals, s.now()); err != nil {
		return err
	}
	return s.announceUser(ctx, write.EntryUpdate, id)
}
