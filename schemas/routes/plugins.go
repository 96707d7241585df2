package routes

import "strings"

// PluginRoute is one content-API route of a plugin Quarry serves, as Strapi 4.26 declares it
// in the plugin's server/routes/content-api: what strapi.plugin(name).routes['content-api']
// shows to a project's register() and what a plugin extension receives.
type PluginRoute struct {
	Plugin  string
	Method  string
	Path    string // as declared, below the prefix
	Handler string // controller.action
	// Prefix is config.prefix when the route declares one ("" puts it right under /api);
	// nil puts it under /api/<plugin>.
	Prefix *string
	// Middlewares are the route's own config.middlewares in Strapi.
	Middlewares []string
	// AddedPolicies and AddedMiddlewares are the entries the project's register(),
	// bootstrap() or a plugin extension added to the route's config (strings or
	// {name, config} objects), which Quarry's runtime runs before the plugin's own action.
	AddedPolicies    []any
	AddedMiddlewares []any
	// Live is set when src/index's register() added entries Quarry can only take from the
	// running code (inline functions): the runtime runs register() in its sandboxes and
	// reads the route's config there.
	Live bool
	// Extension is the plugin extension (src/extensions/<plugin>/strapi-server.*) that
	// replaces the route's action, which Quarry's runtime then runs ("" when none).
	Extension string
}

// URL is the route's path as served: /api, the prefix (or /<plugin>), the path.
func (r PluginRoute) URL() string {
	prefix := "/" + r.Plugin
	if r.Prefix != nil {
		prefix = *r.Prefix
	}
	if r.Path == "/" {
		return "/api" + strings.TrimSuffix(prefix, "/")
	}
	return "/api" + strings.TrimSuffix(prefix, "/") + r.Path
}

// Config is the route's config object as Strapi declares it.
func (r PluginRoute) Config() map[string]any {
	c := map[string]any{}
	if r.Prefix != nil {
		c["prefix"] = *r.Prefix
	}
	if len(r.Middlewares) > 0 {
		mw := make([]any, len(r.Middlewares))
		for i, m := range r.Middlewares {
			mw[i] = m
		}
		c["middlewares"] = mw
	}
	return c
}

// Object is the route as the JavaScript of register() and plugin extensions sees it.
func (r PluginRoute) Object() map[string]any {
	return map[string]any{"method": r.Method, "path": r.Path, "handler": r.Handler, "config": r.Config()}
}

// PluginRoutes are the content-API routes of the plugins Quarry serves, in Strapi's order.
func PluginRoutes() []PluginRoute {
	none := ""
	rl := []string{"plugin::users-permissions.rateLimit"}
	up := func(method, path, handler string, prefix *string, mw []string) PluginRoute {
		return PluginRoute{Plugin: "users-permissions", Method: method, Path: path, Handler: handler, Prefix: prefix, Middlewares: mw}
	}
	return []PluginRoute{
		up("GET", "/connect/(.*)", "auth.connect", &none, rl),
		up("POST", "/auth/local", "auth.callback", &none, rl),
		up("POST", "/auth/local/register", "auth.register", &none, rl),
		up("GET", "/auth/:provider/callback", "auth.callback", &none, nil),
		up("POST", "/auth/forgot-password", "auth.forgotPassword", &none, rl),
		up("POST", "/auth/reset-password", "auth.resetPassword", &none, rl),
		up("GET", "/auth/email-confirmation", "auth.emailConfirmation", &none, nil),
		up("POST", "/auth/send-email-confirmation", "auth.sendEmailConfirmation", &none, nil),
		up("POST", "/auth/change-password", "auth.changePassword", &none, rl),
		up("GET", "/users/count", "user.count", &none, nil),
		up("GET", "/users", "user.find", &none, nil),
		up("GET", "/users/me", "user.me", &none, nil),
		up("GET", "/users/:id", "user.findOne", &none, nil),
		up("POST", "/users", "user.create", &none, nil),
		up("PUT", "/users/:id", "user.update", &none, nil),
		up("DELETE", "/users/:id", "user.destroy", &none, nil),
		up("GET", "/roles/:id", "role.findOne", nil, nil),
		up("GET", "/roles", "role.find", nil, nil),
		up("POST", "/roles", "role.createRole", nil, nil),
		up("PUT", "/roles/:role", "role.updateRole", nil, nil),
		up("DELETE", "/roles/:role", "role.deleteRole", nil, nil),
		up("GET", "/permissions", "permissions.getPermissions", nil, nil),
		{Plugin: "upload", Method: "POST", Path: "/", Handler: "content-api.upload"},
		{Plugin: "upload", Method: "GET", Path: "/files", Handler: "content-api.find"},
		{Plugin: "upload", Method: "GET", Path: "/files/:id", Handler: "content-api.findOne"},
		{Plugin: "upload", Method: "DELETE", Path: "/files/:id", Handler: "content-api.destroy"},
		{Plugin: "i18n", Method: "GET", Path: "/locales", Handler: "locales.listLocales"},
		{Plugin: "email", Method: "POST", Path: "/", Handler: "email.send"},
	}
}
