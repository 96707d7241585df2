package ir

import "strings"

// CallerKind says how a request authenticated.
type CallerKind int

const (
	PublicCaller CallerKind = iota // no credentials: the public role
	TokenCaller                    // an API token
	UserCaller                     // a users-permissions JWT
	// SystemCaller is the project's own code (strapi.entityService, strapi.db.query): no
	// permission applies to it, as none applies to Strapi's services.
	SystemCaller
)

// System is the caller of the project's own code.
var System = &Caller{Kind: SystemCaller}

// API token types, as Strapi names them.
const (
	TokenReadOnly   = "read-only"
	TokenFullAccess = "full-access"
	TokenCustom     = "custom"
)

// Caller is who sends a request and what it may do; the planner checks every model a query
// reaches against it. Actions are named as Strapi names them: api::article.article.find,
// plugin::users-permissions.user.me, ...
type Caller struct {
	Kind      CallerKind
	TokenType string          // APIToken: read-only, full-access, custom
	Actions   map[string]bool // public role, user role or custom token permissions
	UserID    int64           // User: the authenticated user
	RoleID    int64           // Public and User: the role whose permissions apply
	TokenID   int64           // APIToken: the token's id
	// User is the authenticated user as the project's own fetchAuthenticatedUser answered it
	// (JSON; nil when Quarry's plugin fetched it): what the project's code sees as
	// ctx.state.user.
	User []byte
	// granted is one action allowed besides the others (Granting).
	granted string
}

// Can reports whether the caller may run an action (Strapi's verify with the route's scope).
func (c *Caller) Can(action string) bool {
	if c == nil {
		return false
	}
	if c.Kind == SystemCaller || (c.granted != "" && c.granted == action) {
		return true
	}
	if c.Kind == TokenCaller {
		switch c.TokenType {
		case TokenFullAccess:
			return true
		case TokenReadOnly:
			return strings.HasSuffix(action, "find") || strings.HasSuffix(action, "findOne")
		}
	}
	return c.Actions[action]
}

// CanFind reports whether the caller may read entries of a content type; the planner asks
// it for every relation a request populates, filters or sorts through.
func (c *Caller) CanFind(uid string) bool {
	if uid == "plugin::upload.file" {
		return true // media is never restricted
	}
	return c.Can(uid + ".find")
}

// IsUser reports whether the caller is a logged-in user (a valid JWT).
func (c *Caller) IsUser() bool { return c != nil && c.Kind == UserCaller && c.UserID > 0 }

// Granting is the caller with one more action granted: what a transport hands the write
// path for an action it authorized by rules of its own (a route's `auth: false`, a GraphQL
// resolver's configuration), so that the write's own permission check passes.
func (c *Caller) Granting(action string) *Caller {
	if c.Can(action) {
		return c
	}
	g := Caller{Kind: PublicCaller}
	if c != nil {
		g = *c
	}
	g.granted = action
	return &g
}
