package envelope

import (
	"log/slog"
	"net/http"
	"strconv"
	"strings"

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

// MethodNotAllowed is koa-router's answer to a method a path is not routed for: a 405
// whose Allow header names HEAD and GET (Strapi's public middleware routes GET of every
// path) and then the methods routed there, or for OPTIONS an empty 200 with that header.
func MethodNotAllowed(w http.ResponseWriter, r *http.Request, routed ...string) {
	allow := "HEAD, GET"
	for _, m := range routed {
		if m != http.MethodGet && m != http.MethodHead && !strings.Contains(allow, m) {
			allow += ", " + m
		}
	}
	w.Header().Set("Allow", allow)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if r.Method == http.MethodOptions {
		w.Header().Set("Content-Length", "0")
		w.WriteHeader(http.StatusOK)
		return
	}
	w.WriteHeader(http.StatusMethodNotAllowed)
	w.Write([]byte("Method Not Allowed"))
}

// RoutedMethods are the methods of a by-method route table, in a fixed order (POST, PUT,
// DELETE, PATCH), for MethodNotAllowed.
func RoutedMethods[V any](byMethod map[string]V) []string {
	var out []string
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch} {
		if _, ok := byMethod[m]; ok {
			out = append(out, m)
		}
	}
	return out
}
