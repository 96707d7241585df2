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
	"strconv"

	"quarry/auth"
	"quarry/database"
	"quarry/i18n"
	"quarry/planner"
	"quarry/schemas"
	"quarry/transport/email"
)

// App is a loaded app folder with its database.
type App struct {
	Dir    string
	Schema *schemas.Schema
	DB     *database.DB
	REST   planner.Config
	// I18n manages locales (the default locale exists from the first start).
	I18n *i18n.Service
	// TokenSalt is API_TOKEN_SALT (config/admin.json apiToken.salt as a fallback).
	TokenSalt string
	// Auth is the users-permissions configuration (config/plugins.json); see auth.go.
	Auth auth.Config
	// Email is the email plugin's configuration: the provider that sends the
	// users-permissions e-mails.
	Email email.Config
}

type apiConfig struct {
	REST struct {
		DefaultLimit *int  `json:"defaultLimit"`
		MaxLimit     *int  `json:"maxLimit"`
		WithCount    *bool `json:"withCount"`
	} `json:"rest"`
}

type adminConfig struct {
	APIToken struct {
		Salt string `json:"salt"`
	} `json:"apiToken"`
}

// Open loads the schemas and configuration of dir, connects to its database and migrates it.
func Open(ctx context.Context, dir string, getenv func(string) string, log *slog.Logger) (*App, error) {
	dbc, err := database.ConfigFor(dir, getenv)
	if err != nil {
		return nil, err
	}
	dbc.Log = log
	db, err := database.Open(ctx, dbc)
	if err != nil {
		return nil, err
	}
	a, err := open(ctx, dir, getenv, log, db)
	if err != nil {
		db.Close()
		return nil, err
	}
	return a, nil
}

func open(ctx context.Context, dir string, getenv func(string) string, log *slog.Logger, db *database.DB) (*App, error) {
	opts, err := schemaOptions(dir, log)
	if err != nil {
		return nil, err
	}
	opts.StoredType = db.StoredType(ctx)
	s, err := schemas.LoadWith(dir, opts)
	if err != nil {
		return nil, err
	}
	a := &App{Dir: dir, Schema: s, REST: planner.DefaultConfig()}
	var ac apiConfig
	if err := readJSON(filepath.Join(dir, "config", "api.json"), &ac); err != nil {
		return nil, err
	}
	if v := ac.REST.DefaultLimit; v != nil && *v > 0 {
		a.REST.DefaultLimit = *v
	}
	if v := ac.REST.MaxLimit; v != nil && *v > 0 {
		a.REST.MaxLimit = *v
	}
	if v := ac.REST.WithCount; v != nil {
		a.REST.WithCount = *v
	}
	plugins, err := readOptional(filepath.Join(dir, "config", "plugins.json"))
	if err != nil {
		return nil, err
	}
	if a.REST.Deep, err = PopulateDeepConfig(dir, plugins, getenv, a.REST.Deep); err != nil {
		return nil, err
	}
	var adm adminConfig
	if err := readJSON(filepath.Join(dir, "config", "admin.json"), &adm); err != nil {
		return nil, err
	}
	a.TokenSalt = adm.APIToken.Salt
	if v := getenv("API_TOKEN_SALT"); v != "" {
		a.TokenSalt = v
	}
	if a.TokenSalt == "" {
		if a.TokenSalt, err = localSecret(dir, "api-token-salt"); err != nil {
			return nil, err
		}
	}
	if err := db.Migrate(ctx, s, log); err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	a.DB = db
	ic, err := i18n.LoadConfig(dir)
	if err != nil {
		return nil, err
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

// quarryConfig is config/quarry.json, Quarry's own settings for what Strapi keeps in code.
type quarryConfig struct {
	// CustomFields maps custom-field uids of plugins Quarry does not know to their
	// underlying type: {"plugin::my-plugin.rating": "integer"}.
	CustomFields map[string]string `json:"customFields"`
}

// schemaOptions reads the schema loader's settings from config/quarry.json.
func schemaOptions(dir string, log *slog.Logger) (schemas.Options, error) {
	file := filepath.Join(dir, "config", "quarry.json")
	var qc quarryConfig
	if err := readJSON(file, &qc); err != nil {
		return schemas.Options{}, err
	}
	opts := schemas.Options{CustomFields: qc.CustomFields, CustomFieldsFile: file}
	if log != nil {
		opts.Warn = log.Warn
	}
	return opts, nil
}

// readJSON reads an optional JSON config file.
func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
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
	opts, err := schemaOptions(dir, nil)
	if err != nil {
		return nil, err
	}
	return schemas.LoadWith(dir, opts)
}
