// Package localize holds the rules of Strapi v4's i18n plugin for the entries of localized
// types, which the write path (planner/write's Service: REST, GraphQL and the project's own
// code alike) and the reads apply: the locale a read or a write addresses, the groups of
// localizations (an entry and the entries its `localizations` relation lists), creating a
// localization (REST's POST /api/:plural/:id/localizations, GraphQL's
// create<Type>Localization), linking a group both ways and copying the shared
// (non-localized) values between its members. e2e/testdata/i18n_NOTES.md records the
// Strapi behaviour it reproduces.
//
// Everything runs inside the caller's transaction: unlike Strapi, a failure while syncing
// a group rolls the whole request back.
package localize

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/jsonw"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
)

// Locales is the i18n plugin's locale list (i18n.Service).
type Locales interface {
	Default(ctx context.Context) (string, error)
	Exists(ctx context.Context, code string) (bool, error)
}

// Writer is the shared write path (planner/write.Writer).
type Writer interface {
	Create(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, data map[string]any) (int64, error)
	CreateDraft(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, data map[string]any) (int64, error)
	Update(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, id int64, data map[string]any) error
}

// Service applies the rules. Locales may be nil (an app without the i18n tables): reads
// and writes then address no locale.
type Service struct {
	Planner *planner.Planner
	Runner  *exec.Runner
	Writer  Writer
	Dialect sqlgen.Dialect
	Locales Locales
}

// ReadLocale restricts a read of a localized type that names no locale to the default
// locale, as Strapi's i18n does.
func (s *Service) ReadLocale(ctx context.Context, m *schemas.Model, q *ir.Query) error {
	if !m.Localized || len(q.Locale) > 0 || s.Locales == nil {
		return nil
	}
	def, err := s.Locales.Default(ctx)
	if err != nil {
		return err
	}
	q.Locale = []string{def}
	return nil
}

// CreateLocale checks and fills the locale of a new entry of a localized type: data's
// `locale`, which must exist (400 "This locale doesn't exist"), or the default locale.
func (s *Service) CreateLocale(ctx context.Context, m *schemas.Model, data map[string]any) error {
	if !m.Localized || s.Locales == nil {
		return nil
	}
	v, ok := data["locale"]
	if !ok || v == nil {
		def, err := s.Locales.Default(ctx)
		if err != nil {
			return err
		}
		data["locale"] = def
		return nil
	}
	code, isStr := v.(string)
	exists := false
	if isStr {
		var err error
		if exists, err = s.Locales.Exists(ctx, code); err != nil {
			return err
		}
	}
	if !exists {
		return apierror.Application("This locale doesn't exist")
	}
	return nil
}

// SingleLocale is the locale a single-type request addresses: the first one it names, or
// the default; "" for types that are not localized.
func (s *Service) SingleLocale(ctx context.Context, m *schemas.Model, locales []string) (string, error) {
	if !m.Localized || s.Locales == nil {
		return "", nil
	}
	if len(locales) > 0 {
		return locales[0], nil
	}
	return s.Locales.Default(ctx)
}

// SingleID finds a single type's entry (of one locale when locale is not ""; the first row
// otherwise); liveOnly skips drafts.
func (s *Service) SingleID(ctx context.Context, db exec.Queryer, m *schemas.Model, liveOnly bool, locale string) (int64, bool, error) {
	st := sqlgen.SingleEntryID(s.Dialect, m, liveOnly, locale)
	exec.Traced(ctx, st, 0, 0)
	var id int64
	if err := db.QueryRowxContext(ctx, st.SQL, st.Args...).Scan(&id); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return 0, false, nil
		}
		return 0, false, fmt.Errorf("find %s entry: %w", m.Table, err)
	}
	return id, true, nil
}

// Group is an entry with its localizations.
type Group struct {
	// Base is the entry as LoadGroup reads it: its locale, then its shared values.
	Base *exec.Entry
	pl   *plan.Plan
	// Members are the entry and its localizations, the entry first.
	Members []int64
	// Locales are the members' locales.
	Locales map[string]bool
}

// LoadGroup reads an entry's locale, shared values and localizations; nil when there is no
// such entry.
func (s *Service) LoadGroup(ctx context.Context, db exec.Queryer, m *schemas.Model, id int64) (*Group, error) {
	fields := []string{"locale"}
	for _, a := range m.NonLocalized() {
		fields = append(fields, a.Name)
	}
	q := &ir.Query{Model: m.UID, Op: ir.FindOne, ID: fmt.Sprint(id), Fields: fields,
		Populate: &ir.Populate{Children: []*ir.PopulateField{{Field: "localizations", Fields: []string{"locale"}}}}}
	pl, e, err := s.readOne(ctx, db, q)
	if err != nil || e == nil {
		return nil, err
	}
	g := &Group{Base: e, pl: pl, Members: []int64{id}, Locales: map[string]bool{}}
	if loc, ok := e.Values[0].(string); ok {
		g.Locales[loc] = true
	}
	for _, l := range e.Kids[0].Entries {
		g.Members = append(g.Members, l.ID)
		if loc, ok := l.Values[0].(string); ok {
			g.Locales[loc] = true
		}
	}
	return g, nil
}

// shared is the group's base's shared values as a write payload.
func (g *Group) shared() map[string]any {
	data := map[string]any{}
	cols := g.pl.Root.Columns
	for i := 1; i < len(cols); i++ {
		data[cols[i].Name] = payloadValue(g.Base.Values[i])
	}
	return data
}

func (s *Service) readOne(ctx context.Context, db exec.Queryer, q *ir.Query) (*plan.Plan, *exec.Entry, error) {
	pl, res, err := exec.ReadOne(ctx, s.Planner, s.Runner, db, q, nil)
	if err != nil {
		return nil, nil, err
	}
	return pl, res.First(), nil
}

// payloadValue converts a read value back to the JSON form a client would send.
func payloadValue(v any) any {
	switch x := v.(type) {
	case int64:
		return json.Number(fmt.Sprint(x))
	case float64:
		return json.Number(jsonw.FormatNumber(x))
	case time.Time:
		return jsonw.ISOTime(x)
	case json.RawMessage:
		dec := json.NewDecoder(bytes.NewReader(x))
		dec.UseNumber()
		var out any
		if dec.Decode(&out) != nil {
			return nil
		}
		return out
	}
	return v
}

// Create creates a localization of entry baseID (any entry of a single type: its first
// row) from body, the unwrapped entry with its `locale`, as Strapi's i18n does:
//
//   - no base → 404 "Entity not found"; a missing, unknown or already used locale → 400
//     "locale is missing", "locale is invalid", "locale is already used";
//   - the base's shared values are copied first, then the body's writable fields (not
//     locale, localizations, id or the timestamps) override them;
//   - the new entry is a draft unless the body gives publishedAt;
//   - its localizations are the whole group.
//
// It returns the new entry and the group's members; Sync then links them to it and copies
// its shared values onto them.
func (s *Service) Create(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, baseID int64, body map[string]any) (int64, []int64, error) {
	g, err := s.LoadGroup(ctx, tx, m, baseID)
	if err != nil {
		return 0, nil, err
	}
	if g == nil {
		return 0, nil, &apierror.Error{Status: 404, Name: "NotFoundError", Message: "Entity not found"}
	}
	locVal, ok := body["locale"]
	if !ok || locVal == nil {
		return 0, nil, apierror.Application("locale is missing")
	}
	code, _ := locVal.(string)
	exists := false
	if s.Locales != nil {
		if exists, err = s.Locales.Exists(ctx, code); err != nil {
			return 0, nil, err
		}
	}
	if !exists {
		return 0, nil, apierror.Application("locale is invalid")
	}
	if g.Locales[code] {
		return 0, nil, apierror.Application("locale is already used")
	}
	data := g.shared()
	for k, v := range body {
		switch k {
		case "locale", "localizations", "id", "createdAt", "updatedAt":
			continue
		}
		data[k] = v
	}
	data["locale"] = code
	// Strapi validates a new localization as published but stores it as a draft.
	id, err := s.Writer.CreateDraft(ctx, tx, m, data)
	if err != nil {
		return 0, nil, err
	}
	if err := s.SetLinks(ctx, tx, m, id, g.Members); err != nil {
		return 0, nil, err
	}
	return id, g.Members, nil
}

// SetLinks writes an entry's localizations list (set semantics, order from 1).
func (s *Service) SetLinks(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, owner int64, targets []int64) error {
	a, _ := m.Attr("localizations")
	j := a.Link
	st := sqlgen.LocalizationsClear(s.Dialect, j, owner)
	exec.Traced(ctx, st, 0, 0)
	if _, err := tx.ExecContext(ctx, st.SQL, st.Args...); err != nil {
		return fmt.Errorf("clear localizations: %w", err)
	}
	for i, t := range targets {
		if t == owner {
			continue
		}
		st := sqlgen.LocalizationLink(s.Dialect, j, owner, t, float64(i+1))
		exec.Traced(ctx, st, 0, 0)
		if _, err := tx.ExecContext(ctx, st.SQL, st.Args...); err != nil {
			return fmt.Errorf("link localization: %w", err)
		}
	}
	return nil
}

// Sync links every member to entry id and the other members, then copies id's shared
// values onto them, as Strapi's i18n does after a localization is created. It returns the
// members it updated (Strapi updates them through its entity service: each is an
// entry.update).
func (s *Service) Sync(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, id int64, members []int64) ([]int64, error) {
	for _, l := range members {
		list := []int64{id}
		for _, o := range members {
			if o != l {
				list = append(list, o)
			}
		}
		if err := s.SetLinks(ctx, tx, m, l, list); err != nil {
			return nil, err
		}
	}
	return s.CopyShared(ctx, tx, m, id, members, nil)
}

// CopyShared writes the shared values of entry id onto the other members; only the named
// fields when only is not nil. It returns the members it updated.
func (s *Service) CopyShared(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, id int64, members []int64, only map[string]bool) ([]int64, error) {
	g, err := s.LoadGroup(ctx, tx, m, id)
	if err != nil || g == nil {
		return nil, err
	}
	data := g.shared()
	for k := range data {
		if only != nil && !only[k] {
			delete(data, k)
		}
	}
	if len(data) == 0 {
		return nil, nil
	}
	var updated []int64
	for _, l := range members {
		if l == id {
			continue
		}
		if err := s.Writer.Update(ctx, tx, m, l, copyMap(data)); err != nil {
			var ae *apierror.Error
			if errors.As(err, &ae) && ae.Status == 404 {
				continue
			}
			return nil, err
		}
		updated = append(updated, l)
	}
	return updated, nil
}

func copyMap(in map[string]any) map[string]any {
	out := make(map[string]any, len(in))
	for k, v := range in {
		out[k] = v
	}
	return out
}

// PopulatesLocalizations reports whether a write's answer populates localizations, which
// is when Strapi's i18n syncs the group.
func PopulatesLocalizations(q *ir.Query) bool {
	return q.Populate != nil && (q.Populate.All || q.Populate.Find("localizations") != nil)
}

// sharedFieldsShown is the set of shared fields the answer's entry carries: Strapi syncs
// only those.
func sharedFieldsShown(m *schemas.Model, q *ir.Query) map[string]bool {
	out := map[string]bool{}
	for _, a := range m.NonLocalized() {
		if q.Fields == nil {
			out[a.Name] = true
			continue
		}
		for _, f := range q.Fields {
			if f == a.Name {
				out[a.Name] = true
			}
		}
	}
	return out
}

// LinkIDs reads the ids listed in `data.localizations` of a create.
func LinkIDs(v any) ([]int64, bool) {
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	var out []int64
	for _, e := range list {
		var s string
		switch x := e.(type) {
		case json.Number:
			s = x.String()
		case string:
			s = x
		case map[string]any:
			if n, ok := x["id"].(json.Number); ok {
				s = n.String()
			}
		}
		id, err := planner.ParseID(strings.TrimSpace(s))
		if err != nil {
			return nil, false
		}
		out = append(out, id)
	}
	return out, true
}

// SyncAfterUpdate copies an updated entry's shared values onto its localizations when the
// answer (rq, read as plan and e) shows them, as Strapi's i18n does: only then, and only
// the fields the answer has.
func (s *Service) SyncAfterUpdate(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, rq *ir.Query, pl *plan.Plan, e *exec.Entry) ([]int64, error) {
	if !m.Localized || !PopulatesLocalizations(rq) {
		return nil, nil
	}
	var members []int64
	for i, c := range pl.Root.Children {
		if c.Attr.Name == "localizations" && i < len(e.Kids) {
			for _, l := range e.Kids[i].Entries {
				members = append(members, l.ID)
			}
		}
	}
	if len(members) == 0 {
		return nil, nil
	}
	return s.CopyShared(ctx, tx, m, e.ID, members, sharedFieldsShown(m, rq))
}
