package transport

import (
	"context"
	"net/http"

	"quarry/apierror"
	"quarry/ir"
	"quarry/schemas"
)

// listLocales answers GET /api/i18n/locales with the raw array Strapi returns.
func (s *Server) listLocales(w http.ResponseWriter, r *http.Request) {
	c, err := s.Authenticate(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if !c.Can("plugin::i18n.locales.listLocales") {
		s.writeError(w, r, apierror.Forbidden())
		return
	}
	list, _, err := s.I18n.Locales(r.Context())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var b buf
	b.WriteByte('[')
	for i, l := range list {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"id":`)
		b.int(l.ID)
		b.WriteString(`,"name":`)
		b.str(l.Name)
		b.WriteString(`,"code":`)
		b.str(l.Code)
		b.WriteString(`,"createdAt":`)
		b.str(datetime(l.CreatedAt))
		b.WriteString(`,"updatedAt":`)
		b.str(datetime(l.UpdatedAt))
		b.WriteString(`,"isDefault":`)
		if l.IsDefault {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
		b.WriteByte('}')
	}
	b.WriteByte(']')
	writeJSON(w, http.StatusOK, &b)
}

// withLocale fills a read of a localized type with the default locale when the request
// names none, as Strapi's i18n plugin does.
func (s *Server) withLocale(ctx context.Context, m *schemas.Model, q *ir.Query) error {
	if !m.Localized || len(q.Locale) > 0 || s.I18n == nil {
		return nil
	}
	def, err := s.I18n.Default(ctx)
	if err != nil {
		return err
	}
	q.Locale = []string{def}
	return nil
}

// createLocale checks and fills the locale of a new entry of a localized type.
func (s *Server) createLocale(ctx context.Context, m *schemas.Model, data map[string]any) error {
	if !m.Localized || s.I18n == nil {
		return nil
	}
	v, ok := data["locale"]
	if !ok || v == nil {
		def, err := s.I18n.Default(ctx)
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
		if exists, err = s.I18n.Exists(ctx, code); err != nil {
			return err
		}
	}
	if !exists {
		return apierror.Application("This locale doesn't exist")
	}
	return nil
}
