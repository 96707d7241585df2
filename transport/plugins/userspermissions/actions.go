package userspermissions

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/quarrycms/quarry/schemas"
)

// Action names of the users-permissions plugin's own routes.
const (
	ActLogin                 = "plugin::users-permissions.auth.callback"
	ActConnect               = "plugin::users-permissions.auth.connect"
	ActRegister              = "plugin::users-permissions.auth.register"
	ActForgotPassword        = "plugin::users-permissions.auth.forgotPassword"
	ActResetPassword         = "plugin::users-permissions.auth.resetPassword"
	ActChangePassword        = "plugin::users-permissions.auth.changePassword"
	ActEmailConfirmation     = "plugin::users-permissions.auth.emailConfirmation"
	ActSendEmailConfirmation = "plugin::users-permissions.auth.sendEmailConfirmation"
	ActUserFind              = "plugin::users-permissions.user.find"
	ActUserFindOne           = "plugin::users-permissions.user.findOne"
	ActUserMe                = "plugin::users-permissions.user.me"
	ActUserCount             = "plugin::users-permissions.user.count"
	ActUserCreate            = "plugin::users-permissions.user.create"
	ActUserUpdate            = "plugin::users-permissions.user.update"
	ActUserDestroy           = "plugin::users-permissions.user.destroy"
	ActRoleFind              = "plugin::users-permissions.role.find"
	ActRoleFindOne           = "plugin::users-permissions.role.findOne"
	ActRoleCreate            = "plugin::users-permissions.role.createRole"
	ActRoleUpdate            = "plugin::users-permissions.role.updateRole"
	ActRoleDelete            = "plugin::users-permissions.role.deleteRole"
	ActGetPermissions        = "plugin::users-permissions.permissions.getPermissions"
)

// pluginActions are the content-API actions of the plugins Quarry serves (or will serve),
// each plugin's controllers and actions in the order Strapi 4.26.2 lists them in a role's
// permissions (its controllers' own key order).
var pluginActions = []string{
	"plugin::content-type-builder.components.getComponents", "plugin::content-type-builder.components.getComponent",
	"plugin::content-type-builder.content-types.getContentTypes", "plugin::content-type-builder.content-types.getContentType",
	"plugin::email.email.send",
	"plugin::upload.content-api.find", "plugin::upload.content-api.findOne",
	"plugin::upload.content-api.destroy", "plugin::upload.content-api.upload",
	ActLogin, ActChangePassword, ActResetPassword, ActConnect, ActForgotPassword, ActRegister,
	ActEmailConfirmation, ActSendEmailConfirmation,
	ActUserCreate, ActUserUpdate, ActUserFind, ActUserFindOne, ActUserCount, ActUserDestroy, ActUserMe,
	ActRoleCreate, ActRoleFindOne, ActRoleFind, ActRoleUpdate, ActRoleDelete,
	ActGetPermissions,
	"plugin::i18n.locales.listLocales",
}

// Default permissions Strapi grants on first start (only when no permission exists yet).
var (
	defaultPublicActions = []string{ActLogin, ActConnect, ActForgotPassword, ActResetPassword, ActRegister,
		ActEmailConfirmation, ActSendEmailConfirmation}
	defaultAuthenticatedActions = []string{ActUserMe, ActChangePassword}
)

// Actions lists every action a role or custom token can be granted, sorted.
func Actions(s *schemas.Schema) []string {
	var out []string
	for _, m := range s.ContentTypes {
		if m.IsPlugin() {
			continue
		}
		names := []string{"find", "findOne", "create", "update", "delete"}
		if m.Kind == schemas.SingleType {
			names = []string{"find", "update", "delete"}
		}
		if m.Localized {
			names = append(names, "createLocalization")
		}
		for _, n := range names {
			out = append(out, m.UID+"."+n)
		}
	}
	out = append(out, pluginActions...)
	for _, a := range s.ControllerActions {
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	sort.Strings(out)
	return out
}

// ExpandActions checks actions against the known ones; a trailing * matches every action
// with that prefix ("api::article.article.*", "plugin::users-permissions.user.*").
func ExpandActions(s *schemas.Schema, in []string) ([]string, error) {
	all := Actions(s)
	known := make(map[string]bool, len(all))
	for _, a := range all {
		known[a] = true
	}
	var out []string
	seen := map[string]bool{}
	add := func(a string) {
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	for _, raw := range in {
		a := strings.TrimSpace(raw)
		if a == "" {
			continue
		}
		if strings.HasSuffix(a, "*") {
			prefix := strings.TrimSuffix(a, "*")
			n := 0
			for _, k := range all {
				if strings.HasPrefix(k, prefix) {
					add(k)
					n++
				}
			}
			if n == 0 {
				return nil, fmt.Errorf("%q matches no action", a)
			}
			continue
		}
		if !known[a] {
			return nil, fmt.Errorf("unknown action %q (actions look like api::article.article.find; `quarry permissions actions` lists them)", a)
		}
		add(a)
	}
	return out, nil
}
