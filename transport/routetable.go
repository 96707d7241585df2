package transport

import (
	"log/slog"
	"slices"
	"strings"

	"github.com/quarrycms/quarry/parser/gqlschema"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/schemas/routes"
	"github.com/quarrycms/quarry/transport/projectcode"
)

// BuildRoutes turns what the project's route files and code say (routes.Model, read with
// LoadCode) into the server's route table. Every route gets the code the project declares for
// it that Quarry does not run; a core route whose middlewares only rewrite the query gets them
// loaded, to run before the core action, and one whose middlewares do not load is refused
// like any other route with code Quarry cannot run. graphqlPath is where GraphQL is mounted
// ("" when it is off). With runProject, routes whose code is all of the kinds Quarry's
// runtime for project code runs (controllers, services, policies and middlewares of the
// project's files) get their chain to run there instead of being refused.
func BuildRoutes(m *routes.Model, s *schemas.Schema, graphqlPath string, runProject bool, log *slog.Logger) *RouteTable {
	m = withAuthUser(m, runProject)
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if m == nil {
		return nil
	}
	t := &RouteTable{Files: m.Files, Core: map[string]*CoreRoutes{}, Global: m.Global, GraphQL: m.GraphQL}
	if runProject {
		t.App = m.AppMiddlewares
	} else {
		// Without the runtime, the project's app-level middlewares keep every route from
		// being served, as any code that runs on every request.
		t.Global = slices.Clone(m.Global)
		for _, a := range m.AppMiddlewares {
			if a.Server != "" {
				t.Global = append(t.Global, routes.Code{File: a.File, What: a.Name})
				continue
			}
			t.Global = append(t.Global, routes.Code{File: "config/middlewares", What: "app-level middleware " + a.Name})
		}
		// The eventHub listeners bootstrap() registers would not run for the writes.
		t.Global = append(t.Global, m.EventHub...)
	}
	for _, ct := range s.ContentTypes {
		if !ct.IsContentType() || !strings.HasPrefix(ct.UID, "api::") {
			continue
		}
		r := m.Core[ct.UID]
		if m.Files && r == nil && !m.IsCoreEnabled(ct.UID, "find") {
			continue // no router: Strapi routes nothing of this type
		}
		cr := &CoreRoutes{Action: map[string]bool{}, Public: map[string]bool{}, Query: map[string]QueryRewriter{}, Code: map[string][]routes.Code{},
			Project: map[string]*projectcode.Route{}}
		if r != nil {
			cr.Order, cr.Prefix, cr.Pos = r.Order, r.Prefix, r.Pos
			for action, c := range r.Config {
				if !r.Enabled(action) || !routes.QueryOnly(m.Dir, c) {
					continue
				}
				ch, err := LoadMiddlewareChain(m.Dir, c, m.Eval, log)
				if err != nil {
					cr.Code[action] = append(cr.Code[action], routes.Code{File: r.File, What: "route middlewares that did not load (" + err.Error() + ")"})
					continue
				}
				cr.Query[action] = ch
			}
		}
		for _, a := range append(slices.Clone(routes.CoreActions), "createLocalization") {
			cr.Action[a] = r == nil || r.Enabled(a)
			cr.Public[a] = r != nil && r.Public(a)
			if code := pending(m.CoreCode(ct.UID, a), runProject); len(code) > 0 {
				cr.Code[a] = append(cr.Code[a], code...)
			}
			if c, ok := unreadBack(m, ct, a); !ok {
				cr.Code[a] = append(cr.Code[a], c)
			}
			if runProject && a != "createLocalization" && runnable(cr.Code[a]) {
				cr.Project[a] = coreProject(m, ct, r, a)
			}
		}
		t.Core[ct.UID] = cr
		if ct.Localized && ct.Kind != schemas.SingleType {
			// i18n serves a localized collection type's localization route beside its router.
			t.Plugin = append(t.Plugin, PluginRoute{Method: "POST", Path: "/api/" + ct.PluralName + "/:id/localizations",
				Name: "i18n createLocalization of " + ct.UID, Code: withoutGlobal(cr.Code["createLocalization"], m.Global), listed: true})
		}
	}
	for _, r := range m.ServerRoutes {
		sr := ServerRoute{Method: r.Method, Path: r.Path, Open: r.Open}
		switch {
		case r.Refused != "":
			sr.Code = []routes.Code{{File: r.File, What: r.Name() + " (" + r.Method + " " + r.Path + ") has " + r.Refused}}
		case !runProject:
			sr.Code = []routes.Code{{File: r.File, What: r.Name() + " (" + r.Method + " " + r.Path + ")"}}
		default:
			cfg := map[string]any{}
			if r.Open {
				cfg["auth"] = false
			}
			sr.Project = &projectcode.Route{Key: r.Name(), Method: r.Method, Path: r.Path, Handler: r.Name(),
				ServerRoute: r.From, Index: r.Index, Policies: []any{}, Middlewares: []any{},
				Info: map[string]any{"type": "api"}, Config: cfg}
		}
		t.Server = append(t.Server, sr)
	}
	for _, c := range m.Custom {
		path := c.Path
		outside := false
		switch {
		case c.Config.Prefix == nil:
			// A route with its own config.prefix is registered beside the file's router,
			// not under its prefix, as Strapi's route manager does.
			path = c.Prefix + c.Path
		case !strings.HasPrefix(*c.Config.Prefix+"/", "/api/"):
			path, outside = strings.TrimSuffix(*c.Config.Prefix, "/")+c.Path, true
		default:
			path = strings.TrimPrefix(strings.TrimSuffix(*c.Config.Prefix, "/"), "/api") + c.Path
		}
		cr := CustomRoute{Order: c.Order, Pos: c.Pos, Method: c.Method, Path: path, Handler: c.Handler, Outside: outside, Code: pending(m.CustomCode(c), runProject)}
		if runProject && runnable(cr.Code) {
			cr.Project = &projectcode.Route{Key: c.Method + " " + path, Method: c.Method, Path: c.Path, Handler: c.Handler,
				Policies: orEmpty(c.Config.Policies), Middlewares: orEmpty(c.Config.Middlewares),
				Info: map[string]any{"apiName": c.API, "type": "content-api"}, Config: routeConfigObject(c.Config)}
		}
		t.Custom = append(t.Custom, cr)
	}
	for _, r := range m.PluginRoutes {
		model, events := pluginModel(r)
		pr := PluginRoute{Method: r.Method, Path: r.URL(), Name: r.Plugin + " " + r.Handler,
			Code: pending(withoutGlobal(m.PluginCode(r.Plugin, r.Handler, model, events), m.Global), runProject)}
		if runProject && runnable(pr.Code) {
			// Only what the project added runs in the sandbox; the plugin's own middlewares
			// (its rate limit) run with its action, which Quarry serves natively.
			pr.Project = &projectcode.Route{Key: r.Method + " " + pr.Path, Method: r.Method, Path: r.Path,
				Handler: "plugin::" + r.Plugin + "." + r.Handler, NativeRoute: true, Live: r.Live, Plugin: r.Plugin, PluginHandler: r.Handler,
				Extension: r.Extension != "",
				Policies:  orEmpty(r.AddedPolicies), Middlewares: orEmpty(r.AddedMiddlewares),
				Info: map[string]any{"pluginName": r.Plugin, "type": "content-api"}, Config: r.Config()}
		}
		t.Plugin = append(t.Plugin, pr)
	}
	for _, r := range m.LocalRoutes {
		pr := PluginRoute{Method: r.Method, Path: r.Path, Name: r.Handler, Code: m.CustomCode(r)}
		if runProject && r.Extension != "" && strings.HasPrefix(r.Path, "/api/") && runnable(withoutGlobal(pr.Code, m.Global)) && len(m.Global) == 0 {
			// A route a plugin extension adds to its own action runs that action as the
			// extension left the plugin's controller (with the route's policies and
			// middlewares); the action is a grantable permission, as Strapi syncs it.
			handler := strings.TrimPrefix(r.Handler, "plugin::"+r.ExtPlugin+".")
			pr.Project = &projectcode.Route{Key: r.Method + " " + r.Path, Method: r.Method, Path: r.Path, Handler: r.Handler,
				Extension: true, Plugin: r.ExtPlugin, PluginHandler: handler,
				Policies: orEmpty(r.Config.Policies), Middlewares: orEmpty(r.Config.Middlewares),
				Info: map[string]any{"pluginName": r.ExtPlugin, "type": "content-api"}, Config: routeConfigObject(r.Config)}
		}
		api := strings.HasPrefix(r.Path, "/api/")
		if runProject && r.Plugin != "" && (api || r.Config.Public()) && runnable(withoutGlobal(pr.Code, m.Global)) && len(m.Global) == 0 {
			// A local plugin's content-API route runs its own controller in the sandbox, and
			// so does an admin route (outside /api) that config.auth: false makes public (a
			// plugin exporting its routes as a list); its other admin routes stay refused, as
			// the admin panel's authentication is Strapi's.
			typ := "content-api"
			if !api {
				typ = "admin"
			}
			pr.Project = &projectcode.Route{Key: r.Method + " " + r.Path, Method: r.Method, Path: r.Path, Handler: r.Handler,
				Policies: orEmpty(r.Config.Policies), Middlewares: orEmpty(r.Config.Middlewares),
				Info: map[string]any{"pluginName": r.Plugin, "type": typ}, Config: routeConfigObject(r.Config)}
		}
		t.Plugin = append(t.Plugin, pr)
	}
	for _, p := range m.LocalPrefixes {
		t.Prefixes = append(t.Prefixes, PrefixRoute{Path: p.Path, Code: p.Code})
	}
	if graphqlPath != "" && len(m.GraphQL) > 0 {
		for _, c := range m.GraphQL {
			t.Prefixes = append(t.Prefixes, PrefixRoute{Path: graphqlPath, Code: c})
		}
	}
	t.AuthUser = m.AuthUser != nil
	var hooked []string
	for _, c := range m.Hooks(routes.UploadFileUID, routes.Events("create")) {
		hooked = append(hooked, c.File+": "+c.What)
	}
	t.UploadHooked = strings.Join(hooked, "; ")
	return t
}

// pending drops, when Quarry runs the project's code, the lifecycle hooks the write path
// runs: they need no chain of their own and refuse nothing.
func pending(code []routes.Code, runProject bool) []routes.Code {
	if !runProject {
		return code
	}
	out := code[:0:0]
	for _, c := range code {
		if !(c.Lifecycle && c.Runnable) {
			out = append(out, c)
		}
	}
	return out
}

// runnable says whether Quarry's runtime runs all of a route's code.
func runnable(code []routes.Code) bool {
	if len(code) == 0 {
		return false
	}
	for _, c := range code {
		if !c.Runnable {
			return false
		}
	}
	return true
}

// coreProject is the chain of a core action that runs the project's code: the router's
// policies and middlewares for it, then the project's controller action, or Quarry's own
// core action when neither the controller nor the service replaces it.
func coreProject(m *routes.Model, ct *schemas.Model, r *routes.CoreRouter, action string) *projectcode.Route {
	api, _, _ := strings.Cut(strings.TrimPrefix(ct.UID, "api::"), ".")
	pr := &projectcode.Route{Key: ct.UID + "." + action, Handler: ct.UID + "." + action, UID: ct.UID,
		Info: map[string]any{"apiName": api, "type": "content-api"}, Policies: []any{}, Middlewares: []any{}, Config: map[string]any{}}
	if r != nil {
		c := r.Config[action]
		pr.Policies, pr.Middlewares, pr.Config = orEmpty(c.Policies), orEmpty(c.Middlewares), routeConfigObject(c)
	}
	base := "/" + ct.PluralName
	if ct.Kind == schemas.SingleType {
		base = "/" + ct.SingularName
	}
	pr.Method, pr.Path = map[string]string{"find": "GET", "findOne": "GET", "create": "POST", "update": "PUT", "delete": "DELETE"}[action], base
	if ct.Kind != schemas.SingleType && (action == "findOne" || action == "update" || action == "delete") {
		pr.Path += "/:id"
	}
	// A read whose lifecycle hooks the runtime runs goes through Strapi's controller steps,
	// which decide between them and the native action.
	if !slices.Contains(m.Overridden, ct.UID+"."+action) && !slices.Contains(m.Services[ct.UID], action) && !m.ReadHooks(ct.UID, action) {
		pr.Native = action
	}
	return pr
}

// unreadBack says whether the runtime runs, as Strapi does, the query-engine events a core
// write of ct fires when some of them reach read hooks (findOne's, or hooks on every
// model's events): the sandbox runs the entity service's reads of the model itself — the
// entry read first, the entity validator's counts of related entries and uniqueness
// reads of its unique (and uid) text attributes, the loads of its components an update
// and a delete make, the read-back — through its hooks. It does not fire the events of
// other models Strapi's entity service fires there: the writes of the type's components
// (and the read-backs of those writes), and the counts of its media and of plugins' entries
// it relates to; where hooks would see those (a subscriber on every model, one naming a
// component, Count hooks of the upload plugin's files or of a plugin type), or the model
// is localized (i18n's decorator syncs localizations through the query engine), or a
// unique attribute is not text (yup casts it first), the write stays refused.
func unreadBack(m *routes.Model, ct *schemas.Model, action string) (routes.Code, bool) {
	if (action != "create" && action != "update" && action != "delete") || !m.ReadHooks(ct.UID, action) {
		return routes.Code{}, true
	}
	why := ""
	if ct.Localized {
		why = "a localized type (i18n's decorator syncs its localizations)"
	}
	everyModel := len(hooksOf(m, "*")) > 0
	counted := func(uid string) bool { return hooksOn(m, uid, "Count") || hooksOn(m, "*", "Count") }
	seen := map[string]bool{}
	var walk func(md *schemas.Model, root bool)
	walk = func(md *schemas.Model, root bool) {
		for _, at := range md.Attributes {
			if why != "" {
				return
			}
			switch {
			case at.Type == schemas.ComponentT || at.Type == schemas.DynamicZone:
				for _, c := range at.Components {
					if c == nil || seen[c.UID] {
						continue
					}
					seen[c.UID] = true
					switch {
					case everyModel:
						why = "a type with components (" + at.Name + ") and hooks on every model's events, which see the components' writes"
					case len(hooksOf(m, c.UID)) > 0:
						why = "a type with components (" + at.Name + ") whose component " + c.UID + " has lifecycle hooks"
					default:
						walk(c, false)
					}
				}
			case at.Type == schemas.Media:
				if counted("plugin::upload.file") && action != "delete" {
					why = "a type with media (" + at.Name + ") whose check counts the upload plugin's files, which Count hooks see"
				}
			case at.Type == schemas.Relation && (at.Target == nil || strings.HasPrefix(string(at.Relation), "morph")):
				why = "a type with a relation outside the project's types (" + at.Name + ")"
			case at.Type == schemas.Relation && !strings.HasPrefix(at.Target.UID, "api::"):
				// The entity validator counts a relation's entries through the query engine: the
				// sandbox does so for the project's own types.
				if counted(at.Target.UID) && action != "delete" {
					why = "a type with a relation to " + at.Target.UID + " (" + at.Name + "), whose check counts its entries, which Count hooks see"
				}
			case root && (at.Unique || at.Type == schemas.UID) && !textual(at.Type) && action != "delete":
				// Strapi's validator checks uid attributes' uniqueness too.
				why = "a type with a unique " + string(at.Type) + " attribute (" + at.Name + ")"
			}
		}
	}
	walk(ct, true)
	if why == "" {
		return routes.Code{}, true
	}
	return routes.Code{What: "read lifecycle hooks (findOne's, or a subscriber on every model) on the " + action + " of " + why + ", where Strapi fires query-engine events Quarry does not"}, false
}

// textual says whether a unique attribute of the type is checked on the value as sent
// (yup's string schemas): the sandbox's uniqueness read is Strapi's then.
func textual(t schemas.AttrType) bool {
	switch t {
	case schemas.String, schemas.Text, schemas.RichText, schemas.Email, schemas.Password, schemas.UID:
		return true
	}
	return false
}

// hooksOf are the lifecycle hooks declared for a model ("*": for every model's events).
func hooksOf(m *routes.Model, uid string) []string {
	if l := m.Lifecycles[uid]; l != nil {
		return l.Hooks
	}
	return nil
}

// hooksOn says whether a model's hooks (uid, or "*") meet event (Count, FindOne, …).
func hooksOn(m *routes.Model, uid, event string) bool {
	for _, h := range hooksOf(m, uid) {
		if h == "*" || h == "before"+event || h == "after"+event {
			return true
		}
	}
	return false
}

func orEmpty(list []any) []any {
	if list == nil {
		return []any{}
	}
	return list
}

// routeConfigObject is a route's config as ctx.state.route.config shows it.
func routeConfigObject(c routes.RouteConfig) map[string]any {
	out := map[string]any{"policies": orEmpty(c.Policies), "middlewares": orEmpty(c.Middlewares)}
	if c.Auth != nil {
		out["auth"] = *c.Auth
	}
	if c.Prefix != nil {
		out["prefix"] = *c.Prefix
	}
	return out
}

// withoutGlobal drops the code every route runs from a route's list: Refused answers it
// before any route is looked at.
func withoutGlobal(code, global []routes.Code) []routes.Code {
	if len(global) == 0 {
		return code
	}
	out := code[:0:0]
	for _, c := range code {
		if !slices.Contains(global, c) {
			out = append(out, c)
		}
	}
	return out
}

// pluginModel is the model a plugin route reads or writes, and the events it fires there
// (whose lifecycle hooks run).
func pluginModel(r routes.PluginRoute) (model string, events []string) {
	action := map[string]string{"GET": "findOne", "POST": "create", "PUT": "update", "DELETE": "delete"}[r.Method]
	_, name, _ := strings.Cut(r.Handler, ".")
	switch name {
	case "find", "count":
		action = "find"
	case "callback", "me", "emailConfirmation", "sendEmailConfirmation":
		action = "findOne"
	case "register":
		action = "create"
	case "resetPassword", "changePassword", "forgotPassword", "updateRole":
		action = "update"
	}
	if r.Handler == "auth.emailConfirmation" {
		action = "update"
	}
	switch r.Plugin {
	case "users-permissions":
		switch {
		case strings.HasPrefix(r.Handler, "auth.connect"):
			return "", nil
		case strings.HasPrefix(r.Handler, "user."), strings.HasPrefix(r.Handler, "auth."):
			return "plugin::users-permissions.user", routes.Events(action)
		case strings.HasPrefix(r.Handler, "role."):
			return "plugin::users-permissions.role", routes.Events(action)
		}
	case "upload":
		return "plugin::upload.file", routes.Events(action)
	case "i18n":
		return "plugin::i18n.locale", routes.Events("find")
	}
	return "", nil
}

// GraphQLRefusals are the GraphQL fields whose resolvers run code of the project's that Quarry
// does not, by "Type.field": the queries and mutations of models with lifecycle hooks, and the
// users-permissions and upload mutations whose controllers or routes the project changed.
// Strapi's GraphQL resolvers call the entity service directly, so controllers, services and
// route middlewares of the REST API do not apply to them; lifecycle hooks do.
func GraphQLRefusals(m *routes.Model, s *schemas.Schema, runProject bool) map[string][]routes.Code {
	out := map[string][]routes.Code{}
	if m == nil {
		return out
	}
	m = withAuthUser(m, runProject)
	if m.AuthUser != nil {
		// The plugin's me query answers the user the project's method fetched, which
		// Quarry's resolver does not read.
		c := *m.AuthUser
		c.Runnable = false
		out["Query.me"] = append(out["Query.me"], c)
	}
	add := func(field string, code []routes.Code) {
		code = pending(code, runProject)
		if len(code) > 0 {
			out[field] = append(out[field], code...)
		}
	}
	for _, md := range s.ContentTypes {
		if !md.IsContentType() {
			continue
		}
		hooks := func(action string) []routes.Code { return m.Hooks(md.UID, routes.Events(action)) }
		// The generated queries run their read hooks in the sandbox (execute.ReadHooks), a
		// localized type's with i18n's locale filter, as its entity-service decorator adds it.
		queryHooks := func(action string) []routes.Code {
			return m.GraphQLQueryHooks(md.UID, routes.Events(action))
		}
		// A mutation whose read-back fires findOne hooks runs in the sandbox too, but where
		// Strapi's entity service fires query-engine events Quarry's write path does not
		// (unreadBack), as the REST write does.
		mutationHooks := func(action string) []routes.Code {
			code := m.GraphQLMutationHooks(md.UID, action)
			if c, ok := unreadBack(m, md, action); !ok {
				code = append(code, routes.Code{File: hookFile(code), What: c.What})
			}
			return code
		}
		if md.Kind == schemas.SingleType {
			// A single type's mutations find the entry first: with findMany, which fires its
			// findOne hooks.
			add("Mutation."+gqlschema.MutationName("update", md), mutationHooks("update"))
			add("Mutation."+gqlschema.MutationName("delete", md), mutationHooks("delete"))
			add("Query."+gqlschema.FindOneName(md), queryHooks("findOne"))
		} else {
			for _, a := range []string{"create", "update", "delete"} {
				add("Mutation."+gqlschema.MutationName(a, md), mutationHooks(a))
			}
			add("Query."+gqlschema.FindOneName(md), queryHooks("findOne"))
			add("Query."+gqlschema.FindName(md), queryHooks("find"))
		}
		if md.Localized {
			add("Mutation."+gqlschema.MutationName("create", md)+"Localization", hooks("createLocalization"))
		}
	}
	// The users-permissions plugin's own mutations run its controllers (Strapi builds a koa
	// context for them), with whatever the project's register() and extension changed there.
	byHandler := map[string]routes.PluginRoute{}
	for _, r := range m.PluginRoutes {
		byHandler[r.Plugin+" "+r.Handler] = r
	}
	for field, handler := range map[string]string{
		"Mutation.login": "auth.callback", "Mutation.register": "auth.register",
		"Mutation.forgotPassword": "auth.forgotPassword", "Mutation.resetPassword": "auth.resetPassword",
		"Mutation.changePassword": "auth.changePassword", "Mutation.emailConfirmation": "auth.emailConfirmation",
		"Mutation.createUsersPermissionsUser": "user.create", "Mutation.updateUsersPermissionsUser": "user.update",
		"Mutation.deleteUsersPermissionsUser": "user.destroy", "Mutation.createUsersPermissionsRole": "role.createRole",
		"Mutation.updateUsersPermissionsRole": "role.updateRole", "Mutation.deleteUsersPermissionsRole": "role.deleteRole",
	} {
		r, ok := byHandler["users-permissions "+handler]
		if !ok {
			continue
		}
		model, events := pluginModel(r)
		// Route middlewares and policies are the REST route's: only controllers, services
		// and hooks reach the resolver.
		code := withoutGlobal(m.PluginCode("users-permissions", "", model, events), m.Global)
		// The login and register mutations call the auth controller: an action the project's
		// extension replaced runs in the sandbox (Server.projectAuth) when Quarry runs the
		// REST route's whole chain, as the route table's Project says.
		viaProject := runProject && (field == "Mutation.login" || field == "Mutation.register") && r.Extension != "" &&
			runnable(pending(withoutGlobal(m.PluginCode("users-permissions", handler, model, events), m.Global), runProject))
		for _, c := range m.Plugin["users-permissions "+handler] {
			if viaProject && c.Runnable && strings.Contains(c.What, "replaces the controller") {
				continue
			}
			if strings.Contains(c.What, "replaces the controller") || strings.Contains(c.What, "changes the handler") || strings.Contains(c.What, "service method") {
				code = append(code, c)
			}
		}
		add(field, code)
	}
	for field, action := range map[string]string{"Mutation.upload": "create", "Mutation.multipleUpload": "create", "Mutation.updateFileInfo": "update", "Mutation.removeFile": "delete"} {
		code := append(slices.Clone(m.PluginAll["upload"]), m.UploadHooks(routes.Events(action))...)
		// What refuses the REST route that stores or deletes files (a provider Quarry does
		// not have) refuses the mutation doing the same.
		switch action {
		case "create":
			code = append(code, m.Plugin["upload content-api.upload"]...)
		case "delete":
			code = append(code, m.Plugin["upload content-api.destroy"]...)
		}
		add(field, code)
	}
	return out
}

// GraphQLProjectCode lists the generated queries and mutations whose project code Quarry runs
// in the sandbox (the lifecycle hooks the entity service's reads and writes fire), for
// `quarry routes`;
// none without the runtime, or where GraphQLRefusals refuses the field.
func GraphQLProjectCode(m *routes.Model, s *schemas.Schema, runProject bool) map[string][]routes.Code {
	out := map[string][]routes.Code{}
	if m == nil || !runProject {
		return out
	}
	refused := GraphQLRefusals(m, s, runProject)
	add := func(field string, code []routes.Code) {
		if len(refused[field]) == 0 && len(code) > 0 {
			out[field] = code
		}
	}
	for _, md := range s.ContentTypes {
		if !md.IsContentType() {
			continue
		}
		add("Query."+gqlschema.FindOneName(md), m.GraphQLQueryHooks(md.UID, routes.Events("findOne")))
		actions := []string{"update", "delete"}
		if md.Kind != schemas.SingleType {
			add("Query."+gqlschema.FindName(md), m.GraphQLQueryHooks(md.UID, routes.Events("find")))
			actions = []string{"create", "update", "delete"}
		}
		for _, a := range actions {
			// Only the mutations the sandbox runs: the others' write hooks are the write
			// path's, as for any mutation.
			if m.ReadHooks(md.UID, a) {
				add("Mutation."+gqlschema.MutationName(a, md), m.GraphQLMutationHooks(md.UID, a))
			}
		}
	}
	return out
}

// hookFile is the file of the first of a list of lifecycle code (the one a refusal names).
func hookFile(code []routes.Code) string {
	for _, c := range code {
		if c.File != "" {
			return c.File
		}
	}
	return ""
}

func describe(code []routes.Code) string {
	parts := make([]string, len(code))
	for i, c := range code {
		parts[i] = c.String()
	}
	return strings.Join(parts, "; ")
}

// BesideStrapi is the table for a server beside Strapi (--upstream), which runs the
// project's bootstrap() itself: the eventHub listeners it registers live in Strapi, so a
// write Quarry served would not reach them, and every route goes to Strapi.
func (t *RouteTable) BesideStrapi(m *routes.Model) {
	if t == nil || m == nil || len(m.EventHub) == 0 {
		return
	}
	t.Global = append(slices.Clone(t.Global), m.EventHub...)
}

// RouteInfo is one route and how Quarry answers it, for `quarry routes` and the start-up log.
type RouteInfo struct {
	Method, Path string
	How          string // native, project code, forwarded, refused
	Why          string
}

// How a route is answered.
const (
	HowNative    = "native"
	HowQuarryJS  = "project code run by Quarry"
	HowForwarded = "forwarded"
	HowRefused   = "refused"
)

// List is every route of the app with how it is answered (upstream: whether Strapi runs
// beside Quarry), in Strapi's registration order: content types', custom, then plugins'.
func (t *RouteTable) List(s *schemas.Schema, prefix string, upstream bool) []RouteInfo {
	if prefix == "" {
		prefix = "/api"
	}
	refused := func(code []routes.Code) (string, string) {
		parts := make([]string, len(code))
		for i, c := range code {
			parts[i] = c.String()
		}
		if upstream {
			return HowForwarded, strings.Join(parts, "; ")
		}
		return HowRefused, strings.Join(parts, "; ")
	}
	var out []RouteInfo
	add := func(method, path string, code []routes.Code, native string) {
		info := RouteInfo{Method: method, Path: path, How: HowNative, Why: native}
		if len(t.Global) > 0 {
			code = append(slices.Clone(t.Global), code...)
		}
		if len(code) > 0 {
			info.How, info.Why = refused(code)
		}
		out = append(out, info)
	}
	for _, m := range s.ContentTypes {
		if !m.IsContentType() || !strings.HasPrefix(m.UID, "api::") {
			continue
		}
		var cr *CoreRoutes
		if t != nil {
			cr = t.Core[m.UID]
		}
		if t != nil && t.Files && cr == nil {
			continue
		}
		base := prefix
		if cr != nil {
			base += cr.Prefix
		}
		type route struct{ method, path, action string }
		var rs []route
		if m.Kind == schemas.SingleType {
			p := base + "/" + m.SingularName
			rs = []route{{"GET", p, "find"}, {"PUT", p, "update"}, {"DELETE", p, "delete"}}
			if m.Localized {
				rs = append(rs, route{"POST", p + "/localizations", "createLocalization"})
			}
		} else {
			p := base + "/" + m.PluralName
			rs = []route{{"GET", p, "find"}, {"GET", p + "/:id", "findOne"}, {"POST", p, "create"}, {"PUT", p + "/:id", "update"}, {"DELETE", p + "/:id", "delete"}}
			if m.Localized {
				rs = append(rs, route{"POST", p + "/:id/localizations", "createLocalization"})
			}
		}
		for _, r := range rs {
			if cr != nil && cr.Action != nil && !cr.Action[r.action] && r.action != "createLocalization" {
				continue
			}
			why := "core " + r.action + " of " + m.UID
			if cr != nil && cr.Query[r.action] != nil && len(cr.Code[r.action]) == 0 {
				out = append(out, RouteInfo{Method: r.method, Path: r.path, How: HowQuarryJS, Why: why + " after the route's query middlewares"})
				continue
			}
			if cr != nil && cr.Project[r.action] != nil && len(t.Global) == 0 {
				out = append(out, RouteInfo{Method: r.method, Path: r.path, How: HowQuarryJS, Why: describe(cr.Code[r.action])})
				continue
			}
			var code []routes.Code
			if cr != nil {
				code = withoutGlobal(cr.Code[r.action], t.Global)
			}
			add(r.method, r.path, code, why)
		}
	}
	if t == nil {
		return out
	}
	for i := range t.Custom {
		c := &t.Custom[i]
		path := prefix + c.Path
		if c.Outside {
			path = c.Path
		}
		if r, ok := t.taken(s, c); ok {
			// Listed as the core route that answers it.
			why := "never reached: the core " + r.Action + " of " + r.Model.UID + " is routed first, as in Strapi"
			if r.Kind == RouteProject {
				out = append(out, RouteInfo{Method: c.Method, Path: path, How: HowQuarryJS, Why: why})
				continue
			}
			add(c.Method, path, withoutGlobal(r.Code, t.Global), why)
			continue
		}
		if c.Project != nil && len(t.Global) == 0 {
			out = append(out, RouteInfo{Method: c.Method, Path: path, How: HowQuarryJS, Why: describe(c.Code)})
			continue
		}
		add(c.Method, path, withoutGlobal(c.Code, t.Global), "")
	}
	for _, p := range t.Plugin {
		if p.listed {
			continue
		}
		if p.Project != nil && len(t.Global) == 0 {
			out = append(out, RouteInfo{Method: p.Method, Path: strings.Replace(p.Path, "/api", prefix, 1), How: HowQuarryJS, Why: "plugin " + p.Name + ": " + describe(p.Code)})
			continue
		}
		add(p.Method, strings.Replace(p.Path, "/api", prefix, 1), p.Code, "plugin "+p.Name)
	}
	for _, p := range t.Prefixes {
		add("*", p.Path+"/*", []routes.Code{p.Code}, "")
	}
	for _, r := range t.Server {
		if r.Project != nil && len(t.Global) == 0 {
			if !r.Open {
				out = append(out, RouteInfo{Method: r.Method, Path: r.Path, How: HowNative, Why: r.Project.Handler + ", not public: 401, as in Strapi (no strategy authenticates it)"})
				continue
			}
			out = append(out, RouteInfo{Method: r.Method, Path: r.Path, How: HowQuarryJS, Why: r.Project.Handler})
			continue
		}
		add(r.Method, r.Path, r.Code, "")
	}
	return out
}

// taken is the core route that every request of a custom route reaches instead (one
// registered first, whose path takes the custom route's plain path: an extra
// GET /releases/latest after the core findOne), ok false when none does.
func (t *RouteTable) taken(s *schemas.Schema, c *CustomRoute) (r Resolved, ok bool) {
	if c.Outside || len(t.Global) > 0 || strings.ContainsAny(c.Path, ":*()?") {
		return Resolved{}, false
	}
	r = t.Resolve(s, c.Method, c.Path)
	return r, r.Model != nil && r.Custom == nil
}

// withAuthUser is m with the project's fetchAuthenticatedUser refusing every route when
// Quarry does not run the project's code (m itself otherwise: the runtime runs it).
func withAuthUser(m *routes.Model, runProject bool) *routes.Model {
	if m == nil || m.AuthUser == nil || runProject {
		return m
	}
	c := *m
	g := *m.AuthUser
	g.Runnable = false
	c.Global = append(slices.Clone(m.Global), g)
	c.AuthUser = nil
	return &c
}
