package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/quarrycms/quarry/schemas/projectconfig"
)

// errHelp reports that a command printed its usage because it was asked to: the process
// exits 0, as the Go tools do.
var errHelp = errors.New("help requested")

// usageError is a wrong command line; main prints it with a pointer to the command's help.
type usageError struct {
	cmd string
	err error
}

func (e *usageError) Error() string {
	return fmt.Sprintf("%v\nRun 'quarry %s --help' for usage.", e.err, e.cmd)
}

func (e *usageError) Unwrap() error { return e.err }

// helps holds every command's and subcommand's own usage, keyed by its name as typed.
var helps = map[string]string{
	"serve": `Usage: quarry serve [--app DIR] [--host HOST] [--port PORT] [--metrics-addr ADDR]

Serves the app's REST API under /api, GraphQL at /graphql, /_health, the OpenAPI document at
/documentation/v1.0.0/openapi.json, and with
--metrics-addr Prometheus metrics at http://ADDR/metrics on a listener of their own.`,
	"schema": `Usage: quarry schema [--app DIR]

Prints the app's GraphQL schema (SDL).`,
	"openapi": `Usage: quarry openapi [--app DIR]

Prints the OpenAPI 3 document of the app's REST API, the one quarry serve serves at
/documentation/v1.0.0/openapi.json.`,
	"health": `Usage: quarry health [--url URL] [--timeout 3s]

Asks a running server's /_health (by default http://127.0.0.1:$PORT/_health) and exits 0 when it
answers; the container image's health check, where there is no curl.`,
	"version": `Usage: quarry version

Prints the module version, the VCS commit and the build time of this binary.`,
	"tokens": `Usage: quarry tokens <command> [flags]

Manages API tokens (also while a server runs).

Commands:
  create   create a token and print it once
  list     list tokens with their type, expiry and last use
  revoke   delete a token by id or name

Run 'quarry tokens <command> --help' for a command's flags.`,
	"tokens create": `Usage: quarry tokens create --name NAME [--type read-only|full-access|custom]
                     [--actions ACTION,...] [--lifespan 7|30|90] [--description TEXT] [--app DIR]

Creates an API token and prints it; only its hash is stored.`,
	"tokens list": `Usage: quarry tokens list [--app DIR]

Lists API tokens: id, name, type, expiry, last use (and a custom token's actions).`,
	"tokens revoke": `Usage: quarry tokens revoke [--app DIR] ID|NAME

Deletes an API token; a running server refuses it within 5 seconds.`,
	"permissions": `Usage: quarry permissions <command> [flags]

Manages the users-permissions roles' actions (also while a server runs).

Commands:
  list      list the actions granted to roles
  grant     grant actions to a role
  revoke    revoke actions from a role
  actions   list every action the app has

Run 'quarry permissions <command> --help' for a command's flags.`,
	"permissions list": `Usage: quarry permissions list [--app DIR] [--role ROLE]

Lists the actions granted to every role, or to one.`,
	"permissions grant": `Usage: quarry permissions grant [--app DIR] --role ROLE ACTION...

Grants actions (a trailing * takes every action with that prefix) to a role.`,
	"permissions revoke": `Usage: quarry permissions revoke [--app DIR] --role ROLE ACTION...

Revokes actions from a role.`,
	"permissions actions": `Usage: quarry permissions actions [--app DIR]

Lists every action of the app, as Strapi names them.`,
	"locales": `Usage: quarry locales <command> [flags]

Manages the i18n plugin's locales (also while a server runs).

Commands:
  list      list locales, the default marked
  add       add a locale: CODE [NAME]
  remove    remove a locale: CODE
  default   make a locale the default: CODE

Run 'quarry locales <command> --help' for a command's flags.`,
	"locales list":    `Usage: quarry locales list [--app DIR]`,
	"locales add":     "Usage: quarry locales add [--app DIR] CODE [NAME]\n\nCODE must be one of the ISO codes Strapi's i18n plugin knows (en, fr, pt-BR, …).",
	"locales remove":  `Usage: quarry locales remove [--app DIR] CODE`,
	"locales default": `Usage: quarry locales default [--app DIR] CODE`,
	"indexes": `Usage: quarry indexes [--app DIR] [--apply]

Prints the indexes Quarry's queries use that Strapi's layout lacks, as SQL with what each
serves and its measured effect; --apply creates the missing ones. Strapi's schema sync (4.x)
drops those it sees when it compares the database with its layout (first start, pending
migrations, a content-type change or upgrade, unless settings.strictSyncSchema is false). On
PostgreSQL it does not see indexes on expressions or on id alone: those are marked kept.
Quarry looks for its sort indexes (quarry_<table>_<column>_sort) when it starts: restart it
after creating or dropping one.`,
}

// newFlags starts the flag set of a command named as typed ("tokens create").
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // parseFlags reports errors itself
	return fs
}

// printHelp writes a command's usage and its flags.
func printHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(w, helps[fs.Name()])
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprintln(w, "\nFlags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	if fs.Name() == "serve" {
		fmt.Fprint(w, "\n"+envHelp)
	}
}

// parseFlags parses a command's flags wherever they stand among its positional arguments, as
// the Go tools do ("quarry tokens revoke demo --app x"), and returns the positional ones.
// --help and -h print the command's usage to stdout and return errHelp; max < 0 allows any
// number of positional arguments, otherwise a stray one is refused rather than ignored.
func parseFlags(fs *flag.FlagSet, args []string, max int, stdout io.Writer) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				printHelp(stdout, fs)
				return nil, errHelp
			}
			return nil, &usageError{fs.Name(), err}
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	if max >= 0 && len(pos) > max {
		what := "no arguments"
		if max > 0 {
			what = fmt.Sprintf("at most %d argument(s)", max)
		}
		return nil, &usageError{fs.Name(), fmt.Errorf("%s takes %s, got %q", fs.Name(), what, strings.Join(pos, " "))}
	}
	return pos, nil
}

// verb picks the subcommand of a command with subcommands ("tokens create"); with none, or
// with --help, it prints the command's usage.
func verb(cmd string, args []string, stdout io.Writer) (string, error) {
	if len(args) == 0 {
		return "", &usageError{cmd, fmt.Errorf("%s needs a command", cmd)}
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(stdout, helps[cmd])
		return "", errHelp
	}
	if _, ok := helps[cmd+" "+args[0]]; !ok {
		var verbs []string
		for k := range helps {
			if v, ok := strings.CutPrefix(k, cmd+" "); ok {
				verbs = append(verbs, v)
			}
		}
		sort.Strings(verbs)
		return "", &usageError{cmd, fmt.Errorf("unknown command %q for %s; use one of %s", args[0], cmd, strings.Join(verbs, ", "))}
	}
	return args[0], nil
}

// appFlag adds --app to a command's flags.
func appFlag(fs *flag.FlagSet) *string {
	return fs.String("app", ".", "Strapi app folder (with src/api/*/content-types/*/schema.json)")
}

// checkAppDir tells a user who pointed --app at the wrong folder what an app folder is,
// before the schema loader's file-level errors would.
func checkAppDir(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("app folder %s: %w; pass a Strapi app folder with --app DIR", dir, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("app folder %s is not a folder; pass a Strapi app folder with --app DIR", dir)
	}
	for _, p := range []string{"src/api", "src/components", "api", "components"} {
		if st, err := os.Stat(filepath.Join(dir, p)); err == nil && st.IsDir() {
			return nil
		}
	}
	abs, _ := filepath.Abs(dir)
	return fmt.Errorf("%s is not a Strapi app folder: it has no src/api or src/components.\n"+
		"An app folder holds src/api/<api>/content-types/<type>/schema.json (content types) and\n"+
		"src/components/<category>/<name>.json (components), as Strapi lays them out;\n"+
		"pass it with --app DIR (e.g. quarry serve --app ./examples/blog)", abs)
}

// openHint adds what to check to an error opening the app's database.
func openHint(err error) error {
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return fmt.Errorf("%w\nCheck DATABASE_URL (or config/database) and that PostgreSQL runs and accepts this user; without DATABASE_CLIENT or a DATABASE_URL Quarry uses its embedded SQLite", err)
	}
	return err
}

// enumEnv reads an environment variable that takes one of a few values, refusing others
// with the list of the allowed ones; def is used when it is unset.
func enumEnv(getenv func(string) string, key, def string, allowed ...string) (string, error) {
	v := getenv(key)
	if v == "" {
		return def, nil
	}
	for _, a := range allowed {
		if strings.EqualFold(v, a) {
			return a, nil
		}
	}
	return "", fmt.Errorf("%s=%q is not allowed; use one of %s", key, v, strings.Join(allowed, ", "))
}

// logEnv is the environment newLogger reads: for the commands that open a project, the
// process's, else the project's .env (as for every other setting), so LOG_LEVEL=warn in .env
// is honoured from the first line logged. The project folder is taken from --app wherever it
// stands among the arguments, as parseFlags would; an unreadable .env is left for the project
// loader to report.
func logEnv(args []string, getenv func(string) string) func(string) string {
	switch args[0] {
	case "serve", "tokens", "permissions", "locales", "indexes", "import", "export", "backup", "restore", "migrate":
	default:
		return getenv
	}
	dir := "."
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "app" {
			continue
		}
		if hasValue {
			dir = value
		} else if i+1 < len(args) {
			dir = args[i+1]
		}
	}
	d, err := projectconfig.ReadDotenv(dir, func(k string) (string, bool) { v := getenv(k); return v, v != "" })
	if err != nil || len(d.Vars) == 0 {
		return getenv
	}
	return func(k string) string {
		if v := getenv(k); v != "" {
			return v
		}
		return d.Vars[k]
	}
}

// newLogger builds the process logger from LOG_LEVEL and LOG_FORMAT, refusing unknown values.
func newLogger(w io.Writer, getenv func(string) string) (*slog.Logger, error) {
	lvl, err := enumEnv(getenv, "LOG_LEVEL", "info", "debug", "info", "warn", "error")
	if err != nil {
		return nil, err
	}
	format, err := enumEnv(getenv, "LOG_FORMAT", "text", "text", "json")
	if err != nil {
		return nil, err
	}
	var l slog.Level
	if err := l.UnmarshalText([]byte(lvl)); err != nil {
		return nil, err
	}
	opts := &slog.HandlerOptions{Level: l}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return slog.New(slog.NewTextHandler(w, opts)), nil
}

const envHelp = `Environment:
  HOST, PORT             listen address (0.0.0.0, 1337)
  DATABASE_CLIENT        sqlite, postgres or mysql (the DATABASE_URL scheme, else sqlite)
  DATABASE_URL           PostgreSQL or MySQL URL (postgres://…, mysql://…)
  DATABASE_HOST, DATABASE_PORT, DATABASE_NAME, DATABASE_USERNAME, DATABASE_PASSWORD, DATABASE_SSL
                         the server's fields when DATABASE_URL is not set
  DATABASE_FILENAME      SQLite file (DIR/.tmp/data.db)
  API_TOKEN_SALT         salt of stored API token hashes (generated into DIR/.tmp/api-token-salt)
  JWT_SECRET             signs users' JWTs (generated into DIR/.tmp/jwt-secret; required in production)
  LOG_LEVEL              debug, info, warn or error (info)
  LOG_FORMAT             text or json (text)
  QUARRY_METRICS_ADDR    like --metrics-addr (off)
  QUARRY_UPSTREAM        like --upstream: the Strapi server beside Quarry (off)
`
