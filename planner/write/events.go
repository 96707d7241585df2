package write

import (
	"context"
	"errors"
	"strconv"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
)

// The events Strapi v4 announces for a write: its webhook events (the entity service's
// entry.* and the upload plugin's media.*).
const (
	EntryCreate = "entry.create"
	EntryUpdate = "entry.update"
	EntryDelete = "entry.delete"
	MediaCreate = "media.create"
	MediaUpdate = "media.update"
	MediaDelete = "media.delete"
)

// Event is one write as Strapi announces it once it committed: the webhook event's name
// and the entry as Strapi's entity service returned it (sanitized: no private or password
// attribute, since reads cannot select them).
type Event struct {
	Name  string
	Model *schemas.Model
	ID    int64
	// Params are the write's parameters, as the lifecycle hooks see them (nil for the
	// plugins' own writes).
	Params *ir.Query
	// The entry: read (Step, Entry: the Announcer renders it) or already rendered (JSON:
	// the upload plugin's files, the i18n plugin's answer).
	Step  *plan.Select
	Entry *exec.Entry
	JSON  []byte
	// Hooked is the entry as the project's after hook left it, when the hook read it back
	// itself (Strapi's query engine reads a written entry through findOne, whose read hooks
	// may change it): what the project's own code gets from its write. The webhook still
	// sends Step and Entry.
	Hooked []byte
}

// Announcer delivers events (transport/webhook's dispatcher, behind the transport's
// rendering). Announce runs before the request's answer is written and must not keep
// Step or Entry, which later requests reuse: what it sends later, it copies.
type Announcer interface {
	Announce(ctx context.Context, ev Event)
}

// Listeners are the project's strapi.eventHub listeners (transport/projectcode). Emit runs
// those of a committed write's event, awaited, after its after hook and before its webhook,
// as Strapi's hub runs the project's listeners before the webhook runner's; an error is a
// listener's failure (logged there), after which the webhook is not sent, as Strapi's hub
// stops at the first listener that throws. The write's answer stands: Strapi's entity
// service does not await its emit.
type Listeners interface {
	Emit(ctx context.Context, ev Event) error
}

// Action names a lifecycle hook as Strapi does.
type Action string

// The lifecycle hooks of writes.
const (
	BeforeCreate Action = "beforeCreate"
	AfterCreate  Action = "afterCreate"
	BeforeUpdate Action = "beforeUpdate"
	AfterUpdate  Action = "afterUpdate"
	BeforeDelete Action = "beforeDelete"
	AfterDelete  Action = "afterDelete"
)

// Lifecycle is one call of a lifecycle hook, Strapi's event object ({action, model,
// params, result, state}).
type Lifecycle struct {
	Action Action
	Model  *schemas.Model
	// Params are the write's: Data (a before hook may change it; the write then validates
	// and stores what it left), ID (the entry written; "" for a create), Fields, Populate,
	// Locale.
	Params *ir.Query
	// Result is the written entry (after hooks): for a delete, the entry as it was.
	Result *Event
	// State is shared by the before and after hook of one write (Strapi's event.state).
	State map[string]any
}

// Lifecycles are the project's lifecycle hooks. Before runs inside the write's transaction
// (its context carries the transaction: a write it makes through Service.Apply joins it),
// before anything is written; an error aborts the write, rolls the transaction back and is
// the answer (an *apierror.Error is answered as it is). After runs once the transaction
// committed; an error is the answer, though the write stays. Both see every write Apply
// makes, and After every event the plugins announce through Service.Announce.
type Lifecycles interface {
	Before(ctx context.Context, l *Lifecycle) error
	After(ctx context.Context, l *Lifecycle) error
}

// afterAction is the after hook of an event.
func afterAction(name string) Action {
	switch name {
	case EntryCreate, MediaCreate:
		return AfterCreate
	case EntryDelete, MediaDelete:
		return AfterDelete
	}
	return AfterUpdate
}

// ReadEvent reads entry id of m through db (a transaction: a deleted entry is read before
// it goes) as Strapi's entity service returns it for a write with params q (its fields
// and populate; q nil: the entry's own attributes), and returns its event. It reads only
// when someone listens (an Announcer or Lifecycles is set); otherwise the event has no
// entry.
func (s *Service) ReadEvent(ctx context.Context, db exec.Queryer, name string, m *schemas.Model, id int64, q *ir.Query) (Event, error) {
	ev := Event{Name: name, Model: m, ID: id, Params: q}
	if !s.listened() {
		return ev, nil
	}
	rq := &ir.Query{Model: m.UID, Op: ir.FindOne}
	if q != nil {
		rq.Fields, rq.Populate, rq.GraphQL = q.Fields, q.Populate, q.GraphQL
	}
	rq.ID = strconv.FormatInt(id, 10)
	pl, res, err := exec.ReadOne(ctx, s.Planner, s.Runner, db, rq, nil)
	if err != nil {
		return ev, err
	}
	if e := res.First(); e != nil {
		ev.Step, ev.Entry = pl.Root, e
	}
	return ev, nil
}

// listened reports whether events go anywhere.
func (s *Service) listened() bool {
	return s != nil && (s.Announcer != nil || s.Lifecycles != nil || s.Listeners != nil)
}

// Announce is the one step that announces committed writes: each event's after hook, then
// its webhook. Apply announces its writes through it; the plugins that write on their own
// (users-permissions, upload) call it once their transaction committed. A nil Service
// announces nothing. The first hook error is returned, after every event was delivered.
func (s *Service) Announce(ctx context.Context, evs ...Event) error {
	if s == nil || len(evs) == 0 {
		return nil
	}
	ps := make([]pending, len(evs))
	for i, ev := range evs {
		ps[i].ev = ev
	}
	return s.announce(ctx, ps)
}

func (s *Service) announce(ctx context.Context, ps []pending) error {
	var first error
	for i := range ps {
		ev := &ps[i].ev
		if s.Lifecycles != nil {
			state := ps[i].state
			if state == nil {
				state = map[string]any{}
			}
			l := &Lifecycle{Action: afterAction(ev.Name), Model: ev.Model, Params: ev.Params, Result: ev, State: state}
			if err := s.Lifecycles.After(ctx, l); err != nil && first == nil {
				first = err
			}
		}
		if s.Listeners != nil && (ev.Entry != nil || ev.JSON != nil) && (ev.Params == nil || ev.Params.Via != ir.ViaQueryEngine) {
			if err := s.Listeners.Emit(ctx, *ev); err != nil {
				continue // Strapi's hub stops before the webhook runner's listener
			}
		}
		if s.Announcer != nil && (ev.Entry != nil || ev.JSON != nil) && (ev.Params == nil || ev.Params.Via != ir.ViaQueryEngine) {
			s.Announcer.Announce(ctx, *ev)
		}
	}
	return first
}

// errNoService is what a write through a nil Service answers.
var errNoService = errors.New("write: no write service")
