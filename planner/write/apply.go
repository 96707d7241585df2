package write

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/planner/localize"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/sqlgen/database"
)

// Service is the one write path: every write of an entry of a content type, whoever makes
// it — the REST handlers, the GraphQL executor, the project's own code — goes through
// Apply. See the package doc for what Apply does and in which order.
type Service struct {
	Writer  *Writer
	Planner *planner.Planner // the read path: answers and events are read through it
	Runner  *exec.Runner
	// DB begins and commits the transactions; its Commit records the tables written, which
	// is how the response cache learns of the write.
	DB *database.DB
	// Localize applies i18n's rules to localized types; without it they apply with no
	// locale list (an app without i18n's tables).
	Localize *localize.Service
	// Announcer delivers the events (webhooks); nil delivers none.
	Announcer Announcer
	// Lifecycles are the project's lifecycle hooks; nil runs none.
	Lifecycles Lifecycles
	// Listeners are the project's strapi.eventHub listeners; nil runs none.
	Listeners Listeners
	// TxEnd, when set, is told how each transaction Apply began ended, after its commit or
	// rollback and before the events are announced (the upload plugin puts the files sent
	// with an entry in place); an error after a commit is the write's answer.
	TxEnd func(ctx context.Context, tx *sqlx.Tx, committed bool) error

	actionsOnce sync.Once
	actions     map[*schemas.Model]*[opCount]string // the permissions writes need, by model and op
}

// opCount bounds the ops a permission is named for.
const opCount = int(ir.CreateLocalization) + 1

// permission is the action a write of m needs, as Strapi names it (<uid>.create, ...):
// named once per schema, so that checking it costs no allocation.
func (s *Service) permission(m *schemas.Model, op ir.Op) string {
	s.actionsOnce.Do(func() {
		s.actions = make(map[*schemas.Model]*[opCount]string, len(s.Writer.Schema.Models))
		for _, mm := range s.Writer.Schema.Models {
			var names [opCount]string
			for o := ir.Create; int(o) < opCount; o++ {
				names[o] = mm.UID + "." + action(o, mm)
			}
			s.actions[mm] = &names
		}
	})
	if names := s.actions[m]; names != nil && int(op) < opCount {
		return names[op]
	}
	return m.UID + "." + action(op, m)
}

// Result is what a write answers with.
type Result struct {
	// ID is the entry written (0 when none was found).
	ID int64
	// Created is set when an update of a single type created its entry.
	Created bool
	// Plan and Entry are the answer: the entry read through the query's fields and
	// populate (for a delete, before it went; for a localization created by REST, before its
	// group was synced, as Strapi reads it). Entry is nil when the query found no entry:
	// REST answers 404, GraphQL null.
	Plan  *plan.Plan
	Entry *exec.Entry
	// Statements counts the statements of the answer's read.
	Statements int
	// Hooked is the entry as the project's after hook left it when the hook read it back
	// through the model's findOne read hooks (Event.Hooked); nil otherwise, and for a write
	// joining an outer transaction (its hooks run when that one commits).
	Hooked []byte
}

// txKey holds, in a context, the write transaction Apply runs in.
type txKey struct{}

// writeTx is a write transaction and the events of the writes made in it, announced once it
// committed.
type writeTx struct {
	tx     *sqlx.Tx
	events []pending
	// joinable: writes made with the function's context join the transaction (InTx).
	joinable bool
}

// pending is an event waiting for its transaction's commit, with the state its before hook
// left for its after hook.
type pending struct {
	ev    Event
	state map[string]any
}

// TxFrom returns the write transaction ctx carries: inside Apply (a before hook's context),
// a write made through Apply joins it.
func TxFrom(ctx context.Context) (*sqlx.Tx, bool) {
	t, ok := ctx.Value(txKey{}).(*writeTx)
	if !ok {
		return nil, false
	}
	return t.tx, true
}

// Apply runs one write: q.Op is Create, Update, Delete or CreateLocalization of q.Model,
// Data its payload, ID the entry (for a single type: none, its entry is found by locale),
// Fields and Populate the read it answers with, Via the layer it goes through. who is the
// caller; ir.System for the project's own code.
//
// It checks the caller's permission for the action, removes from the payload the relations
// the caller may not read, applies i18n's locale rules, then, in one transaction (the one
// ctx carries, if any: see TxFrom), checks that the entry exists, runs the before hook,
// validates and writes, reads the answer back, syncs the localizations, and once the
// transaction committed announces the events (after hooks, webhooks). An invalid payload is
// an *apierror.Error and nothing is written.
func (s *Service) Apply(ctx context.Context, q *ir.Query, who *ir.Caller) (*Result, error) {
	if s == nil || s.Writer == nil {
		return nil, errNoService
	}
	if who == nil {
		return nil, errors.New("write: no caller (ir.System for the project's own code)")
	}
	m := s.Writer.Schema.Models[q.Model]
	if m == nil || !m.IsContentType() {
		return nil, fmt.Errorf("write: %q is not a content type", q.Model)
	}
	if !who.Can(s.permission(m, q.Op)) {
		return nil, apierror.Forbidden()
	}
	a := &applying{s: s, m: m, q: q, who: who}
	a.res = &a.result
	if err := a.prepare(ctx); err != nil {
		return nil, err
	}
	if a.skip {
		return a.res, nil
	}
	if err := s.inTxWith(ctx, &a.tx, a.run); err != nil {
		return nil, err
	}
	for i := range a.tx.events {
		if ev := &a.tx.events[i].ev; ev.Model == m && ev.ID == a.res.ID && ev.Hooked != nil {
			a.res.Hooked = ev.Hooked
			break
		}
	}
	return a.res, nil
}

// InTx runs fn in one write transaction: the writes fn makes through Apply with the
// context it is given join it, as do the statements it runs on tx; the transaction commits
// when fn returns nil, and the events of its writes are announced then. Inside a write
// transaction already (ctx carries one), fn runs in that one. The project's code uses it
// for several writes in one transaction (Strapi's strapi.db.transaction).
func (s *Service) InTx(ctx context.Context, fn func(ctx context.Context, tx *sqlx.Tx) error) error {
	if s == nil || s.DB == nil {
		return errNoService
	}
	return s.inTxWith(ctx, &writeTx{joinable: true}, func(ctx context.Context, t *writeTx) error { return fn(ctx, t.tx) })
}

// Begin opens a write transaction that end closes, for code that cannot hand InTx a function
// (the project's strapi.db.transaction, whose callback runs across many calls into the
// host): the writes made with the returned context join it and its reads see them; end
// commits it and announces its writes' events, or rolls it back. Inside a write transaction
// already (ctx carries one) the context is ctx and end does nothing, the outer one deciding,
// as Strapi's nested transactions do. end runs once; later calls do nothing.
func (s *Service) Begin(ctx context.Context) (context.Context, func(ctx context.Context, commit bool) error, error) {
	if s == nil || s.DB == nil {
		return nil, nil, errNoService
	}
	if _, ok := ctx.Value(txKey{}).(*writeTx); ok {
		return ctx, func(context.Context, bool) error { return nil }, nil
	}
	tx, err := s.DB.BeginTxx(ctx, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("begin: %w", err)
	}
	t := &writeTx{tx: tx, joinable: true}
	done := false
	end := func(ctx context.Context, commit bool) error {
		if done {
			return nil
		}
		done = true
		if !commit {
			tx.Rollback()
			return s.txEnd(ctx, tx, false)
		}
		return s.commit(ctx, t)
	}
	return context.WithValue(ctx, txKey{}, t), end, nil
}

// action is the permission a write needs, as Strapi names the route's action.
func action(op ir.Op, m *schemas.Model) string {
	switch op {
	case ir.Create:
		return "create"
	case ir.Update:
		return "update"
	case ir.Delete:
		return "delete"
	case ir.CreateLocalization:
		return "createLocalization"
	}
	return "write"
}

// inTx runs fn in the write transaction ctx carries, or in one of its own: committed when fn
// returns nil, its events announced then (by the outermost Apply).
func (s *Service) inTx(ctx context.Context, fn func(ctx context.Context, t *writeTx) error) error {
	return s.inTxWith(ctx, &writeTx{}, fn)
}

// inTxWith is inTx with the bookkeeping of a transaction of its own in t.
func (s *Service) inTxWith(ctx context.Context, t *writeTx, fn func(ctx context.Context, t *writeTx) error) error {
	if outer, ok := ctx.Value(txKey{}).(*writeTx); ok {
		return fn(ctx, outer)
	}
	tx, err := s.DB.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	t.tx = tx
	inner := ctx
	if s.Lifecycles != nil || t.joinable {
		// Only a hook (or InTx's function) can write again inside: the context that lets
		// its writes join this transaction is made for them alone.
		inner = context.WithValue(ctx, txKey{}, t)
	}
	if err := fn(inner, t); err != nil {
		tx.Rollback()
		s.txEnd(ctx, tx, false)
		return err
	}
	return s.commit(ctx, t)
}

// commit commits t and, once it has, announces its writes' events.
func (s *Service) commit(ctx context.Context, t *writeTx) error {
	if err := s.DB.Commit(ctx, t.tx); err != nil {
		s.txEnd(ctx, t.tx, false)
		return fmt.Errorf("commit: %w", err)
	}
	if err := s.txEnd(ctx, t.tx, true); err != nil {
		return err
	}
	return s.announce(ctx, t.events)
}

// localize is Localize, or i18n's rules without a locale list.
func (s *Service) localize() *localize.Service {
	if s.Localize != nil {
		return s.Localize
	}
	return &localize.Service{Planner: s.Planner, Runner: s.Runner, Writer: s.Writer, Dialect: s.Writer.Dialect}
}

func (s *Service) txEnd(ctx context.Context, tx *sqlx.Tx, committed bool) error {
	if s.TxEnd == nil {
		return nil
	}
	return s.TxEnd(ctx, tx, committed)
}

// applying is one Apply call (one allocation holds it, its result, its transaction's
// bookkeeping and its read-back query).
type applying struct {
	s      *Service
	m      *schemas.Model
	q      *ir.Query
	who    *ir.Caller
	res    *Result
	result Result
	tx     writeTx
	rq     ir.Query

	// data is the payload as it is written.
	data map[string]any
	// skip: nothing to write (an id that is no entry id): the result is empty.
	skip bool
	// links are the localizations a create lists (data.localizations).
	links []int64
	// locale is the locale a single type's write addresses.
	locale string
	// base is the entry a localization is made of.
	base int64
	// state is what the before hook left for the after hook.
	state map[string]any
}

// prepare does what needs no transaction: the id, the payload's sanitizing and i18n's
// locale checks.
func (a *applying) prepare(ctx context.Context) error {
	m, q := a.m, a.q
	if q.Op == ir.Create || q.Op == ir.Update || q.Op == ir.CreateLocalization {
		a.data = q.Data
		if a.data == nil {
			a.data = map[string]any{}
		}
		if a.who.Kind != ir.SystemCaller {
			stripRestricted(m, a.data, a.who)
		}
	}
	loc := a.s.localize()
	if m.Kind == schemas.SingleType && q.Op != ir.CreateLocalization {
		return a.singleLocale(ctx)
	}
	switch q.Op {
	case ir.Create:
		if !m.Localized {
			return nil
		}
		if _, has := a.data["locale"]; !has && q.Via != ir.ViaREST && len(q.Locale) > 0 {
			// The entity service's params.locale (GraphQL's locale argument).
			a.data["locale"] = q.Locale[0]
		}
		if err := loc.CreateLocale(ctx, m, a.data); err != nil {
			return err
		}
		if v, ok := a.data["localizations"]; ok {
			a.links, _ = localize.LinkIDs(v)
			delete(a.data, "localizations")
		}
	case ir.Update, ir.Delete:
		id, err := planner.ParseID(q.ID)
		if err != nil {
			a.skip = true // no such entry
			return nil
		}
		a.res.ID = id
		if q.Op == ir.Update && m.Localized {
			// An entry's locale never changes; its group changes only through localizations.
			delete(a.data, "locale")
			delete(a.data, "localizations")
		}
	case ir.CreateLocalization:
		if len(q.Locale) > 0 {
			a.data["locale"] = q.Locale[0]
		}
		if m.Kind == schemas.SingleType {
			return nil // its entry is found in the transaction
		}
		id, err := planner.ParseID(q.ID)
		if err != nil {
			return notFound()
		}
		a.base = id
	default:
		return fmt.Errorf("write: %v is not a write", q.Op)
	}
	return nil
}

// singleLocale is the locale a single type's update or delete addresses. REST takes the
// query's locale as given (or the default one); GraphQL's locale argument must exist.
func (a *applying) singleLocale(ctx context.Context) error {
	m, q, loc := a.m, a.q, a.s.localize()
	if q.Via == ir.ViaREST || !m.Localized {
		l, err := loc.SingleLocale(ctx, m, q.Locale)
		if err != nil {
			return err
		}
		if !m.Localized && len(q.Locale) > 0 {
			l = q.Locale[0]
		}
		a.locale = l
		return nil
	}
	var given any
	if len(q.Locale) > 0 {
		given = q.Locale[0]
	}
	data := map[string]any{"locale": given}
	if err := loc.CreateLocale(ctx, m, data); err != nil {
		return err
	}
	a.locale, _ = data["locale"].(string)
	return nil
}

func notFound() error {
	return &apierror.Error{Status: 404, Name: "NotFoundError", Message: "Entity not found"}
}

// run is the transaction's part of the write.
func (a *applying) run(ctx context.Context, t *writeTx) error {
	switch a.q.Op {
	case ir.Create:
		return a.create(ctx, t)
	case ir.Update:
		if a.m.Kind == schemas.SingleType {
			return a.putSingle(ctx, t)
		}
		return a.update(ctx, t)
	case ir.Delete:
		return a.delete(ctx, t)
	case ir.CreateLocalization:
		return a.createLocalization(ctx, t)
	}
	return nil
}

// before runs the before hook with the write's params.
func (a *applying) before(ctx context.Context, act Action, id int64) error {
	lc := a.s.Lifecycles
	if lc == nil {
		return nil
	}
	params := *a.q
	params.Data = a.data
	if id > 0 {
		params.ID = strconv.FormatInt(id, 10)
	}
	l := &Lifecycle{Action: act, Model: a.m, Params: &params, State: map[string]any{}}
	if err := lc.Before(ctx, l); err != nil {
		return err
	}
	a.state = l.State
	if l.Params.Data != nil {
		a.data = l.Params.Data
	}
	return nil
}

// draftLayer reports whether a create stores a draft unless the payload gives publishedAt:
// the entity service does, REST's core service publishes.
func (a *applying) draftLayer() bool { return a.q.Via != ir.ViaREST }

// insert creates the entry of the payload.
func (a *applying) insert(ctx context.Context, tx *sqlx.Tx, data map[string]any) (int64, error) {
	if a.draftLayer() {
		return a.s.Writer.CreateDraft(ctx, tx, a.m, data)
	}
	return a.s.Writer.Create(ctx, tx, a.m, data)
}

// answer reads the answer: the entry id through the query's fields and populate.
func (a *applying) answer(ctx context.Context, tx *sqlx.Tx, id int64) error {
	a.rq = *a.q
	rq := &a.rq
	rq.Op, rq.Data, rq.Locale = ir.FindOne, nil, nil
	if byID := (a.q.Op == ir.Update || a.q.Op == ir.Delete) && a.m.Kind != schemas.SingleType; !byID || rq.ID == "" {
		rq.ID = strconv.FormatInt(id, 10)
	}
	pl, res, err := exec.ReadOne(ctx, a.s.Planner, a.s.Runner, tx, rq, a.who)
	if err != nil {
		return err
	}
	a.res.Plan, a.res.Entry, a.res.Statements = pl, res.First(), a.res.Statements+res.Statements
	return nil
}

// params are the entity service's params of the write, which decide what its event holds
// and whether i18n syncs a group: GraphQL's resolvers pass none (the query's fields and
// populate are the selection's).
func (a *applying) params() *ir.Query {
	if a.q.Via == ir.ViaGraphQL {
		return nil
	}
	return a.q
}

// event queues the write's event, with the answer's entry when the params read it.
func (a *applying) event(ctx context.Context, t *writeTx, name string, id int64) error {
	if !a.s.listened() {
		return nil
	}
	var ev Event
	if p := a.params(); p != nil && a.res.Entry != nil && a.res.Entry.ID == id {
		ev = Event{Name: name, Model: a.m, ID: id, Params: a.q, Step: a.res.Plan.Root, Entry: a.res.Entry}
	} else {
		var err error
		if ev, err = a.s.ReadEvent(ctx, t.tx, name, a.m, id, p); err != nil {
			return err
		}
		ev.Params = a.q
	}
	t.events = append(t.events, pending{ev: ev, state: a.state})
	return nil
}

// synced queues the entry.update of each member of a group i18n synced (Strapi updates
// them through the entity service, without params).
func (a *applying) synced(ctx context.Context, t *writeTx, ids []int64) error {
	if !a.s.listened() {
		return nil
	}
	for _, id := range ids {
		ev, err := a.s.ReadEvent(ctx, t.tx, EntryUpdate, a.m, id, nil)
		if err != nil {
			return err
		}
		t.events = append(t.events, pending{ev: ev})
	}
	return nil
}

func (a *applying) create(ctx context.Context, t *writeTx) error {
	if err := a.before(ctx, BeforeCreate, 0); err != nil {
		return err
	}
	id, err := a.insert(ctx, t.tx, a.data)
	if err != nil {
		return err
	}
	a.res.ID = id
	loc := a.s.localize()
	if len(a.links) > 0 {
		if err := loc.SetLinks(ctx, t.tx, a.m, id, a.links); err != nil {
			return err
		}
	}
	if err := a.answer(ctx, t.tx, id); err != nil {
		return err
	}
	if a.res.Entry == nil {
		return errors.New("created entry vanished")
	}
	if err := a.event(ctx, t, EntryCreate, id); err != nil {
		return err
	}
	if p := a.params(); len(a.links) > 0 && p != nil && localize.PopulatesLocalizations(p) {
		// Strapi's i18n joins the listed entries into one group when the entry it created
		// shows its localizations (after the answer is read).
		ids, err := loc.Sync(ctx, t.tx, a.m, id, a.links)
		if err != nil {
			return err
		}
		return a.synced(ctx, t, ids)
	}
	return nil
}

// exists reports whether entry id of the written type exists.
func (a *applying) exists(ctx context.Context, tx *sqlx.Tx, id int64) (bool, error) {
	db := dbx{ctx: ctx, tx: tx, d: a.s.Writer.Dialect}
	var n int64
	if err := db.get(&n, sqlgen.EntryCount(a.s.Writer.Dialect, a.m, id)); err != nil {
		return false, fmt.Errorf("check %s %d: %w", a.m.Table, id, err)
	}
	return n > 0, nil
}

func (a *applying) update(ctx context.Context, t *writeTx) error {
	id := a.res.ID
	if a.s.Lifecycles != nil {
		// The before hook runs only for an entry that exists. Without hooks the Writer's own
		// read of the entry tells.
		found, err := a.exists(ctx, t.tx, id)
		if err != nil || !found {
			a.res.ID = 0
			return err
		}
		if err := a.before(ctx, BeforeUpdate, id); err != nil {
			return err
		}
	}
	return a.updated(ctx, t, id)
}

// updated writes the update of entry id, reads the answer and syncs the group.
func (a *applying) updated(ctx context.Context, t *writeTx, id int64) error {
	if err := a.s.Writer.Update(ctx, t.tx, a.m, id, a.data); err != nil {
		var ae *apierror.Error
		if errors.As(err, &ae) && ae.Status == 404 {
			a.res.ID = 0 // no such entry (the Writer read it first, before validating)
			return nil
		}
		return err
	}
	if err := a.answer(ctx, t.tx, id); err != nil || a.res.Entry == nil {
		return err
	}
	if err := a.event(ctx, t, EntryUpdate, id); err != nil {
		return err
	}
	p := a.params()
	if p == nil {
		return nil
	}
	ids, err := a.s.localize().SyncAfterUpdate(ctx, t.tx, a.m, p, a.res.Plan, a.res.Entry)
	if err != nil {
		return err
	}
	return a.synced(ctx, t, ids)
}

func (a *applying) delete(ctx context.Context, t *writeTx) error {
	id := a.res.ID
	if a.m.Kind == schemas.SingleType {
		// REST deletes the published entry; GraphQL finds drafts too.
		sid, found, err := a.s.localize().SingleID(ctx, t.tx, a.m, a.q.Via == ir.ViaREST, a.locale)
		if err != nil || !found {
			return err
		}
		id = sid
		a.res.ID = id
	}
	if err := a.answer(ctx, t.tx, id); err != nil {
		return err
	}
	if a.res.Entry == nil {
		a.res.ID = 0
		return nil
	}
	if err := a.before(ctx, BeforeDelete, id); err != nil {
		return err
	}
	if err := a.event(ctx, t, EntryDelete, id); err != nil {
		return err
	}
	return a.s.Writer.Delete(ctx, t.tx, a.m, id)
}

// putSingle is a single type's update: it updates the entry of the locale, or creates it.
func (a *applying) putSingle(ctx context.Context, t *writeTx) error {
	m, loc := a.m, a.s.localize()
	id, found, err := loc.SingleID(ctx, t.tx, m, false, a.locale)
	if err != nil {
		return err
	}
	if found {
		a.res.ID = id
		if a.q.Via == ir.ViaREST && m.Localized {
			delete(a.data, "locale")
			delete(a.data, "localizations")
		}
		if err := a.before(ctx, BeforeUpdate, id); err != nil {
			return err
		}
		return a.updated(ctx, t, id)
	}
	a.res.Created = true
	if m.Localized {
		if a.q.Via == ir.ViaREST {
			// Another locale's entry exists: new locales come through POST /localizations,
			// as in Strapi.
			if _, other, err := loc.SingleID(ctx, t.tx, m, false, ""); err != nil {
				return err
			} else if other {
				return apierror.Validation("singleType.alreadyExists")
			}
			// The new entry takes the body's locale, not the query's (Strapi's quirk).
			delete(a.data, "localizations")
			if err := loc.CreateLocale(ctx, m, a.data); err != nil {
				return err
			}
		} else if a.locale != "" {
			a.data["locale"] = a.locale
		}
	}
	if err := a.before(ctx, BeforeCreate, 0); err != nil {
		return err
	}
	if id, err = a.insert(ctx, t.tx, a.data); err != nil {
		return err
	}
	a.res.ID = id
	if err := a.answer(ctx, t.tx, id); err != nil || a.res.Entry == nil {
		return err
	}
	return a.event(ctx, t, EntryCreate, id)
}

// createLocalization creates a localization of the base entry (i18n's rules: package
// localize), links it into the group and syncs the group, in one transaction.
func (a *applying) createLocalization(ctx context.Context, t *writeTx) error {
	m, loc := a.m, a.s.localize()
	base := a.base
	if m.Kind == schemas.SingleType {
		id, found, err := loc.SingleID(ctx, t.tx, m, false, "")
		if err != nil {
			return err
		}
		if !found {
			return notFound()
		}
		base = id
	}
	if err := a.before(ctx, BeforeCreate, 0); err != nil {
		return err
	}
	id, members, err := loc.Create(ctx, t.tx, m, base, a.data)
	if err != nil {
		return err
	}
	a.res.ID = id
	// The entity service created it with its localizations populated, as they were before
	// the group was synced: that is the event's entry, and REST's answer.
	created := &ir.Query{Model: m.UID, Op: ir.FindOne, ID: strconv.FormatInt(id, 10),
		Populate: &ir.Populate{Children: []*ir.PopulateField{{Field: "localizations"}}}}
	var ev Event
	if a.q.Via == ir.ViaREST {
		pl, res, err := exec.ReadOne(ctx, a.s.Planner, a.s.Runner, t.tx, created, nil)
		if err != nil {
			return err
		}
		a.res.Plan, a.res.Entry, a.res.Statements = pl, res.First(), res.Statements
		ev = Event{Name: EntryCreate, Model: m, ID: id, Step: pl.Root, Entry: a.res.Entry}
	} else if ev, err = a.s.ReadEvent(ctx, t.tx, EntryCreate, m, id, created); err != nil {
		return err
	}
	ev.Params = a.q
	t.events = append(t.events, pending{ev: ev, state: a.state})
	ids, err := loc.Sync(ctx, t.tx, m, id, members)
	if err != nil {
		return err
	}
	if err := a.synced(ctx, t, ids); err != nil {
		return err
	}
	if a.q.Via != ir.ViaREST {
		// GraphQL reads its selection after the sync, as Strapi resolves it.
		return a.answer(ctx, t.tx, id)
	}
	return nil
}
