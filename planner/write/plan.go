package write

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
)

// walker walks one payload: it validates it like Strapi's entity validator and builds the
// tree of write operations. It reads from the database (existing links, uniqueness,
// relation existence) but never writes.
type walker struct {
	w     *Writer
	x     *execer
	mode  mode
	draft bool // D&P draft: required and minLength are not enforced
	now   time.Time
	rules *ruleSet

	uniques []*uniqueCheck
	rel     *store
	// linked lists, per target UID, the ids the operations will link (checked to exist).
	linked     map[string][]int64
	linkedUIDs []string
	// media lists the media values whose files must match allowedTypes.
	media []mediaCheck
	// badRelations marks a malformed relation value the relation store does not see
	// (disconnect lists, {id} objects).
	badRelations bool
	// dbErr is the first database failure met while planning.
	dbErr error
}

func (w *Writer) newPlanner(ctx context.Context, tx *sqlx.Tx, md mode) *walker {
	return &walker{w: w, x: &execer{w: w, db: dbx{ctx: ctx, tx: tx, d: w.Dialect, c: w.stmts()}}, mode: md,
		now: w.now(), rules: w.rules(), linked: map[string][]int64{}}
}

// existing is a stored row a payload object updates in place.
type existing struct {
	id     int64
	draft  bool
	stored map[string]any // root entry: normalized stored values of unique attributes
}

// verr is one validation error; uniq marks an error that only exists if the uniqueness
// lookup finds another row.
type verr struct {
	path string
	segs []string
	msg  string
	uniq *uniqueCheck
}

type errGroup struct {
	path string
	errs []verr
}

type colVal struct {
	col string
	val any
}

// plainPassword is hashed with bcrypt right before it is written.
type plainPassword string

// entryOp writes one row (an entry or a component) and what hangs off it.
type entryOp struct {
	model *schemas.Model
	id    int64 // 0: the row is inserted
	cols  []colVal
	comps []*compField
	rels  []*relField
	// links are the stored component links of an existing row, by field.
	links       map[string][]compLink
	linksLoaded bool
}

type compLink struct {
	id  int64
	typ string
}

// compField is the new content of one component or dynamic-zone attribute.
type compField struct {
	attr  *schemas.Attribute
	items []*compItem
}

type compItem struct {
	uid string
	op  *entryOp
	id  int64 // set when written
}

type uniqueCheck struct {
	model    *schemas.Model
	attr     *schemas.Attribute
	value    any
	exclude  int64
	conflict bool
}

// objPath is a yup path ("blocks[0].text") with its segments (["blocks","0","text"]).
type objPath struct {
	str  string
	segs []string
}

func (o objPath) field(name string) objPath {
	s := name
	if o.str != "" {
		s = o.str + "." + name
	}
	return objPath{s, append(append([]string(nil), o.segs...), name)}
}

func (o objPath) index(i int) objPath {
	return objPath{fmt.Sprintf("%s[%d]", o.str, i), append(append([]string(nil), o.segs...), strconv.Itoa(i))}
}

// typeErr is yup's notType message (Strapi's wording, without yup's hint about nullable).
func (o objPath) typeErr(typ string, final, orig any, cast bool) verr {
	msg := fmt.Sprintf("%s must be a `%s` type, but the final value was: `%s`", o.str, typ, printValue(final, true))
	if cast {
		msg += fmt.Sprintf(" (cast from the value `%s`).", printValue(orig, true))
	} else {
		msg += "."
	}
	return verr{path: o.str, segs: o.segs, msg: msg}
}

func (p *walker) cond() cond { return cond{create: p.mode == modeCreate, draft: p.draft} }

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// plan validates the payload of a root entry and returns its operations, or the error the
// client gets.
func (p *walker) plan(m *schemas.Model, data map[string]any, ex *existing) (*entryOp, error) {
	op, errs, stage2 := p.entry(m, data, ex, objPath{segs: []string{}}, true, nil, false)
	if p.dbErr != nil {
		return nil, p.dbErr
	}
	rootMsg := p.buildStore(m, data)
	if rootMsg == "" {
		msg, err := p.checkRelations()
		if err != nil {
			return nil, err
		}
		rootMsg = msg
	}
	if rootMsg == "" && p.badRelations {
		rootMsg = errInvalidRelations
	}
	if rootMsg == "" {
		bad, err := p.checkMediaTypes()
		if err != nil {
			return nil, err
		}
		errs = append(errs, bad...)
	}
	if err := p.runUniques(); err != nil {
		return nil, err
	}
	var out []apierror.FieldError
	for _, e := range errs {
		if e.uniq != nil && !e.uniq.conflict {
			continue
		}
		out = append(out, apierror.FieldError{Path: e.segs, Message: e.msg, Name: "ValidationError"})
	}
	if rootMsg != "" {
		out = append(out, apierror.FieldError{Path: []string{}, Message: rootMsg, Name: "ValidationError"})
	}
	if len(out) > 0 {
		return nil, apierror.Fields(out)
	}
	if stage2 != nil {
		return nil, stage2
	}
	return op, nil
}

// entry validates one object of model m (the root entry, a component or a dynamic-zone
// item) and builds its operation. It returns the object's validation errors in yup's order
// and the first error Strapi would only meet while writing (component ownership, date
// formats) in Strapi's write order: components first, then the row itself.
func (p *walker) entry(m *schemas.Model, data map[string]any, ex *existing, at objPath, root bool, lead []verr, hasLead bool) (*entryOp, []verr, error) {
	op := &entryOp{model: m}
	if ex != nil {
		op.id = ex.id
	}
	var keys []string
	var groups []errGroup
	if hasLead {
		keys = append(keys, "__component")
		if len(lead) > 0 {
			groups = append(groups, errGroup{at.field("__component").str, lead})
		}
	}
	var compErr, rowErr error
	for _, a := range m.Attributes {
		if a.System {
			continue
		}
		keys = append(keys, a.Name)
		v, present := data[a.Name]
		// A component item without a stored row is created, by an update too, and gets its
		// attributes' defaults as Strapi's entity service gives them.
		if !present && (p.mode == modeCreate || !root && ex == nil) {
			v, present = defaultFor(a)
		}
		fp := at.field(a.Name)
		var errs []verr
		var s2 error
		switch a.Type {
		case schemas.Relation, schemas.Media:
			errs = p.relation(op, a, v, present, fp)
		case schemas.ComponentT:
			if a.Repeatable {
				errs, s2 = p.repeatable(op, a, v, present, fp)
			} else {
				errs, s2 = p.single(op, a, v, present, fp)
			}
			compErr = firstErr(compErr, s2)
		case schemas.DynamicZone:
			errs, s2 = p.dynamicZone(op, a, v, present, fp)
			compErr = firstErr(compErr, s2)
		default:
			errs, s2 = p.scalar(op, a, v, present, fp, ex)
			rowErr = firstErr(rowErr, s2)
		}
		if len(errs) > 0 {
			groups = append(groups, errGroup{fp.str, errs})
		}
	}
	if root {
		rowErr = firstErr(rowErr, p.system(op, m, data))
	}
	return op, sortGroups(keys, groups), firstErr(compErr, rowErr)
}

// sortGroups orders the field groups of one object as yup's sortByKeyOrder does: by the
// index of the first schema key contained in the field's path (a stable sort).
func sortGroups(keys []string, groups []errGroup) []verr {
	idx := func(path string) int {
		for i, k := range keys {
			if strings.Contains(path, k) {
				return i
			}
		}
		return math.MaxInt
	}
	sort.SliceStable(groups, func(i, j int) bool { return idx(groups[i].path) < idx(groups[j].path) })
	var out []verr
	for _, g := range groups {
		out = append(out, g.errs...)
	}
	return out
}

// defaultFor is the value a create uses for an absent key.
func defaultFor(a *schemas.Attribute) (any, bool) {
	if (a.Type == schemas.DynamicZone || (a.Type == schemas.ComponentT && a.Repeatable)) && !a.Required {
		return []any{}, true
	}
	if a.Default == nil {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(a.Default))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	return v, true
}

// system sets timestamps, publishedAt and locale of a root entry.
func (p *walker) system(op *entryOp, m *schemas.Model, data map[string]any) error {
	if p.mode == modeCreate {
		op.cols = append(op.cols, colVal{"created_at", p.now}, colVal{"updated_at", p.now})
	} else {
		op.cols = append(op.cols, colVal{"updated_at", p.now})
	}
	var err error
	if m.DraftAndPublish {
		v, ok := data["publishedAt"]
		switch {
		case !ok && p.mode == modeCreate:
			op.cols = append(op.cols, colVal{"published_at", p.now})
		case !ok:
		case v == nil:
			op.cols = append(op.cols, colVal{"published_at", nil})
		default:
			t, cerr := castTemporal(schemas.DateTime, v)
			if cerr != nil {
				err = cerr
			} else {
				op.cols = append(op.cols, colVal{"published_at", t})
			}
		}
	}
	if m.Localized && p.mode == modeCreate {
		loc, _ := data["locale"].(string)
		if loc == "" {
			loc = p.w.DefaultLocale
		}
		if loc == "" {
			loc = "en"
		}
		op.cols = append(op.cols, colVal{"locale", loc})
	}
	return err
}

// castTemporal casts a date, time or datetime with the shared caster, refusing years the
// databases cannot store (PostgreSQL has no year 0 and stops at 294276).
func castTemporal(t schemas.AttrType, v any) (any, error) {
	out, err := planner.CastValue(t, irValue(v))
	if err != nil {
		return nil, err
	}
	switch x := out.(type) {
	case plan.Date:
		if strings.HasPrefix(string(x), "0000") {
			return nil, apierror.Validation("Invalid format, expected yyyy-MM-dd")
		}
	case time.Time:
		if x.Year() < 1 || x.Year() > 9999 {
			return nil, apierror.Validation("Invalid format, expected a timestamp or an ISO date")
		}
	}
	return out, nil
}

func irValue(v any) ir.Value {
	switch x := v.(type) {
	case string:
		return ir.Str(x)
	case json.Number:
		return ir.Value{Kind: ir.VNumber, S: string(x)}
	case bool:
		return ir.Value{Kind: ir.VBool, S: strconv.FormatBool(x)}
	}
	return ir.Str("")
}

type scalarKind int

const (
	kString scalarKind = iota
	kEnum
	kNumber
	kBool
	kMixed
)

func kindOf(t schemas.AttrType) scalarKind {
	switch t {
	case schemas.String, schemas.Text, schemas.RichText, schemas.Email, schemas.Password, schemas.UID:
		return kString
	case schemas.Enumeration:
		return kEnum
	case schemas.Integer, schemas.Float, schemas.Decimal:
		return kNumber
	case schemas.Boolean:
		return kBool
	}
	return kMixed
}

// scalar validates and casts one column value. The second result is a date/time format
// error, which Strapi only meets when writing (400 ValidationError without details).
func (p *walker) scalar(op *entryOp, a *schemas.Attribute, v any, present bool, at objPath, ex *existing) ([]verr, error) {
	if errs := p.rules.head(a, v, present, p.cond(), at); len(errs) > 0 || !present {
		return errs, nil
	}
	if v == nil {
		op.cols = append(op.cols, colVal{a.Column, nil})
		return nil, nil
	}
	// The type test passed: the casts below succeed.
	var errs []verr
	var val any
	unique := a.Unique || a.Type == schemas.UID
	switch kindOf(a.Type) {
	case kString:
		s := v.(string)
		var nul bool
		errs, nul = p.rules.check(a, v, nil, s, p.draft, at)
		if nul {
			unique = false // PostgreSQL refuses the lookup itself
		}
		val = s
		if a.Type == schemas.Password {
			val = plainPassword(s)
			unique = false
		}
	case kEnum:
		ev := v
		s, isStr := v.(string)
		if !isStr {
			s = jsString(v)
			ev = s
		}
		errs, _ = p.rules.check(a, ev, nil, s, p.draft, at)
		val, unique = s, false
	case kNumber:
		var inRange bool
		errs, val, inRange = p.number(a, yupNumber(v), at)
		unique = unique && inRange
	case kBool:
		val, _ = castBool(v)
		unique = false
	default:
		if errs, _ = p.rules.check(a, v, nil, "", p.draft, at); len(errs) > 0 {
			return errs, nil
		}
		switch a.Type {
		case schemas.BigInteger:
			val, _ = bigIntOf(v)
		case schemas.Date, schemas.Time, schemas.DateTime, schemas.Timestamp:
			t, err := castTemporal(a.Type, v)
			if err != nil {
				return nil, err
			}
			val = t
		default: // json, blocks
			text, err := jsonText(v)
			if err != nil {
				return nil, err
			}
			val, unique = text, false
		}
	}
	if unique && !ex.keeps(a.Name, val) {
		uc := &uniqueCheck{model: op.model, attr: a, value: val}
		if ex != nil {
			uc.exclude = ex.id
		}
		p.uniques = append(p.uniques, uc)
		errs = append(errs, verr{path: at.str, segs: at.segs, msg: "This attribute must be unique", uniq: uc})
	}
	op.cols = append(op.cols, colVal{a.Column, val})
	return errs, nil
}

// hasNUL reports whether a JSON value holds a NUL character, which PostgreSQL refuses.
func hasNUL(v any) bool {
	switch x := v.(type) {
	case string:
		return strings.ContainsRune(x, 0)
	case []any:
		for _, e := range x {
			if hasNUL(e) {
				return true
			}
		}
	case map[string]any:
		for k, e := range x {
			if strings.ContainsRune(k, 0) || hasNUL(e) {
				return true
			}
		}
	}
	return false
}

// number applies yup's integer/min/max tests and the column's range; inRange is false
// when the value does not fit the column (it must not reach a query then).
func (p *walker) number(a *schemas.Attribute, f float64, at objPath) (errs []verr, val any, inRange bool) {
	switch a.Type {
	case schemas.Integer:
		if f == math.Trunc(f) && f <= math.MaxInt32 && f >= math.MinInt32 {
			// The value the rules test is the one stored: boxed once.
			iv := any(int64(f))
			errs, _ = p.rules.check(a, iv, nil, "", p.draft, at)
			return errs, iv, true
		}
		errs, _ = p.rules.check(a, any(f), nil, "", p.draft, at)
		return errs, nil, false
	case schemas.Decimal:
		r := roundDecimal(f)
		rv := any(r)
		fv := rv
		if r != f {
			fv = any(f) // min and max test the value as sent, the column its rounding
		}
		errs, _ = p.rules.check(a, fv, rv, "", p.draft, at)
		return errs, rv, r <= 99999999.99 && r >= -99999999.99
	}
	fv := any(f)
	errs, _ = p.rules.check(a, fv, nil, "", p.draft, at)
	return errs, fv, !math.IsInf(f, 0)
}

func jsonText(v any) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// keeps reports whether a unique attribute of the root entry keeps its stored value
// (Strapi skips the uniqueness lookup then).
func (ex *existing) keeps(name string, val any) bool {
	if ex == nil || ex.stored == nil {
		return false
	}
	stored, ok := ex.stored[name]
	return ok && stored != nil && canon(val) == canon(stored)
}

func canon(v any) string {
	switch x := v.(type) {
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	case plan.Date:
		return string(x)
	case plan.TimeOfDay:
		return string(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// relation checks required and parses a relation or media value into an operation.
func (p *walker) relation(op *entryOp, a *schemas.Attribute, v any, present bool, at objPath) []verr {
	if errs := p.rules.head(a, v, present, p.cond(), at); len(errs) > 0 || !present {
		return errs
	}
	rf, ok := parseRelation(a, v)
	if !ok {
		p.badRelations = true
		return nil
	}
	uid := a.Target.UID
	if _, seen := p.linked[uid]; !seen {
		p.linkedUIDs = append(p.linkedUIDs, uid)
	}
	p.linked[uid] = append(p.linked[uid], rf.ids...)
	for _, c := range rf.connect {
		p.linked[uid] = append(p.linked[uid], c.id)
	}
	op.rels = append(op.rels, rf)
	p.noteMedia(a, rf, at)
	return nil
}

// ensureLinks loads the stored component links of an existing row once.
func (p *walker) ensureLinks(op *entryOp) {
	if op.id == 0 || op.linksLoaded || op.model.ComponentsTable == "" {
		return
	}
	op.linksLoaded = true
	op.links = map[string][]compLink{}
	db := p.x.db
	rows, err := db.query(sqlgen.ComponentLinks(db.d, op.model.ComponentsTable, op.id))
	if err != nil {
		p.dbErr = firstErr(p.dbErr, err)
		return
	}
	defer rows.Close()
	for rows.Next() {
		var l compLink
		var field string
		if err := rows.Scan(&l.id, &l.typ, &field); err != nil {
			p.dbErr = firstErr(p.dbErr, err)
			return
		}
		op.links[field] = append(op.links[field], l)
	}
	if err := rows.Err(); err != nil {
		p.dbErr = firstErr(p.dbErr, err)
	}
}

// own resolves an item's id against the components the row holds in that field: a known
// id is updated in place, a foreign one is refused like Strapi does.
func (p *walker) own(op *entryOp, a *schemas.Attribute, obj map[string]any, uid string, taken map[compLink]bool) (*existing, error) {
	idv, has := obj["id"]
	if !has || op.id == 0 {
		return nil, nil
	}
	p.ensureLinks(op)
	if id, ok := intID(idv); ok {
		l := compLink{id, uid}
		for _, have := range op.links[a.Name] {
			if have == l && !taken[l] {
				taken[l] = true
				return &existing{id: id}, nil
			}
		}
	}
	msg := fmt.Sprintf("Some of the provided components in %s are not related to the entity", a.Name)
	if a.Type == schemas.DynamicZone {
		return nil, &apierror.Error{Status: 400, Name: "Error", Message: msg, NoDetails: true}
	}
	return nil, apierror.Application(msg)
}

// single handles a non-repeatable component attribute.
func (p *walker) single(op *entryOp, a *schemas.Attribute, v any, present bool, at objPath) ([]verr, error) {
	comp := a.Components[0]
	if present {
		p.ensureLinks(op)
	}
	if errs := p.rules.head(a, v, present, p.cond(), at); len(errs) > 0 || !present {
		return errs, nil
	}
	if v == nil {
		op.comps = append(op.comps, &compField{attr: a})
		return nil, nil
	}
	obj := v.(map[string]any)
	ex, ownErr := p.own(op, a, obj, comp.UID, map[compLink]bool{})
	sub, errs, s2 := p.entry(comp, obj, ex, at, false, nil, false)
	op.comps = append(op.comps, &compField{attr: a, items: []*compItem{{uid: comp.UID, op: sub}}})
	return errs, firstErr(ownErr, s2)
}

// list checks the array shape shared by repeatable components and dynamic zones.
func (p *walker) list(op *entryOp, a *schemas.Attribute, v any, present bool, at objPath) ([]any, []verr, bool) {
	if errs := p.rules.head(a, v, present, p.cond(), at); len(errs) > 0 || !present {
		return nil, errs, false
	}
	p.ensureLinks(op)
	return v.([]any), nil, true
}

func (p *walker) repeatable(op *entryOp, a *schemas.Attribute, v any, present bool, at objPath) ([]verr, error) {
	arr, errs, ok := p.list(op, a, v, present, at)
	if !ok {
		return errs, nil
	}
	comp := a.Components[0]
	cf := &compField{attr: a}
	taken := map[compLink]bool{}
	var stage2 error
	for i, item := range arr {
		ip := at.index(i)
		if ierrs := p.rules.item(a, item, ip); len(ierrs) > 0 {
			errs = append(errs, ierrs...)
			continue
		}
		obj := item.(map[string]any)
		ex, ownErr := p.own(op, a, obj, comp.UID, taken)
		sub, ierrs, s2 := p.entry(comp, obj, ex, ip, false, nil, false)
		errs = append(errs, ierrs...)
		stage2 = firstErr(stage2, ownErr, s2)
		cf.items = append(cf.items, &compItem{uid: comp.UID, op: sub})
	}
	op.comps = append(op.comps, cf)
	// The list's length tests come after the items' errors.
	return append(errs, p.rules.count(a, v, len(arr), at)...), stage2
}

func (p *walker) dynamicZone(op *entryOp, a *schemas.Attribute, v any, present bool, at objPath) ([]verr, error) {
	arr, errs, ok := p.list(op, a, v, present, at)
	if !ok {
		return errs, nil
	}
	cf := &compField{attr: a}
	taken := map[compLink]bool{}
	var stage2 error
	for i, item := range arr {
		ip := at.index(i)
		if ierrs := p.rules.item(a, item, ip); len(ierrs) > 0 {
			errs = append(errs, ierrs...)
			continue
		}
		obj := item.(map[string]any)
		cv, has := obj["__component"]
		lead := p.rules.component(a, cv, has, p.w.LaxDynamicZones, ip.field("__component"))
		var uid string
		switch x := cv.(type) {
		case string:
			uid = x
		case json.Number, bool:
			uid = jsString(x)
		}
		comp := p.w.Schema.Models[uid]
		if comp == nil || comp.Kind != schemas.Component {
			errs = append(errs, lead...)
			continue
		}
		ex, ownErr := p.own(op, a, obj, uid, taken)
		sub, ierrs, s2 := p.entry(comp, obj, ex, ip, false, lead, true)
		errs = append(errs, ierrs...)
		stage2 = firstErr(stage2, ownErr, s2)
		cf.items = append(cf.items, &compItem{uid: uid, op: sub})
	}
	op.comps = append(op.comps, cf)
	// The list's length tests come after the items' errors.
	return append(errs, p.rules.count(a, v, len(arr), at)...), stage2
}
