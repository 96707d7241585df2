package transport

import (
	"context"
	"net/http"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/planner"
)

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
