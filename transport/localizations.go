package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/jmoiron/sqlx"

	"quarry/apierror"
	"quarry/ir"
	"quarry/planner"
	"quarry/planner/exec"
	"quarry/schemas"
)

// localizationRoute serves POST /api/:pluralApiId/:id/localizations.
func (s *Server) localizationRoute(w http.ResponseWriter, r *http.Request) {
	m, ok := s.Schema.ByPlural(chi.URLParam(r, "name"))
	if !ok || !m.Localized || s.I18n == nil {
		writeAPIError(w, apierror.NotFound())
		return
	}
	if r.Method != http.MethodPost {
		methodNotAllowed(w, r)
		return
	}
	if err := s.createLocalization(r.Context(), w, r, m, chi.URLParam(r, "id")); err != nil {
		s.writeError(w, r, err)
	}
}

// group is an entry with its localizations.
type group struct {
	base    *exec.Entry
	plan    *planner.Plan
	members []int64 // base and its localizations
	locales map[string]bool
}

// loadGroup reads an entry's shared values and its localizations' ids and locales.
func (s *Server) loadGroup(ctx context.Context, db exec.Queryer, m *schemas.Model, id int64) (*group, error) {
	fields := []string{"locale"}
	for _, a := range m.NonLocalized() {
		fields = append(fields, a.Name)
	}
	q := &ir.Query{Model: m.UID, Op: ir.FindOne, ID: fmt.Sprint(id), Fields: fields,
		Populate: &ir.Populate{Children: []*ir.PopulateField{{Field: "localizations", Fields: []string{"locale"}}}}}
	plan, e, err := s.readOne(ctx, db, q, nil)
	if err != nil || e == nil {
		return nil, err
	}
	g := &group{base: e, plan: plan, members: []int64{id}, locales: map[string]bool{}}
	if loc, ok := e.Values[0].(string); ok {
		g.locales[loc] = true
	}
	for _, l := range e.Kids[0].Entries {
		g.members = append(g.members, l.ID)
		if loc, ok := l.Values[0].(string); ok {
			g.locales[loc] = true
		}
	}
	return g, nil
}

// createLocalization creates a localization of an entry (Strapi's i18n route): the body is
// the unwrapped entry; shared values come from the base; the new entry joins the group.
func (s *Server) createLocalization(ctx context.Context, w http.ResponseWriter, r *http.Request, m *schemas.Model, idStr string) error {
	if _, err := s.authorize(r, m, "createLocalization"); err != nil {
		return err
	}
	var baseID int64
	if m.Kind == schemas.SingleType {
		id, found, err := s.singleID(ctx, s.DB, m, false, "")
		if err != nil {
			return err
		}
		if !found {
			return &apierror.Error{Status: 404, Name: "NotFoundError", Message: "Entity not found"}
		}
		baseID = id
	} else {
		id, err := planner.ParseID(idStr)
		if err != nil {
			return badID()
		}
		baseID = id
	}
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.MaxBody))
	if err != nil {
		return &apierror.Error{Status: 413, Name: "PayloadTooLargeError", Message: "request entity too large", NoDetails: true}
	}
	var body map[string]any
	if len(bytes.TrimSpace(raw)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return syntaxError(err)
		}
		body, _ = v.(map[string]any)
	}
	var plan *planner.Plan
	var created *exec.Entry
	err = s.tx(ctx, func(tx exec.Queryer, txw txWriter) error {
		g, err := s.loadGroup(ctx, tx, m, baseID)
		if err != nil {
			return err
		}
		if g == nil {
			return &apierror.Error{Status: 404, Name: "NotFoundError", Message: "Entity not found"}
		}
		locVal, ok := body["locale"]
		if !ok || locVal == nil {
			return apierror.Application("locale is missing")
		}
		code, _ := locVal.(string)
		exists, err := s.I18n.Exists(ctx, code)
		if err != nil {
			return err
		}
		if !exists {
			return apierror.Application("locale is invalid")
		}
		if g.locales[code] {
			return apierror.Application("locale is already used")
		}
		data := sharedData(m, g.plan.Root, g.base, 1)
		for k, v := range body {
			switch k {
			case "locale", "localizations", "id", "createdAt", "updatedAt":
				continue
			}
			data[k] = v
		}
		data["locale"] = code
		_, explicitDraft := body["publishedAt"]
		id, err := s.Writer.Create(ctx, txw.Tx, m, data)
		if err != nil {
			return err
		}
		if m.DraftAndPublish && !explicitDraft {
			// Strapi validates a new localization as published but stores it as a draft.
			if _, err := txw.Tx.ExecContext(ctx, txw.Tx.Rebind(fmt.Sprintf("UPDATE %s SET published_at = NULL WHERE id = ?", s.DB.Dialect.Quote(m.Table))), id); err != nil {
				return err
			}
		}
		if err := s.setLinks(ctx, txw.Tx, m, id, g.members); err != nil {
			return err
		}
		// The answer shows the group as it was before the shared values are copied.
		q := &ir.Query{Model: m.UID, Op: ir.FindOne, ID: fmt.Sprint(id),
			Populate: &ir.Populate{Children: []*ir.PopulateField{{Field: "localizations"}}}}
		if plan, created, err = s.readOne(ctx, tx, q, nil); err != nil {
			return err
		}
		return s.syncGroup(ctx, tx, txw.Tx, m, id, g.members)
	})
	if err != nil {
		return err
	}
	var b buf
	b.WriteString(`{"id":`)
	b.int(created.ID)
	b.fields(&planner.Select{Columns: plan.Root.Columns}, created, true)
	b.WriteString(`,"localizations":[`)
	loc := plan.Root.Children[0]
	for i, e := range created.Kids[0].Entries {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"id":`)
		b.int(e.ID)
		b.fields(&planner.Select{Columns: loc.Steps[0].Columns}, e, true)
		b.WriteByte('}')
	}
	b.WriteString("]}")
	writeJSON(w, http.StatusOK, &b)
	return nil
}

// sharedData turns the non-localized values of an entry read with loadGroup (offset is the
// index of the first of them in the row) into a write payload.
func sharedData(m *schemas.Model, s *planner.Select, e *exec.Entry, offset int) map[string]any {
	data := map[string]any{}
	for i := offset; i < len(s.Columns); i++ {
		data[s.Columns[i].Name] = payloadValue(e.Values[i])
	}
	return data
}

// payloadValue converts a read value back to the JSON form a client would send.
func payloadValue(v any) any {
	switch x := v.(type) {
	case int64:
		return json.Number(fmt.Sprint(x))
	case float64:
		return json.Number(jsNumber(x))
	case time.Time:
		return datetime(x)
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

// setLinks writes an entry's localizations list (set semantics, order from 1).
func (s *Server) setLinks(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, owner int64, targets []int64) error {
	a, _ := m.Attr("localizations")
	j := a.Link
	d := s.DB.Dialect
	if _, err := tx.ExecContext(ctx, tx.Rebind(fmt.Sprintf("DELETE FROM %s WHERE %s = ?", d.Quote(j.Table), d.Quote(j.SourceCol))), owner); err != nil {
		return fmt.Errorf("clear localizations: %w", err)
	}
	ins := tx.Rebind(fmt.Sprintf("INSERT INTO %s (%s, %s, %s) VALUES (?, ?, ?)", d.Quote(j.Table), d.Quote(j.SourceCol), d.Quote(j.TargetCol), d.Quote(j.OrderCol)))
	for i, t := range targets {
		if t == owner {
			continue
		}
		if _, err := tx.ExecContext(ctx, ins, owner, t, float64(i+1)); err != nil {
			return fmt.Errorf("link localization: %w", err)
		}
	}
	return nil
}

// syncGroup links every member to the new entry and the other members, then copies the new
// entry's shared values onto them, as Strapi's i18n does after a localization is created.
func (s *Server) syncGroup(ctx context.Context, q exec.Queryer, tx *sqlx.Tx, m *schemas.Model, id int64, members []int64) error {
	for _, l := range members {
		list := []int64{id}
		for _, o := range members {
			if o != l {
				list = append(list, o)
			}
		}
		if err := s.setLinks(ctx, tx, m, l, list); err != nil {
			return err
		}
	}
	return s.copyShared(ctx, q, tx, m, id, members, nil)
}

// copyShared writes the non-localized values of entry id onto the other members; only, when
// given, the named fields.
func (s *Server) copyShared(ctx context.Context, q exec.Queryer, tx *sqlx.Tx, m *schemas.Model, id int64, members []int64, only map[string]bool) error {
	g, err := s.loadGroup(ctx, q, m, id)
	if err != nil || g == nil {
		return err
	}
	data := sharedData(m, g.plan.Root, g.base, 1)
	for k := range data {
		if only != nil && !only[k] {
			delete(data, k)
		}
	}
	if len(data) == 0 {
		return nil
	}
	for _, l := range members {
		if l == id {
			continue
		}
		if err := s.Writer.Update(ctx, tx, m, l, copyMap(data)); err != nil {
			var ae *apierror.Error
			if errors.As(err, &ae) && ae.Status == 404 {
				continue
			}
			return err
		}
	}
	return nil
}

func copyMap(in map[string]any) map[string]any {
	out := make(map[string]any, len(in))
	for k, v := range in {
		out[k] = v
	}
	return out
}

// populatesLocalizations reports whether a write's response populates localizations, which
// is when Strapi's i18n syncs the group.
func populatesLocalizations(q *ir.Query) bool {
	return q.Populate != nil && (q.Populate.All || q.Populate.Find("localizations") != nil)
}

// sharedFieldsShown is the set of non-localized fields the response entry carries: Strapi
// syncs only those.
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

// localizationIDs reads the ids listed in `data.localizations` of a create.
func localizationIDs(v any) ([]int64, bool) {
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

// syncAfterUpdate copies the updated entry's shared values onto its localizations when the
// answer shows them, as Strapi's i18n does (only then, and only the fields the answer has).
func (s *Server) syncAfterUpdate(ctx context.Context, q exec.Queryer, txw txWriter, m *schemas.Model, rq *ir.Query, plan *planner.Plan, e *exec.Entry) error {
	if !m.Localized || !populatesLocalizations(rq) {
		return nil
	}
	var members []int64
	for i, c := range plan.Root.Children {
		if c.Attr.Name == "localizations" && i < len(e.Kids) {
			for _, l := range e.Kids[i].Entries {
				members = append(members, l.ID)
			}
		}
	}
	if len(members) == 0 {
		return nil
	}
	return s.copyShared(ctx, q, txw.Tx, m, e.ID, members, sharedFieldsShown(m, rq))
}

// singleLocale is the locale a single-type write addresses: the query's first locale or the
// default; "" for types that are not localized.
func (s *Server) singleLocale(ctx context.Context, m *schemas.Model, q *ir.Query) (string, error) {
	if !m.Localized || s.I18n == nil {
		return "", nil
	}
	if len(q.Locale) > 0 {
		return q.Locale[0], nil
	}
	return s.I18n.Default(ctx)
}

// singleAll answers GET /api/<single>?locale=all: Strapi returns every locale's entry as an
// array with empty meta.
func (s *Server) singleAll(ctx context.Context, w http.ResponseWriter, r *http.Request, q *ir.Query, who planner.Principal) error {
	plan, err := s.Planner.Read(q, who)
	if err != nil {
		return err
	}
	plan.Root.Limit = -1
	res, err := s.run(ctx, s.DB, plan, r)
	if err != nil {
		return err
	}
	writeList(w, plan, res, false)
	return nil
}
