package main

import (
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/quarrycms/quarry/transport"
	"github.com/quarrycms/quarry/transport/app"
)

// logStartup logs what an operator needs to know once the server listens: where to reach
// it, what it serves from where, and where the secrets it generated are kept. It never logs
// a secret or a password.
func logStartup(log *slog.Logger, addr net.Addr, a *app.App, srv *transport.Server, getenv func(string) string) {
	host, port, _ := net.SplitHostPort(addr.String())
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	abs, err := filepath.Abs(a.Dir)
	if err != nil {
		abs = a.Dir
	}
	features := []string{"rest"}
	if srv.GraphQL != nil {
		p := srv.GraphQLPath
		if p == "" {
			p = "/graphql"
		}
		features = append(features, "graphql "+p)
	}
	if srv.I18n != nil && !srv.I18nOff {
		features = append(features, "i18n")
	}
	if srv.Upload != nil {
		features = append(features, "upload")
	}
	if srv.Auth != nil && !srv.UsersPermissionsOff {
		features = append(features, "users-permissions")
	}
	if srv.Webhooks != nil {
		features = append(features, "webhooks")
	}
	if srv.Cache != nil {
		features = append(features, "response-cache")
	}
	if srv.Upstream != nil {
		features = append(features, "upstream")
	}
	log.Info("quarry listening",
		"url", "http://"+net.JoinHostPort(host, port),
		"addr", addr.String(),
		"app", abs,
		"database", describeDatabase(a, getenv),
		"features", strings.Join(features, ", "),
		"env", app.Env(getenv),
	)
	if srv.Routes != nil {
		var refused, forwarded []string
		for _, r := range srv.Routes.List(a.Schema, a.RESTPrefix, srv.Upstream != nil) {
			switch r.How {
			case transport.HowRefused:
				refused = append(refused, r.Method+" "+r.Path)
			case transport.HowForwarded:
				forwarded = append(forwarded, r.Method+" "+r.Path)
			}
		}
		if len(refused) > 0 {
			log.Warn("routes that run the project's own code, which Quarry does not run, answer 501; serve them beside Strapi with --upstream ('quarry routes --app DIR' says why for each)",
				"count", len(refused), "routes", strings.Join(refused, ", "))
		}
		if len(forwarded) > 0 {
			log.Info("routes that run the project's own code go to Strapi ('quarry routes --app DIR --upstream URL' says why for each)",
				"count", len(forwarded))
		}
	}
	for _, s := range []struct{ what, env, file string }{
		{"API token salt", "API_TOKEN_SALT", "api-token-salt"},
		{"JWT secret", "JWT_SECRET", "jwt-secret"},
	} {
		if getenv(s.env) != "" {
			continue
		}
		path := filepath.Join(abs, ".tmp", s.file)
		if _, err := os.Stat(path); err == nil {
			log.Info("generated secret kept in the app folder; set "+s.env+" to use your own, and keep this file when you move the app (tokens and JWTs depend on it)",
				"secret", s.what, "file", path)
		}
	}
}

// describeDatabase names the database opened, without its password.
func describeDatabase(a *app.App, _ func(string) string) string { return a.DB.Where() }
