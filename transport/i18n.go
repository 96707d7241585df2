package transport

import (
	"net/http"

	"github.com/quarrycms/quarry/ir/apierror"
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
	writeJSON(w, http.StatusOK, &b)
}
