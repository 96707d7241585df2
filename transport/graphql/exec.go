package graphql

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/vektah/gqlparser/v2/ast"

	"quarry/apierror"
	"quarry/auth"
	"quarry/gqlschema"
	"quarry/ir"
	pg "quarry/parser/graphql"
	"quarry/planner"
	"quarry/planner/exec"
	"quarry/schemas"
)

// execution is one operation's run: its caller, the errors collected so far and the
// statement count (which tests compare with REST's).
type execution struct {
	h      *Handler
	ctx    context.Context
	caller *auth.Caller
	op     *pg.Operation
	log    *slog.Logger
	errs   []*gqlError
	trace  *tracer
	stmts  int
	// caches of the shaper, per plan step
	cols map[*planner.Select]map[string]int
	// emptyPopulate shapes relations, components and dynamic zones as empty (deleted entries).
	emptyPopulate bool
}

// run executes every root field in order (mutations must run serially; queries run
// serially too, which keeps one connection per request).
func (x *execution) run() *omap {
	data := &omap{}
	rootType := x.h.gs.AST.Query
	if x.op.Kind == ast.Mutation {
		rootType = x.h.gs.AST.Mutation
	}
	for _, rf := range x.op.Fields {
		start := time.Now()
		path := []any{rf.Key}
		v, ok := x.rootField(rootType, rf, path)
		x.traceField(path, rootType.Name, rf.Field, start)
		if !ok {
			// A non-null root field failed: the whole data is null.
			return nil
		}
		data.set(rf.Key, v)
	}
	return data
}

func (x *execution) rootField(rootType *ast.Definition, rf *pg.RootField, path []any) (any, bool) {
	var t *ast.Type
	if rf.Def != nil {
		t = rf.Def.Type
	}
	switch rf.Kind {
	case pg.KindTypename:
		return rootType.Name, true
	case pg.KindSchema:
		v, ok := x.complete(t, rootType.Name, rf.Field, &introSchema{s: x.h.gs}, path)
		return x.wrap(t, rootType.Name, rf.Field, path, v, ok)
	case pg.KindType:
		name, _ := rf.Args.Map["name"].(string)
		var v any
		if d := x.h.gs.AST.Types[name]; d != nil {
			v = &introType{s: x.h.gs, def: d}
		}
		cv, ok := x.complete(t, rootType.Name, rf.Field, v, path)
		return x.wrap(t, rootType.Name, rf.Field, path, cv, ok)
	}
	if rf.Err != nil {
		x.fieldError(rf.Err, rf.Field, path)
		return x.wrap(t, rootType.Name, rf.Field, path, nil, false)
	}
	if rf.Kind == pg.KindCustom {
		return x.customField(rootType.Name, rf.Field, nil, path)
	}
	scope := []string{rf.Model.UID + "." + rf.Action}
	open := false
	next := func(ctx context.Context, _ gqlschema.ResolveParams) (any, error) {
		return x.shadowCRUD(ctx, rf, path)
	}
	if rf.Kind == pg.KindAccount {
		scope, open = nil, true
		if s := gqlschema.AccountScopes[rf.Action]; s != "" {
			scope, open = []string{s}, false
		}
		next = func(ctx context.Context, _ gqlschema.ResolveParams) (any, error) {
			v, err := x.account(ctx, rf, path)
			if err != nil {
				return nil, err
			}
			if _, shaped := v.(*omap); shaped {
				return v, nil
			}
			// The plugin's payloads are plain maps, completed against their types.
			cv, ok := x.complete(fieldType(rf.Field), rootType.Name, rf.Field, v, path)
			if !ok {
				return nil, errBubble
			}
			return cv, nil
		}
	}
	v, err := x.resolve(rootType.Name, rf.Field, scope, open, nil, next)
	if errors.Is(err, errBubble) {
		return nil, false
	}
	if err != nil {
		x.fieldError(err, rf.Field, path)
		return x.wrap(t, rootType.Name, rf.Field, path, nil, false)
	}
	if v == nil {
		return x.wrap(t, rootType.Name, rf.Field, path, nil, true)
	}
	return v, true
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
			if x.caller == nil || x.caller.Kind == auth.Public {
				return nil, forbidden()
			}
		}
		for _, action := range scope {
			if !x.caller.Can(action) {
				return nil, forbidden()
			}
		}
	}
	rp := gqlschema.ResolveParams{Parent: parent, Args: argMap(f.Args), Caller: x.caller, TypeName: typeName, FieldName: f.Name}
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

// argMap gives extension code plain argument values.
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
	}
	return v
}

// shadowCRUD runs a generated query or mutation and shapes its result.
func (x *execution) shadowCRUD(ctx context.Context, rf *pg.RootField, path []any) (any, error) {
	switch rf.Kind {
	case pg.KindFind:
		if err := x.defaultLocale(ctx, rf); err != nil {
			return nil, err
		}
		plan, err := x.h.planner.Read(rf.Query, x.caller)
		if err != nil {
			return nil, err
		}
		res, err := x.h.runner.Run(ctx, x.h.db, plan)
		if err != nil {
			return nil, err
		}
		x.stmts += res.Statements
		return x.collection(rf, plan, res, path), nil
	case pg.KindFindOne, pg.KindSingle:
		if rf.Kind == pg.KindFindOne {
			if _, err := planner.ParseID(rf.ID); err != nil {
				// Strapi answers {data: null} for a missing or unknown id.
				return x.entityResponse(rf.Object, nil, nil, path), nil
			}
		}
		if rf.Kind == pg.KindSingle {
			if err := x.defaultLocale(ctx, rf); err != nil {
				return nil, err
			}
		}
		plan, e, err := x.readOne(ctx, x.h.db, rf.Query)
		if err != nil {
			return nil, err
		}
		return x.entityResponse(rf.Object, stepOf(plan), e, path), nil
	case pg.KindCreate, pg.KindUpdate, pg.KindDelete:
		if x.h.writer == nil {
			return nil, &apierror.Error{Status: 501, Name: "NotImplementedError", Message: "This feature is not implemented yet"}
		}
		return x.mutation(ctx, rf, path)
	}
	return nil, fmt.Errorf("unknown root field kind %d", rf.Kind)
}

func stepOf(p *planner.Plan) *planner.Select {
	if p == nil {
		return nil
	}
	return p.Root
}

// readOne plans and runs a single-entry read.
func (x *execution) readOne(ctx context.Context, db exec.Queryer, q *ir.Query) (*planner.Plan, *exec.Entry, error) {
	plan, err := x.h.planner.Read(q, x.caller)
	if err != nil {
		return nil, nil, err
	}
	res, err := x.h.runner.Run(ctx, db, plan)
	if err != nil {
		return nil, nil, err
	}
	x.stmts += res.Statements
	if len(res.Entries) == 0 {
		return plan, nil, nil
	}
	return plan, res.Entries[0], nil
}

// defaultLocale restricts a read of a localized type without a locale argument to the
// default locale, as Strapi's i18n does.
func (x *execution) defaultLocale(ctx context.Context, rf *pg.RootField) error {
	if !rf.Model.Localized || len(rf.Query.Locale) > 0 || x.h.locales == nil {
		return nil
	}
	def, err := x.h.locales.Default(ctx)
	if err != nil {
		return err
	}
	rf.Query.Locale = []string{def}
	return nil
}

// writeLocale is the locale a write of a localized type applies to: the locale argument,
// which must exist, or the default locale. "" for other types.
func (x *execution) writeLocale(ctx context.Context, rf *pg.RootField) (string, error) {
	if !rf.Model.Localized || x.h.locales == nil {
		if len(rf.Query.Locale) > 0 {
			return rf.Query.Locale[0], nil
		}
		return "", nil
	}
	if len(rf.Query.Locale) > 0 {
		ok, err := x.h.locales.Exists(ctx, rf.Query.Locale[0])
		if err != nil {
			return "", err
		}
		if !ok {
			return "", apierror.Application("This locale doesn't exist")
		}
		return rf.Query.Locale[0], nil
	}
	return x.h.locales.Default(ctx)
}

// createData is the payload of a create. Strapi's GraphQL creates through the entity
// service, which (unlike REST's core service) does not publish: without publishedAt the
// new entry is a draft.
func createData(m *schemas.Model, data map[string]any, locale string) map[string]any {
	out := make(map[string]any, len(data)+2)
	for k, v := range data {
		out[k] = v
	}
	if _, ok := out["publishedAt"]; m.DraftAndPublish && !ok {
		out["publishedAt"] = nil
	}
	if locale != "" && m.Localized {
		out["locale"] = locale
	}
	return out
}

// mutation runs create, update or delete in one transaction with the read of the entry it
// returns, as the REST handlers do.
func (x *execution) mutation(ctx context.Context, rf *pg.RootField, path []any) (any, error) {
	m := rf.Model
	q := *rf.Query
	q.Locale = nil // the entry is read back by id
	var plan *planner.Plan
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
	err := x.h.tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		switch {
		case m.Kind == schemas.SingleType && rf.Kind == pg.KindUpdate:
			id, found, err := x.h.singleID(ctx, tx, m, false, locale)
			if err != nil {
				return err
			}
			if found {
				err = x.h.writer.Update(ctx, tx, m, id, rf.Data)
			} else {
				id, err = x.h.writer.Create(ctx, tx, m, createData(m, rf.Data, locale))
			}
			if err != nil {
				return err
			}
			q.ID = strconv.FormatInt(id, 10)
			plan, e, err = x.readOne(ctx, tx, &q)
			return err
		case m.Kind == schemas.SingleType && rf.Kind == pg.KindDelete:
			id, found, err := x.h.singleID(ctx, tx, m, true, locale)
			if err != nil {
				return err
			}
			if !found {
				return &apierror.Error{Status: 404, Name: "NotFoundError", Message: "Entity not found"}
			}
			q.ID = strconv.FormatInt(id, 10)
			if plan, e, err = x.readOne(ctx, tx, &q); err != nil || e == nil {
				return err
			}
			return x.h.writer.Delete(ctx, tx, m, id)
		case rf.Kind == pg.KindCreate:
			id, err := x.h.writer.Create(ctx, tx, m, createData(m, rf.Data, locale))
			if err != nil {
				return err
			}
			q.ID = strconv.FormatInt(id, 10)
			plan, e, err = x.readOne(ctx, tx, &q)
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
			plan, e, err = x.readOne(ctx, tx, &q)
			return err
		case rf.Kind == pg.KindDelete:
			id, perr := planner.ParseID(rf.ID)
			if perr != nil {
				return nil
			}
			if plan, e, err = x.readOne(ctx, tx, &q); err != nil || e == nil {
				return err
			}
			return x.h.writer.Delete(ctx, tx, m, id)
		}
		return fmt.Errorf("unknown mutation %s", rf.Name)
	})
	if err != nil {
		return nil, err
	}
	return x.entityResponse(rf.Object, stepOf(plan), e, path), nil
}

// tx runs fn in one transaction.
func (h *Handler) tx(ctx context.Context, fn func(tx *sqlx.Tx) error) error {
	t, err := h.db.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(t); err != nil {
		t.Rollback()
		return err
	}
	if err := t.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// exists reports whether an entry exists.
func (h *Handler) exists(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, id int64) (bool, error) {
	var n int
	q := tx.Rebind(fmt.Sprintf("SELECT COUNT(*) FROM %s WHERE id = ?", h.db.Dialect.Quote(m.Table)))
	if err := tx.QueryRowxContext(ctx, q, id).Scan(&n); err != nil {
		return false, fmt.Errorf("check %s %d: %w", m.Table, id, err)
	}
	return n > 0, nil
}

// singleID finds a single type's entry (of one locale for localized types); liveOnly skips
// drafts.
func (h *Handler) singleID(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, liveOnly bool, locale string) (int64, bool, error) {
	d := h.db.Dialect
	q := fmt.Sprintf("SELECT id FROM %s WHERE 1 = 1", d.Quote(m.Table))
	var args []any
	if liveOnly && m.DraftAndPublish {
		q += " AND published_at IS NOT NULL"
	}
	if m.Localized && locale != "" {
		q += " AND " + d.Quote("locale") + " = ?"
		args = append(args, locale)
	}
	q += " ORDER BY id LIMIT 1"
	var id int64
	if err := tx.QueryRowxContext(ctx, tx.Rebind(q), args...).Scan(&id); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return 0, false, nil
		}
		return 0, false, fmt.Errorf("find %s entry: %w", m.Table, err)
	}
	return id, true, nil
}
