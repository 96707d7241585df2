package jsonw

import (
	"context"
	"mime"
	"net/http"
	"strings"
)

// jsonTypes are the media types Strapi's body parser (koa-body) reads as JSON.
var jsonTypes = map[string]bool{
	"application/json": true, "application/json-patch+json": true, "application/vnd.api+json": true,
	"application/csp-report": true, "application/scim+json": true,
}

// IsJSONRequest reports whether a request declares a body Strapi reads as JSON. Strapi
// leaves a text/plain or untyped body unparsed, so a JSON text sent that way is no payload:
// this is also what keeps a page on another site, which can post text/plain without a CORS
// preflight, from writing.
func IsJSONRequest(r *http.Request) bool {
	if r.Context().Value(formOriginKey{}) != nil {
		return false
	}
	ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && jsonTypes[strings.ToLower(ct)]
}

// formOriginKey marks, in a request's context, a request whose JSON body was made from a form
// or text body (the app-level middlewares' chain hands it on as JSON): it stays no payload.
type formOriginKey struct{}

// WithFormOrigin marks ctx's request as one whose body came as a form or text.
func WithFormOrigin(ctx context.Context) context.Context {
	return context.WithValue(ctx, formOriginKey{}, true)
}
