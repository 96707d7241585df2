package i18n

import (
	"bytes"
	"context"
	"fmt"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/jmoiron/sqlx"
	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen/database"
	"github.com/quarrycms/quarry/transport/envelope"
	"github.com/quarrycms/quarry/transport/plugins"
	"github.com/quarrycms/quarry/transport/plugins/i18n/localize"
	"github.com/quarrycms/quarry/transport/webhook"
)

// Routes are the plugin's content API, mounted on the server's Host: the locale list and
// the createLocalization route of localized content types.
type Routes struct {
	Host plugins.Host
	// Service serves locales; nil when the app has no localized types' tables yet (the
	// routes then answer 404).
	Service  *Service
	Localize *localize.Service
	Schema   *schemas.Schema
	DB       *database.DB
}

// Mount adds the routes.
func (s *Routes) Mount(r chi.Router) {
	if s.Service != nil {
		r.Get("/api/i18n/locales", s.listLocales)
	}
	r.HandleFunc("/api/{name}/{id}/localizations", s.localizationRoute)
}

// listLocales answers GET /api/i18n/locales with the raw array Strapi returns.
func (s *Routes) listLocales(w http.ResponseWriter, r *http.Request) {
	c, err := s.Host.Authenticate(r)
	if err != nil {
		s.Host.WriteError(w, r, err)
		return
	}
	if !c.Can("plugin::i18n.locales.listLocales") {
		s.Host.WriteError(w, r, apierror.Forbidden())
		return
	}
	list, _, err := s.Service.Locales(r.Context())
	if err != nil {
		s.Host.WriteError(w, r, err)
		return
	}
	var b envelope.Buf
	b.WriteByte('[')
	for i, l := range list {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"id":`)
		b.Int(l.ID)
		b.WriteString(`,"name":`)
		b.Str(l.Name)
		b.WriteString(`,"code":`)
		b.Str(l.Code)
		b.WriteString(`,"createdAt":`)
		b.Time(l.CreatedAt)
		b.WriteString(`,"updatedAt":`)
		b.Time(l.UpdatedAt)
		b.WriteString(`,"isDefault":`)
		if l.IsDefault {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
		b.WriteByte('}')
	}
	b.WriteByte(']')
	envelope.WriteJSON(w, http.StatusOK, &b)
}

// localizationRoute serves POST /api/:pluralApiId/:id/localizations.
func (s *Routes) localizationRoute(w http.ResponseWriter, r *http.Request) {
	m, ok := s.Schema.ByPlural(chi.URLParam(r, "name"))
	if !ok || !m.Localized || s.Service == nil {
		s.Host.NotFound(w, r)
		return
	}
	if r.Method != http.MethodPost {
		envelope.MethodNotAllowed(w, r)
		return
	}
	if err := s.CreateLocalization(r.Context(), w, r, m, chi.URLParam(r, "id")); err != nil {
		s.Host.WriteError(w, r, err)
	}
}

// CreateLocalization creates a localization of an entry (Strapi's i18n route, rules in
// package localize): the body is the unwrapped entry; the answer is the raw new entry with
// its localizations as they were before the group was synced.
func (s *Routes) CreateLocalization(ctx context.Context, w http.ResponseWriter, r *http.Request, m *schemas.Model, idStr string) error {
	who, err := s.Host.Authenticate(r)
	if err != nil {
		return err
	}
	if !who.Can(m.UID + ".createLocalization") {
		return apierror.Forbidden()
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
			return plugins.BadID()
		}
		baseID = id
	}
	body, err := s.Host.JSONBody(w, r)
	if err != nil {
		return err
	}
	var pl *plan.Plan
	var created *exec.Entry
	err = s.Host.Tx(ctx, func(tx *sqlx.Tx) error {
		id, members, err := s.Localize.Create(ctx, tx, m, baseID, body)
		if err != nil {
			return err
		}
		q := &ir.Query{Model: m.UID, Op: ir.FindOne, ID: fmt.Sprint(id),
			Populate: &ir.Populate{Children: []*ir.PopulateField{{Field: "localizations"}}}}
		if pl, created, err = s.Host.ReadOne(ctx, tx, q, nil); err != nil {
			return err
		}
		return s.Localize.Sync(ctx, tx, m, id, members)
	})
	if err != nil {
		return err
	}
	var b envelope.Buf
	b.WriteString(`{"id":`)
	b.Int(created.ID)
	b.Fields(&plan.Select{Columns: pl.Root.Columns}, created, true)
	b.WriteString(`,"localizations":[`)
	loc := pl.Root.Children[0]
	for i, e := range created.Kids[0].Entries {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"id":`)
		b.Int(e.ID)
		b.Fields(&plan.Select{Columns: loc.Steps[0].Columns}, e, true)
		b.WriteByte('}')
	}
	b.WriteString("]}")
	// The answer is the entry as Strapi's entity service created it.
	s.Host.EntryEvent(webhook.EntryCreate, m.SingularName, m.UID, bytes.Clone(b.Bytes()))
	envelope.WriteJSON(w, http.StatusOK, &b)
	return nil
}
