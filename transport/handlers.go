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
	"github.com/quarrycms/quarry/transport/plugins/i18n/localize"
	"github.com/quarrycms/quarry/transport/plugins/upload"
	"github.com/quarrycms/quarry/transport/webhook"
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

// body decodes {"data": {...}}.
func (s *Server) body(w http.ResponseWriter, r *http.Request, m *schemas.Model) (map[string]any, error) {
	if data, ok, err := s.inline.Body(w, r, m); ok {
		return data, err // multipart with files (upload.Inline)
	}
	missing := apierror.Validation(`Missing "data" payload in the request body`)
	if !jsonw.IsJSONRequest(r) {
		// Strapi does not parse it (a form it does, but a form is refused too: like
		// text/plain, another site's page can post one without a CORS preflight).
		return nil, missing
	}
	v, err := readJSON(w, r, s.MaxBody)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(map[string]any) // an empty body (nil) is missing data too
	if !ok {
		return nil, missing
	}
	data, ok := obj["data"].(map[string]any)
	if !ok {
		return nil, missing
	}
	return data, nil
}

// readJSON reads a JSON request body of at most max bytes, numbers kept as json.Number;
// nil for an empty body. The errors are Strapi's: 413 over the limit, its SyntaxError
// envelope for malformed JSON.
func readJSON(w http.ResponseWriter, r *http.Request, max int64) (any, error) {
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, &apierror.Error{Status: 413, Name: "PayloadTooLargeError", Message: "request entity too large", NoDetails: true}
		}
		return nil, apierror.Validation("Unreadable request body")
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

// tx runs fn in one transaction: every write touching several tables commits or rolls back
// as a whole.
func (s *Server) tx(ctx context.Context, fn func(tx exec.Queryer, txw txWriter) error) error {
	t, err := s.DB.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(t, txWriter{t}); err != nil {
		t.Rollback()
		s.inline.AfterTx(ctx, t, false)
		return err
	}
	if err := s.DB.Commit(ctx, t); err != nil {
		s.inline.AfterTx(ctx, t, false)
		return fmt.Errorf("commit: %w", err)
	}
	return s.inline.AfterTx(ctx, t, true) // files uploaded with the entry go in place (upload.Inline)
}

func (s *Server) create(ctx context.Context, w http.ResponseWriter, r *http.Request, m *schemas.Model, who planner.Principal) error {
	data, err := s.body(w, r, m)
	if err != nil {
		return err
	}
	// Files sent with the entry and not committed with it go before the answer does.
	defer upload.DiscardInline(data)
	stripRestricted(m, data, who)
	q, err := s.query(r, m, ir.FindOne, "")
	if err != nil {
		return err
	}
	if err := s.Localize.CreateLocale(ctx, m, data); err != nil {
		return err
	}
	var links []int64
	if m.Localized {
		if v, ok := data["localizations"]; ok {
			links, _ = localize.LinkIDs(v)
			delete(data, "localizations")
		}
	}
	var pl *plan.Plan
	var e *exec.Entry
	err = s.tx(ctx, func(tx exec.Queryer, txw txWriter) error {
		id, err := s.Writer.Create(ctx, txw.Tx, m, data)
		if err != nil {
			return err
		}
		if len(links) > 0 {
			if err := s.Localize.SetLinks(ctx, txw.Tx, m, id, links); err != nil {
				return err
			}
		}
		q.ID = fmt.Sprint(id)
		if pl, e, err = s.readOne(ctx, tx, q, who); err != nil {
			return err
		}
		if len(links) > 0 && localize.PopulatesLocalizations(q) {
			// Strapi's i18n joins the listed entries into one group when the answer
			// shows localizations (after the answer is read).
			return s.Localize.Sync(ctx, txw.Tx, m, id, links)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if e == nil {
		return errors.New("created entry vanished")
	}
	s.entryEvent(webhook.EntryCreate, m, pl, e)
	writeEntry(w, pl, e)
	return nil
}

// entryRequest reads the id and the query of a request on one entry.
func (s *Server) entryRequest(r *http.Request, m *schemas.Model, idStr string) (int64, *ir.Query, error) {
	id, err := planner.ParseID(idStr)
	if err != nil {
		return 0, nil, badID()
	}
	q, err := s.query(r, m, ir.FindOne, idStr)
	return id, q, err
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

func (s *Server) update(ctx context.Context, w http.ResponseWriter, r *http.Request, m *schemas.Model, idStr string, who planner.Principal) error {
	id, q, err := s.entryRequest(r, m, idStr)
	if err != nil {
		return err
	}
	var exists int
	st := sqlgen.EntryCount(s.DB.Dialect, m, id)
	if err := s.DB.GetContext(ctx, &exists, st.SQL, st.Args...); err != nil {
		return err
	}
	if exists == 0 {
		return apierror.NotFound()
	}
	data, err := s.body(w, r, m)
	if err != nil {
		return err
	}
	// Files sent with the entry and not committed with it go before the answer does.
	defer upload.DiscardInline(data)
	stripRestricted(m, data, who)
	if m.Localized {
		// An entry's locale never changes; its group changes only through localizations.
		delete(data, "locale")
		delete(data, "localizations")
	}
	var pl *plan.Plan
	var e *exec.Entry
	err = s.tx(ctx, func(tx exec.Queryer, txw txWriter) error {
		if err := s.Writer.Update(ctx, txw.Tx, m, id, data); err != nil {
			return err
		}
		if pl, e, err = s.readOne(ctx, tx, q, who); err != nil || e == nil {
			return err
		}
		return s.Localize.SyncAfterUpdate(ctx, txw.Tx, m, q, pl, e)
	})
	if err == nil {
		s.entryEvent(webhook.EntryUpdate, m, pl, e)
	}
	return answerEntry(w, pl, e, err)
}

func (s *Server) delete(ctx context.Context, w http.ResponseWriter, r *http.Request, m *schemas.Model, idStr string, who planner.Principal) error {
	id, q, err := s.entryRequest(r, m, idStr)
	if err != nil {
		return err
	}
	var pl *plan.Plan
	var e *exec.Entry
	err = s.tx(ctx, func(tx exec.Queryer, txw txWriter) error {
		pl, e, err = s.readOne(ctx, tx, q, who)
		if err != nil || e == nil {
			return err
		}
		return s.Writer.Delete(ctx, txw.Tx, m, id)
	})
	if err == nil {
		s.entryEvent(webhook.EntryDelete, m, pl, e)
	}
	return answerEntry(w, pl, e, err)
}

// single serves a single type: GET reads the one entry, PUT creates or updates it, DELETE
// removes the published entry.
func (s *Server) single(ctx context.Context, w http.ResponseWriter, r *http.Request, m *schemas.Model, action string, who planner.Principal) error {
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
		q, err := s.query(r, m, ir.FindOne, "")
		if err != nil {
			return err
		}
		data, err := s.body(w, r, m)
		if err != nil {
			return err
		}
		defer upload.DiscardInline(data)
		stripRestricted(m, data, who)
		locale, err := s.Localize.SingleLocale(ctx, m, q.Locale)
		if err != nil {
			return err
		}
		var pl *plan.Plan
		var e *exec.Entry
		event := webhook.EntryUpdate
		err = s.tx(ctx, func(tx exec.Queryer, txw txWriter) error {
			id, found, err := s.Localize.SingleID(ctx, tx, m, false, locale)
			if !found {
				event = webhook.EntryCreate
			}
			if err != nil {
				return err
			}
			if found {
				if m.Localized {
					delete(data, "locale")
					delete(data, "localizations")
				}
				err = s.Writer.Update(ctx, txw.Tx, m, id, data)
			} else {
				if m.Localized {
					// Another locale's entry exists: new locales come through
					// POST /localizations, as in Strapi.
					if _, any, err := s.Localize.SingleID(ctx, tx, m, false, ""); err != nil {
						return err
					} else if any {
						return apierror.Validation("singleType.alreadyExists")
					}
					// The new entry takes the body's locale, not the query's (Strapi's quirk).
					delete(data, "localizations")
					if err := s.Localize.CreateLocale(ctx, m, data); err != nil {
						return err
					}
				}
				id, err = s.Writer.Create(ctx, txw.Tx, m, data)
			}
			if err != nil {
				return err
			}
			q.ID = fmt.Sprint(id)
			if pl, e, err = s.readOne(ctx, tx, q, who); err != nil || e == nil {
				return err
			}
			if found {
				return s.Localize.SyncAfterUpdate(ctx, txw.Tx, m, q, pl, e)
			}
			return nil
		})
		if err != nil {
			return err
		}
		s.entryEvent(event, m, pl, e)
		writeEntry(w, pl, e)
		return nil
	case "delete":
		// Strapi's single-type delete ignores fields and populate.
		rq, err := s.query(r, m, ir.FindOne, "")
		if err != nil {
			return err
		}
		locale, err := s.Localize.SingleLocale(ctx, m, rq.Locale)
		if err != nil {
			return err
		}
		q := &ir.Query{Model: m.UID, Op: ir.FindOne}
		var pl *plan.Plan
		var e *exec.Entry
		err = s.tx(ctx, func(tx exec.Queryer, txw txWriter) error {
			id, found, err := s.Localize.SingleID(ctx, tx, m, true, locale)
			if err != nil || !found {
				return err
			}
			q.ID = fmt.Sprint(id)
			if pl, e, err = s.readOne(ctx, tx, q, who); err != nil {
				return err
			}
			return s.Writer.Delete(ctx, txw.Tx, m, id)
		})
		if err == nil {
			s.entryEvent(webhook.EntryDelete, m, pl, e)
		}
		return answerEntry(w, pl, e, err)
	}
	return apierror.NotFound()
}

// badID answers an id that is not a positive integer; Strapi crashes there with a 500.
func badID() error { return apierror.InvalidParam("id") }
