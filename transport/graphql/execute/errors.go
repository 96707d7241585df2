package execute

import (
	"errors"
	"strings"

	"github.com/quarrycms/quarry/ir/apierror"
	pg "github.com/quarrycms/quarry/parser/graphql"
	"github.com/quarrycms/quarry/schemas"
)

// gqlError is one entry of a response's errors list.
type gqlError struct {
	Message   string
	Locations []pg.Location
	Path      []any
	Code      string
	// App is the Strapi error behind it, rendered as extensions.error {name, message, details}.
	App *apierror.Error
}

// Error codes Strapi's GraphQL plugin and Apollo Server use.
const (
	codeForbidden    = "FORBIDDEN"
	codeBadUserInput = "BAD_USER_INPUT"
	codeInternal     = "INTERNAL_SERVER_ERROR"
)

// resolverError is a plain error a Strapi resolver throws on purpose: its message reaches
// the client with the field's location and path, code INTERNAL_SERVER_ERROR.
type resolverError struct{ msg string }

func (e *resolverError) Error() string { return e.msg }

// forbidden is the error of a denied resolver, as Strapi words it.
func forbidden() *apierror.Error {
	return &apierror.Error{Status: 403, Name: "ForbiddenError", Message: "Forbidden access"}
}

// appCode maps a Strapi error to its extensions.code (format-graphql-error in Strapi):
// forbidden and unauthorized → FORBIDDEN, validation → BAD_USER_INPUT, any other
// application error → STRAPI_<NAME_IN_SNAKE_CASE>.
func appCode(ae *apierror.Error) string {
	switch ae.Name {
	case "ForbiddenError", "UnauthorizedError", "PolicyError":
		return codeForbidden
	case "ValidationError":
		return codeBadUserInput
	}
	return "STRAPI_" + strings.ToUpper(schemas.SnakeCase(ae.Name))
}

// fieldError turns a failure of a field into its GraphQL error. Strapi's errors carry their
// name, message and details but (as Strapi formats them) no location or path; anything else
// is an internal error whose text stays in the log.
func (x *execution) fieldError(err error, f *pg.Field, p *path) {
	if u := x.h.db.Unavailable(x.log, err); u != nil {
		if x.unavailable == nil {
			x.unavailable = u
		}
		return
	}
	var re *resolverError
	if errors.As(err, &re) {
		x.errs = append(x.errs, &gqlError{Message: re.msg, Locations: f.Locations(), Path: p.list(), Code: codeInternal})
		return
	}
	var ae *apierror.Error
	if errors.As(err, &ae) {
		// A field that runs the project's code Quarry does not run is refused in the open,
		// as Strapi formats its NotImplementedError (an application error).
		if ae.Status >= 500 && ae.Name != "NotImplementedError" {
			x.log.Error("graphql field failed", "path", pathString(p), "err", err)
			x.errs = append(x.errs, &gqlError{Message: "Internal Server Error", Code: codeInternal})
			return
		}
		x.errs = append(x.errs, &gqlError{Message: ae.Message, Code: appCode(ae), App: ae})
		return
	}
	x.log.Error("graphql field failed", "path", pathString(p), "err", err)
	x.errs = append(x.errs, &gqlError{Message: "Internal Server Error", Code: codeInternal})
}

// nonNullError is graphql-js's error for a null in a non-null position.
func (x *execution) nonNullError(parentType, field string, f *pg.Field, p *path) {
	x.errs = append(x.errs, &gqlError{Message: "Cannot return null for non-nullable field " + parentType + "." + field + ".",
		Locations: f.Locations(), Path: p.list(), Code: codeInternal})
}

func pathString(p *path) string {
	var b strings.Builder
	for i, e := range p.list() {
		if i > 0 {
			b.WriteByte('.')
		}
		switch k := e.(type) {
		case string:
			b.WriteString(k)
		case int:
			b.WriteString(itoa(k))
		}
	}
	return b.String()
}

func itoa(i int) string {
	var b jw
	b.value(int64(i))
	return b.String()
}

// writeErrors renders the errors list.
func writeErrors(b *jw, errs []*gqlError) {
	b.WriteByte('[')
	for i, e := range errs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"message":`)
		b.Str(e.Message)
		if len(e.Locations) > 0 {
			b.WriteString(`,"locations":[`)
			for j, l := range e.Locations {
				if j > 0 {
					b.WriteByte(',')
				}
				b.WriteString(`{"line":`)
				b.value(int64(l.Line))
				b.WriteString(`,"column":`)
				b.value(int64(l.Column))
				b.WriteByte('}')
			}
			b.WriteByte(']')
		}
		if len(e.Path) > 0 {
			b.WriteString(`,"path":`)
			b.value(e.Path)
		}
		b.WriteString(`,"extensions":{`)
		if e.App != nil {
			b.WriteString(`"error":{"name":`)
			b.Str(e.App.Name)
			b.WriteString(`,"message":`)
			b.Str(e.App.Message)
			if !e.App.NoDetails {
				b.WriteString(`,"details":`)
				b.Details(e.App.Details)
			}
			b.WriteString(`},`)
		}
		b.WriteString(`"code":`)
		b.Str(e.Code)
		b.WriteString("}}")
	}
	b.WriteByte(']')
}

// ResolverError is a plain error a resolver throws on purpose: its message reaches the
// client (code INTERNAL_SERVER_ERROR), as a Strapi resolver's thrown Error does.
func ResolverError(msg string) error { return &resolverError{msg: msg} }
