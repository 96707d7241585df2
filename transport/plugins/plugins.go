// Package plugins is what the server gives the plugins' HTTP routes (users-permissions,
// upload, i18n, email: the packages under it): the Host they are mounted on — the caller, the
// shared read path, error answers, request bodies, the write path and its events — and the helpers their routes
// share (plugin query strings, method dispatch). transport's Server is the Host; the plugins
// never import transport, so the imports only run down.
package plugins

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/parser/qs"
	"github.com/quarrycms/quarry/parser/rest"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/planner/write"
	"github.com/quarrycms/quarry/transport/envelope"
)

// Host is the server the routes are mounted on.
type Host interface {
	// Authenticate identifies the caller of a request (public, API token, user).
	Authenticate(r *http.Request) (*ir.Caller, error)
	// WriteError answers err with Strapi's error envelope: a database that cannot serve is a
	// 503, anything that is not an *apierror.Error a 500 without details (and logged).
	WriteError(w http.ResponseWriter, r *http.Request, err error)
	// NotFound answers a request no route serves (forwarded to Strapi when there is one).
	NotFound(w http.ResponseWriter, r *http.Request)
	// Plan plans a read for a caller; Run runs it on db for the request r.
	Plan(q *ir.Query, who planner.Principal) (*plan.Plan, error)
	Run(r *http.Request, db exec.Queryer, pl *plan.Plan) (*exec.Result, error)
	// ReadOne plans and runs a single-entry read with the query's fields and populate; a
	// nil entry when there is none.
	ReadOne(ctx context.Context, db exec.Queryer, q *ir.Query, who planner.Principal) (*plan.Plan, *exec.Entry, error)
	// Tx runs fn in one transaction; files sent with an entry go in place when it commits.
	Tx(ctx context.Context, fn func(tx *sqlx.Tx) error) error
	// PlainBody reads the plugins' unwrapped bodies: a JSON object (anything else counts as
	// empty, as koa-body leaves it) or an URL-encoded form; an empty body is {}.
	PlainBody(w http.ResponseWriter, r *http.Request) (map[string]any, error)
	// JSONBody reads a JSON body within the server's limit: nil when empty or not an object.
	JSONBody(w http.ResponseWriter, r *http.Request) (map[string]any, error)
	// ClientIP is koa's ctx.request.ip (X-Forwarded-For's first address behind a proxy).
	ClientIP(r *http.Request) string
	// Writes is the write path: the plugins write entries through its Apply and announce
	// their own writes (files, users) through its Announce, the one step that fires the
	// lifecycle hooks and webhooks. Nil-safe: a nil *write.Service announces nothing.
	Writes() *write.Service
}

// Query reads the query string of a plugin route (users, upload files): these take top-level
// start and limit instead of pagination[...], and only some of the content API's parameters.
// keep decides which other keys are lowered; limitOf maps a given limit to the effective one
// (-1: none), since the plugins differ there.
func Query(raw, uid string, op ir.Op, id string, keep func(key string) bool, limitOf func(n int) int) (*ir.Query, int, int, error) {
	q := &ir.Query{Model: uid, Op: op, ID: id}
	root, err := qs.Parse(raw, qs.StrapiOptions())
	if err != nil {
		return nil, 0, 0, apierror.Validation("Invalid query string")
	}
	start, limit := 0, -1
	kept := &qs.Object{}
	for i, k := range root.Keys {
		v := root.Vals[i]
		switch k {
		case "start", "limit":
			if v.Kind != qs.String {
				return nil, 0, 0, apierror.InvalidParam(k)
			}
			n, err := strconv.Atoi(strings.TrimSpace(v.Str))
			if err != nil {
				return nil, 0, 0, apierror.InvalidParam(k)
			}
			if k == "start" {
				start = max(n, 0)
			} else {
				limit = limitOf(n)
			}
		default:
			if keep(k) {
				kept.Keys = append(kept.Keys, k)
				kept.Vals = append(kept.Vals, v)
			}
		}
	}
	if err := rest.Lower(kept, q); err != nil {
		return nil, 0, 0, err
	}
	return q, start, limit, nil
}

// List runs a plugin route's list on db: its own start/limit, no pagination count.
func List(h Host, r *http.Request, db exec.Queryer, q *ir.Query, start, limit int, who planner.Principal) (*plan.Plan, *exec.Result, error) {
	pl, err := h.Plan(q, who)
	if err != nil {
		return nil, nil, err
	}
	pl.Count, pl.Root.WithTotal = nil, false
	pl.Root.Offset, pl.Root.Limit = start, limit
	res, err := h.Run(r, db, pl)
	if err != nil {
		return nil, nil, err
	}
	return pl, res, nil
}

// Handler serves one route once the caller is allowed; body is the request's plain body
// when the route reads one.
type Handler func(w http.ResponseWriter, r *http.Request, who *ir.Caller, body map[string]any) error

// Route is one method of a route: its action, whether it reads a body, the check run
// before it (rate limits; nil: none) and its handler.
type Route struct {
	Action string
	Body   bool
	Check  func(w http.ResponseWriter, r *http.Request, body map[string]any) error
	Serve  Handler
}

// Methods dispatches by method. Unknown methods get 404 when notFoundOtherwise (as Strapi
// answers on its auth routes) and 405 elsewhere.
func Methods(h Host, notFoundOtherwise bool, routes map[string]Route) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rt, ok := routes[r.Method]
		if !ok {
			if notFoundOtherwise {
				h.NotFound(w, r)
			} else {
				envelope.MethodNotAllowed(w, r, envelope.RoutedMethods(routes)...)
			}
			return
		}
		if err := serve(h, w, r, rt); err != nil {
			h.WriteError(w, r, err)
		}
	}
}

func serve(h Host, w http.ResponseWriter, r *http.Request, rt Route) error {
	who, err := h.Authenticate(r)
	if err != nil {
		return err
	}
	if !who.Can(rt.Action) {
		return apierror.Forbidden()
	}
	var body map[string]any
	if rt.Body {
		if body, err = h.PlainBody(w, r); err != nil {
			return err
		}
	}
	if rt.Check != nil {
		if err := rt.Check(w, r, body); err != nil {
			return err
		}
	}
	return rt.Serve(w, r, who, body)
}

// ParseID reads a route's {id}, refusing what is not an entry id as Strapi's routes do.
func ParseID(s string) (int64, error) {
	id, err := planner.ParseID(s)
	if err != nil {
		return 0, BadID()
	}
	return id, nil
}

// BadID is the answer to an id that is not a positive integer (Strapi crashes there with a
// 500).
func BadID() error { return apierror.InvalidParam("id") }

type clientIPKey struct{}

// WithClientIP carries the client's address to code that only gets a context (the GraphQL
// resolvers of a plugin), as the host determines it (trusted proxies included).
func WithClientIP(ctx context.Context, ip string) context.Context {
	return context.WithValue(ctx, clientIPKey{}, ip)
}

// ClientIPFrom is the address WithClientIP stored, "" without one.
func ClientIPFrom(ctx context.Context) string {
	ip, _ := ctx.Value(clientIPKey{}).(string)
	return ip
}

type responseHeaderKey struct{}

// WithResponseHeader carries the headers of the response being made to code that only gets a
// context (a GraphQL resolver), for what it adds to the answer (a cookie the project's login
// controller sets, as Strapi's resolvers hand the controller the request's own koa context).
func WithResponseHeader(ctx context.Context, h http.Header) context.Context {
	return context.WithValue(ctx, responseHeaderKey{}, h)
}

// ResponseHeaderFrom is the header WithResponseHeader stored, nil without one.
func ResponseHeaderFrom(ctx context.Context) http.Header {
	h, _ := ctx.Value(responseHeaderKey{}).(http.Header)
	return h
}
