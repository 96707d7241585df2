// Package write is the one write path: every write of an entry — REST's handlers, GraphQL's
// mutations, the i18n plugin's localizations and the project's own code
// (strapi.entityService, strapi.db.query) — goes through Service.Apply, and every write
// Strapi announces, the plugins' own writes included, is announced by one step,
// Service.Announce.
//
// # The entry point
//
// A write is an ir.Query: Op (ir.Create, ir.Update, ir.Delete, ir.CreateLocalization),
// Model, ID (none for a single type, whose entry is found by Locale), Data (the payload,
// decoded JSON with json.Number numbers), Fields and Populate (the entry it answers with),
// Locale, and Via, the Strapi layer the write goes through (ir.ViaREST, ir.ViaGraphQL,
// ir.ViaEntityService), which decides the defaults those layers differ on. The caller is an
// *ir.Caller; ir.System for the project's code (no permission applies to it, as none applies
// to Strapi's services):
//
//	res, err := svc.Apply(ctx, &ir.Query{Model: "api::article.article", Op: ir.Create,
//		Via: ir.ViaEntityService, Data: map[string]any{"title": "Hello"}}, ir.System)
//	// res.ID, and res.Plan/res.Entry: the entry read back (nil Entry: none found).
//
// Apply checks the caller's permission for the action (<uid>.create, ...), removes the
// relations the caller may not read from the payload (Strapi's input sanitizer), applies
// i18n's locale rules (planner/localize), then in one transaction: checks that the entry
// exists (a missing one is a Result without Entry, no error), runs the lifecycle hook
// Before, validates and writes (Writer, below), reads the answer back through the read
// planner, syncs the localizations as Strapi's i18n does; once the transaction committed
// (which records the tables written for the response cache) the events are announced:
// Lifecycles.After, then the Announcer (webhooks). A context carrying a write transaction
// (TxFrom: inside a before hook) makes Apply join it; its events are announced when the
// outermost write commits.
//
// The layers differ as Strapi's do: REST (the core service) publishes a new entry unless
// data.publishedAt is null and its event holds the entry as the request reads it; GraphQL's
// resolvers and the entity service create drafts unless data gives publishedAt; GraphQL's
// events hold the entry's own attributes (its resolvers pass no populate), the entity
// service's what its params' Fields and Populate read; i18n syncs a group only when the
// params populate localizations. A single type's update creates its entry when there is
// none; REST deletes only its published entry.
//
// # Lifecycles
//
// Lifecycles is the hook point for the project's lifecycle hooks (beforeCreate,
// afterCreate, ..., as in Strapi's content-types' lifecycles.js). Before runs inside the
// transaction with the params (Lifecycle.Params; a hook may change Data): an error aborts the
// write, rolls back and is the answer. After runs once the write committed, with the result
// (Lifecycle.Result, the event), and sees every announced write, the plugins' too. A nil
// Lifecycles (no hooks registered) changes nothing.
//
// # Validation and the write itself
//
// The Writer applies Strapi v4 writes to the database: create, partial update and delete of
// one entry together with its components, dynamic-zone items, relations and media links.
//
// Every write runs in two phases inside the caller's transaction. The first phase walks the
// payload against the schema the way Strapi's entity validator (yup) does: it collects every
// field error with Strapi's messages, paths and order, checks uniqueness and that related ids
// exist (batched SELECTs, nothing written), and builds a tree of write operations. Only when
// the payload is valid does the second phase run the INSERT/UPDATE/DELETE statements. Errors
// found while writing (relation positions) are returned as *apierror.Error too; the caller
// rolls the transaction back.
//
// Deliberate differences from Strapi 4:
//   - Dynamic-zone items must use one of the zone's components (Writer.LaxDynamicZones
//     restores Strapi's "any component" behaviour).
//   - Values Strapi passes to the database and answers with a 500 are refused with a 400
//     ValidationError naming the field: strings over varchar(255), NUL characters,
//     integers outside 32 bits, decimals outside numeric(10,2), infinite floats, years the
//     databases cannot store, passwords over bcrypt's 72 bytes, non-integral bigintegers,
//     {id} relation objects naming missing entries, malformed disconnect ids.
//   - Decimals are rounded to two places on every dialect (PostgreSQL's numeric(10,2)).
//   - Values quoted in type errors print object keys sorted (Go maps keep no key order).
//   - A write and its i18n sync are one transaction: a failed sync writes nothing.
package write

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
)

// Writer writes entries of one schema to one database dialect.
type Writer struct {
	Schema  *schemas.Schema
	Dialect sqlgen.Dialect
	Now     func() time.Time // injectable clock; time.Now when nil

	// DefaultLocale is stored in `locale` when an entry of a localized type is created
	// without one ("en" when empty).
	DefaultLocale string
	// LaxDynamicZones accepts dynamic-zone items whose __component is an existing component
	// the zone does not list, as Strapi 4 does. By default they are refused with a 400
	// ValidationError naming the zone's components.
	LaxDynamicZones bool
	// Inline, when set, records files uploaded with the payload (multipart requests).
	Inline InlineMedia

	rulesOnce sync.Once
	ruleSet   *ruleSet // attribute rules, compiled once per schema (rules.go)

	stmtsOnce sync.Once
	stmtCache *sqlgen.WriteCache // statement texts per shape, shared with derived writers
}

// stmts is the writer's statement cache, made on first use.
func (w *Writer) stmts() *sqlgen.WriteCache {
	w.stmtsOnce.Do(func() {
		if w.stmtCache == nil {
			w.stmtCache = sqlgen.NewWriteCache()
		}
	})
	return w.stmtCache
}

type mode int

const (
	modeCreate mode = iota
	modeUpdate
)

func (w *Writer) now() time.Time {
	now := time.Now
	if w.Now != nil {
		now = w.Now
	}
	return now().UTC().Truncate(time.Millisecond)
}

func (w *Writer) check(m *schemas.Model) error {
	if w.Schema == nil || w.Dialect == nil {
		return errors.New("write: Writer needs a Schema and a Dialect")
	}
	if m == nil || m.Kind == schemas.Component {
		return errors.New("write: the model must be a content type")
	}
	return nil
}

// Create validates data (the decoded `data` object of the body, decoded with
// json.Decoder.UseNumber so numbers are json.Number) and inserts the entry with its
// components, dynamic-zone items, relations and media links. Returns the new id.
func (w *Writer) Create(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, data map[string]any) (int64, error) {
	if err := w.check(m); err != nil {
		return 0, err
	}
	if data == nil {
		data = map[string]any{}
	}
	p := w.newPlanner(ctx, tx, modeCreate)
	if m.DraftAndPublish {
		if v, ok := data["publishedAt"]; ok && v == nil {
			p.draft = true
		}
	}
	op, err := p.plan(m, data, nil)
	if err != nil {
		return 0, err
	}
	if fn := planTracer(ctx); fn != nil {
		fn(op.planText())
	}
	id, err := p.x.run(op)
	if err != nil {
		return 0, ConstraintError(w.Schema, err)
	}
	return id, w.recordInline(ctx, tx, m, id, data)
}

// Update applies a partial update (keys present only; null clears) to entry id; updatedAt
// is always set. A missing id gives a 404 NotFoundError.
func (w *Writer) Update(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, id int64, data map[string]any) error {
	if err := w.check(m); err != nil {
		return err
	}
	if data == nil {
		data = map[string]any{}
	}
	p := w.newPlanner(ctx, tx, modeUpdate)
	ex, err := p.loadEntry(m, id)
	if err != nil {
		return err
	}
	if ex == nil {
		return apierror.NotFound()
	}
	p.draft = ex.draft
	op, err := p.plan(m, data, ex)
	if err != nil {
		return err
	}
	if fn := planTracer(ctx); fn != nil {
		fn(op.planText())
	}
	if _, err = p.x.run(op); err != nil {
		return ConstraintError(w.Schema, err)
	}
	return w.recordInline(ctx, tx, m, id, data)
}

// Delete deletes entry id, its component rows (recursively, nested components too), its
// link rows (both directions, including unidirectional relations of other types pointing at
// it) and its media morph rows. A missing id gives a 404 NotFoundError.
func (w *Writer) Delete(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, id int64) error {
	if err := w.check(m); err != nil {
		return err
	}
	x := &execer{w: w, db: dbx{ctx: ctx, tx: tx, d: w.Dialect, c: w.stmts()}}
	var n int64
	if err := x.db.get(&n, sqlgen.EntryCount(w.Dialect, m, id)); err != nil {
		return err
	}
	if n == 0 {
		return apierror.NotFound()
	}
	if fn := planTracer(ctx); fn != nil {
		fn(fmt.Sprintf("delete %s #%d, its components (nested ones too), its links both ways and its media links", m.Table, id))
	}
	return x.deleteEntry(m, id)
}

// SingleID finds the entry of a single type, drafts included (the first one by id).
func (w *Writer) SingleID(ctx context.Context, tx *sqlx.Tx, m *schemas.Model) (int64, bool, error) {
	db := dbx{ctx: ctx, tx: tx, d: w.Dialect}
	var id int64
	err := db.get(&id, sqlgen.SingleEntryID(w.Dialect, m, false, ""))
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	return id, true, nil
}

// PutSingle is a single type's PUT: it updates the existing entry (drafts included) or
// creates it. It returns the entry's id and whether it was created.
func (w *Writer) PutSingle(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, data map[string]any) (int64, bool, error) {
	id, found, err := w.SingleID(ctx, tx, m)
	if err != nil {
		return 0, false, err
	}
	if found {
		return id, false, w.Update(ctx, tx, m, id, data)
	}
	id, err = w.Create(ctx, tx, m, data)
	return id, true, err
}

// loadEntry reads what an update needs from the stored row: whether it is a draft and the
// stored values of unique attributes (unchanged values skip the uniqueness check).
func (p *walker) loadEntry(m *schemas.Model, id int64) (*existing, error) {
	cols := []string{"id"}
	var attrs []*schemas.Attribute
	for _, a := range m.Attributes {
		if a.IsScalar() && !a.System && (a.Unique || a.Type == schemas.UID) {
			attrs = append(attrs, a)
			cols = append(cols, a.Column)
		}
	}
	if m.DraftAndPublish {
		cols = append(cols, "published_at")
	}
	rows, err := p.x.db.query(sqlgen.EntryColumns(p.w.Dialect, m, id, cols...))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	if !rows.Next() {
		return nil, rows.Err()
	}
	vals, err := rows.SliceScan()
	if err != nil {
		return nil, err
	}
	ex := &existing{id: id, stored: map[string]any{}}
	for i, a := range attrs {
		v, err := exec.Normalize(a.Type, vals[i+1])
		if err != nil {
			return nil, err
		}
		ex.stored[a.Name] = v
	}
	if m.DraftAndPublish {
		ex.draft = vals[len(vals)-1] == nil
	}
	return ex, rows.Err()
}

// CreateDraft creates an entry validated as published (required and minLength apply) but
// stored as a draft, as Strapi's entity service does when publishedAt is not given (GraphQL
// creates, i18n's create-localization). An explicit publishedAt in data is kept.
func (w *Writer) CreateDraft(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, data map[string]any) (int64, error) {
	_, explicit := data["publishedAt"]
	id, err := w.Create(ctx, tx, m, data)
	if err != nil || !m.DraftAndPublish || explicit {
		return id, err
	}
	db := dbx{ctx: ctx, tx: tx, d: w.Dialect}
	if err := db.exec(sqlgen.EntryDraft(w.Dialect, m, id)); err != nil {
		return 0, fmt.Errorf("store draft: %w", err)
	}
	return id, nil
}

// UpdateAt is Update with updatedAt set to now, for a caller that wrote part of the row in
// the same transaction at that instant (the users-permissions user's own attributes).
func (w *Writer) UpdateAt(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, id int64, data map[string]any, now time.Time) error {
	at := w.derive()
	at.Now = func() time.Time { return now }
	return at.Update(ctx, tx, m, id, data)
}

// Values validates the values data gives for scalar attributes of m as a create of a
// published entry validates them (yup's type tests and the attributes' compiled rules,
// Strapi's messages, in the order of attrs) and returns them cast for their columns, by
// column name, for a caller that inserts the row itself (the users-permissions
// registration). Keys data lacks and passwords are left out; uniqueness is left to the
// caller's insert.
func (w *Writer) Values(m *schemas.Model, attrs []*schemas.Attribute, data map[string]any) (map[string]any, error) {
	p := &walker{w: w, mode: modeCreate, now: w.now(), rules: w.rules(), linked: map[string][]int64{}}
	op := &entryOp{model: m}
	var out []apierror.FieldError
	var stage2 error
	for _, a := range attrs {
		v, ok := data[a.Name]
		if !ok || !a.IsScalar() || a.Type == schemas.Password { // passwords are the caller's to hash
			continue
		}
		errs, s2 := p.scalar(op, a, v, true, objPath{segs: []string{}}.field(a.Name), nil)
		stage2 = firstErr(stage2, s2)
		for _, e := range errs {
			if e.uniq == nil {
				out = append(out, apierror.FieldError{Path: e.segs, Message: e.msg, Name: "ValidationError"})
			}
		}
	}
	if len(out) > 0 {
		return nil, apierror.Fields(out)
	}
	if stage2 != nil {
		return nil, stage2
	}
	vals := make(map[string]any, len(op.cols))
	for _, c := range op.cols {
		vals[c.col] = c.val
	}
	return vals, nil
}

// derive copies the writer's settings into a new writer sharing its compiled rules.
func (w *Writer) derive() *Writer {
	d := &Writer{Schema: w.Schema, Dialect: w.Dialect, Now: w.Now, DefaultLocale: w.DefaultLocale,
		LaxDynamicZones: w.LaxDynamicZones, Inline: w.Inline}
	rs := w.rules()
	d.rulesOnce.Do(func() { d.ruleSet = rs })
	d.stmtCache = w.stmts()
	return d
}
