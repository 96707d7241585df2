package transport

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/parser/qs"
	"github.com/quarrycms/quarry/parser/rest"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
)

// pluginQuery reads the query string of a plugin route (users, upload files): these take
// top-level start and limit instead of pagination[...], and only some of the content API's
// parameters. keep decides which other keys are lowered; limitOf maps a given limit to the
// effective one (-1: none), since the plugins differ there.
func pluginQuery(raw, uid string, op ir.Op, id string, keep func(key string) bool, limitOf func(n int) int) (*ir.Query, int, int, error) {
	q := &ir.Query{Model: uid, Op: op, ID: id}
	root, err := qs.Parse(raw, qs.StrapiOptions())
	if err != nil {
		return nil, 0, 0, apierror.Validation("Invalid query string")
	}
	start, limit := 0, -1
	kept := &qs.Object{}
	for i, k := range root.Keys {
		v := root.Vals[i]
		switch k {
		case "start", "limit":
			if v.Kind != qs.String {
				return nil, 0, 0, apierror.InvalidParam(k)
			}
			n, err := strconv.Atoi(strings.TrimSpace(v.Str))
			if err != nil {
				return nil, 0, 0, apierror.InvalidParam(k)
			}
			if k == "start" {
				start = max(n, 0)
			} else {
				limit = limitOf(n)
			}
		default:
			if keep(k) {
				kept.Keys = append(kept.Keys, k)
				kept.Vals = append(kept.Vals, v)
			}
		}
	}
	if err := rest.Lower(kept, q); err != nil {
		return nil, 0, 0, err
	}
	return q, start, limit, nil
}

// pluginList runs a plugin route's list: its own start/limit, no pagination count.
func (s *Server) pluginList(r *http.Request, q *ir.Query, start, limit int, who planner.Principal) (*plan.Plan, *exec.Result, error) {
	pl, err := s.Planner.Read(q, who)
	if err != nil {
		return nil, nil, err
	}
	pl.Count = nil
	pl.Root.Offset, pl.Root.Limit = start, limit
	res, err := s.run(r.Context(), s.DB, pl, r)
	if err != nil {
		return nil, nil, err
	}
	return pl, res, nil
}
