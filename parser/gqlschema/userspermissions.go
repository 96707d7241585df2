package gqlschema

import (
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/quarrycms/quarry/schemas"
)

// Actions of the users-permissions plugin's own resolvers (not Shadow CRUD): the transport
// serves them through the accounts service.
const (
	ActionMe                = "me"
	ActionLogin             = "login"
	ActionRegister          = "register"
	ActionForgotPassword    = "forgotPassword"
	ActionResetPassword     = "resetPassword"
	ActionChangePassword    = "changePassword"
	ActionEmailConfirmation = "emailConfirmation"
	ActionCreateUser        = "createUser"
	ActionUpdateUser        = "updateUser"
	ActionDeleteUser        = "deleteUser"
	ActionCreateRole        = "createRole"
	ActionUpdateRole        = "updateRole"
	ActionDeleteRole        = "deleteRole"
)

// AccountScopes are the permissions the users-permissions resolvers require, as the plugin
// registers them in resolversConfig; "" means auth: false.
var AccountScopes = map[string]string{
	ActionMe:                "plugin::users-permissions.user.me",
	ActionLogin:             "",
	ActionRegister:          "",
	ActionForgotPassword:    "",
	ActionResetPassword:     "",
	ActionEmailConfirmation: "",
	ActionChangePassword:    "plugin::users-permissions.auth.changePassword",
	ActionCreateUser:        "plugin::users-permissions.user.create",
	ActionUpdateUser:        "plugin::users-permissions.user.update",
	ActionDeleteUser:        "plugin::users-permissions.user.destroy",
	ActionCreateRole:        "plugin::users-permissions.role.createRole",
	ActionUpdateRole:        "plugin::users-permissions.role.updateRole",
	ActionDeleteRole:        "plugin::users-permissions.role.deleteRole",
}

// usersPermissionsModels lists the plugin's types that get Shadow CRUD types. Like Strapi's
// plugin, permissions get types only, and users and roles get queries but the plugin's own
// mutations instead of Shadow CRUD's.
func (g *gen) usersPermissionsModels() []*schemas.Model {
	var out []*schemas.Model
	for _, uid := range []string{schemas.PermissionUID, schemas.RoleUID, schemas.UserUID} {
		if m := g.cs.Models[uid]; m != nil && g.enabled(m) {
			out = append(out, m)
		}
	}
	return out
}

// pluginActionEnabled reports whether Shadow CRUD generates an action of a plugin type.
func pluginActionEnabled(m *schemas.Model, action string) bool {
	switch m.UID {
	case schemas.PermissionUID:
		return false
	case schemas.RoleUID, schemas.UserUID, schemas.LocaleUID:
		// Users and roles have the plugin's own mutations; i18n disables the locales'.
		return action == ActionFind || action == ActionFindOne
	}
	return true
}

// usersPermissions adds the plugin's own types, the me query and the account mutations.
func (g *gen) usersPermissions() {
	user, role := g.cs.Models[schemas.UserUID], g.cs.Models[schemas.RoleUID]
	if user == nil || g.out.models[user] == nil {
		return
	}
	g.defs = append(g.defs,
		&def{kind: ast.Object, name: "UsersPermissionsMe", fields: []fdef{{name: "id", typ: "ID!"}, {name: "username", typ: "String!"},
			{name: "email", typ: "String"}, {name: "confirmed", typ: "Boolean"}, {name: "blocked", typ: "Boolean"}, {name: "role", typ: "UsersPermissionsMeRole"}}},
		&def{kind: ast.Object, name: "UsersPermissionsMeRole", fields: []fdef{{name: "id", typ: "ID!"}, {name: "name", typ: "String!"},
			{name: "description", typ: "String"}, {name: "type", typ: "String"}}},
		&def{kind: ast.InputObject, name: "UsersPermissionsRegisterInput", fields: []fdef{{name: "username", typ: "String!"},
			{name: "email", typ: "String!"}, {name: "password", typ: "String!"}}},
		&def{kind: ast.InputObject, name: "UsersPermissionsLoginInput", fields: []fdef{{name: "identifier", typ: "String!"},
			{name: "password", typ: "String!"}, {name: "provider", typ: `String! = "local"`}}},
		&def{kind: ast.Object, name: "UsersPermissionsPasswordPayload", fields: []fdef{{name: "ok", typ: "Boolean!"}}},
		&def{kind: ast.Object, name: "UsersPermissionsLoginPayload", fields: []fdef{{name: "jwt", typ: "String"}, {name: "user", typ: "UsersPermissionsMe!"}}},
		&def{kind: ast.Object, name: "UsersPermissionsCreateRolePayload", fields: []fdef{{name: "ok", typ: "Boolean!"}}},
		&def{kind: ast.Object, name: "UsersPermissionsUpdateRolePayload", fields: []fdef{{name: "ok", typ: "Boolean!"}}},
		&def{kind: ast.Object, name: "UsersPermissionsDeleteRolePayload", fields: []fdef{{name: "ok", typ: "Boolean!"}}},
	)
	addQ := func(f fdef, action string) {
		g.query = append(g.query, f)
		g.out.roots["query."+f.name] = &Root{Model: user, Action: action}
	}
	addM := func(m *schemas.Model, f fdef, action string) {
		t := g.ext.lookup(m.UID)
		if t != nil && t.AreMutationsDisabled() {
			return
		}
		g.mut = append(g.mut, f)
		g.out.roots["mutation."+f.name] = &Root{Model: m, Action: action}
	}
	if role != nil && g.out.models[role] != nil {
		addM(role, fdef{name: "createUsersPermissionsRole", desc: "Create a new role", typ: "UsersPermissionsCreateRolePayload",
			args: []adef{{name: "data", typ: "UsersPermissionsRoleInput!"}}}, ActionCreateRole)
		addM(role, fdef{name: "updateUsersPermissionsRole", desc: "Update an existing role", typ: "UsersPermissionsUpdateRolePayload",
			args: []adef{{name: "id", typ: "ID!"}, {name: "data", typ: "UsersPermissionsRoleInput!"}}}, ActionUpdateRole)
		addM(role, fdef{name: "deleteUsersPermissionsRole", desc: "Delete an existing role", typ: "UsersPermissionsDeleteRolePayload",
			args: []adef{{name: "id", typ: "ID!"}}}, ActionDeleteRole)
	}
	addM(user, fdef{name: "createUsersPermissionsUser", desc: "Create a new user", typ: "UsersPermissionsUserEntityResponse!",
		args: []adef{{name: "data", typ: "UsersPermissionsUserInput!"}}}, ActionCreateUser)
	addM(user, fdef{name: "updateUsersPermissionsUser", desc: "Update an existing user", typ: "UsersPermissionsUserEntityResponse!",
		args: []adef{{name: "id", typ: "ID!"}, {name: "data", typ: "UsersPermissionsUserInput!"}}}, ActionUpdateUser)
	addM(user, fdef{name: "deleteUsersPermissionsUser", desc: "Delete an existing user", typ: "UsersPermissionsUserEntityResponse!",
		args: []adef{{name: "id", typ: "ID!"}}}, ActionDeleteUser)
	// The account mutations belong to the plugin, not to the user type: they stay even when
	// the user type's mutations are disabled.
	account := func(f fdef, action string) {
		g.mut = append(g.mut, f)
		g.out.roots["mutation."+f.name] = &Root{Model: user, Action: action}
	}
	account(fdef{name: "login", typ: "UsersPermissionsLoginPayload!", args: []adef{{name: "input", typ: "UsersPermissionsLoginInput!"}}}, ActionLogin)
	account(fdef{name: "register", desc: "Register a user", typ: "UsersPermissionsLoginPayload!",
		args: []adef{{name: "input", typ: "UsersPermissionsRegisterInput!"}}}, ActionRegister)
	account(fdef{name: "forgotPassword", desc: "Request a reset password token", typ: "UsersPermissionsPasswordPayload",
		args: []adef{{name: "email", typ: "String!"}}}, ActionForgotPassword)
	account(fdef{name: "resetPassword", desc: "Reset user password. Confirm with a code (resetToken from forgotPassword)", typ: "UsersPermissionsLoginPayload",
		args: []adef{{name: "password", typ: "String!"}, {name: "passwordConfirmation", typ: "String!"}, {name: "code", typ: "String!"}}}, ActionResetPassword)
	account(fdef{name: "changePassword", desc: "Change user password. Confirm with the current password.", typ: "UsersPermissionsLoginPayload",
		args: []adef{{name: "currentPassword", typ: "String!"}, {name: "password", typ: "String!"}, {name: "passwordConfirmation", typ: "String!"}}}, ActionChangePassword)
	account(fdef{name: "emailConfirmation", desc: "Confirm an email users email address", typ: "UsersPermissionsLoginPayload",
		args: []adef{{name: "confirmation", typ: "String!"}}}, ActionEmailConfirmation)
	g.meQuery = func() { addQ(fdef{name: "me", typ: "UsersPermissionsMe"}, ActionMe) }
}
