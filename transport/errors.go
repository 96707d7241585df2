package transport

import (
	"errors"
	"net/http"

	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/planner/write"
	"github.com/quarrycms/quarry/transport/envelope"
)

// writeError answers with Strapi's error envelope. A database that cannot serve now is a
// 503 with Retry-After, a unique constraint refusing a value Strapi's 400; anything else
// that is not an *apierror.Error is logged and hidden behind a 500 without details, as
// Strapi does.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var ae *apierror.Error
	if u := s.DB.Unavailable(s.Log, err); u != nil {
		ae = u
	} else if !errors.As(err, &ae) {
		if v := write.ConstraintError(s.Schema, err); v != err {
			envelope.WriteAPIError(w, v.(*apierror.Error))
			return
		}
		s.Log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		ae = &apierror.Error{Status: 500, Name: "InternalServerError", Message: "Internal Server Error", NoDetails: true}
	}
	envelope.WriteAPIError(w, ae)
}

// WriteError writes an API error in Strapi's envelope.
func WriteError(w http.ResponseWriter, ae *apierror.Error) { envelope.WriteAPIError(w, ae) }
