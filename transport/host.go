package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/planner/write"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/transport/plugins"
)

// The Host the plugins' routes (transport/plugins/...) are mounted on: the server's caller,
// read path, error answers, bodies and webhooks, behind the interface they declare.

// pluginHost is the server as the plugins see it.
type pluginHost struct{ s *Server }

var _ plugins.Host = pluginHost{}

func (h pluginHost) Authenticate(r *http.Request) (*ir.Caller, error) { return h.s.Authenticate(r) }

func (h pluginHost) WriteError(w http.ResponseWriter, r *http.Request, err error) {
	h.s.writeError(w, r, err)
}

func (h pluginHost) NotFound(w http.ResponseWriter, r *http.Request) { h.s.notFound(w, r) }

func (h pluginHost) Plan(q *ir.Query, who planner.Principal) (*plan.Plan, error) {
	return h.s.Planner.Read(q, who)
}

func (h pluginHost) Run(r *http.Request, db exec.Queryer, pl *plan.Plan) (*exec.Result, error) {
	return h.s.run(r.Context(), db, pl, r)
}

func (h pluginHost) ReadOne(ctx context.Context, db exec.Queryer, q *ir.Query, who planner.Principal) (*plan.Plan, *exec.Entry, error) {
	return h.s.readOne(ctx, db, q, who)
}

func (h pluginHost) Tx(ctx context.Context, fn func(tx *sqlx.Tx) error) error {
	return h.s.tx(ctx, fn)
}

func (h pluginHost) PlainBody(w http.ResponseWriter, r *http.Request) (map[string]any, error) {
	return h.s.plainBody(w, r)
}

func (h pluginHost) JSONBody(w http.ResponseWriter, r *http.Request) (map[string]any, error) {
	v, err := readJSON(w, r, h.s.MaxBody)
	if err != nil {
		return nil, err
	}
	body, _ := v.(map[string]any)
	return body, nil
}

func (h pluginHost) ClientIP(r *http.Request) string { return h.s.clientIP(r) }

func (h pluginHost) Writes() *write.Service { return h.s.writes }

// clientIP is koa's ctx.request.ip: with server.proxy, the first address of
// X-Forwarded-For; otherwise (or without the header) the connection's address.
func (s *Server) clientIP(r *http.Request) string {
	if s.TrustProxy {
		if xff := r.Header.Get("X-Forwarded-For"); xff != "" {
			first, _, _ := strings.Cut(xff, ",")
			if first = strings.TrimSpace(first); first != "" {
				return first
			}
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// plainBody decodes the plugin's unwrapped bodies: a JSON object (anything else counts as
// empty, as koa-body leaves it) or an URL-encoded form; an empty body is {}.
func (s *Server) plainBody(w http.ResponseWriter, r *http.Request) (map[string]any, error) {
	limit := s.MaxBody
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct == "application/x-www-form-urlencoded" && s.FormMaxBody > 0 {
		limit = s.FormMaxBody
	}
	raw, err := readBody(w, r, limit)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	if len(bytes.TrimSpace(raw)) == 0 {
		return out, nil
	}
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct == "application/x-www-form-urlencoded" {
		vals, err := url.ParseQuery(string(raw))
		if err != nil {
			return nil, apierror.Validation("Invalid form body")
		}
		for k, v := range vals {
			if len(v) > 0 {
				out[k] = v[len(v)-1]
			}
		}
		return out, nil
	}
	if err := syntaxError(raw); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, apierror.Validation("Unreadable request body")
	}
	if obj, ok := v.(map[string]any); ok {
		return obj, nil
	}
	return out, nil
}

// RecordInline implements write.InlineMedia: the files sent with an entry are linked to the
// media attributes they name (upload.Inline).
func (s *Server) RecordInline(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, id int64, data map[string]any) error {
	return s.inline.Record(ctx, tx, m, id, data)
}
