package execute

import (
	"context"
	"fmt"
	"strconv"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/plan"
	pg "github.com/quarrycms/quarry/parser/graphql"
	"github.com/quarrycms/quarry/planner/exec"
)

// The plugins' root fields. The schema builder (parser/gqlschema) generates the types and
// root fields of the plugins' content types and actions; the plugins register how those are
// resolved, as Strapi's plugins do through the GraphQL plugin's extension service, and the
// executor knows none of them: it runs a registered Resolver for a root field of a plugin
// action (users-permissions' me, login, register, ..., upload's upload, updateFileInfo,
// ...) inside the field's resolver configuration (scope, policies, middlewares).

// Plugin is one plugin's part of the executor.
type Plugin struct {
	// Resolvers serve root fields by their action (gqlschema.ActionLogin, ActionUpload...).
	Resolvers map[string]Resolver
	// Related, when set, reads the entries files are attached to (UploadFile.related,
	// which plans do not populate); the upload plugin sets it.
	Related func(ctx context.Context, db exec.Queryer, fileIDs []int64, canFind func(uid string) bool, fields []string) (map[int64][]*exec.Related, error)
}

// Resolver resolves one plugin root field. It returns a plain value (maps, slices,
// scalars), completed against the field's type, or what one of the Call's answer methods
// returned.
type Resolver func(ctx context.Context, c *Call) (any, error)

// Call is a plugin root field being resolved: its arguments, its caller, and the executor's
// ways of answering with entries read through the field's selection.
type Call struct {
	// Field is the root field: Action, ID, Data (the input lowered as a write payload) and
	// Query (the read its answer is made with).
	Field *pg.RootField
	// Args are the arguments as plain values (copies: the resolver may change them).
	Args   map[string]any
	Caller *ir.Caller
	x      *execution
	p      *path
}

// NotImplemented answers resolvers whose service the server was built without.
func NotImplemented() error {
	return &apierror.Error{Status: 501, Name: "NotImplementedError", Message: "This feature is not implemented yet"}
}

// Entity answers with entry id of the field's model, read through the field's selection
// (an EntityResponse).
func (c *Call) Entity(ctx context.Context, id int64) (any, error) {
	d, err := c.entity(ctx, id, c.p)
	if err != nil {
		return nil, err
	}
	return result(d), nil
}

func (c *Call) entity(ctx context.Context, id int64, p *path) (done, error) {
	x := c.x
	q := *c.Field.Query
	q.ID = strconv.FormatInt(id, 10)
	pl, e, err := x.readOne(ctx, x.h.db, &q)
	if err != nil {
		return failed, err
	}
	if e == nil {
		return failed, fmt.Errorf("%s %d vanished", c.Field.Model.UID, id)
	}
	return x.entityResponse(c.Field.Object, stepOf(pl), e, p), nil
}

// Entities answers with a list of entries of the field's model (EntityResponse items).
func (c *Call) Entities(ctx context.Context, ids []int64) (any, error) {
	x := c.x
	x.w.WriteByte('[')
	for i, id := range ids {
		if i > 0 {
			x.w.WriteByte(',')
		}
		ip, mark := c.p.at(i), x.w.Len()
		d, err := c.entity(ctx, id, &ip)
		if err != nil {
			return nil, err
		}
		if d == failed {
			x.nullAt(mark)
		}
	}
	x.w.WriteByte(']')
	return written{}, nil
}

// Removal is an entry read before it is removed.
type Removal struct {
	c  *Call
	pl *plan.Plan
	e  *exec.Entry
}

// BeforeRemoval reads entry id of the field's model through its selection before the
// resolver removes it; nil when there is no such entry. Its relations come back empty, as
// Strapi resolves them after the removal.
func (c *Call) BeforeRemoval(ctx context.Context, id int64) (*Removal, error) {
	x := c.x
	x.emptyPopulate = true
	defer func() { x.emptyPopulate = false }()
	q := *c.Field.Query
	q.ID = strconv.FormatInt(id, 10)
	pl, e, err := x.readOne(ctx, x.h.db, &q)
	if err != nil || e == nil {
		return nil, err
	}
	return &Removal{c: c, pl: pl, e: e}, nil
}

// Answer answers with the entry as it was read.
func (r *Removal) Answer() any {
	x := r.c.x
	x.emptyPopulate = true
	defer func() { x.emptyPopulate = false }()
	return result(x.entityResponse(r.c.Field.Object, stepOf(r.pl), r.e, r.c.p))
}

// File is the file part of a multipart request an Upload argument names (what the HTTP
// handler put in Request.Files). A part is used once: a second use is refused.
func (c *Call) File(v any) (any, error) {
	x := c.x
	u, ok := v.(pg.Upload)
	if !ok || x.files[u.Part] == nil {
		return nil, &apierror.Error{Status: 400, Name: "BadRequestError", Message: "File missing in the request.", NoDetails: true}
	}
	if x.used[u.Part] {
		return nil, &apierror.Error{Status: 400, Name: "BadRequestError", Message: fmt.Sprintf("File ‘%s’ is used more than once in the request.", u.Part)}
	}
	if x.used == nil {
		x.used = map[string]bool{}
	}
	x.used[u.Part] = true
	return x.files[u.Part], nil
}

// Obj is an input object argument as the parser coerced it.
type Obj = pg.Obj

// plugin runs the registered resolver of a plugin root field.
func (x *execution) plugin(ctx context.Context, rf *pg.RootField, p *path) (any, error) {
	r := x.h.resolvers[rf.Action]
	if r == nil {
		return nil, NotImplemented()
	}
	return r(ctx, &Call{Field: rf, Args: argMap(rf.Args), Caller: x.caller, x: x, p: p})
}
