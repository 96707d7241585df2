package i18n

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/parser/rest"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/localize"
	"github.com/quarrycms/quarry/planner/write"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen/database"
	"github.com/quarrycms/quarry/transport/envelope"
	"github.com/quarrycms/quarry/transport/plugins"
)

// Routes are the plugin's content API, mounted on the server's Host: the locale list and
// the createLocalization route of localized content types.
type Routes struct {
	Host plugins.Host
	// Service serves locales; nil when the app has no localized types' tables yet (the
	// routes then answer 404).
	Service  *Service
	Localize *localize.Service
	// Writes is the write path the localizations are created through.
	Writes *write.Service
	Schema *schemas.Schema
	DB     *database.DB
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
		envelope.MethodNotAllowed(w, r, http.MethodPost)
		return
	}
	if err := s.CreateLocalization(r.Context(), w, r, m, chi.URLParam(r, "id")); err != nil {
		s.Host.WriteError(w, r, err)
	}
}

// CreateLocalization creates a localization of an entry through the write path (rules in
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
	if m.Kind == schemas.SingleType {
		// Strapi looks the entry up before reading the body.
		if _, found, err := s.Localize.SingleID(ctx, s.DB, m, false, ""); err != nil {
			return err
		} else if !found {
			return &apierror.Error{Status: 404, Name: "NotFoundError", Message: "Entity not found"}
		}
		idStr = ""
	} else if _, err := planner.ParseID(idStr); err != nil {
		return plugins.BadID()
	}
	body, err := s.Host.JSONBody(w, r)
	if err != nil {
		return err
	}
	q, err := rest.ParseWrite(rest.Write{Model: m.UID, Op: ir.CreateLocalization, ID: idStr, Body: body, Unwrapped: true})
	if err != nil {
		return err
	}
	res, err := s.Writes.Apply(ctx, q, who)
	if err != nil {
		return err
	}
	pl, created := res.Plan, res.Entry
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
	envelope.WriteJSON(w, http.StatusOK, &b)
	return nil
}
