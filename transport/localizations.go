package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/transport/webhook"
)

// localizationRoute serves POST /api/:pluralApiId/:id/localizations.
func (s *Server) localizationRoute(w http.ResponseWriter, r *http.Request) {
	m, ok := s.Schema.ByPlural(chi.URLParam(r, "name"))
	if !ok || !m.Localized || s.I18n == nil {
		s.notFound(w, r)
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

// createLocalization creates a localization of an entry (Strapi's i18n route, rules in
// package localize): the body is the unwrapped entry; the answer is the raw new entry with
// its localizations as they were before the group was synced.
func (s *Server) createLocalization(ctx context.Context, w http.ResponseWriter, r *http.Request, m *schemas.Model, idStr string) error {
	if _, err := s.authorize(r, m, "createLocalization"); err != nil {
		return err
	}
	var baseID int64
	if m.Kind == schemas.SingleType {
		id, found, err := s.Localize.SingleID(ctx, s.DB, m, false, "")
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
		if err := syntaxError(raw); err != nil {
			return err
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return apierror.Validation("Unreadable request body")
		}
		body, _ = v.(map[string]any)
	}
	var pl *plan.Plan
	var created *exec.Entry
	err = s.tx(ctx, func(tx exec.Queryer, txw txWriter) error {
		id, members, err := s.Localize.Create(ctx, txw.Tx, m, baseID, body)
		if err != nil {
			return err
		}
		q := &ir.Query{Model: m.UID, Op: ir.FindOne, ID: fmt.Sprint(id),
			Populate: &ir.Populate{Children: []*ir.PopulateField{{Field: "localizations"}}}}
		if pl, created, err = s.readOne(ctx, tx, q, nil); err != nil {
			return err
		}
		return s.Localize.Sync(ctx, txw.Tx, m, id, members)
	})
	if err != nil {
		return err
	}
	var b buf
	b.WriteString(`{"id":`)
	b.Int(created.ID)
	b.fields(&plan.Select{Columns: pl.Root.Columns}, created, true)
	b.WriteString(`,"localizations":[`)
	loc := pl.Root.Children[0]
	for i, e := range created.Kids[0].Entries {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"id":`)
		b.Int(e.ID)
		b.fields(&plan.Select{Columns: loc.Steps[0].Columns}, e, true)
		b.WriteByte('}')
	}
	b.WriteString("]}")
	if s.Webhooks != nil {
		// The answer is the entry as Strapi's entity service created it.
		s.Webhooks.Entry(webhook.EntryCreate, m.SingularName, m.UID, bytes.Clone(b.Bytes()))
	}
	writeJSON(w, http.StatusOK, &b)
	return nil
}

// singleAll answers GET /api/<single>?locale=all: Strapi returns every locale's entry as an
// array with empty meta.
func (s *Server) singleAll(ctx context.Context, w http.ResponseWriter, r *http.Request, q *ir.Query, who planner.Principal) error {
	pl, err := s.Planner.Read(q, who)
	if err != nil {
		return err
	}
	pl.Root.Limit = -1
	res, err := s.run(ctx, s.DB, pl, r)
	if err != nil {
		return err
	}
	writeList(w, pl, res, false)
	return nil
}
