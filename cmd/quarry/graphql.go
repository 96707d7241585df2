package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/quarrycms/quarry/parser/gqlschema"
	"github.com/quarrycms/quarry/schemas/routes"
	"github.com/quarrycms/quarry/transport"
	"github.com/quarrycms/quarry/transport/app"
	gqltransport "github.com/quarrycms/quarry/transport/graphql"
	"github.com/quarrycms/quarry/transport/graphql/execute"
)

// mountGraphQL builds the GraphQL plugin from config/plugins.* (on by default) and
// mounts it on the server; it runs after authentication is set up, which it shares.
func mountGraphQL(a *app.App, srv *transport.Server, log *slog.Logger, getenv func(string) string) error {
	gcfg, err := gqlschema.ParseConfig(a.Config.JSON("plugins"))
	if err != nil {
		return fmt.Errorf("%s: %w", strings.Join(a.Config.Files("plugins"), ", "), err)
	}
	if !gcfg.Enabled || !a.PluginEnabled("graphql") {
		// Not installed (no @strapi/plugin-graphql in package.json) or turned off: Strapi
		// serves no /graphql then, and neither does Quarry.
		return nil
	}
	gcfg.UsersPermissionsOff, gcfg.I18nOff = srv.UsersPermissionsOff, srv.I18nOff
	if err := applyShadowCRUD(gcfg.Extension(), a.Routes.Shadow); err != nil {
		return err
	}
	extFile := "" // the file whose GraphQL extension the schema carries
	if srv.Code != nil && len(a.Routes.GraphQL) > 0 {
		// register() extends the schema with use(): Quarry runs it when it can (SDL typeDefs,
		// resolvers and policies of the project's), else the endpoint stays refused.
		exts, err := srv.Code.GraphQLExtensions(context.Background())
		if err != nil {
			log.Warn("the GraphQL endpoint is refused: the project's GraphQL extension cannot run under Quarry", "error", err)
			srv.Routes.RefuseGraphQL(gcfg.Endpoint, routes.Code{File: a.Routes.GraphQL[0].File,
				What: "register()'s GraphQL extension: " + err.Error()})
		} else {
			for _, x := range exts {
				gcfg.Extension().Use(x)
			}
			extFile = a.Routes.GraphQL[0].File
			a.Routes.GraphQL = nil
			srv.Routes.ServeGraphQL(gcfg.Endpoint)
		}
	}
	refuseResolvers(&gcfg, transport.GraphQLRefusals(a.Routes, a.Schema, runProjectCode(getenv)))
	opts := gqltransport.Options{
		Options: execute.Options{Schema: a.Schema, Config: gcfg,
			Planner: srv.Planner, Runner: srv.Runner, Writes: srv.WriteService(), DB: a.DB, Log: log},
		Authenticate: srv.Authenticate, Env: app.Env(getenv), Cache: srv.Cache, Timeout: srv.RequestTimeout,
	}
	if srv.Code != nil {
		opts.ReadHooks = transport.GraphQLReadHooks(a.Routes, srv.Code)
	}
	if a.I18n != nil { // a nil *i18n.Service must stay a nil interface
		opts.Locales = a.I18n
	}
	// The plugins register their resolvers, as Strapi's do through the extension service.
	if srv.Auth != nil && !srv.UsersPermissionsOff {
		opts.Plugins = append(opts.Plugins, srv.Auth.GraphQL())
	}
	if srv.Upload != nil {
		opts.Plugins = append(opts.Plugins, srv.Upload.GraphQL())
		opts.Upload = srv.Upload.GraphQLMultipart()
	}
	h, err := gqltransport.New(opts)
	if err != nil && extFile != "" {
		// The project's extension does not make a schema Quarry can build: the endpoint is
		// refused (Strapi's with --upstream), never served without the extension.
		log.Warn("the GraphQL endpoint is refused: the schema with the project's GraphQL extension does not build under Quarry", "error", err)
		srv.Routes.RefuseGraphQL(gcfg.Endpoint, routes.Code{File: extFile, What: "register()'s GraphQL extension: " + err.Error()})
		return nil
	}
	if err != nil {
		return err
	}
	srv.GraphQL, srv.GraphQLPath = h, gcfg.Endpoint
	return nil
}

// printSchema prints the app's GraphQL schema as SDL.
func printSchema(args []string, stdout io.Writer) error {
	fs := newFlags("schema")
	dir := appFlag(fs)
	if _, err := parseFlags(fs, args, 0, stdout); err != nil {
		return err
	}
	if err := checkAppDir(*dir); err != nil {
		return err
	}
	sdl, err := gqlschema.AppSDL(*dir, app.LoadSchema)
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, sdl)
	return err
}

// refuseResolvers makes the resolvers that run code of the project's that Quarry does not run
// (lifecycle hooks, a changed auth controller) answer NotImplementedError, through a policy
// that runs before them: never the resolver without the project's code.
func refuseResolvers(cfg *gqlschema.Config, refused map[string][]routes.Code) {
	if len(refused) == 0 {
		return
	}
	if cfg.ResolversConfig == nil {
		cfg.ResolversConfig = map[string]gqlschema.ResolverConfig{}
	}
	for field, code := range refused {
		err := transport.NotImplemented(code)
		rc := cfg.ResolversConfig[field]
		rc.Policies = append([]gqlschema.Policy{func(context.Context, gqlschema.PolicyContext) (bool, error) { return false, err }}, rc.Policies...)
		cfg.ResolversConfig[field] = rc
	}
}
