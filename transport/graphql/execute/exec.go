package execute

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"

	"github.com/jmoiron/sqlx"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/parser/gqlschema"
	pg "github.com/quarrycms/quarry/parser/graphql"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/transport/plugins/upload"
	"github.com/quarrycms/quarry/transport/webhook"
)

// execution is one operation's run: its caller, the errors collected so far and the
// statement count (which tests compare with REST's).
type execution struct {
	h      *Executor
	ctx    context.Context
	caller *ir.Caller
	op     *pg.Operation
	log    *slog.Logger
	errs   []*gqlError
	trace  *tracer
	stmts  int
	// w is the response: the shaper appends each value to it as it walks the results.
	w *jw
	// caches of the shaper, per plan step
	cols map[*plan.Select]map[string]int
	kids map[levelStep][]int
	// lent is set once entry values were handed to extension resolvers, which may keep
	// them: the results read since are not released (exec.Result.Release).
	lent bool
	// emptyPopulate shapes relations, components and dynamic zones as empty (deleted entries).
	emptyPopulate bool
	// files are the file parts of a multipart request, by map key; used, those stored.
	files map[string]*upload.Incoming
	used  map[string]bool
	// cur is the root field running; related holds the related entries of the files its
	// result holds, when it selects them (UploadFile.related).
	cur     *pg.RootField
	related map[int64][]*upload.Related
	// unavailable is set when the database could not serve a field: the request is then
	// answered with this 503.
	unavailable *apierror.Error
}

// run writes the data of every root field in order (mutations must run serially; queries
// run serially too, which keeps one connection per request).
func (x *execution) run() {
	mark := x.w.Len()
	rootType := x.h.gs.AST.Query
	if x.op.Kind == ast.Mutation {
		rootType = x.h.gs.AST.Mutation
	}
	x.w.WriteByte('{')
	for i, rf := range x.op.Fields {
		start, p := x.now(), path{key: rf.Key}
		x.cur, x.related = rf, nil
		x.member(i, rf.Key)
		ok := x.rootField(rootType, rf, &p)
		x.traceField(&p, rootType.Name, rf.Field, start)
		if !ok {
			// A non-null root field failed: the whole data is null.
			x.nullAt(mark)
			return
		}
	}
	x.w.WriteByte('}')
}

// written is what a generated root field's resolver returns through the resolver
// configuration's middlewares: its value is already written to the response, from the
// field's mark. (A middleware may also return a value of its own, written in its place.)
type written struct{}

// result is what a generated resolver returns for a value it wrote: written, or nil when
// the value failed (the field then answers null).
func result(d done) any {
	if d == failed {
		return nil
	}
	return written{}
}

// rootField writes one root field's value; false: a non-null root field got null.
func (x *execution) rootField(rootType *ast.Definition, rf *pg.RootField, p *path) bool {
	var t *ast.Type
	if rf.Def != nil {
		t = rf.Def.Type
	}
	mark := x.w.Len()
	settle := func(d done) bool { return x.settle(t, rootType.Name, rf.Field, p, mark, d) != failed }
	switch rf.Kind {
	case pg.KindTypename:
		x.w.Str(rootType.Name)
		return true
	case pg.KindSchema:
		return settle(x.complete(t, rootType.Name, rf.Field, &introSchema{s: x.h.gs}, p))
	case pg.KindType:
		name, _ := rf.Args.Map["name"].(string)
		var v any
		if d := x.h.gs.AST.Types[name]; d != nil {
			v = &introType{s: x.h.gs, def: d}
		}
		return settle(x.complete(t, rootType.Name, rf.Field, v, p))
	}
	if rf.Err != nil {
		x.fieldError(rf.Err, rf.Field, p)
		return settle(failed)
	}
	if rf.Kind == pg.KindCustom {
		return settle(x.customField(rootType.Name, rf.Field, nil, p))
	}
	scope := []string{rf.Model.UID + "." + rf.Action}
	open := false
	next := func(ctx context.Context, _ gqlschema.ResolveParams) (any, error) {
		x.w.Truncate(mark) // a middleware may run it more than once
		return x.shadowCRUD(ctx, rf, p)
	}
	if rf.Kind == pg.KindAccount {
		scope, open = nil, true
		if s := gqlschema.AccountScopes[rf.Action]; s != "" {
			scope, open = []string{s}, false
		}
		next = func(ctx context.Context, _ gqlschema.ResolveParams) (any, error) {
			x.w.Truncate(mark)
			v, err := x.account(ctx, rf, p)
			if err != nil {
				return nil, err
			}
			if _, ok := v.(written); ok {
				return v, nil
			}
			// The plugin's payloads are plain maps, completed against their types.
			x.w.Truncate(mark)
			switch x.complete(fieldType(rf.Field), rootType.Name, rf.Field, v, p) {
			case failed:
				return nil, errBubble
			case wroteNull:
				return nil, nil
			}
			return written{}, nil
		}
	}
	v, err := x.resolve(rootType.Name, rf.Field, scope, open, nil, next)
	if errors.Is(err, errBubble) {
		return settle(failed)
	}
	if err != nil {
		x.w.Truncate(mark)
		x.fieldError(err, rf.Field, p)
		return settle(failed)
	}
	switch v.(type) {
	case written:
		return true
	case nil:
		return settle(x.nullAt(mark))
	}
	x.w.Truncate(mark)
	x.w.value(v)
	return true
}

// errBubble reports that a completed value nulled a non-null position: the error is
// already recorded and the null propagates.
var errBubble = errors.New("null in a non-null position")

// resolve applies a resolver's configuration (auth, scope, policies, middlewares) around
// next. defaultScope is the permission a generated resolver requires; nil for extension
// resolvers, which then require an authenticated (non-public) caller on Query and Mutation
// fields and nothing elsewhere unless configured.
func (x *execution) resolve(typeName string, f *pg.Field, defaultScope []string, open bool, parent map[string]any, next gqlschema.Resolver) (any, error) {
	cfg, hasCfg := x.h.gs.ResolverConfig(typeName, f.Name)
	root := typeName == "Query" || typeName == "Mutation"
	if open && len(cfg.Scope) == 0 {
		cfg.AuthDisabled = true // the resolver is public by default (login, register, …)
	}
	if !cfg.AuthDisabled && (root || hasCfg) {
		scope := defaultScope
		if len(cfg.Scope) > 0 {
			scope = cfg.Scope
		}
		if len(scope) == 0 {
			if x.caller == nil || x.caller.Kind == ir.PublicCaller {
				return nil, forbidden()
			}
		}
		for _, action := range scope {
			if !x.caller.Can(action) {
				return nil, forbidden()
			}
		}
	}
	rp := gqlschema.ResolveParams{Parent: parent, Caller: x.caller, TypeName: typeName, FieldName: f.Name}
	if f.Resolver != nil || len(cfg.Policies) > 0 || len(cfg.Middlewares) > 0 {
		// Only extension code reads the arguments as plain values; a generated resolver
		// alone has them lowered already.
		rp.Args = argMap(f.Args)
	}
	if len(f.AST) > 0 {
		rp.Field = f.AST[0]
	}
	for _, p := range cfg.Policies {
		ok, err := p(x.ctx, gqlschema.PolicyContext{ResolveParams: rp})
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, &apierror.Error{Status: 403, Name: "PolicyError", Message: "Policy Failed"}
		}
	}
	r := next
	for i := len(cfg.Middlewares) - 1; i >= 0; i-- {
		r = cfg.Middlewares[i](r)
	}
	return r(x.ctx, rp)
}

// argMap gives extension code plain argument values, copies all the way down: the coerced
// values of constant arguments are shared by every request of a cached document
// (parser/graphql's templates), and extension code may change what it is given.
func argMap(o *pg.Obj) map[string]any {
	if o == nil {
		return map[string]any{}
	}
	out := make(map[string]any, len(o.Keys))
	for _, k := range o.Keys {
		out[k] = plainArg(o.Map[k])
	}
	return out
}

func plainArg(v any) any {
	switch x := v.(type) {
	case *pg.Obj:
		return argMap(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plainArg(e)
		}
		return out
	case map[string]any: // a JSON scalar's object
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = plainArg(e)
		}
		return out
	}
	return v
}

// shadowCRUD runs a generated query or mutation and writes its result (see result).
func (x *execution) shadowCRUD(ctx context.Context, rf *pg.RootField, p *path) (any, error) {
	switch rf.Kind {
	case pg.KindFind:
		if err := x.h.localize.ReadLocale(ctx, rf.Model, rf.Query); err != nil {
			return nil, err
		}
		pl, err := x.h.planner.Read(rf.Query, x.caller)
		if err != nil {
			return nil, err
		}
		res, err := x.h.runner.Run(ctx, x.h.db, pl)
		if err != nil {
			return nil, err
		}
		x.stmts += res.Statements
		if err := x.loadRelated(ctx, x.h.db, pl.Root, res.Entries); err != nil {
			return nil, err
		}
		d := x.collection(rf, pl, res, p)
		if !x.lent {
			// The page is written (copied into the response), and nothing else holds its
			// entries: their memory goes to later runs, as the REST list handler's does.
			res.Release()
		}
		return result(d), nil
	case pg.KindFindOne, pg.KindSingle:
		if rf.Kind == pg.KindFindOne {
			if _, err := planner.ParseID(rf.ID); err != nil {
				// Strapi answers {data: null} for a missing or unknown id.
				return result(x.entityResponse(rf.Object, nil, nil, p)), nil
			}
		}
		if rf.Kind == pg.KindSingle {
			if err := x.h.localize.ReadLocale(ctx, rf.Model, rf.Query); err != nil {
				return nil, err
			}
		}
		pl, e, err := x.readOne(ctx, x.h.db, rf.Query)
		if err != nil {
			return nil, err
		}
		return result(x.entityResponse(rf.Object, stepOf(pl), e, p)), nil
	case pg.KindCreate, pg.KindUpdate, pg.KindDelete, pg.KindLocalization:
		if x.h.writer == nil {
			return nil, notImplemented()
		}
		if rf.Kind == pg.KindLocalization {
			return x.createLocalization(ctx, rf, p)
		}
		return x.mutation(ctx, rf, p)
	case pg.KindUpload:
		return x.uploadMutation(ctx, rf, p)
	}
	return nil, fmt.Errorf("unknown root field kind %d", rf.Kind)
}

func stepOf(p *plan.Plan) *plan.Select {
	if p == nil {
		return nil
	}
	return p.Root
}

// readOne plans and runs a single-entry read.
func (x *execution) readOne(ctx context.Context, db exec.Queryer, q *ir.Query) (*plan.Plan, *exec.Entry, error) {
	pl, res, err := exec.ReadOne(ctx, x.h.planner, x.h.runner, db, q, x.caller)
	if err != nil {
		return nil, nil, err
	}
	x.stmts += res.Statements
	if err := x.loadRelated(ctx, db, pl.Root, res.Entries); err != nil {
		return nil, nil, err
	}
	return pl, res.First(), nil
}

// writeLocale is the locale a write of a localized type applies to: the locale argument,
// which must exist, or the default locale. "" for other types.
func (x *execution) writeLocale(ctx context.Context, rf *pg.RootField) (string, error) {
	var given any
	if len(rf.Query.Locale) > 0 {
		given = rf.Query.Locale[0]
	}
	if !rf.Model.Localized {
		s, _ := given.(string)
		return s, nil
	}
	data := map[string]any{"locale": given}
	if err := x.h.localize.CreateLocale(ctx, rf.Model, data); err != nil {
		return "", err
	}
	s, _ := data["locale"].(string)
	return s, nil
}

// createData is the payload of a create. Strapi's GraphQL creates through the entity
// service, which (unlike REST's core service) does not publish: without publishedAt the new
// entry is a draft, yet validated as published (CreateDraft).
func createData(m *schemas.Model, data map[string]any, locale string) map[string]any {
	out := make(map[string]any, len(data)+2)
	for k, v := range data {
		out[k] = v
	}
	if locale != "" && m.Localized {
		out["locale"] = locale
	}
	return out
}

// mutation runs create, update or delete in one transaction with the read of the entry it
// returns, as the REST handlers do.
func (x *execution) mutation(ctx context.Context, rf *pg.RootField, p *path) (any, error) {
	m := rf.Model
	q := *rf.Query
	q.Locale = nil // the entry is read back by id
	var pl *plan.Plan
	var e *exec.Entry
	locale := ""
	if rf.Kind == pg.KindCreate || m.Kind == schemas.SingleType {
		var err error
		if locale, err = x.writeLocale(ctx, rf); err != nil {
			return nil, err
		}
	}
	if rf.Kind == pg.KindDelete {
		// Strapi resolves the relations, components and dynamic zones of a deleted entry
		// after deleting it, so they come back empty: read only its own attributes.
		q.Populate = nil
		x.emptyPopulate = true
		defer func() { x.emptyPopulate = false }()
	}
	var fire func() // queues the mutation's webhook event once it committed
	event := func(tx *sqlx.Tx, name string, id int64) error {
		if x.h.events == nil {
			return nil
		}
		var err error
		fire, err = x.h.events.EntryEvent(ctx, tx, name, m, id)
		return err
	}
	err := x.h.tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		switch {
		case m.Kind == schemas.SingleType && rf.Kind == pg.KindUpdate:
			id, found, err := x.h.localize.SingleID(ctx, tx, m, false, locale)
			if err != nil {
				return err
			}
			name := webhook.EntryUpdate
			if found {
				err = x.h.writer.Update(ctx, tx, m, id, rf.Data)
			} else {
				name = webhook.EntryCreate
				id, err = x.h.writer.CreateDraft(ctx, tx, m, createData(m, rf.Data, locale))
			}
			if err != nil {
				return err
			}
			if err := event(tx, name, id); err != nil {
				return err
			}
			q.ID = strconv.FormatInt(id, 10)
			pl, e, err = x.readOne(ctx, tx, &q)
			return err
		case m.Kind == schemas.SingleType && rf.Kind == pg.KindDelete:
			id, found, err := x.h.localize.SingleID(ctx, tx, m, false, locale)
			if err != nil {
				return err
			}
			if !found {
				return &apierror.Error{Status: 404, Name: "NotFoundError", Message: "Entity not found"}
			}
			q.ID = strconv.FormatInt(id, 10)
			if pl, e, err = x.readOne(ctx, tx, &q); err != nil || e == nil {
				return err
			}
			if err := event(tx, webhook.EntryDelete, id); err != nil {
				return err
			}
			return x.h.writer.Delete(ctx, tx, m, id)
		case rf.Kind == pg.KindCreate:
			id, err := x.h.writer.CreateDraft(ctx, tx, m, createData(m, rf.Data, locale))
			if err != nil {
				return err
			}
			if err := event(tx, webhook.EntryCreate, id); err != nil {
				return err
			}
			q.ID = strconv.FormatInt(id, 10)
			pl, e, err = x.readOne(ctx, tx, &q)
			return err
		case rf.Kind == pg.KindUpdate:
			id, perr := planner.ParseID(rf.ID)
			if perr != nil {
				return nil // an unknown id updates nothing: {data: null}, as Strapi answers
			}
			exists, err := x.h.exists(ctx, tx, m, id)
			if err != nil || !exists {
				return err
			}
			if err = x.h.writer.Update(ctx, tx, m, id, rf.Data); err != nil {
				return err
			}
			if err := event(tx, webhook.EntryUpdate, id); err != nil {
				return err
			}
			pl, e, err = x.readOne(ctx, tx, &q)
			return err
		case rf.Kind == pg.KindDelete:
			id, perr := planner.ParseID(rf.ID)
			if perr != nil {
				return nil
			}
			if pl, e, err = x.readOne(ctx, tx, &q); err != nil || e == nil {
				return err
			}
			if err := event(tx, webhook.EntryDelete, id); err != nil {
				return err
			}
			return x.h.writer.Delete(ctx, tx, m, id)
		}
		return fmt.Errorf("unknown mutation %s", rf.Name)
	})
	if err != nil {
		return nil, err
	}
	if fire != nil {
		fire()
	}
	return result(x.entityResponse(rf.Object, stepOf(pl), e, p)), nil
}

// tx runs fn in one transaction.
func (h *Executor) tx(ctx context.Context, fn func(tx *sqlx.Tx) error) error {
	t, err := h.db.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(t); err != nil {
		t.Rollback()
		return err
	}
	if err := h.db.Commit(ctx, t); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// exists reports whether an entry exists.
func (h *Executor) exists(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, id int64) (bool, error) {
	var n int
	st := sqlgen.EntryCount(h.db.Dialect, m, id)
	if err := tx.QueryRowxContext(ctx, st.SQL, st.Args...).Scan(&n); err != nil {
		return false, fmt.Errorf("check %s %d: %w", m.Table, id, err)
	}
	return n > 0, nil
}

// createLocalization runs create<Type>Localization: the data argument with the locale
// argument is the new localization of entry id (of a single type: its first entry),
// created, linked to the group and synced in one transaction (package localize), then read
// back — after the sync, as Strapi resolves the answer's relations after it.
func (x *execution) createLocalization(ctx context.Context, rf *pg.RootField, p *path) (any, error) {
	m, loc := rf.Model, x.h.localize
	body := make(map[string]any, len(rf.Data)+1)
	for k, v := range rf.Data {
		body[k] = v
	}
	if len(rf.Query.Locale) > 0 {
		body["locale"] = rf.Query.Locale[0]
	}
	q := *rf.Query
	q.Locale = nil
	var pl *plan.Plan
	var e *exec.Entry
	err := x.h.tx(ctx, func(tx *sqlx.Tx) error {
		notFound := &apierror.Error{Status: 404, Name: "NotFoundError", Message: "Entity not found"}
		var baseID int64
		if m.Kind == schemas.SingleType {
			id, found, err := loc.SingleID(ctx, tx, m, false, "")
			if err != nil {
				return err
			}
			if !found {
				return notFound
			}
			baseID = id
		} else {
			id, err := planner.ParseID(rf.ID)
			if err != nil {
				return notFound
			}
			baseID = id
		}
		id, members, err := loc.Create(ctx, tx, m, baseID, body)
		if err != nil {
			return err
		}
		if err := loc.Sync(ctx, tx, m, id, members); err != nil {
			return err
		}
		q.ID = strconv.FormatInt(id, 10)
		pl, e, err = x.readOne(ctx, tx, &q)
		return err
	})
	if err != nil {
		return nil, err
	}
	return result(x.entityResponse(rf.Object, stepOf(pl), e, p)), nil
}
