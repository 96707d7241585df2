package userspermissions

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/planner/write"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/sqlgen/database"
	"github.com/quarrycms/quarry/transport/plugins/email"
)

// Service is the users-permissions plugin and API-token authentication of one app: it turns
// an Authorization header into a Caller and runs the plugin's actions (register, login,
// users, roles). REST and GraphQL share it.
type Service struct {
	DB        *database.DB
	Schema    *schemas.Schema
	Config    Config
	TokenSalt string
	JWT       *JWT
	Now       func() time.Time
	Log       *slog.Logger
	// Production is NODE_ENV/QUARRY_ENV production.
	Production bool
	// Mailer sends the plugin's e-mails through the project's email provider; nil sends
	// nothing (the codes stay in the database).
	Mailer email.Sender
	// URLs are the links the e-mail templates use (SERVER_URL, ADMIN_URL, the REST prefix).
	URLs URLs
	// UserJSON renders a user as the content API does (the templates' USER); the transport
	// sets it. Without it USER has the plugin's own attributes.
	UserJSON func(ctx context.Context, id int64) ([]byte, error)
	// FetchUser is the user service's fetchAuthenticatedUser as the project replaced it
	// (the user as JSON, "null" for none), which authenticates a JWT's user in its place.
	FetchUser func(ctx context.Context, id int64) ([]byte, error)
	// ProjectAuth runs an auth controller action the project's extension replaced
	// (auth.callback, auth.register) with body as ctx.request.body, for the GraphQL login and
	// register mutations, which call the controller as Strapi's do: the answer's status and
	// JSON body; ok is false for an action the project did not replace.
	ProjectAuth func(ctx context.Context, action string, body map[string]any) (status int, out []byte, ok bool, err error)
	// Entries writes the attributes an app's extension adds to the user type (planner/write's
	// Writer); without it only the plugin's own attributes are written.
	Entries EntryWriter
	// Events announces the plugin's user writes through the write path's one event step
	// (events.go); nil announces none.
	Events *write.Service
	// PluginOff is the plugin disabled (not installed, or config/plugins says enabled:
	// false): as in Strapi, only the core API-token strategy is left, so a request without a
	// token, or with a users' JWT, is 401 and no role's permissions apply.
	PluginOff bool

	limiter Limiter

	stringsOnce sync.Once
	stringRules *write.Strings

	mu       sync.Mutex
	roles    map[int64]cachedActions
	public   cachedRole
	advanced cachedAdvanced
	tokens   map[string]cachedToken
}

// permTTL is how long a role's permissions, the public role and the advanced settings are
// cached: a grant or revoke made by another process (quarry permissions) shows within it.
const permTTL = time.Second

// tokenTTL is how long a known API token is cached; revocation takes effect within it. An
// unknown token is not cached, so one just created (in Strapi's admin panel) works at once.
const tokenTTL = time.Second

type cachedActions struct {
	actions map[string]bool
	at      time.Time
}

type cachedRole struct {
	id int64
	at time.Time
}

type cachedAdvanced struct {
	v  Advanced
	at time.Time
}

type cachedToken struct {
	tok *Token
	err error
	at  time.Time
}

// NewService builds the service; cfg.JWTSecret must be set to issue or accept JWTs.
func NewService(db *database.DB, s *schemas.Schema, cfg Config, tokenSalt string, log *slog.Logger) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{DB: db, Schema: s, Config: cfg, TokenSalt: tokenSalt, Log: log, Now: time.Now,
		JWT:     &JWT{Secret: []byte(cfg.JWTSecret), ExpiresIn: cfg.JWTExpiresIn},
		limiter: Limiter{Interval: cfg.RateLimit.Interval, Max: cfg.RateLimit.Max}}
}

func (s *Service) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

// ---- authentication ----

// Bearer extracts the token of "Bearer <token>" (scheme case-insensitive, exactly two parts),
// as Strapi does; anything else counts as no credentials.
func Bearer(h string) (string, bool) {
	parts := strings.Fields(h)
	if len(parts) != 2 || !strings.EqualFold(parts[0], "bearer") {
		return "", false
	}
	return parts[1], true
}

// Authenticate identifies the caller from an Authorization header value, following Strapi's
// strategies in order:
//   - no bearer token: the public role (401 "Missing or invalid credentials" when it has no
//     permission at all, as Strapi answers);
//   - a valid JWT (HS256, unexpired): its user with the user's role, or 401 "Invalid
//     credentials" when the user is gone, blocked or (with e-mail confirmation on) unconfirmed;
//   - an API token: 401 "Token expired" past its lifespan;
//   - anything else: 401 "Missing or invalid credentials".
//
// With PluginOff only the API-token step is left.
//
// Errors meant for the client are *apierror.Error.
func (s *Service) Authenticate(ctx context.Context, authorization string) (*ir.Caller, error) {
	key, ok := Bearer(authorization)
	if !ok {
		if s.PluginOff {
			return nil, apierror.Unauthorized("Missing or invalid credentials")
		}
		return s.publicCaller(ctx)
	}
	now := s.now()
	if !s.PluginOff {
		if id, ok := s.JWT.Verify(key, now); ok {
			return s.userCaller(ctx, id)
		}
	}
	tok, err := s.lookupToken(ctx, key, now)
	switch {
	case errors.Is(err, ErrExpired):
		return nil, apierror.Unauthorized("Token expired")
	case errors.Is(err, ErrUnknown):
		return nil, apierror.Unauthorized("Missing or invalid credentials")
	case err != nil:
		return nil, err
	}
	c := &ir.Caller{Kind: ir.TokenCaller, TokenType: tok.Type, TokenID: tok.ID}
	if tok.Type == ir.TokenCustom {
		c.Actions = make(map[string]bool, len(tok.Actions))
		for _, a := range tok.Actions {
			c.Actions[a] = true
		}
	}
	return c, nil
}

// PublicCaller is the caller of a request without credentials.
func (s *Service) publicCaller(ctx context.Context) (*ir.Caller, error) {
	id, err := s.publicRoleID(ctx)
	if err != nil {
		return nil, err
	}
	actions, err := s.roleActions(ctx, id)
	if err != nil {
		return nil, err
	}
	if len(actions) == 0 {
		return nil, apierror.Unauthorized("Missing or invalid credentials")
	}
	return &ir.Caller{Kind: ir.PublicCaller, RoleID: id, Actions: actions}, nil
}

func (s *Service) userCaller(ctx context.Context, id int64) (*ir.Caller, error) {
	if s.FetchUser != nil {
		return s.projectUserCaller(ctx, id)
	}
	u, err := UserByID(ctx, s.DB, id)
	if err != nil {
		return nil, err
	}
	if u == nil {
		return nil, apierror.Unauthorized("Invalid credentials")
	}
	adv, err := s.Advanced(ctx)
	if err != nil {
		return nil, err
	}
	if (adv.EmailConfirmation && !u.Confirmed) || u.Blocked {
		return nil, apierror.Unauthorized("Invalid credentials")
	}
	if u.RoleID == 0 {
		// Strapi fails reading the missing role and falls through to the API-token strategy.
		return nil, apierror.Unauthorized("Missing or invalid credentials")
	}
	actions, err := s.roleActions(ctx, u.RoleID)
	if err != nil {
		return nil, err
	}
	return &ir.Caller{Kind: ir.UserCaller, UserID: u.ID, RoleID: u.RoleID, Actions: actions}, nil
}

func (s *Service) publicRoleID(ctx context.Context) (int64, error) {
	now := s.now()
	s.mu.Lock()
	c := s.public
	s.mu.Unlock()
	if c.id != 0 && now.Sub(c.at) < permTTL {
		return c.id, nil
	}
	var id int64
	err := get(ctx, s.DB, &id, sqlgen.RoleIDByType(s.DB.Dialect, RolePublic))
	if errors.Is(err, sql.ErrNoRows) {
		return 0, apierror.Unauthorized("Missing or invalid credentials")
	}
	if err != nil {
		return 0, fmt.Errorf("read public role: %w", err)
	}
	s.mu.Lock()
	s.public = cachedRole{id: id, at: now}
	s.mu.Unlock()
	return id, nil
}

// roleActions returns a role's permissions, read at most once per permTTL.
func (s *Service) roleActions(ctx context.Context, roleID int64) (map[string]bool, error) {
	now := s.now()
	s.mu.Lock()
	c, ok := s.roles[roleID]
	s.mu.Unlock()
	if ok && now.Sub(c.at) < permTTL {
		return c.actions, nil
	}
	list, err := RoleActions(ctx, s.DB, roleID)
	if err != nil {
		return nil, err
	}
	m := make(map[string]bool, len(list))
	for _, a := range list {
		m[a] = true
	}
	s.mu.Lock()
	if s.roles == nil || len(s.roles) > 10000 {
		s.roles = map[int64]cachedActions{}
	}
	s.roles[roleID] = cachedActions{actions: m, at: now}
	s.mu.Unlock()
	return m, nil
}

// changed drops this process's cached permissions and tokens after it changed them, and
// tells the other instances on the database to drop theirs.
func (s *Service) changed(ctx context.Context) {
	s.Forget()
	s.DB.SettingsChanged(ctx)
}

// Forget drops cached permissions and tokens (after this process changed them).
func (s *Service) Forget() {
	s.mu.Lock()
	s.roles = nil
	s.public = cachedRole{}
	s.advanced = cachedAdvanced{}
	s.tokens = nil
	s.mu.Unlock()
}

// lookupToken finds an API token, cached briefly; it records the token's last use (at most
// once an hour, as Strapi does).
func (s *Service) lookupToken(ctx context.Context, key string, now time.Time) (*Token, error) {
	s.mu.Lock()
	c, ok := s.tokens[key]
	s.mu.Unlock()
	if !ok || now.Sub(c.at) >= tokenTTL {
		tok, err := Lookup(ctx, s.DB, s.TokenSalt, key, now)
		if err != nil && !errors.Is(err, ErrUnknown) && !errors.Is(err, ErrExpired) {
			return nil, err
		}
		c = cachedToken{tok: tok, err: err, at: now}
		if errors.Is(err, ErrUnknown) {
			return tok, err
		}
		s.mu.Lock()
		if s.tokens == nil || len(s.tokens) > 10000 {
			s.tokens = map[string]cachedToken{}
		}
		s.tokens[key] = c
		s.mu.Unlock()
	}
	if c.err != nil {
		return c.tok, c.err
	}
	if c.tok.ExpiresAt != nil && !now.Before(*c.tok.ExpiresAt) {
		return c.tok, ErrExpired
	}
	if c.tok.LastUsedAt == nil || now.Sub(*c.tok.LastUsedAt) >= time.Hour {
		if err := TouchToken(ctx, s.DB, c.tok.ID, now); err != nil {
			s.Log.Warn("record token use", "token", c.tok.ID, "err", err)
		} else {
			t := *c.tok
			t.LastUsedAt = &now
			s.mu.Lock()
			if s.tokens != nil {
				s.tokens[key] = cachedToken{tok: &t, at: c.at}
			}
			s.mu.Unlock()
		}
	}
	return c.tok, nil
}

// ---- advanced settings ----

// Advanced are the plugin's advanced settings, kept by Strapi in the core store under
// plugin_users-permissions_advanced.
type Advanced struct {
	UniqueEmail                  bool    `json:"unique_email"`
	AllowRegister                bool    `json:"allow_register"`
	EmailConfirmation            bool    `json:"email_confirmation"`
	EmailResetPassword           *string `json:"email_reset_password"`
	EmailConfirmationRedirection *string `json:"email_confirmation_redirection"`
	DefaultRole                  string  `json:"default_role"`
}

const advancedKey = "plugin_users-permissions_advanced"

func defaultAdvanced() Advanced {
	return Advanced{UniqueEmail: true, AllowRegister: true, DefaultRole: RoleAuthenticated}
}

// Advanced returns the advanced settings, read at most once per permTTL.
func (s *Service) Advanced(ctx context.Context) (Advanced, error) {
	now := s.now()
	s.mu.Lock()
	c := s.advanced
	s.mu.Unlock()
	if !c.at.IsZero() && now.Sub(c.at) < permTTL {
		return c.v, nil
	}
	v, _, err := readAdvanced(ctx, s.DB)
	if err != nil {
		return v, err
	}
	s.mu.Lock()
	s.advanced = cachedAdvanced{v: v, at: now}
	s.mu.Unlock()
	return v, nil
}

func readAdvanced(ctx context.Context, db *database.DB) (Advanced, bool, error) {
	v := defaultAdvanced()
	var raw sql.NullString
	err := get(ctx, db, &raw, sqlgen.StoreGet(db.Dialect, advancedKey))
	if errors.Is(err, sql.ErrNoRows) {
		return v, false, nil
	}
	if err != nil {
		return v, false, fmt.Errorf("read users-permissions settings: %w", err)
	}
	if raw.Valid {
		if err := json.Unmarshal([]byte(raw.String), &v); err != nil {
			return defaultAdvanced(), true, fmt.Errorf("users-permissions settings in the core store: %w", err)
		}
	}
	return v, true, nil
}

// EnsureAdvanced writes the default advanced settings when the core store has none, then
// config/plugins.json's "advanced" keys over them.
func EnsureAdvanced(ctx context.Context, db *database.DB, override map[string]json.RawMessage) error {
	v, found, err := readAdvanced(ctx, db)
	if err != nil {
		return err
	}
	if found && len(override) == 0 {
		return nil
	}
	if len(override) > 0 {
		b, _ := json.Marshal(override)
		if err := json.Unmarshal(b, &v); err != nil {
			return fmt.Errorf("config/plugins.json users-permissions advanced: %w", err)
		}
	}
	val, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return writeStore(ctx, db, advancedKey, string(val), found)
}

// ---- rate limiting ----

// RateLimit counts a request to an auth route. key is Strapi's: the body's e-mail
// (lower-cased; "unknownIdentifier" without one), the lower-cased path and the client IP.
// ok is false when the limit is off.
func (s *Service) RateLimit(email, path, ip string) (RateInfo, bool) {
	if !s.Config.RateLimit.Enabled || s.Config.RateLimit.Max <= 0 {
		return RateInfo{}, false
	}
	if email == "" {
		email = "unknownIdentifier"
	}
	return s.limiter.Hit(strings.ToLower(email)+":"+strings.ToLower(path)+":"+ip, s.now()), true
}

// strings is the validator of the plugin's string rules, built on first use.
func (s *Service) strings() *write.Strings {
	s.stringsOnce.Do(func() { s.stringRules = newRules() })
	return s.stringRules
}

// checker starts a collection of field errors checked with the plugin's string rules.
func (s *Service) checker() checker { return checker{rules: s.strings()} }

// projectUserCaller is the plugin's authentication of a JWT's user with the project's
// fetchAuthenticatedUser: no user is "Invalid credentials", and so is an unconfirmed one (with
// e-mail confirmation on) or a blocked one, each as JavaScript tells truth; the role whose
// permissions apply is the answer's role.id. A method that throws, or an answer without a
// role, fails the plugin's strategy (it catches the error) and the request is refused as
// one without valid credentials.
func (s *Service) projectUserCaller(ctx context.Context, id int64) (*ir.Caller, error) {
	b, err := s.FetchUser(ctx, id)
	if err != nil {
		if s.Log != nil {
			s.Log.Warn("the project's fetchAuthenticatedUser failed", "user", id, "error", err)
		}
		return nil, apierror.Unauthorized("Missing or invalid credentials")
	}
	if !truthy(b) {
		return nil, apierror.Unauthorized("Invalid credentials")
	}
	var u map[string]json.RawMessage
	if json.Unmarshal(b, &u) != nil {
		// A string or a number: it has no role (a TypeError in the strategy).
		return nil, apierror.Unauthorized("Missing or invalid credentials")
	}
	adv, err := s.Advanced(ctx)
	if err != nil {
		return nil, err
	}
	if (adv.EmailConfirmation && !truthy(u["confirmed"])) || truthy(u["blocked"]) {
		return nil, apierror.Unauthorized("Invalid credentials")
	}
	var role struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(u["role"], &role) != nil {
		return nil, apierror.Unauthorized("Missing or invalid credentials")
	}
	rid, ok := jsonID(role.ID)
	if !ok {
		return nil, apierror.Unauthorized("Missing or invalid credentials")
	}
	uid := id
	if n, ok := jsonID(u["id"]); ok {
		uid = n
	}
	actions, err := s.roleActions(ctx, rid)
	if err != nil {
		return nil, err
	}
	return &ir.Caller{Kind: ir.UserCaller, UserID: uid, RoleID: rid, Actions: actions, User: b}, nil
}

// jsonID is an id given as a JSON number or a numeric string.
func jsonID(raw json.RawMessage) (int64, bool) {
	var n int64
	if json.Unmarshal(raw, &n) == nil {
		return n, true
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if json.Unmarshal([]byte(s), &n) == nil {
			return n, true
		}
	}
	return 0, false
}
