package userspermissions

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/parser/gqlschema"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/transport/graphql/execute"
	"github.com/quarrycms/quarry/transport/plugins"
)

// GraphQL is the plugin's part of the GraphQL executor: the resolvers of me, login,
// register, the password and e-mail confirmation mutations and the user and role
// administration, with the same rules, messages and rate limits as the REST routes.
func (s *Service) GraphQL() execute.Plugin {
	r := map[string]execute.Resolver{}
	for _, a := range []string{gqlschema.ActionMe, gqlschema.ActionLogin, gqlschema.ActionRegister,
		gqlschema.ActionForgotPassword, gqlschema.ActionResetPassword, gqlschema.ActionChangePassword,
		gqlschema.ActionEmailConfirmation, gqlschema.ActionCreateRole, gqlschema.ActionUpdateRole,
		gqlschema.ActionDeleteRole, gqlschema.ActionCreateUser, gqlschema.ActionUpdateUser, gqlschema.ActionDeleteUser} {
		r[a] = s.resolve
	}
	return execute.Plugin{Resolvers: r}
}

// resolve runs one of the plugin's resolvers.
func (s *Service) resolve(ctx context.Context, c *execute.Call) (any, error) {
	rf := c.Field
	input, _ := c.Args["input"].(map[string]any)
	switch rf.Action {
	case gqlschema.ActionMe:
		if !c.Caller.IsUser() {
			// Strapi's me resolver throws a plain error for callers that are no user (an
			// API token); the public role is refused earlier by the scope check.
			return nil, execute.ResolverError("Authentication requested")
		}
		acc, role, err := s.Me(ctx, c.Caller)
		if err != nil || acc == nil {
			return nil, err
		}
		return meValue(acc, role), nil
	case gqlschema.ActionLogin, gqlschema.ActionRegister:
		action := map[string]string{gqlschema.ActionLogin: "auth.callback", gqlschema.ActionRegister: "auth.register"}[rf.Action]
		if s.ProjectAuth != nil {
			status, out, ok, err := s.ProjectAuth(ctx, action, input)
			if err != nil {
				return nil, err
			}
			if ok {
				return projectAuthPayload(status, out)
			}
		}
	}
	switch rf.Action {
	case gqlschema.ActionLogin:
		// The REST route's limit and key (Strapi keys login by body.email, which a login
		// has not): each login of a batch counts.
		if err := s.graphQLRateLimit(ctx, input["email"], "/api/auth/local"); err != nil {
			return nil, err
		}
		sess, err := s.Login(ctx, map[string]any{"identifier": input["identifier"], "password": input["password"]})
		if err != nil {
			return nil, err
		}
		return s.sessionPayload(ctx, sess, false)
	case gqlschema.ActionRegister:
		if err := s.graphQLRateLimit(ctx, input["email"], "/api/auth/local/register"); err != nil {
			return nil, err
		}
		sess, err := s.Register(ctx, input)
		if err != nil {
			return nil, err
		}
		// Unlike login, registration answers with the user's role populated.
		return s.sessionPayload(ctx, sess, true)
	case gqlschema.ActionForgotPassword:
		if err := s.ForgotPassword(ctx, map[string]any{"email": c.Args["email"]}); err != nil {
			return nil, err
		}
		return map[string]any{"ok": true}, nil
	case gqlschema.ActionResetPassword:
		sess, err := s.ResetPassword(ctx, c.Args)
		if err != nil {
			return nil, err
		}
		return s.sessionPayload(ctx, sess, false)
	case gqlschema.ActionChangePassword:
		sess, err := s.ChangePassword(ctx, c.Caller, c.Args)
		if err != nil {
			return nil, err
		}
		return s.sessionPayload(ctx, sess, false)
	case gqlschema.ActionEmailConfirmation:
		// REST redirects the browser; GraphQL answers the session.
		sess, _, err := s.EmailConfirmation(ctx, map[string]any{"confirmation": c.Args["confirmation"]})
		if err != nil {
			return nil, err
		}
		p, err := s.sessionPayload(ctx, sess, false)
		if err != nil {
			return nil, err
		}
		// Strapi answers the user as it read it before confirming it.
		if u, ok := p["user"].(map[string]any); ok {
			u["confirmed"] = false
		}
		return p, nil
	case gqlschema.ActionCreateRole, gqlschema.ActionUpdateRole, gqlschema.ActionDeleteRole:
		var err error
		switch rf.Action {
		case gqlschema.ActionCreateRole:
			err = s.CreateRole(ctx, rf.Data)
		case gqlschema.ActionUpdateRole:
			err = s.UpdateRole(ctx, idOf(rf.ID), rf.Data)
		default:
			err = s.RemoveRole(ctx, idOf(rf.ID))
		}
		if err != nil {
			return nil, err
		}
		return map[string]any{"ok": true}, nil
	case gqlschema.ActionCreateUser, gqlschema.ActionUpdateUser:
		id := idOf(rf.ID)
		var err error
		if rf.Action == gqlschema.ActionCreateUser {
			id, err = s.CreateUser(ctx, rf.Data)
		} else {
			err = s.UpdateUser(ctx, id, rf.Data)
		}
		if err != nil {
			return nil, err
		}
		return c.Entity(ctx, id)
	case gqlschema.ActionDeleteUser:
		id := idOf(rf.ID)
		rf.Query.Populate = nil // as for every delete, relations come back empty
		gone, err := c.BeforeRemoval(ctx, id)
		if err != nil {
			return nil, err
		}
		if gone == nil {
			return nil, apierror.NotFound()
		}
		if err := s.DeleteUser(ctx, id); err != nil {
			return nil, err
		}
		return gone.Answer(), nil
	}
	return nil, apierror.NotFound()
}

// idOf parses an id argument; an invalid one becomes 0, which no entry has.
func idOf(s string) int64 {
	id, err := planner.ParseID(s)
	if err != nil {
		return 0
	}
	return id
}

// sessionPayload is {jwt, user} as Strapi's plugin answers: the user with its role only
// after a registration (the plugin does not populate it elsewhere).
func (s *Service) sessionPayload(ctx context.Context, sess Session, withRole bool) (map[string]any, error) {
	acc, role, err := s.Me(ctx, &ir.Caller{Kind: ir.UserCaller, UserID: sess.UserID})
	if err != nil {
		return nil, err
	}
	if !withRole {
		role = nil
	}
	var jwt any
	if sess.JWT != "" {
		jwt = sess.JWT
	}
	var user any
	if acc != nil {
		user = meValue(acc, role)
	}
	return map[string]any{"jwt": jwt, "user": user}, nil
}

// meValue is a UsersPermissionsMe.
func meValue(acc *Account, role *Role) map[string]any {
	m := map[string]any{"id": strconv.FormatInt(acc.ID, 10), "username": acc.Username, "email": acc.Email,
		"confirmed": acc.Confirmed, "blocked": acc.Blocked, "role": nil}
	if role != nil {
		var desc, typ any
		if role.Description != "" {
			desc = role.Description
		}
		if role.Type != "" {
			typ = role.Type
		}
		m["role"] = map[string]any{"id": strconv.FormatInt(role.ID, 10), "name": role.Name, "description": desc, "type": typ}
	}
	return m
}

// graphQLRateLimit counts a GraphQL login or registration against the rate limit of the REST
// route at path, so one client's attempts are counted together whichever way they come.
func (s *Service) graphQLRateLimit(ctx context.Context, email any, path string) error {
	e := ""
	if email != nil {
		if str, ok := email.(string); ok {
			e = str
		} else {
			e = fmt.Sprint(email)
		}
	}
	if info, on := s.RateLimit(e, path, plugins.ClientIPFrom(ctx)); on && !info.Allowed {
		return &apierror.Error{Status: 429, Name: "RateLimitError", Message: "Too many requests, please try again later."}
	}
	return nil
}

// projectAuthPayload is the login or register payload Strapi's resolvers make of the answer
// of the auth controller the project replaced: an error answer is the resolver's error; else
// { user: body.user || body, jwt: body.jwt }.
func projectAuthPayload(status int, out []byte) (any, error) {
	var body map[string]any
	if err := json.Unmarshal(out, &body); err != nil {
		return nil, &apierror.Error{Status: 500, Name: "InternalServerError", Message: "Internal Server Error"}
	}
	if status >= 400 {
		// The error as the controller's answer has it, its details' keys in their order.
		var env struct {
			Error struct {
				Name    string          `json:"name"`
				Message string          `json:"message"`
				Details json.RawMessage `json:"details"`
			} `json:"error"`
		}
		ae := &apierror.Error{Status: status, Name: "ApplicationError", Message: "Bad Request"}
		if json.Unmarshal(out, &env) == nil && env.Error.Name != "" {
			ae.Name, ae.Message = env.Error.Name, env.Error.Message
			if len(env.Error.Details) > 0 {
				ae.Details = apierror.RawDetails(env.Error.Details)
			}
		}
		return nil, ae
	}
	user := body["user"]
	if user == nil {
		user = body
	}
	if u, ok := user.(map[string]any); ok {
		if id, ok := u["id"].(float64); ok {
			u["id"] = strconv.FormatFloat(id, 'f', -1, 64)
		}
	}
	return map[string]any{"jwt": body["jwt"], "user": user}, nil
}
