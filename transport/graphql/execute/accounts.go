package execute

import (
	"context"
	"strconv"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/parser/gqlschema"
	pg "github.com/quarrycms/quarry/parser/graphql"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/transport/plugins/userspermissions"
)

// Accounts is the users-permissions plugin's service (userspermissions.Service): the GraphQL account
// mutations, me, and user and role administration run through it, with the same rules,
// messages and rate limits as the REST routes.
type Accounts interface {
	Login(ctx context.Context, body map[string]any) (userspermissions.Session, error)
	Register(ctx context.Context, body map[string]any) (userspermissions.Session, error)
	ForgotPassword(ctx context.Context, body map[string]any) error
	ResetPassword(ctx context.Context, body map[string]any) (userspermissions.Session, error)
	ChangePassword(ctx context.Context, who *ir.Caller, body map[string]any) (userspermissions.Session, error)
	EmailConfirmation(ctx context.Context, query map[string]any) (userspermissions.Session, string, error)
	Me(ctx context.Context, who *ir.Caller) (*userspermissions.Account, *userspermissions.Role, error)
	CreateUser(ctx context.Context, body map[string]any) (int64, error)
	UpdateUser(ctx context.Context, id int64, body map[string]any) error
	DeleteUser(ctx context.Context, id int64) error
	CreateRole(ctx context.Context, body map[string]any) error
	UpdateRole(ctx context.Context, id int64, body map[string]any) error
	RemoveRole(ctx context.Context, id int64) error
}

// account runs a users-permissions resolver.
func (x *execution) account(ctx context.Context, rf *pg.RootField, p *path) (any, error) {
	a := x.h.accounts
	if a == nil {
		return nil, notImplemented()
	}
	args := argMap(rf.Args)
	input, _ := args["input"].(map[string]any)
	switch rf.Action {
	case gqlschema.ActionMe:
		if !x.caller.IsUser() {
			// Strapi's me resolver throws a plain error for callers that are no user (an
			// API token); the public role is refused earlier by the scope check.
			return nil, &resolverError{msg: "Authentication requested"}
		}
		acc, role, err := a.Me(ctx, x.caller)
		if err != nil || acc == nil {
			return nil, err
		}
		return meValue(acc, role), nil
	case gqlschema.ActionLogin:
		s, err := a.Login(ctx, map[string]any{"identifier": input["identifier"], "password": input["password"]})
		if err != nil {
			return nil, err
		}
		return x.loginPayload(ctx, s)
	case gqlschema.ActionRegister:
		s, err := a.Register(ctx, input)
		if err != nil {
			return nil, err
		}
		// Unlike login, registration answers with the user's role populated.
		return x.sessionPayload(ctx, s, true)
	case gqlschema.ActionForgotPassword:
		if err := a.ForgotPassword(ctx, map[string]any{"email": args["email"]}); err != nil {
			return nil, err
		}
		return map[string]any{"ok": true}, nil
	case gqlschema.ActionResetPassword:
		s, err := a.ResetPassword(ctx, args)
		if err != nil {
			return nil, err
		}
		return x.loginPayload(ctx, s)
	case gqlschema.ActionChangePassword:
		s, err := a.ChangePassword(ctx, x.caller, args)
		if err != nil {
			return nil, err
		}
		return x.loginPayload(ctx, s)
	case gqlschema.ActionEmailConfirmation:
		// REST redirects the browser; GraphQL answers the session.
		s, _, err := a.EmailConfirmation(ctx, map[string]any{"confirmation": args["confirmation"]})
		if err != nil {
			return nil, err
		}
		p, err := x.loginPayload(ctx, s)
		if err != nil {
			return nil, err
		}
		// Strapi answers the user as it read it before confirming it.
		if pm, ok := p.(map[string]any); ok {
			if u, ok := pm["user"].(map[string]any); ok {
				u["confirmed"] = false
			}
		}
		return p, nil
	case gqlschema.ActionCreateRole, gqlschema.ActionUpdateRole, gqlschema.ActionDeleteRole:
		var err error
		switch rf.Action {
		case gqlschema.ActionCreateRole:
			err = a.CreateRole(ctx, rf.Data)
		case gqlschema.ActionUpdateRole:
			err = a.UpdateRole(ctx, idOf(rf.ID), rf.Data)
		default:
			err = a.RemoveRole(ctx, idOf(rf.ID))
		}
		if err != nil {
			return nil, err
		}
		return map[string]any{"ok": true}, nil
	case gqlschema.ActionCreateUser, gqlschema.ActionUpdateUser:
		id := idOf(rf.ID)
		var err error
		if rf.Action == gqlschema.ActionCreateUser {
			id, err = a.CreateUser(ctx, rf.Data)
		} else {
			err = a.UpdateUser(ctx, id, rf.Data)
		}
		if err != nil {
			return nil, err
		}
		q := *rf.Query
		q.ID = strconv.FormatInt(id, 10)
		pl, e, err := x.readOne(ctx, x.h.db, &q)
		if err != nil {
			return nil, err
		}
		return result(x.entityResponse(rf.Object, stepOf(pl), e, p)), nil
	case gqlschema.ActionDeleteUser:
		id := idOf(rf.ID)
		q := *rf.Query
		q.Populate = nil // as for every delete, relations come back empty (see mutation)
		x.emptyPopulate = true
		defer func() { x.emptyPopulate = false }()
		pl, e, err := x.readOne(ctx, x.h.db, &q)
		if err != nil {
			return nil, err
		}
		if e == nil {
			return nil, apierror.NotFound()
		}
		if err := a.DeleteUser(ctx, id); err != nil {
			return nil, err
		}
		return result(x.entityResponse(rf.Object, stepOf(pl), e, p)), nil
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

// loginPayload is {jwt, user} as Strapi's plugin answers: the user without its role (the
// plugin does not populate it there).
func (x *execution) loginPayload(ctx context.Context, s userspermissions.Session) (any, error) {
	return x.sessionPayload(ctx, s, false)
}

func (x *execution) sessionPayload(ctx context.Context, s userspermissions.Session, withRole bool) (any, error) {
	acc, role, err := x.h.accounts.Me(ctx, &ir.Caller{Kind: ir.UserCaller, UserID: s.UserID})
	if err != nil {
		return nil, err
	}
	if !withRole {
		role = nil
	}
	var jwt any
	if s.JWT != "" {
		jwt = s.JWT
	}
	var user any
	if acc != nil {
		user = meValue(acc, role)
	}
	return map[string]any{"jwt": jwt, "user": user}, nil
}

// meValue is a UsersPermissionsMe.
func meValue(acc *userspermissions.Account, role *userspermissions.Role) map[string]any {
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
