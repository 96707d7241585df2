package execute

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/parser/gqlschema"
	pg "github.com/quarrycms/quarry/parser/graphql"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
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
	// values are the entries an extension's resolver answered as an EntityResponse, by
	// the entries read for them: their id and scalar attributes are the resolver's
	// (customEntities).
	values map[*exec.Entry]map[string]any
	// emptyPopulate shapes relations, components and dynamic zones as empty (deleted entries).
	emptyPopulate bool
	// files are the file parts of a multipart request, by map key; used, those stored.
	files map[string]any
	used  map[string]bool
	// cur is the root field running; related holds the related entries of the files its
	// result holds, when it selects them (UploadFile.related).
	cur     *pg.RootField
	related map[int64][]*exec.Related
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
	next := func(ctx context.Context, rp gqlschema.ResolveParams) (any, error) {
		cur := rf
		if rp.Args != nil && !sameJSON(rp.Args, argMap(rf.Field.Args)) {
			// A resolver middleware passed other args: the query is lowered again from
			// them, as Strapi's resolver runs with what it is given.
			again, err := pg.Relower(x.h.gs, x.h.opt, rf, rp.Args)
			if err != nil {
				return nil, err
			}
			if again.Err != nil {
				return nil, again.Err
			}
			cur = again
		}
		x.w.Truncate(mark) // a middleware may run it more than once
		return x.shadowCRUD(ctx, cur, p)
	}
	if rf.Kind == pg.KindAccount || rf.Kind == pg.KindUpload {
		if rf.Kind == pg.KindAccount {
			scope, open = nil, true
			if s := gqlschema.AccountScopes[rf.Action]; s != "" {
				scope, open = []string{s}, false
			}
		}
		next = func(ctx context.Context, rp gqlschema.ResolveParams) (any, error) {
			if err := argsKept(rf.Field, rp); err != nil {
				return nil, err
			}
			x.w.Truncate(mark)
			v, err := x.plugin(ctx, rf, p)
			if err != nil {
				return nil, err
			}
			if _, ok := v.(written); ok {
				return v, nil
			}
			// A plugin's payloads are plain values, completed against their types.
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

// argsKept refuses to run a plugin's root resolver (users-permissions, upload) with args
// other than the document's: its payload was read from the document before the resolver's
// middlewares ran, so running it would ignore what a middleware changed. Strapi runs the
// changed args; Quarry answers NotImplementedError rather than run the unchanged ones.
// (A generated query or mutation is lowered again from the args it is given.)
func argsKept(f *pg.Field, rp gqlschema.ResolveParams) error {
	if rp.Args == nil {
		return nil // no middleware had them
	}
	if sameJSON(rp.Args, argMap(f.Args)) {
		return nil
	}
	return &apierror.Error{Status: 501, Name: "NotImplementedError",
		Message: "a resolver middleware of " + rp.TypeName + "." + rp.FieldName + " changes the arguments of a generated resolver, which Quarry does not run"}
}

// sameJSON compares two argument maps as JSON data (a middleware's come back through JSON).
func sameJSON(a, b map[string]any) bool {
	norm := func(v any) any {
		data, err := json.Marshal(v)
		if err != nil {
			return nil
		}
		var out any
		if json.Unmarshal(data, &out) != nil {
			return nil
		}
		return out
	}
	na, nb := norm(a), norm(b)
	return na != nil && reflect.DeepEqual(na, nb)
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
	// Strapi's GraphQL plugin composes [...middlewares, policies, resolver]: the policies
	// see the args the middlewares pass on.
	r := next
	if len(cfg.Policies) > 0 {
		r = func(ctx context.Context, rp gqlschema.ResolveParams) (any, error) {
			for _, p := range cfg.Policies {
				ok, err := p(ctx, gqlschema.PolicyContext{ResolveParams: rp})
				if err != nil {
					return nil, err
				}
				if !ok {
					return nil, &apierror.Error{Status: 403, Name: "PolicyError", Message: "Policy Failed"}
				}
			}
			return next(ctx, rp)
		}
	}
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
	if x.hookedRoot(rf) {
		return x.hookedQuery(ctx, rf, p)
	}
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
		if x.h.writes == nil {
			return nil, NotImplemented()
		}
		return x.mutation(ctx, rf, p)
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

// mutation runs a Shadow CRUD mutation or create<Type>Localization through the write path
// (planner/write: checks, transaction, i18n's rules, events) and writes the entry it
// answers with, read back through the field's selection.
func (x *execution) mutation(ctx context.Context, rf *pg.RootField, p *path) (any, error) {
	m := rf.Model
	q := *rf.Query
	if rf.Kind == pg.KindDelete {
		// Strapi resolves the relations, components and dynamic zones of a deleted entry
		// after deleting it, so they come back empty: read only its own attributes.
		q.Populate = nil
		x.emptyPopulate = true
		defer func() { x.emptyPopulate = false }()
	}
	if rf.Kind == pg.KindLocalization && m.Kind == schemas.SingleType {
		q.ID = "" // a single type's localizations are made of its entry
	}
	// The resolver's configuration (scope, auth: false) authorized the caller (resolve).
	res, err := x.h.writes.Apply(ctx, &q, x.caller.Granting(m.UID+"."+rf.Action))
	if err != nil {
		return nil, err
	}
	if res.Entry == nil && rf.Kind == pg.KindDelete && m.Kind == schemas.SingleType {
		return nil, &apierror.Error{Status: 404, Name: "NotFoundError", Message: "Entity not found"}
	}
	x.stmts += res.Statements
	if res.Entry != nil {
		if err := x.loadRelated(ctx, x.h.db, res.Plan.Root, []*exec.Entry{res.Entry}); err != nil {
			return nil, err
		}
	}
	return result(x.entityResponse(rf.Object, stepOf(res.Plan), res.Entry, p)), nil
}
