package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/quarrycms/quarry/parser/gqlschema"
	"github.com/quarrycms/quarry/schemas/jseval"
	"github.com/quarrycms/quarry/transport"
	"github.com/quarrycms/quarry/transport/app"
	"github.com/quarrycms/quarry/transport/projectcode"
)

func init() {
	helps["routes"] = `Usage: quarry routes [--app DIR] [--upstream STRAPI_URL]

Lists every route of the app and how Quarry answers it: natively, by running the project's
code, forwarded to Strapi (with --upstream) or refused with a 501, and why.`
}

// graphqlPath is where the app's GraphQL endpoint is mounted, "" when the plugin is off.
func graphqlPath(a *app.App) string {
	gcfg, err := gqlschema.ParseConfig(a.Config.JSON("plugins"))
	if err != nil || !gcfg.Enabled || !a.PluginEnabled("graphql") {
		return ""
	}
	return gcfg.Endpoint
}

// routesCmd prints every route of an app with how Quarry answers it: its native core action,
// the project's code run by Quarry, forwarded to Strapi (with --upstream) or refused, and why.
func routesCmd(ctx context.Context, args []string, stdout io.Writer, log *slog.Logger, getenv func(string) string) error {
	fs := newFlags("routes")
	dir := appFlag(fs)
	upstream := fs.String("upstream", getenv("QUARRY_UPSTREAM"), "list the routes as served beside this Strapi server (forwarded instead of refused)")
	if _, err := parseFlags(fs, args, 0, stdout); err != nil {
		return err
	}
	a, err := openAdmin(ctx, *dir, getenv, log)
	if err != nil {
		return err
	}
	defer a.DB.Close()
	gql := graphqlPath(a)
	table := transport.BuildRoutes(a.Routes, a.Schema, gql, runProjectCode(getenv), log)
	if *upstream != "" {
		table.BesideStrapi(a.Routes)
	}
	if gql != "" && runProjectCode(getenv) && len(a.Routes.GraphQL) > 0 {
		// The GraphQL extension runs when the runtime can take it over, as serve decides.
		rt := projectcode.New(a.Routes, a.Schema)
		rt.Log = log
		if _, err := rt.GraphQLExtensions(ctx); err == nil {
			a.Routes.GraphQL = nil
			table.ServeGraphQL(gql)
		} else {
			log.Warn("the GraphQL endpoint is refused: the project's GraphQL extension cannot run under Quarry", "error", err)
		}
	}
	if len(table.App) > 0 {
		how := "run by Quarry"
		if *upstream != "" {
			how = "Strapi's: the content API and GraphQL are forwarded"
		}
		fmt.Fprintf(stdout, "Every content-API and GraphQL request first runs the project's app-level middlewares (%s), %s; other paths are refused.\n\n", transport.AppNames(table.App), how)
	}
	if len(a.Routes.EventHub) > 0 {
		files := make([]string, len(a.Routes.EventHub))
		for i, c := range a.Routes.EventHub {
			files[i] = c.File
		}
		how := "run by Quarry in the sandbox that ran bootstrap()"
		switch {
		case *upstream != "":
			how = "Strapi's: every route is forwarded"
		case !runProjectCode(getenv):
			how = "not run with the runtime off: every route is refused"
		}
		fmt.Fprintf(stdout, "Every write the entity service announces (entry.create, entry.update, entry.delete; the upload plugin's media.*) runs the project's strapi.eventHub listeners (%s), %s.\n\n", strings.Join(slices.Compact(files), ", "), how)
	}
	if table.AuthUser && a.Routes.AuthUser != nil && *upstream == "" {
		fmt.Fprintf(stdout, "Every request with a user's JWT runs the project's fetchAuthenticatedUser (%s: %s), run by Quarry.\n\n", a.Routes.AuthUser.File, a.Routes.AuthUser.What)
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "METHOD\tPATH\tSERVED\tWHY")
	for _, r := range table.List(a.Schema, a.RESTPrefix, *upstream != "") {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Method, r.Path, r.How, r.Why)
	}
	if gql != "" {
		refused := transport.GraphQLRefusals(a.Routes, a.Schema, runProjectCode(getenv))
		for _, f := range sortedKeys(refused) {
			how := transport.HowRefused
			if *upstream != "" {
				how = transport.HowForwarded
			}
			var why []string
			for _, c := range refused[f] {
				why = append(why, c.String())
			}
			fmt.Fprintf(tw, "GRAPHQL\t%s\t%s\t%s\n", f, how, strings.Join(why, "; "))
		}
		if *upstream == "" {
			// Beside Strapi the GraphQL endpoint is Strapi's; alone, Quarry runs these
			// queries' read hooks in the sandbox.
			run := transport.GraphQLProjectCode(a.Routes, a.Schema, runProjectCode(getenv))
			for _, f := range sortedKeys(run) {
				var why []string
				for _, c := range run[f] {
					why = append(why, c.String())
				}
				fmt.Fprintf(tw, "GRAPHQL\t%s\t%s\t%s\n", f, transport.HowQuarryJS, strings.Join(why, "; "))
			}
		}
	}
	return tw.Flush()
}

// applyShadowCRUD runs the Shadow CRUD calls the project's register() makes on the GraphQL
// extension service (recorded when the app was opened).
func applyShadowCRUD(ext *gqlschema.Extension, calls []jseval.ShadowCall) error {
	for _, c := range calls {
		t := ext.ShadowCRUD(c.UID)
		str := func(i int) string {
			if i < len(c.Args) {
				s, _ := c.Args[i].(string)
				return s
			}
			return ""
		}
		if c.Field != "" {
			f := t.Field(c.Field)
			switch c.Method {
			case "disable":
				f.Disable()
			case "disableOutput":
				f.DisableOutput()
			case "disableInput":
				f.DisableInput()
			case "disableFilters":
				f.DisableFilters()
			}
			continue
		}
		switch c.Method {
		case "disable":
			t.Disable()
		case "disableQueries":
			t.DisableQueries()
		case "disableMutations":
			t.DisableMutations()
		case "disableAction":
			t.DisableAction(str(0))
		case "disableActions":
			list, _ := firstArg(c.Args).([]any)
			for _, a := range list {
				if s, ok := a.(string); ok {
					t.DisableAction(s)
				}
			}
		default:
			return fmt.Errorf("graphql extension: shadowCRUD(%q).%s is not supported", c.UID, c.Method)
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func firstArg(args []any) any {
	if len(args) == 0 {
		return nil
	}
	return args[0]
}
