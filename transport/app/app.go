// Package app assembles a Quarry app from its folder: schemas, configuration and the open,
// migrated database. Every command that touches the database goes through Open, so tables
// are created or extended whichever command runs first.
package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/schemas/jseval"
	"github.com/quarrycms/quarry/schemas/projectconfig"
	"github.com/quarrycms/quarry/schemas/routes"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/sqlgen/database"
	"github.com/quarrycms/quarry/transport/plugins/email"
	"github.com/quarrycms/quarry/transport/plugins/i18n"
	"github.com/quarrycms/quarry/transport/plugins/upload"
	"github.com/quarrycms/quarry/transport/plugins/userspermissions"
	"github.com/quarrycms/quarry/transport/projectcode"
)

// App is a loaded app folder with its database.
type App struct {
	Dir    string
	Schema *schemas.Schema
	DB     *database.DB
	REST   planner.Config
	// I18n manages locales (the default locale exists from the first start).
	I18n *i18n.Service
	// TokenSalt is admin.apiToken.salt of the project's config, else API_TOKEN_SALT.
	TokenSalt string
	// Auth is the users-permissions configuration (config/plugins.*); see auth.go.
	Auth userspermissions.Config
	// Email is the email plugin's configuration: the provider that sends the
	// users-permissions e-mails.
	Email email.Config
	// Config is the project's configuration (config/*.js|ts|json, config/env/<env>, .env),
	// and Settings its checked view.
	Config   *projectconfig.Project
	Settings *projectconfig.Typed
	// Getenv reads the environment as the project sees it: the process's, else .env's.
	Getenv func(string) string
	// RESTPrefix is api.rest.prefix: where the content API is served (default /api).
	RESTPrefix string
	// Routes are the project's route files and controllers (src/api/*/routes,
	// src/api/*/controllers); see package schemas/routes for how to read them.
	Routes *routes.Model
}

// LoadConfig reads an app folder's configuration as `quarry serve` does, with getenv as the
// process environment (a variable counts as set when it is not empty).
func LoadConfig(ctx context.Context, dir string, getenv func(string) string) (*projectconfig.Project, *projectconfig.Typed, error) {
	var keys []string
	for _, kv := range os.Environ() {
		if k, _, ok := strings.Cut(kv, "="); ok {
			keys = append(keys, k)
		}
	}
	proj, err := projectconfig.Load(ctx, projectconfig.Options{Dir: dir, EnvKeys: keys,
		LookupEnv: func(k string) (string, bool) { v := getenv(k); return v, v != "" }})
	if err != nil {
		return nil, nil, err
	}
	typed, err := proj.Typed()
	if err != nil {
		return nil, nil, err
	}
	return proj, typed, nil
}

// Options say how Open treats the database's schema.
type Options struct {
	// Migrate is how far the schema is brought to the layout (database.MigrateOptions).
	// QUARRY_SCHEMA_CHANGES=apply sets Lossy.
	Migrate database.MigrateOptions
	// Existing refuses to create the project's default SQLite file when it does not exist
	// yet: an admin command run without the server's DATABASE_* settings would otherwise
	// write to a new, empty database the server never reads. A file the settings name, or
	// QUARRY_CREATE_DATABASE=1, is created as asked.
	Existing bool
	// Quiet logs the project's warnings (unimplemented plugins, config typos) at debug
	// level: admin commands, which would repeat the server's warnings on every run.
	Quiet bool
}

// Open loads the schemas and configuration of dir, connects to its database and migrates it.
func Open(ctx context.Context, dir string, getenv func(string) string, log *slog.Logger) (*App, error) {
	return OpenWith(ctx, dir, getenv, log, Options{})
}

// OpenWith is Open with options.
func OpenWith(ctx context.Context, dir string, getenv func(string) string, log *slog.Logger, o Options) (*App, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	proj, typed, err := LoadConfig(ctx, dir, getenv)
	if err != nil {
		return nil, err
	}
	// The project's warnings are the server's to give; an admin command (Options.Quiet)
	// keeps them at debug level rather than repeating them on every run.
	warn := log.Warn
	if o.Quiet {
		warn = log.Debug
	}
	for _, w := range proj.Lint() {
		warn("config: " + w)
	}
	for file, mods := range proj.Unresolved {
		warn("a config file requires npm modules Quarry does not load; they are inert stubs", "file", file, "modules", strings.Join(mods, ", "))
	}
	for _, name := range proj.IgnoredPluginSwitches(typed) {
		warn("config/plugins: "+name+" is one of Strapi's internal plugins, which Strapi 4 keeps on whatever enabled says: "+
			"enabled: false is ignored, by Quarry too; remove it, or refuse the plugin's routes with a policy or the Public/Authenticated roles' permissions",
			"plugin", name)
	}
	if missing := proj.UnimplementedPlugins(typed); len(missing) > 0 {
		warn("enabled plugins that Quarry does not implement: their routes and features are not served; run Strapi beside Quarry (quarry serve --upstream STRAPI_URL) to serve them",
			"plugins", strings.Join(missing, ", "))
	}
	getenv = proj.Getenv
	dbc, err := database.ConfigFor(dir, proj, typed.Database, getenv)
	if err != nil {
		return nil, err
	}
	dbc.Log = log
	if o.Existing && dbc.FilenameDefault && getenv("QUARRY_CREATE_DATABASE") != "1" {
		if d, _ := sqlgen.ByName(dbc.Client); d == sqlgen.SQLite {
			if _, err := os.Stat(dbc.Filename); errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("no database for this project at %s (the default SQLite file): "+
					"run this command with the server's DATABASE_* settings (DATABASE_FILENAME, DATABASE_CLIENT, DATABASE_URL) so it opens the server's database, "+
					"or start `quarry serve` once, which creates it; QUARRY_CREATE_DATABASE=1 creates it here", dbc.Filename)
			}
		}
	}
	db, err := database.Open(ctx, dbc)
	if err != nil {
		return nil, err
	}
	if strings.EqualFold(getenv("QUARRY_SCHEMA_CHANGES"), "apply") {
		o.Migrate.Lossy = true
	}
	a, err := open(ctx, dir, getenv, log, db, proj, typed, o)
	if err != nil {
		db.Close()
		return nil, err
	}
	return a, nil
}

// open loads the schemas with the database's stored column types at hand (an unknown custom
// field is served as its column's type) and sets the app up on db.
func open(ctx context.Context, dir string, getenv func(string) string, log *slog.Logger, db *database.DB, proj *projectconfig.Project, typed *projectconfig.Typed, o Options) (*App, error) {
	opts, err := schemaOptions(proj, typed, log)
	if err != nil {
		return nil, err
	}
	opts.StoredType = db.StoredType(ctx)
	s, err := schemas.LoadWith(dir, opts)
	if err != nil {
		return nil, err
	}
	evalOpts := proj.EvalOptions()
	// createCoreRouter's routes, which a route file may wrap or spread, are those of the
	// content types as loaded.
	evalOpts.ContentTypes = map[string]jseval.ContentType{}
	for _, m := range s.Models {
		if m.IsContentType() {
			kind := "collectionType"
			if m.Kind == schemas.SingleType {
				kind = "singleType"
			}
			evalOpts.ContentTypes[m.UID] = jseval.ContentType{Kind: kind, SingularName: m.SingularName, PluralName: m.PluralName}
		}
	}
	rm, err := routes.Load(ctx, dir, evalOpts)
	if err != nil {
		return nil, err
	}
	// Every api's controller actions are grantable, an api without a content type's too
	// (custom routes to a controller of their own), as Strapi's permission tree lists them.
	for uid, actions := range rm.Actions {
		if _, ok := s.Models[uid]; !ok && !strings.HasPrefix(uid, "api::") {
			continue
		}
		for _, a := range actions {
			s.ControllerActions = append(s.ControllerActions, uid+"."+a)
		}
	}
	s.ControllerKeys, s.ControllerKeysUnknown = rm.Actions, rm.UnreadableControllers
	a := &App{Dir: dir, Schema: s, REST: planner.DefaultConfig(), Config: proj, Settings: typed, Getenv: getenv,
		RESTPrefix: "/api", Routes: rm}
	if err := rm.LoadCode(ctx, a.codeInput()); err != nil {
		return nil, err
	}
	// The content-API routes of enabled plugins Quarry does not implement (navigation,
	// slugify, …) are under /api/<plugin>, as Strapi prefixes a plugin's routes: refused
	// (forwarded with --upstream) rather than answered 404, unless the project's own routes
	// or types use that segment.
	for _, name := range proj.UnimplementedPlugins(typed) {
		if _, ok := s.ByPlural(name); ok {
			continue
		}
		if _, ok := s.BySingular(name); ok {
			continue
		}
		if slices.ContainsFunc(rm.Custom, func(r routes.Route) bool {
			return r.Path == "/api/"+name || strings.HasPrefix(r.Path, "/api/"+name+"/")
		}) {
			continue
		}
		rm.LocalPrefixes = append(rm.LocalPrefixes, routes.LocalPrefix{Path: "/api/" + name,
			Code: routes.Code{File: "config/plugins", What: "the plugin " + name + ", which Quarry does not implement"}})
	}
	if uc, err := upload.LoadConfig(dir, getenv); err == nil && uc.Unsupported != "" {
		what := fmt.Sprintf("the upload provider %q, which Quarry does not have (local and aws-s3): it stores and deletes the files", uc.Unsupported)
		if uc.UnsupportedWhy != "" {
			what = "the upload provider, which cannot store files: " + uc.UnsupportedWhy
		}
		rm.RefusePluginHandlers("upload", []string{"content-api.upload", "content-api.destroy"}, routes.Code{File: "config/plugins", What: what})
	}
	// A local plugin's content-API actions, and the actions a plugin extension adds with
	// their routes, are grantable as Strapi lists them (plugin::<name>.<controller>.<action>).
	for _, r := range rm.LocalRoutes {
		if (r.Plugin != "" || r.Extension != "") && strings.HasPrefix(r.Path, "/api/") && !slices.Contains(s.ControllerActions, r.Handler) {
			s.ControllerActions = append(s.ControllerActions, r.Handler)
		}
	}
	warnRoutes(rm, log)
	rest := typed.API.REST
	if rest.DefaultLimit != nil {
		a.REST.DefaultLimit = rest.DefaultLimit.Int(0)
	}
	if rest.MaxLimit != nil {
		a.REST.MaxLimit = rest.MaxLimit.Int(0)
	}
	if v := rest.WithCount; v != nil {
		a.REST.WithCount = *v
	}
	if a.REST.Deep, err = PopulateDeepConfig(dir, proj.JSON("plugins"), getenv, a.REST.Deep); err != nil {
		return nil, a.configError("plugins", err)
	}
	if v := rest.Prefix; v != nil {
		a.RESTPrefix = strings.TrimRight(*v, "/")
		if a.RESTPrefix == "" {
			return nil, fmt.Errorf("%s: rest.prefix %q: the content API cannot be served at the root", proj.SourceOf("api", []string{"rest", "prefix"}), *v)
		}
	}
	// admin.apiToken.salt is the project's word (admin.js usually reads API_TOKEN_SALT
	// itself); without one, API_TOKEN_SALT.
	a.TokenSalt = typed.Admin.APIToken.Salt
	if a.TokenSalt == "" {
		a.TokenSalt = getenv("API_TOKEN_SALT")
	}
	if a.TokenSalt == "" {
		if a.TokenSalt, err = localSecret(dir, "api-token-salt"); err != nil {
			return nil, err
		}
	}
	if err := db.MigrateWith(ctx, s, log, o.Migrate); err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	a.DB = db
	if a.REST.SortIndexed, err = db.SortIndexed(ctx, s); err != nil {
		return nil, err
	}
	if n := len(a.REST.SortIndexed); n > 0 {
		// Said once: lists sorted by these attributes read their page from the index, and an
		// index created after this start is not used until the next.
		var names []string
		for attr := range a.REST.SortIndexed {
			names = append(names, attr.Owner.UID+"."+attr.Name)
		}
		slices.Sort(names)
		log.Info("sort indexes found: lists sorted by these attributes read their page from the index", "attributes", strings.Join(names, ", "))
	}
	ic, err := i18n.ParseConfig(proj.JSON("plugins"))
	if err != nil {
		return nil, a.configError("plugins", err)
	}
	a.I18n = &i18n.Service{DB: db}
	if err := a.I18n.Setup(ctx, ic); err != nil {
		return nil, fmt.Errorf("set up locales: %w", err)
	}
	if err := a.setupAuth(ctx); err != nil {
		return nil, err
	}
	return a, nil
}

// schemaOptions reads the schema loader's settings from config/quarry.* (js, ts or json), and
// whether the i18n plugin is on (config/plugins.*, package.json).
func schemaOptions(proj *projectconfig.Project, typed *projectconfig.Typed, log *slog.Logger) (schemas.Options, error) {
	qc, err := proj.Quarry()
	if err != nil {
		return schemas.Options{}, err
	}
	opts := schemas.Options{CustomFields: qc.CustomFields, I18nOff: !proj.PluginOn("i18n", typed), LocalPlugins: proj.LocalPlugins()}
	if log != nil {
		opts.Warn = log.Warn
	}
	return opts, nil
}

// warnRoutes names, once each, what of the project's code Quarry does not run: files it could
// not read and code that keeps every route from being served (bootstrap(), whose effects are
// on content, is serve's to run or to leave to Strapi). Which routes that code refuses (or,
// beside Strapi, forwards) `quarry routes` lists, and the start-up log counts.
func warnRoutes(m *routes.Model, log *slog.Logger) {
	if len(m.Unreadable) > 0 {
		log.Warn("project files Quarry could not evaluate; the routes they may configure are not served by Quarry", "files", strings.Join(m.Unreadable, "; "))
	}
	for _, c := range m.Global {
		log.Warn("the project runs code on every request that Quarry does not run: only Strapi beside Quarry (--upstream) can serve the API", "code", c.String())
	}
}

// codeInput is what the project's register() and bootstrap() see of it while Quarry records
// them: its content types, its configuration and its plugins.
func (a *App) codeInput() routes.CodeInput {
	cts := map[string]any{}
	for _, m := range a.Schema.Models {
		if !m.IsContentType() {
			continue
		}
		attrs := map[string]any{}
		for _, at := range m.Attributes {
			attrs[at.Name] = map[string]any{"type": string(at.Type)}
		}
		kind := "collectionType"
		if m.Kind == schemas.SingleType {
			kind = "singleType"
		}
		cts[m.UID] = map[string]any{"uid": m.UID, "kind": kind, "collectionName": m.Table, "modelName": m.SingularName,
			"info":    map[string]any{"singularName": m.SingularName, "pluralName": m.PluralName, "displayName": m.DisplayName},
			"options": map[string]any{"draftAndPublish": m.DraftAndPublish}, "attributes": attrs}
	}
	cfg := a.ConfigMap()
	var mws []any
	if list, ok := a.Config.Value("middlewares").([]any); ok {
		mws = list
	}
	return routes.CodeInput{Middlewares: mws, ContentTypes: cts, Config: cfg, Plugins: a.PluginEnabled}
}

// ProjectCode is the runtime for the project's own code (controllers, services, policies,
// middlewares) on this app's database: its reads go through a planner with the entity
// service's limits (none by default) rather than the REST API's.
func (a *App) ProjectCode(host projectcode.Host, runner *exec.Runner, log *slog.Logger) *projectcode.Runtime {
	cfg := a.REST
	cfg.MaxLimit = 0
	qc, _ := a.Config.Quarry() // checked when the app was opened
	return &projectcode.Runtime{Dir: a.Dir, Schema: a.Schema, Eval: a.Routes.Eval, Host: host,
		Planner: &planner.Planner{Schema: a.Schema, Config: cfg}, Runner: runner, DB: a.DB,
		Log: log, Config: a.ConfigMap(), Subscriptions: a.Routes.Subscriptions, BootstrapUses: a.Routes.BootstrapUses(), RegisterServices: a.Routes.RegisterServices, UnsetProperties: a.Routes.UnsetProperties, RegisterProperties: a.Routes.RegisterProperties, ReadHooked: a.Routes.ReadHookModels(), FetchAllow: qc.Fetch.Allow,
		PluginsOff: a.pluginsOff(), ServerConfigFiles: a.configFiles("server"), PluginLifecycles: a.Routes.PluginLifecycles(), EventHub: len(a.Routes.EventHub) > 0}
}

// configFiles are the files that define a configuration name, in merge order, as absolute
// paths.
func (a *App) configFiles(name string) []string {
	var out []string
	dir, err := filepath.Abs(a.Dir)
	if err != nil {
		dir = a.Dir
	}
	for _, l := range a.Config.Layers(name) {
		// The sandbox requires project files by absolute path (--app . is relative).
		out = append(out, filepath.Join(dir, l.File))
	}
	return out
}

// CronTasks says whether config/server gives cron tasks Strapi would schedule
// (cron.enabled, true when unset, and a cron.tasks object).
func (a *App) CronTasks() bool {
	srv, _ := a.Config.Value("server").(map[string]any)
	c, _ := srv["cron"].(map[string]any)
	if c == nil || c["enabled"] == false {
		return false
	}
	_, ok := c["tasks"].(map[string]any)
	return ok
}

// ConfigMap is the project's configuration by name (api, plugins, server, …), as
// strapi.config.get reads it.
func (a *App) ConfigMap() map[string]any {
	cfg := map[string]any{}
	for _, n := range a.Config.Names() {
		cfg[n] = a.Config.Value(n)
	}
	// Strapi's config.environment is NODE_ENV as the process has it (.env included), unset
	// when it is: code keys store rows by it (strapi.store({ environment })).
	if env, ok := a.Config.Lookup("NODE_ENV"); ok {
		if _, named := cfg["environment"]; !named {
			cfg["environment"] = env
		}
	}
	return cfg
}

// configError names the files of a configuration name in an error.
func (a *App) configError(name string, err error) error {
	files := a.Config.Files(name)
	if len(files) == 0 {
		return err
	}
	return fmt.Errorf("%s: %w", strings.Join(files, ", "), err)
}

// pluginsOff names the plugins Quarry implements that the project turns off.
func (a *App) pluginsOff() []string {
	var off []string
	for _, name := range []string{"users-permissions", "i18n", "graphql"} {
		if !a.PluginEnabled(name) {
			off = append(off, name)
		}
	}
	return off
}

// PluginEnabled says whether config/plugins.* leaves a plugin on (Quarry's plugins are on
// unless declared with enabled: false).
func (a *App) PluginEnabled(name string) bool {
	return a.Config.PluginOn(name, a.Settings)
}

// PopulateDeepConfig reads whether the app uses strapi-plugin-populate-deep, as Strapi decides
// it: installed (a dependency in package.json) unless the plugins config (plugins, the merged
// config/plugins.* as JSON; nil when none) disables it, or enabled there; its defaultDepth comes
// from the same place. QUARRY_POPULATE_DEEP_MAX caps the depth a request may ask for.
func PopulateDeepConfig(dir string, plugins []byte, getenv func(string) string, c planner.DeepConfig) (planner.DeepConfig, error) {
	const name = "strapi-plugin-populate-deep"
	var pkg struct {
		Dependencies map[string]any `json:"dependencies"`
	}
	path := filepath.Join(dir, "package.json")
	switch data, err := os.ReadFile(path); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return c, fmt.Errorf("read %s: %w", path, err)
	default:
		if err := json.Unmarshal(data, &pkg); err != nil {
			return c, fmt.Errorf("%s: %w", path, err)
		}
	}
	_, c.Enabled = pkg.Dependencies[name]
	var decls map[string]struct {
		Enabled *bool `json:"enabled"`
		Config  struct {
			DefaultDepth *int `json:"defaultDepth"`
		} `json:"config"`
	}
	if len(plugins) > 0 {
		if err := json.Unmarshal(plugins, &decls); err != nil {
			return c, fmt.Errorf("plugins config: %s: %w", name, err)
		}
	}
	if d, ok := decls[name]; ok {
		c.Enabled = d.Enabled == nil || *d.Enabled
		if v := d.Config.DefaultDepth; v != nil && *v > 0 {
			c.DefaultDepth = *v
		}
	}
	if v := getenv("QUARRY_POPULATE_DEEP_MAX"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return c, fmt.Errorf("QUARRY_POPULATE_DEEP_MAX: %q is not a depth (a whole number from 1)", v)
		}
		c.MaxDepth = n
	}
	return c, nil
}

// LoadSchema loads dir's schemas with its settings but without a database (unmapped custom
// fields are then served as text), for tools that only read them.
func LoadSchema(dir string) (*schemas.Schema, error) {
	proj, typed, err := LoadConfig(context.Background(), dir, os.Getenv)
	if err != nil {
		return nil, err
	}
	opts, err := schemaOptions(proj, typed, nil)
	if err != nil {
		return nil, err
	}
	return schemas.LoadWith(dir, opts)
}
