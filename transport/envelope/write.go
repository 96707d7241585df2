package envelope

import (
	"log/slog"
	"net/http"
	"strconv"

	"github.com/quarrycms/quarry/ir/apierror"
)

// WriteAPIError answers with Strapi's error envelope (and Retry-After when the error has one).
func WriteAPIError(w http.ResponseWriter, ae *apierror.Error) {
	if ae.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(ae.RetryAfter))
	}
	var b Buf
	b.Envelope(ae)
	WriteJSON(w, ae.Status, &b)
}

// WriteJSON answers with the JSON in b, all of the body: its length is known, so it is
// sent, as Strapi (Koa) sends it for a JSON body. Without it net/http sends a body past its
// 4 KB buffer chunked.
func WriteJSON(w http.ResponseWriter, status int, b *Buf) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	w.WriteHeader(status)
	if _, err := w.Write(b.Bytes()); err != nil {
		slog.Debug("write response", "err", err)
	}
}

// MethodNotAllowed is the router's answer to a method a route does not serve, as Strapi's
// koa router words it.
func MethodNotAllowed(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusMethodNotAllowed)
	w.Write([]byte("Method Not Allowed"))
}
