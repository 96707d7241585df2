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

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/jsonw"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/parser/rest"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/transport/envelope"
	"github.com/quarrycms/quarry/transport/plugins/upload"
)

func (s *Server) query(r *http.Request, m *schemas.Model, op ir.Op, id string) (*ir.Query, error) {
	q := &ir.Query{Model: m.UID, Op: op, ID: id}
	if err := rest.Parse(r.URL.RawQuery, q); err != nil {
		return nil, err
	}
	return q, nil
}

func (s *Server) find(ctx context.Context, w http.ResponseWriter, r *http.Request, m *schemas.Model, who planner.Principal) error {
	q, err := s.query(r, m, ir.FindMany, "")
	if err != nil {
		return err
	}
	if err := s.Localize.ReadLocale(ctx, m, q); err != nil {
		return err
	}
	pl, err := s.Planner.Read(q, who)
	if err != nil {
		return err
	}
	res, err := s.run(ctx, s.DB, pl, r)
	if err != nil {
		return err
	}
	writeList(w, pl, res, true)
	// The response is written (from the envelope's own buffer) and nothing else holds
	// the entries.
	res.Release()
	return nil
}

// writeList answers a list: {"data":[entries],"meta":{...}}, with meta.pagination unless
// the list is not paginated (a single type's locale=all).
func writeList(w http.ResponseWriter, pl *plan.Plan, res *exec.Result, paginated bool) {
	b := envelope.Get()
	defer envelope.Put(b)
	b.WriteString(`{"data":[`)
	for i, e := range res.Entries {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Entry(pl.Root, e)
	}
	b.WriteString(`],"meta":`)
	if paginated {
		b.Pagination(pl.Page, res.Total)
	} else {
		b.WriteString("{}")
	}
	b.WriteByte('}')
	envelope.WriteJSON(w, http.StatusOK, b)
}

// run executes a plan; with LogPlans it logs the plan's statements with their timings.
func (s *Server) run(ctx context.Context, db exec.Queryer, pl *plan.Plan, r *http.Request) (*exec.Result, error) {
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	if !s.LogPlans {
		return s.Runner.Run(ctx, db, pl)
	}
	var lines []string
	ctx = exec.WithTrace(ctx, func(st sqlgen.Stmt, rows int, took time.Duration) {
		lines = append(lines, fmt.Sprintf("%s -- args %v -- %d rows in %s", st.SQL, st.Args, rows, took))
	})
	start := time.Now()
	res, err := s.Runner.Run(ctx, db, pl)
	s.Log.Debug("plan", "method", r.Method, "path", r.URL.Path, "query", r.URL.RawQuery,
		"statements", len(lines), "took", time.Since(start), "sql", strings.Join(lines, "\n"))
	return res, err
}

// readOne plans and runs a single-entry read with the request's fields and populate.
func (s *Server) readOne(ctx context.Context, db exec.Queryer, q *ir.Query, who planner.Principal) (*plan.Plan, *exec.Entry, error) {
	pl, res, err := exec.ReadOne(ctx, s.Planner, s.Runner, db, q, who)
	if err != nil {
		return nil, nil, err
	}
	return pl, res.First(), nil
}

// answerEntry answers a request on one entry: the error, 404 when there is no entry, or
// the entry.
func answerEntry(w http.ResponseWriter, pl *plan.Plan, e *exec.Entry, err error) error {
	if err != nil {
		return err
	}
	if e == nil {
		return apierror.NotFound()
	}
	writeEntry(w, pl, e)
	return nil
}

func writeEntry(w http.ResponseWriter, pl *plan.Plan, e *exec.Entry) {
	b := envelope.Get()
	defer envelope.Put(b)
	b.WriteString(`{"data":`)
	b.Entry(pl.Root, e)
	b.WriteString(`,"meta":{}}`)
	envelope.WriteJSON(w, http.StatusOK, b)
}

func (s *Server) findOne(ctx context.Context, w http.ResponseWriter, r *http.Request, m *schemas.Model, id string, who planner.Principal) error {
	q, err := s.query(r, m, ir.FindOne, id)
	if err != nil {
		return err
	}
	if _, err := planner.ParseID(id); err != nil {
		return badID()
	}
	pl, e, err := s.readOne(ctx, s.DB, q, who)
	return answerEntry(w, pl, e, err)
}

// body decodes a write's body: JSON ({"data": {...}}, numbers kept as json.Number), or a
// multipart form with files (upload.Inline), whose data it wraps the same way.
func (s *Server) body(w http.ResponseWriter, r *http.Request, m *schemas.Model) (any, error) {
	if data, ok, err := s.inline.Body(w, r, m); ok {
		if err != nil {
			return nil, err
		}
		return map[string]any{"data": data}, nil
	}
	if !jsonw.IsJSONRequest(r) {
		// Strapi does not parse it (a form it does, but a form is refused too: like
		// text/plain, another site's page can post one without a CORS preflight).
		return nil, rest.MissingData()
	}
	return readJSON(w, r, s.MaxBody)
}

// lowerWrite reads a content-API write into an ir.Query: the route's op and id, the query
// string and the body (none for a delete).
func (s *Server) lowerWrite(w http.ResponseWriter, r *http.Request, m *schemas.Model, op ir.Op, id string) (*ir.Query, error) {
	in := rest.Write{Model: m.UID, Op: op, ID: id, Query: r.URL.RawQuery}
	if op != ir.Delete {
		body, err := s.body(w, r, m)
		if err != nil {
			return nil, err
		}
		in.Body = body
	}
	return rest.ParseWrite(in)
}

// readBody reads a request body of at most max bytes, with Strapi's (koa-body's) errors: 413
// over the limit — a declared length over it refused unread, as reading would wait for a body
// that may never come — and a ValidationError for a body that could not be read.
func readBody(w http.ResponseWriter, r *http.Request, max int64) ([]byte, error) {
	tooLarge := &apierror.Error{Status: http.StatusRequestEntityTooLarge, Name: "PayloadTooLargeError", Message: "request entity too large", NoDetails: true}
	if r.ContentLength > max {
		return nil, tooLarge
	}
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, tooLarge
		}
		return nil, apierror.Validation("Unreadable request body")
	}
	return raw, nil
}

// readJSON reads a JSON request body of at most max bytes, numbers kept as json.Number;
// nil for an empty body. The errors are Strapi's: 413 over the limit, its SyntaxError
// envelope for malformed JSON.
func readJSON(w http.ResponseWriter, r *http.Request, max int64) (any, error) {
	raw, err := readBody(w, r, max)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	if err := syntaxError(raw); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, apierror.Validation("Unreadable request body")
	}
	return v, nil
}

// syntaxError answers a malformed JSON body with Strapi's SyntaxError envelope, worded as
// Node's JSON.parse words it; nil when the body is valid JSON.
func syntaxError(raw []byte) error {
	msg := jsonw.ParseError(raw)
	if msg == "" {
		return nil
	}
	return &apierror.Error{Status: 400, Name: "SyntaxError", Message: msg, NoDetails: true}
}

// write runs a content-API write (create, update, delete of a collection type's entry, a
// single type's update and delete) through the write path: lower, apply, shape. The
// answer is the entry read back; none is a 404.
func (s *Server) write(ctx context.Context, w http.ResponseWriter, r *http.Request, m *schemas.Model, op ir.Op, id string, who *ir.Caller) error {
	if m.Kind != schemas.SingleType && op != ir.Create {
		if _, err := planner.ParseID(id); err != nil {
			return badID()
		}
	}
	q, err := s.lowerWrite(w, r, m, op, id)
	if err != nil {
		return err
	}
	// Files sent with the entry and not committed with it go before the answer does.
	defer upload.DiscardInline(q.Data)
	if m.Kind == schemas.SingleType && op == ir.Delete {
		// Strapi's single-type delete ignores fields and populate.
		q.Fields, q.Populate = nil, nil
	}
	// The body is read: the deadline bounds the write itself (its transaction rolls back).
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	res, err := s.writes.Apply(ctx, q, who)
	if err != nil {
		return err
	}
	return answerEntry(w, res.Plan, res.Entry, nil)
}

// badID answers an id that is not a positive integer; Strapi crashes there with a 500.
func badID() error { return apierror.InvalidParam("id") }

// single serves a single type: GET reads the one entry, PUT creates or updates it, DELETE
// removes the published entry.
func (s *Server) single(ctx context.Context, w http.ResponseWriter, r *http.Request, m *schemas.Model, action string, who *ir.Caller) error {
	switch action {
	case "find":
		q, err := s.query(r, m, ir.FindMany, "")
		if err != nil {
			return err
		}
		if err := s.Localize.ReadLocale(ctx, m, q); err != nil {
			return err
		}
		if m.Localized && len(q.Locale) == 1 && q.Locale[0] == "all" {
			return s.singleAll(ctx, w, r, q, who)
		}
		pl, e, err := s.readOne(ctx, s.DB, q, who)
		return answerEntry(w, pl, e, err)
	case "update":
		return s.write(ctx, w, r, m, ir.Update, "", who)
	case "delete":
		return s.write(ctx, w, r, m, ir.Delete, "", who)
	}
	return apierror.NotFound()
}
