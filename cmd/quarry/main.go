// Command quarry serves a Strapi v4 app's content API and administers its database.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/planner/write"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/schemas/routes"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/sqlgen/database"
	"github.com/quarrycms/quarry/transport"
	"github.com/quarrycms/quarry/transport/app"
	"github.com/quarrycms/quarry/transport/forward"
	"github.com/quarrycms/quarry/transport/observe"
	"github.com/quarrycms/quarry/transport/plugins/i18n"
	"github.com/quarrycms/quarry/transport/plugins/upload"
	"github.com/quarrycms/quarry/transport/projectcode"
	"github.com/quarrycms/quarry/transport/webhook"
)

const usage = `quarry serves the Strapi v4 content API of an app folder.

Usage:
  quarry serve  --app DIR [--host HOST] [--port PORT] [--upstream STRAPI_URL]
  quarry tokens create --app DIR --name NAME [--type read-only|full-access|custom]
                       [--actions ACTION,...] [--lifespan 7|30|90] [--description TEXT]
  quarry tokens list   --app DIR
  quarry tokens revoke --app DIR ID|NAME
  quarry schema --app DIR                 print the GraphQL schema (SDL)
  quarry openapi --app DIR                print the OpenAPI 3 document of the REST API
  quarry permissions list   --app DIR [--role ROLE]
  quarry permissions grant  --app DIR --role ROLE ACTION...
  quarry permissions revoke --app DIR --role ROLE ACTION...
  quarry permissions actions --app DIR
  quarry locales list|add|remove|default --app DIR [CODE [NAME]]
  quarry indexes --app DIR [--apply]      print (--apply: create) the optional indexes Quarry uses
  quarry routes --app DIR [--upstream URL] every route and how it is served: natively, by the
                                          project's code, forwarded to Strapi or refused, and why
  quarry import --app DIR -f FILE [--key K] [--force] [--only|--exclude content,files,config]
                                          replace the content with a 'strapi export' data file
  quarry export --app DIR [-f NAME] [--key K | --no-encrypt] [--no-compress] [--only|--exclude ...]
                                          write the content as 'strapi export' does
  quarry backup --app DIR [-f FILE]       a consistent copy while serving (SQLite file; else an archive)
  quarry restore --app DIR -f FILE        put a backup back
  quarry migrate --app DIR [--plan|--apply]  print (apply) the schema changes that lose data
  quarry version (or --version)           print the version, commit and build time
  quarry health [--url URL]               exit 0 when a running server's /_health answers

Run 'quarry help <command>' (or 'quarry <command> --help') for a command's usage and flags.

`

func main() {
	err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	if errors.Is(err, errHelp) {
		return
	}
	if err != nil {
		reportFatal(os.Stderr, os.Args[1:], os.Getenv, err)
		os.Exit(1)
	}
}

// reportFatal prints the error a command ends with: a JSON log record under LOG_FORMAT=json
// (from the environment or the project's .env), so that a log collector reading JSON sees
// why the process stopped; plain text otherwise.
func reportFatal(w io.Writer, args []string, getenv func(string) string, err error) {
	if len(args) > 0 && strings.EqualFold(strings.TrimSpace(logEnv(args, getenv)("LOG_FORMAT")), "json") {
		slog.New(slog.NewJSONHandler(w, nil)).Error("quarry: "+args[0]+" failed", "err", err.Error())
		return
	}
	fmt.Fprintln(w, "quarry:", err)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage+envHelp)
		return errors.New("no command given")
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && args[0] == "help" {
			// `quarry help serve` is `quarry serve --help`, as with the go tool.
			return run(ctx, append(append([]string{}, args[1:]...), "--help"), stdout, stderr, getenv)
		}
		fmt.Fprint(stdout, usage+envHelp)
		return nil
	case "version", "--version", "-version", "-v":
		return version(args[1:], stdout)
	case "health":
		return health(ctx, args[1:], stdout, getenv)
	}
	log, err := newLogger(stderr, logEnv(args, getenv))
	if err != nil {
		return err
	}
	switch args[0] {
	case "serve":
		return serve(ctx, args[1:], stdout, log, getenv)
	case "schema":
		return printSchema(args[1:], stdout)
	case "openapi":
		return printOpenAPI(args[1:], stdout)
	case "tokens":
		return tokens(ctx, args[1:], stdout, log, getenv)
	case "permissions":
		return permissions(ctx, args[1:], stdout, log, getenv)
	case "locales":
		return locales(ctx, args[1:], stdout, log, getenv)
	case "indexes":
		return indexes(ctx, args[1:], stdout, stderr, log, getenv)
	case "routes":
		return routesCmd(ctx, args[1:], stdout, log, getenv)
	case "import":
		return importData(ctx, args[1:], os.Stdin, stdout, stderr, log, getenv)
	case "export":
		return exportData(ctx, args[1:], stdout, stderr, log, getenv)
	case "backup":
		return backup(ctx, args[1:], stdout, stderr, log, getenv)
	case "restore":
		return restore(ctx, args[1:], os.Stdin, stdout, stderr, log, getenv)
	case "migrate":
		return migrate(ctx, args[1:], stdout, stderr, log, getenv)
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

func serve(ctx context.Context, args []string, stdout io.Writer, log *slog.Logger, getenv func(string) string) error {
	fs := newFlags("serve")
	dir := appFlag(fs)
	host := fs.String("host", "", "listen host (default: config/server host, else HOST, else 0.0.0.0)")
	port := fs.Int("port", 0, "listen port (default: config/server port, else PORT, else 1337)")
	metricsAddr := fs.String("metrics-addr", getenv("QUARRY_METRICS_ADDR"), "serve Prometheus metrics at http://ADDR/metrics (e.g. 127.0.0.1:9464; off when empty)")
	upstream := fs.String("upstream", getenv("QUARRY_UPSTREAM"), "Strapi server that gets every request Quarry does not serve")
	if _, err := parseFlags(fs, args, 0, stdout); err != nil {
		return err
	}
	if err := checkAppDir(*dir); err != nil {
		return err
	}
	// Beside Strapi, Strapi's schema sync owns the schema: Quarry changes nothing and says
	// what differs.
	a, err := app.OpenWith(ctx, *dir, getenv, log, app.Options{Migrate: database.MigrateOptions{CheckOnly: *upstream != ""}})
	if err != nil {
		return openHint(err)
	}
	defer a.DB.Close()
	for _, w := range schemas.Lint(a.Schema) {
		log.Warn("schema: " + w)
	}
	getenv = a.Getenv // the process environment, then the project's .env
	// Flags win, then config/server.*, then HOST/PORT (config/server.js usually reads
	// them through env() anyway).
	if *host == "" {
		*host = a.Settings.Server.Host
		if *host == "" {
			*host = envOr(getenv, "HOST", "0.0.0.0")
		}
	}
	if *port == 0 {
		*port = a.Settings.Server.Port.Int(0)
		if *port == 0 {
			*port = envInt(getenv, "PORT", 1337)
		}
	}
	srv := &transport.Server{
		Schema:      a.Schema,
		DB:          a.DB,
		Planner:     &planner.Planner{Schema: a.Schema, Config: a.REST},
		Runner:      &exec.Runner{Dialect: a.DB.Dialect, Cache: sqlgen.NewCache()},
		Writer:      &write.Writer{Schema: a.Schema, Dialect: a.DB.Dialect, Now: time.Now},
		Log:         log,
		TokenSalt:   a.TokenSalt,
		I18n:        a.I18n,
		LogPlans:    getenv("QUARRY_LOG_PLANS") == "1",
		RESTPrefix:  a.RESTPrefix,
		Routes:      transport.BuildRoutes(a.Routes, a.Schema, graphqlPath(a), runProjectCode(getenv), log),
		TrustProxy:  a.Settings.Server.Proxy,
		Environment: app.Env(getenv),

		DebugStatements: getenv("QUARRY_DEBUG_STATEMENTS") == "1",
	}
	timeout, err := requestTimeout(getenv)
	if err != nil {
		return err
	}
	srv.RequestTimeout = timeout
	srv.EmailOff = !a.PluginEnabled("email")
	srv.I18nOff, srv.UsersPermissionsOff = !a.PluginEnabled("i18n"), !a.PluginEnabled("users-permissions")
	for _, p := range []struct {
		off        bool
		name, what string
	}{
		{srv.UsersPermissionsOff, "users-permissions", "no /api/auth, /api/users or /api/users-permissions routes, no public role and no users' JWTs: only API tokens authenticate"},
		{srv.I18nOff, "i18n", "no /api/i18n/locales, and the schemas' pluginOptions.i18n is ignored: no type is localized"},
	} {
		if p.off {
			why := "package.json does not depend on @strapi/plugin-" + p.name
			if d, ok := a.Settings.PluginDecls[p.name]; ok && d.Enabled != nil && !*d.Enabled {
				why = "config/plugins says enabled: false"
			}
			log.Info("the "+p.name+" plugin is off ("+why+"), as Strapi runs without it", "plugin", p.name, "so", p.what)
		}
	}
	// The schema changes of start-up are done: from here a statement on MySQL/MariaDB is also
	// bounded on the server, so none runs on after its request's client left.
	a.DB.BoundStatements(timeout)
	body := a.Settings.Body
	if body.JSONLimit != nil {
		srv.MaxBody = int64(*body.JSONLimit)
	}
	if body.FormLimit != nil {
		srv.FormMaxBody = int64(*body.FormLimit)
	}
	if a.PluginEnabled("upload") {
		ucfg, err := upload.ParseConfig(a.Dir, a.Config.JSON("plugins"), getenv)
		if err != nil {
			return fmt.Errorf("%s: %w", strings.Join(a.Config.Files("plugins"), ", "), err)
		}
		if m := body.Formidable.MaxFileSize; m != nil {
			ucfg.MaxFileBytes = int64(*m)
		}
		if srv.Upload, err = upload.NewFromConfig(ctx, ucfg, a.Schema, a.DB, log); err != nil {
			return fmt.Errorf("%s: %w", strings.Join(a.Config.Files("plugins"), ", "), err)
		}
		if srv.Upload.Signing() {
			// A private bucket: media in every read (REST and GraphQL) get signed urls.
			srv.Runner.Finish = srv.Upload.SignMedia
			srv.Planner.Config.MediaColumns = []string{"provider", "hash", "ext"}
		}
	}
	srv.Writer.Inline = srv
	if runProjectCode(getenv) {
		srv.Code = projectRuntime(a, srv, log)
		if srv.Code.HasLifecycles() {
			// Every write runs the project's lifecycle hooks, whoever makes it.
			srv.Lifecycles = srv.Code
		}
		if len(a.Routes.EventHub) > 0 && *upstream == "" {
			// Every write the entity service announces runs the eventHub listeners
			// bootstrap() registers.
			srv.Listeners = srv.Code
		}
	}
	srv.Webhooks = webhook.New(a.DB.DB, a.DB.Dialect, log, webhook.DefaultOptions)
	if err := setupAuth(ctx, a, srv, *host, *port, log, getenv); err != nil {
		return err
	}
	if srv.LogPlans {
		log, _ = newLogger(os.Stderr, func(k string) string {
			if k == "LOG_LEVEL" {
				return "debug"
			}
			return getenv(k)
		})
		srv.Log = log
	}
	cacheState, err := setupCache(ctx, a, srv, getenv)
	if err != nil {
		return err
	}
	if cacheState != "on" && cacheState != "off" {
		log.Info("response cache " + cacheState)
	}
	if err := mountGraphQL(a, srv, log, getenv); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(a.Dir, "package.json")); err == nil {
		// Swagger UI where Strapi's documentation plugin shows it, when the project installs
		// the plugin (a folder of schemas only says nothing of it).
		srv.DocsUI = a.PluginEnabled("documentation")
	}
	if err := serveOpenAPI(srv); err != nil {
		return err
	}
	srv.Observers = append(srv.Observers, observe.AccessLog(log))
	stopMetrics, err := startMetrics(*metricsAddr, a, srv, log)
	if err != nil {
		return err
	}
	defer stopMetrics()
	readTimeout := 60 * time.Second
	if *upstream != "" {
		srv.Routes.BesideStrapi(a.Routes)
		if err := setupUpstream(a, srv, *upstream, log); err != nil {
			return err
		}
		if refused := transport.GraphQLRefusals(a.Routes, a.Schema, runProjectCode(getenv)); len(refused) > 0 && srv.GraphQL != nil {
			// A document may mix fields Quarry runs with fields that run the project's code:
			// Strapi answers GraphQL as a whole.
			for _, f := range sortedKeys(refused) {
				srv.Routes.Prefixes = append(srv.Routes.Prefixes, transport.PrefixRoute{Path: srv.GraphQLPath,
					Code: routes.Code{What: "the GraphQL field " + f + " runs " + refused[f][0].String()}})
				break
			}
		}
		// Uploads through the admin panel stream through Quarry to Strapi.
		readTimeout = 30 * time.Minute
	}
	hs := &http.Server{
		Addr:              net.JoinHostPort(*host, strconv.Itoa(*port)),
		Handler:           srv.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       readTimeout,
		MaxHeaderBytes:    64 << 10,
	}
	// After Handler: the project's code writes through the server's write path.
	startupCode(ctx, a, srv, *upstream != "", log)
	ln, err := net.Listen("tcp", hs.Addr)
	if err == nil {
		startCron(ctx, srv, getenv, log)
	}
	if err != nil {
		return listenError(hs.Addr, err)
	}
	// Settings changed through another instance on the same database show here at once.
	watch, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	a.DB.WatchSettings(watch, srv.ForgetSettings, log)
	logStartup(log, ln.Addr(), a, srv, getenv)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	select {
	case err := <-errc:
		return err
	case s := <-sig:
		log.Info("shutting down", "signal", s.String())
	}
	// Finish in-flight requests before closing the database.
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err = hs.Shutdown(sctx)
	srv.Webhooks.Close(sctx) // deliver what the last writes queued
	return err
}

// setupUpstream puts Strapi beside Quarry: the routes that run the project's code Quarry does
// not run, and every request Quarry does not serve, go to it. The decision for every route is
// printed.
func setupUpstream(a *app.App, srv *transport.Server, upstream string, log *slog.Logger) error {
	target, err := forward.ParseUpstream(upstream)
	if err != nil {
		return err
	}
	srv.Upstream = forward.NewProxy(target, forward.DefaultTimeouts, log, transport.UpstreamError)
	for _, r := range srv.Routes.List(a.Schema, a.RESTPrefix, true) {
		to := "quarry"
		if r.How == transport.HowForwarded {
			to = "upstream"
		}
		log.Info("route", "method", r.Method, "path", r.Path, "to", to, "why", r.Why)
	}
	log.Info("forwarding to Strapi", "upstream", target.String(), "also", "every request Quarry does not serve")
	return nil
}

// runProjectCode says whether Quarry runs the project's controllers, services, policies and
// middlewares itself (QUARRY_PROJECT_CODE, on unless "off"); off, their routes are refused or
// go to Strapi.
func runProjectCode(getenv func(string) string) bool { return getenv("QUARRY_PROJECT_CODE") != "off" }

// projectRuntime is the runtime for the project's code, with its time limit from
// QUARRY_PROJECT_CODE_TIMEOUT.
func projectRuntime(a *app.App, srv *transport.Server, log *slog.Logger) *projectcode.Runtime {
	rt := a.ProjectCode(srv, srv.Runner, log)
	if d, err := time.ParseDuration(a.Getenv("QUARRY_PROJECT_CODE_TIMEOUT")); err == nil && d > 0 {
		rt.Timeout = d
	}
	return rt
}

// bootstrapLimit bounds the project's bootstrap() at start: seeding may take a while, a
// bootstrap() waiting forever must not keep the server from starting.
const bootstrapLimit = 5 * time.Minute

// startupCode runs the project's bootstrap() once before serving, as Strapi does at every
// start; beside Strapi (--upstream) that is Strapi's to run, on the same database, with the
// cron jobs. A bootstrap() that fails under Quarry is logged and the server starts anyway:
// what it does is content, which every route still checks as the project declares.
func startupCode(ctx context.Context, a *app.App, srv *transport.Server, upstream bool, log *slog.Logger) {
	if len(a.Routes.NotRun) == 0 && a.Routes.Subscriptions == 0 && !a.Routes.Cron && !a.CronTasks() && len(a.Routes.EventHub) == 0 {
		return
	}
	if srv.Code == nil || upstream {
		for _, c := range a.Routes.NotRun {
			log.Info("start-up code left to Strapi", "code", c.String())
		}
		if a.CronTasks() || a.Routes.Cron {
			log.Info("the cron jobs left to Strapi")
		}
		if len(a.Routes.EventHub) > 0 && upstream {
			log.Info("the eventHub listeners left to Strapi: every route goes to Strapi")
		}
		return
	}
	start := time.Now()
	if err := srv.Code.Bootstrap(ctx, bootstrapLimit); err != nil {
		log.Warn("the project's bootstrap() failed under Quarry; the content it would create is missing, no cron job is scheduled and the writes its eventHub listeners would see are refused", "error", err)
		return
	}
	log.Info("ran the project's bootstrap()", "took", time.Since(start).Round(time.Millisecond))
}

// startCron schedules the cron jobs bootstrap() left (config/server's cron.tasks and
// strapi.cron.add), as Strapi does once it listens, unless QUARRY_CRON is "off": a Strapi
// still running on the same database runs them too.
func startCron(ctx context.Context, srv *transport.Server, getenv func(string) string, log *slog.Logger) {
	if srv.Code == nil || len(srv.Code.CronJobs()) == 0 {
		return
	}
	if getenv("QUARRY_CRON") == "off" {
		log.Info("cron jobs not scheduled (QUARRY_CRON=off)", "jobs", len(srv.Code.CronJobs()))
		return
	}
	jobs, err := srv.Code.StartCron(ctx, bootstrapLimit)
	if err != nil {
		log.Warn("cron jobs not scheduled", "error", err)
		return
	}
	for _, j := range jobs {
		log.Info("cron job scheduled (a Strapi still running on this database runs it too: QUARRY_CRON=off)", "job", j.String(), "rule", j.Rule)
	}
}

// defaultRequestTimeout bounds the database work of one read or GraphQL request: far above
// any page a client waits for, low enough that no request holds a core for minutes after
// its client left.
const defaultRequestTimeout = 60 * time.Second

// requestTimeout is QUARRY_REQUEST_TIMEOUT (a Go duration; 0 turns the bound off).
func requestTimeout(getenv func(string) string) (time.Duration, error) {
	v := getenv("QUARRY_REQUEST_TIMEOUT")
	if v == "" {
		return defaultRequestTimeout, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("QUARRY_REQUEST_TIMEOUT: want a duration such as 30s, got %q", v)
	}
	return d, nil
}

func envOr(getenv func(string) string, k, def string) string {
	if v := getenv(k); v != "" {
		return v
	}
	return def
}

func envInt(getenv func(string) string, k string, def int) int {
	if v, err := strconv.Atoi(getenv(k)); err == nil {
		return v
	}
	return def
}

// openAdmin checks and opens an admin command's --app folder, on an existing database
// (app.Options.Existing), and says which database it opened.
func openAdmin(ctx context.Context, dir string, getenv func(string) string, log *slog.Logger) (*app.App, error) {
	return openAdminWith(ctx, dir, getenv, log, true)
}

// openAdminWith is openAdmin; existing false lets a command that fills a database (import,
// restore) create it.
func openAdminWith(ctx context.Context, dir string, getenv func(string) string, log *slog.Logger, existing bool) (*app.App, error) {
	if err := checkAppDir(dir); err != nil {
		return nil, err
	}
	a, err := app.OpenWith(ctx, dir, getenv, log, app.Options{Existing: existing, Quiet: true})
	if err != nil {
		return nil, openHint(err)
	}
	log.Info("database opened", "database", a.DB.Where())
	return a, nil
}

func locales(ctx context.Context, args []string, stdout io.Writer, log *slog.Logger, getenv func(string) string) error {
	v, err := verb("locales", args, stdout)
	if err != nil {
		return err
	}
	fs := newFlags("locales " + v)
	dir := appFlag(fs)
	max := map[string]int{"list": 0, "add": -1, "remove": 1, "default": 1}[v]
	rest, err := parseFlags(fs, args[1:], max, stdout)
	if err != nil {
		return err
	}
	need := func(n int) error {
		if len(rest) < n {
			return &usageError{fs.Name(), fmt.Errorf("locales %s needs a locale code", v)}
		}
		return nil
	}
	if v == "add" {
		if err := need(1); err != nil {
			return err
		}
		// The same check as the API's: a code Strapi's i18n plugin does not know would be
		// accepted by REST and refused by GraphQL's I18NLocaleCode.
		if err := i18n.CheckCode(rest[0]); err != nil {
			return err
		}
	}
	a, err := openAdmin(ctx, *dir, getenv, log)
	if err != nil {
		return err
	}
	defer a.DB.Close()
	switch v {
	case "list":
		list, _, err := a.I18n.Locales(ctx)
		if err != nil {
			return err
		}
		for _, l := range list {
			def := ""
			if l.IsDefault {
				def = "\tdefault"
			}
			fmt.Fprintf(stdout, "%s\t%s%s\n", l.Code, l.Name, def)
		}
		return nil
	case "add":
		if err := need(1); err != nil {
			return err
		}
		name := ""
		if len(rest) > 1 {
			name = strings.Join(rest[1:], " ")
		}
		return a.I18n.Add(ctx, rest[0], name)
	case "remove":
		if err := need(1); err != nil {
			return err
		}
		return a.I18n.Remove(ctx, rest[0])
	case "default":
		if err := need(1); err != nil {
			return err
		}
		return a.I18n.SetDefault(ctx, rest[0])
	}
	return fmt.Errorf("locales: unknown subcommand %q", args[0])
}
