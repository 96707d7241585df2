// Package apierror is the error type every layer returns for a client-visible failure; the
// transport turns it into Strapi's error envelope (REST) or a GraphQL error.
package apierror

import "fmt"

// Error is a client-visible error with Strapi's name and status.
type Error struct {
	Status  int
	Name    string
	Message string
	// Details is rendered as the envelope's details object; nil renders {} unless NoDetails.
	Details   any
	NoDetails bool
	// Path locates the offending part of the request (e.g. filters[author][email]) for tools
	// such as qplan; it is not part of Strapi's envelope.
	Path string
	// RetryAfter, in seconds, is sent as the Retry-After header when positive.
	RetryAfter int
}

// At returns the error with Path set.
func (e *Error) At(path string) *Error {
	e.Path = path
	return e
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Name, e.Message) }

// FieldError is one entry of details.errors of a validation failure.
type FieldError struct {
	Path    []string `json:"path"`
	Message string   `json:"message"`
	Name    string   `json:"name"`
}

// ValidationDetails is the details object of a validation failure with field errors.
type ValidationDetails struct {
	Errors []FieldError `json:"errors"`
}

// RawDetails is a details object as JSON text, written as it is: an error the project's code
// raised, whose keys keep the order it gave them.
type RawDetails []byte

// MarshalJSON is the text itself.
func (d RawDetails) MarshalJSON() ([]byte, error) { return d, nil }

// Validation is a 400 ValidationError with empty details.
func Validation(format string, args ...any) *Error {
	return &Error{Status: 400, Name: "ValidationError", Message: fmt.Sprintf(format, args...)}
}

// InvalidParam is Strapi's answer to a query parameter it refuses: "Invalid parameter <key>".
func InvalidParam(key string) *Error {
	return &Error{Status: 400, Name: "ValidationError", Message: "Invalid parameter " + key}
}

// Fields is a 400 ValidationError carrying field errors; the message follows yup's wording.
func Fields(errs []FieldError) *Error {
	msg := fmt.Sprintf("%d errors occurred", len(errs))
	if len(errs) == 1 {
		msg = errs[0].Message
	}
	return &Error{Status: 400, Name: "ValidationError", Message: msg, Details: ValidationDetails{Errors: errs}}
}

// NotFound is the router's 404.
func NotFound() *Error { return &Error{Status: 404, Name: "NotFoundError", Message: "Not Found"} }

// Forbidden is the route authorization's 403.
func Forbidden() *Error { return &Error{Status: 403, Name: "ForbiddenError", Message: "Forbidden"} }

// Unauthorized is the 401 for credentials that match nothing.
func Unauthorized(msg string) *Error {
	return &Error{Status: 401, Name: "UnauthorizedError", Message: msg}
}

// Application is a 400 ApplicationError.
func Application(msg string) *Error {
	return &Error{Status: 400, Name: "ApplicationError", Message: msg}
}

// Pagination is a 400 PaginationError.
func Pagination(msg string) *Error {
	return &Error{Status: 400, Name: "PaginationError", Message: msg}
}

// ServiceUnavailable is the 503 of a request the database cannot serve now (down,
// unreachable, locked); retryAfter, in seconds, is sent as the Retry-After header.
func ServiceUnavailable(retryAfter int) *Error {
	return &Error{Status: 503, Name: "ServiceUnavailableError", Message: "Service Unavailable", RetryAfter: retryAfter}
}
