package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/transport"
	"github.com/quarrycms/quarry/transport/app"
	"github.com/quarrycms/quarry/transport/plugins/email"
	"github.com/quarrycms/quarry/transport/plugins/userspermissions"
)

// setupAuth wires users-permissions into the server: the JWT secret (required in
// production), the email provider and the e-mails' links, config/permissions.json applied at
// start, and config/middlewares.json.
func setupAuth(ctx context.Context, a *app.App, srv *transport.Server, host string, port int, log *slog.Logger, getenv func(string) string) error {
	secret, err := a.JWTSecret(getenv)
	if err != nil {
		return err
	}
	cfg := a.Auth
	cfg.JWTSecret = secret
	srv.Auth = userspermissions.NewService(a.DB, a.Schema, cfg, a.TokenSalt, log)
	srv.Auth.Entries = srv.Writer
	srv.Auth.PluginOff = srv.UsersPermissionsOff
	srv.Auth.Production = app.Env(getenv) == "production"
	if srv.Auth.URLs, err = a.LinkURLs(host, port, app.Env(getenv)); err != nil {
		return err
	}
	mailer, warnings, err := email.New(a.Email, log)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		log.Warn(w)
	}
	srv.Auth.Mailer, srv.Mailer = mailer, mailer
	added, err := a.ApplyPermissions(ctx)
	if err != nil {
		return err
	}
	for role, actions := range added {
		log.Info("config/permissions.json granted", "role", role, "actions", strings.Join(actions, ","))
	}
	mw, err := a.Middlewares()
	if err != nil {
		return err
	}
	if srv.HTTP, err = transport.ParseHTTPConfig(mw); err != nil {
		return err
	}
	return nil
}

// multiFlag collects a repeatable or comma-separated flag.
type multiFlag []string

func (m *multiFlag) String() string { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error {
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*m = append(*m, p)
		}
	}
	return nil
}

func tokens(ctx context.Context, args []string, stdout io.Writer, log *slog.Logger, getenv func(string) string) error {
	v, err := verb("tokens", args, stdout)
	if err != nil {
		return err
	}
	fs := newFlags("tokens " + v)
	dir := appFlag(fs)
	var name, desc, typ *string
	var lifespan *int
	var actions multiFlag
	max := 0
	switch v {
	case "create":
		name = fs.String("name", "", "token name (required, unique)")
		desc = fs.String("description", "", "token description")
		typ = fs.String("type", ir.TokenReadOnly, "read-only, full-access or custom")
		lifespan = fs.Int("lifespan", 0, "lifespan in days: 7, 30, 90, or 0 for unlimited")
		fs.Var(&actions, "actions", "custom token actions, comma-separated or repeated (api::article.article.find, api::article.article.*)")
	case "revoke":
		max = 1
	}
	pos, err := parseFlags(fs, args[1:], max, stdout)
	if err != nil {
		return err
	}
	if v == "create" {
		if *name == "" {
			return &usageError{fs.Name(), errors.New("give the token a name with --name")}
		}
		switch *typ {
		case ir.TokenReadOnly, ir.TokenFullAccess, ir.TokenCustom:
		default:
			return &usageError{fs.Name(), fmt.Errorf("--type %q is not a token type; use one of %s, %s, %s", *typ, ir.TokenReadOnly, ir.TokenFullAccess, ir.TokenCustom)}
		}
		switch *lifespan {
		case 0, 7, 30, 90:
		default:
			return &usageError{fs.Name(), fmt.Errorf("--lifespan %d is not allowed; use 7, 30 or 90 days, or 0 for unlimited", *lifespan)}
		}
	}
	a, err := openAdmin(ctx, *dir, getenv, log)
	if err != nil {
		return err
	}
	defer a.DB.Close()
	switch args[0] {
	case "create":
		spec := userspermissions.TokenSpec{Name: *name, Description: *desc, Type: *typ, LifespanDays: *lifespan}
		if len(actions) > 0 {
			if spec.Actions, err = userspermissions.ExpandActions(a.Schema, actions); err != nil {
				return err
			}
		}
		key, err := userspermissions.CreateToken(ctx, a.DB, a.TokenSalt, spec, time.Now())
		if errors.Is(err, userspermissions.ErrTokenNameTaken) {
			return fmt.Errorf("%w: choose another --name, or see it with 'quarry tokens list --app %s' and delete it with 'quarry tokens revoke --app %s %s'", err, *dir, *dir, *name)
		}
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, key)
		return nil
	case "list":
		list, err := userspermissions.List(ctx, a.DB)
		if err != nil {
			return err
		}
		for _, t := range list {
			expires, used := "never", "never"
			if t.ExpiresAt != nil {
				expires = t.ExpiresAt.UTC().Format(time.RFC3339)
				if !time.Now().Before(*t.ExpiresAt) {
					expires += " (expired)"
				}
			}
			if t.LastUsedAt != nil {
				used = t.LastUsedAt.UTC().Format(time.RFC3339)
			}
			fmt.Fprintf(stdout, "%d\t%s\t%s\texpires %s\tlast used %s", t.ID, t.Name, t.Type, expires, used)
			if t.Type == ir.TokenCustom {
				fmt.Fprintf(stdout, "\t%s", strings.Join(t.Actions, ","))
			}
			fmt.Fprintln(stdout)
		}
		return nil
	case "revoke":
		if len(pos) == 0 {
			return &usageError{fs.Name(), errors.New("give the token's id or name ('quarry tokens list' shows them)")}
		}
		target := pos[0]
		t, err := userspermissions.RevokeToken(ctx, a.DB, target)
		if err != nil {
			return err
		}
		a.DB.SettingsChanged(ctx) // running servers forget the token at once
		fmt.Fprintf(stdout, "revoked %d\t%s\n", t.ID, t.Name)
		return nil
	}
	return fmt.Errorf("tokens: unknown subcommand %q", v)
}

func permissions(ctx context.Context, args []string, stdout io.Writer, log *slog.Logger, getenv func(string) string) error {
	v, err := verb("permissions", args, stdout)
	if err != nil {
		return err
	}
	fs := newFlags("permissions " + v)
	dir := appFlag(fs)
	role := new(string)
	max := -1
	switch v {
	case "list":
		role = fs.String("role", "", "only this role (type or name: public, authenticated, …)")
		max = 0
	case "grant", "revoke":
		role = fs.String("role", "", "role type or name (public, authenticated, …)")
	case "actions":
		max = 0
	}
	pos, err := parseFlags(fs, args[1:], max, stdout)
	if err != nil {
		return err
	}
	if (v == "grant" || v == "revoke") && *role == "" {
		return &usageError{fs.Name(), fmt.Errorf("permissions %s: give --role", v)}
	}
	if (v == "grant" || v == "revoke") && len(pos) == 0 {
		return &usageError{fs.Name(), fmt.Errorf("permissions %s: give one or more actions (quarry permissions actions lists them)", v)}
	}
	a, err := openAdmin(ctx, *dir, getenv, log)
	if err != nil {
		return err
	}
	defer a.DB.Close()
	switch args[0] {
	case "actions":
		for _, act := range userspermissions.Actions(a.Schema) {
			fmt.Fprintln(stdout, act)
		}
		return nil
	case "list":
		roles, err := userspermissions.Roles(ctx, a.DB)
		if err != nil {
			return err
		}
		found := false
		for _, r := range roles {
			if *role != "" && r.Type != *role && !strings.EqualFold(r.Name, *role) {
				continue
			}
			found = true
			list, err := userspermissions.RoleActions(ctx, a.DB, r.ID)
			if err != nil {
				return err
			}
			for _, act := range list {
				fmt.Fprintf(stdout, "%s\t%s\n", r.Type, act)
			}
		}
		if *role != "" && !found {
			return fmt.Errorf("no role %q; 'quarry permissions list --app %s' shows the roles (public, authenticated, …)", *role, *dir)
		}
		return nil
	case "grant", "revoke":
		r, err := userspermissions.FindRole(ctx, a.DB, *role)
		if errors.Is(err, userspermissions.ErrNoRole) {
			return fmt.Errorf("%w; 'quarry permissions list --app %s' shows the roles (public, authenticated, …)", err, *dir)
		}
		if err != nil {
			return err
		}
		var acts multiFlag
		for _, arg := range pos {
			acts.Set(arg)
		}
		var changed []string
		if args[0] == "grant" {
			expanded, err := userspermissions.ExpandActions(a.Schema, acts)
			if err != nil {
				return err
			}
			changed, err = userspermissions.Grant(ctx, a.DB, r.ID, expanded, time.Now())
			if err != nil {
				return err
			}
		} else {
			// Revoking accepts any action name, so stale ones can be cleaned up.
			list := []string(acts)
			if expanded, err := userspermissions.ExpandActions(a.Schema, acts); err == nil {
				list = expanded
			}
			changed, err = userspermissions.Revoke(ctx, a.DB, r.ID, list)
			if err != nil {
				return err
			}
		}
		a.DB.SettingsChanged(ctx) // running servers enforce the change at once
		verb := map[string]string{"grant": "granted", "revoke": "revoked"}[args[0]]
		if len(changed) == 0 {
			fmt.Fprintf(stdout, "%s: nothing to change\n", r.Type)
		}
		for _, act := range changed {
			fmt.Fprintf(stdout, "%s %s\t%s\n", verb, r.Type, act)
		}
		return nil
	}
	return fmt.Errorf("permissions: unknown subcommand %q", args[0])
}
