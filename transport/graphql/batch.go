package graphql

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/quarrycms/quarry/ir/jsonw"
	pg "github.com/quarrycms/quarry/parser/graphql"
	"github.com/quarrycms/quarry/transport/graphql/execute"
)

// MaxBatch caps the operations of one batched request. Strapi's Apollo Server 3 runs any
// number; a cap keeps one request from costing as much as thousands.
const MaxBatch = 20

// noBody is Apollo Server's answer to a POST body it cannot use.
const noBody = "POST body missing, invalid Content-Type, or JSON object has no keys."

// jsonBody reports whether a POST carries a JSON body Strapi would parse. Anything else,
// a missing Content-Type included, never reaches the GraphQL server.
func jsonBody(r *http.Request) bool { return jsonw.IsJSONRequest(r) }

// writeText answers with a plain-text body, as Apollo Server answers requests it cannot
// read.
func writeText(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	io.WriteString(w, msg)
}

// serveBatch serves a batched request, a JSON array of operations, as Apollo Server 3
// does: each operation runs on its own (mutations in their own transaction), in order, and
// the answer is the array of their results, 200 whatever they hold. An empty array is
// refused, and so is any batch over MaxBatch.
func (h *Handler) serveBatch(w http.ResponseWriter, r *http.Request, body []byte) {
	var items []json.RawMessage
	if err := json.Unmarshal(body, &items); err != nil {
		writeRequestErrors(w, http.StatusBadRequest, pg.RequestErrors{{Message: "POST body sent invalid JSON.", Code: pg.CodeInternal}})
		return
	}
	if len(items) == 0 {
		writeText(w, http.StatusBadRequest, noBody)
		return
	}
	if len(items) > MaxBatch {
		writeRequestErrors(w, http.StatusBadRequest, pg.RequestErrors{{
			Message: fmt.Sprintf("Batched requests are limited to %d operations; this one has %d.", MaxBatch, len(items)),
			Code:    pg.CodeBadUserInput}})
		return
	}
	type op struct {
		req pg.Request
		err string // answered as this error without running
	}
	ops := make([]op, len(items))
	for i, raw := range items {
		t := bytes.TrimSpace(raw)
		if len(t) == 0 || t[0] != '{' {
			ops[i].err = "GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension."
			continue
		}
		req, err := decodeBody(t)
		if err != nil {
			if be, ok := err.(*bodyError); ok && be.text {
				// Apollo refuses the whole batch for these.
				writeText(w, http.StatusBadRequest, be.msg)
				return
			}
			ops[i].err = err.Error()
			continue
		}
		ops[i].req = req
	}
	caller, err := h.authenticate(r)
	if err != nil {
		h.authError(w, err)
		return
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i, o := range ops {
		if i > 0 {
			b.WriteByte(',')
		}
		if o.err != "" {
			b.Write(execute.RequestErrorsBody(pg.RequestErrors{{Message: o.err, Code: pg.CodeInternal}}))
			continue
		}
		resp := h.exec.Execute(r.Context(), caller, execute.Request{Request: o.req})
		if resp.Unavailable != nil {
			writeAPIError(w, resp.Unavailable)
			return
		}
		b.Write(resp.Body)
		resp.Release()
	}
	b.WriteByte(']')
	writeBody(w, http.StatusOK, b.Bytes())
}
