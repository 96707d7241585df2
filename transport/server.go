// Package transport serves the content API over HTTP: routing (chi), authentication
// middleware, request decoding and shaping of results into Strapi's REST envelope.
package transport

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"

	"quarry/apierror"
	"quarry/auth"
	"quarry/database"
	"quarry/i18n"
	"quarry/planner"
	"quarry/planner/exec"
	"quarry/planner/write"
	"quarry/schemas"
)

// Server is the HTTP face of one app.
type Server struct {
	Schema  *schemas.Schema
	DB      *database.DB
	Planner *planner.Planner
	Runner  *exec.Runner
	Writer  *write.Writer
	Log     *slog.Logger
	// TokenSalt is API_TOKEN_SALT.
	TokenSalt string
	// MaxBody bounds request bodies (Strapi's JSON limit is 1 MB).
	MaxBody int64
	Now     func() time.Time
	// I18n serves locales; nil when the app has no localized types' tables yet.
	I18n *i18n.Service
	// LogPlans logs each read's statements with timings at debug level (QUARRY_LOG_PLANS=1).
	LogPlans bool
	// GraphQL, when set, is mounted at GraphQLPath (default /graphql).
	GraphQL     http.Handler
	GraphQLPath string

	tokens tokenCache
}

// tokenCache keeps recent token look-ups briefly so a busy client does not cost a query per
// request; revocation and expiry take effect within the TTL.
type tokenCache struct {
	mu sync.Mutex
	m  map[string]cachedToken
}

type cachedToken struct {
	tok *auth.Token
	err error
	at  time.Time
}

const tokenTTL = 5 * time.Second

// Handler returns the HTTP handler.
func (s *Server) Handler() http.Handler {
	if s.Now == nil {
		s.Now = time.Now
	}
	if s.MaxBody == 0 {
		s.MaxBody = 1 << 20
	}
	r := chi.NewRouter()
	r.Use(s.recoverer)
	r.Get("/_health", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	r.Head("/_health", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	if s.GraphQL != nil {
		path := s.GraphQLPath
		if path == "" {
			path = "/graphql"
		}
		r.Handle(path, s.GraphQL)
	}
	if s.I18n != nil {
		r.Get("/api/i18n/locales", s.listLocales)
	}
	r.HandleFunc("/api/{name}", s.route)
	r.HandleFunc("/api/{name}/{id}", s.route)
	r.NotFound(func(w http.ResponseWriter, r *http.Request) { writeAPIError(w, apierror.NotFound()) })
	r.MethodNotAllowed(methodNotAllowed)
	return r
}

func methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusMethodNotAllowed)
	w.Write([]byte("Method Not Allowed"))
}

// recoverer turns a panic into a 500 envelope; the stack goes to the log, never the client.
func (s *Server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.Log.Error("panic", "method", r.Method, "path", r.URL.Path, "panic", v)
				writeAPIError(w, &apierror.Error{Status: 500, Name: "InternalServerError", Message: "Internal Server Error", NoDetails: true})
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// route dispatches /api/{name}[/{id}] to the content type's action.
func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	name := chi.URLParam(r, "name")
	id := chi.URLParam(r, "id")
	var m *schemas.Model
	var action string
	if ct, ok := s.Schema.ByPlural(name); ok {
		m = ct
		if id == "" {
			switch r.Method {
			case http.MethodGet:
				action = "find"
			case http.MethodPost:
				action = "create"
			}
		} else {
			switch r.Method {
			case http.MethodGet:
				action = "findOne"
			case http.MethodPut:
				action = "update"
			case http.MethodDelete:
				action = "delete"
			}
		}
	} else if st, ok := s.Schema.BySingular(name); ok && id == "" {
		m = st
		switch r.Method {
		case http.MethodGet:
			action = "find"
		case http.MethodPut:
			action = "update"
		case http.MethodDelete:
			action = "delete"
		}
	} else {
		writeAPIError(w, apierror.NotFound())
		return
	}
	if action == "" {
		methodNotAllowed(w, r)
		return
	}
	who, err := s.authorize(r, m, action)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ctx := r.Context()
	switch {
	case m.Kind == schemas.SingleType:
		err = s.single(ctx, w, r, m, action, who)
	case action == "find":
		err = s.find(ctx, w, r, m, who)
	case action == "findOne":
		err = s.findOne(ctx, w, r, m, id, who)
	case action == "create":
		err = s.create(ctx, w, r, m, who)
	case action == "update":
		err = s.update(ctx, w, r, m, id, who)
	case action == "delete":
		err = s.delete(ctx, w, r, m, id, who)
	}
	if err != nil {
		s.writeError(w, r, err)
	}
}

// Authenticate identifies the caller: no credentials is the public role; a bearer token
// must be a known, unexpired API token (401 otherwise, as Strapi answers).
func (s *Server) Authenticate(r *http.Request) (*auth.Caller, error) {
	key, ok := bearer(r.Header.Get("Authorization"))
	if !ok {
		return &auth.Caller{Kind: auth.Public}, nil
	}
	tok, err := s.lookupToken(r.Context(), key)
	switch {
	case errors.Is(err, auth.ErrExpired):
		return nil, apierror.Unauthorized("Token expired")
	case errors.Is(err, auth.ErrUnknown):
		return nil, apierror.Unauthorized("Missing or invalid credentials")
	case err != nil:
		return nil, err
	}
	return &auth.Caller{Kind: auth.APIToken, TokenType: tok.Type}, nil
}

// authorize authenticates the request and checks the route's action.
func (s *Server) authorize(r *http.Request, m *schemas.Model, action string) (*auth.Caller, error) {
	c, err := s.Authenticate(r)
	if err != nil {
		return nil, err
	}
	if !c.Can(m.UID + "." + action) {
		return nil, apierror.Forbidden()
	}
	return c, nil
}

func (s *Server) lookupToken(ctx context.Context, key string) (*auth.Token, error) {
	now := s.Now()
	s.tokens.mu.Lock()
	if c, ok := s.tokens.m[key]; ok && now.Sub(c.at) < tokenTTL {
		s.tokens.mu.Unlock()
		if c.err == nil && c.tok.ExpiresAt != nil && !now.Before(*c.tok.ExpiresAt) {
			return c.tok, auth.ErrExpired
		}
		return c.tok, c.err
	}
	s.tokens.mu.Unlock()
	tok, err := auth.Lookup(ctx, s.DB, s.TokenSalt, key, now)
	if err != nil && !errors.Is(err, auth.ErrUnknown) && !errors.Is(err, auth.ErrExpired) {
		return nil, err
	}
	s.tokens.mu.Lock()
	if s.tokens.m == nil || len(s.tokens.m) > 10000 {
		s.tokens.m = map[string]cachedToken{}
	}
	s.tokens.m[key] = cachedToken{tok: tok, err: err, at: now}
	s.tokens.mu.Unlock()
	return tok, err
}

// bearer extracts the token of "Bearer <token>" (scheme case-insensitive), as Strapi does.
func bearer(h string) (string, bool) {
	parts := strings.Fields(h)
	if len(parts) != 2 || !strings.EqualFold(parts[0], "bearer") {
		return "", false
	}
	return parts[1], true
}
