package transport

import (
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/sqlgen"
)

// StatementHeaderName carries the number of SQL statements a request ran, when
// QUARRY_DEBUG_STATEMENTS=1: the load benchmark reads it from a separate `quarry serve`.
const StatementHeaderName = "X-Quarry-Statements"

// StatementHeader counts the statements each request runs and reports them in
// StatementHeaderName.
func StatementHeader(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &stmtWriter{ResponseWriter: w}
		ctx := exec.WithTrace(r.Context(), func(sqlgen.Stmt, int, time.Duration) { sw.n.Add(1) })
		next.ServeHTTP(sw, r.WithContext(ctx))
	})
}

type stmtWriter struct {
	http.ResponseWriter
	n     atomic.Int64
	wrote bool
}

func (w *stmtWriter) WriteHeader(code int) {
	if !w.wrote {
		w.wrote = true
		w.Header().Set(StatementHeaderName, strconv.FormatInt(w.n.Load(), 10))
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *stmtWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}
