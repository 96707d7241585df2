package gqlschema

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/schemas/projectconfig"
)

// Config is the GraphQL plugin's configuration: the keys Strapi v4 reads from
// config/plugins.js under graphql.config, read here from config/plugins.json.
type Config struct {
	// Enabled is graphql.enabled; false mounts nothing.
	Enabled bool
	// Endpoint is the path the endpoint is served at.
	Endpoint string
	// ShadowCRUD turns the generated types, queries and mutations on or off as a whole.
	ShadowCRUD bool
	// PlaygroundAlways serves the playground in production too.
	PlaygroundAlways bool
	// DepthLimit bounds the nesting of an operation's selections; 0 means no limit
	// (Strapi's code never sets its documented default of 10).
	DepthLimit int
	// AmountLimit caps the number of entries of any list in a response (default 100).
	// Strapi documents it but does not apply it; Quarry applies it as the issue asks.
	AmountLimit int
	// MaxAliases, MaxRepeatedFields, MaxFields and MaxEstimatedRows are Quarry's cost
	// limits (docs/graphql-limits.md); 0 or less turns one off.
	MaxAliases        int
	MaxRepeatedFields int
	MaxFields         int
	MaxEstimatedRows  int
	// DefaultLimit is the page size when a query gives no pagination (Strapi: 10).
	DefaultLimit int
	// MaxLimit caps limit/pageSize; -1 means no cap (Strapi's default).
	MaxLimit int
	// Tracing adds Apollo tracing timings to extensions.tracing (apolloServer.tracing).
	Tracing bool
	// TypeDefs is SDL appended to the generated schema (extension typeDefs).
	TypeDefs string
	// ResolversConfig configures resolvers by "Type.field" (auth, scope). Policies and
	// middlewares are Go functions and come through the Extension API only.
	ResolversConfig map[string]ResolverConfig
	// UsersPermissionsOff and I18nOff are those plugins not on (not installed, or disabled
	// in config/plugins): their types, queries and mutations are left out, as Strapi
	// registers none of them then.
	UsersPermissionsOff, I18nOff bool

	ext *Extension
}

// DefaultConfig is Strapi v4's GraphQL default, plus Quarry's amountLimit of 100.
func DefaultConfig() Config {
	return Config{
		Enabled:      true,
		Endpoint:     "/graphql",
		ShadowCRUD:   true,
		AmountLimit:  100,
		DefaultLimit: 10,
		MaxLimit:     -1,

		MaxAliases:        200,
		MaxRepeatedFields: 50,
		MaxFields:         5000,
		MaxEstimatedRows:  200000,
	}
}

// Extension returns the Shadow CRUD extension service of this configuration, creating it on
// first use. A Go program embedding Quarry customises the schema through it before the
// handler is built: cfg.Extension().ShadowCRUD("api::article.article").DisableAction("delete").
func (c *Config) Extension() *Extension {
	if c.ext == nil {
		c.ext = NewExtension()
	}
	return c.ext
}

// rawPlugins is config/plugins.json; only the graphql entry is read.
type rawPlugins struct {
	GraphQL *struct {
		Enabled *bool      `json:"enabled"`
		Config  *rawConfig `json:"config"`
	} `json:"graphql"`
}

type rawConfig struct {
	Endpoint          *string         `json:"endpoint"`
	ShadowCRUD        json.RawMessage `json:"shadowCRUD"`
	PlaygroundAlways  *bool           `json:"playgroundAlways"`
	DepthLimit        *int            `json:"depthLimit"`
	AmountLimit       *int            `json:"amountLimit"`
	DefaultLimit      *int            `json:"defaultLimit"`
	MaxLimit          *int            `json:"maxLimit"`
	MaxAliases        *int            `json:"maxAliases"`
	MaxRepeatedFields *int            `json:"maxRepeatedFields"`
	MaxFields         *int            `json:"maxFields"`
	MaxEstimatedRows  *int            `json:"maxEstimatedRows"`
	ApolloServer      *struct {
		Tracing *bool `json:"tracing"`
	} `json:"apolloServer"`
	TypeDefs        *string                      `json:"typeDefs"`
	ResolversConfig map[string]rawResolverConfig `json:"resolversConfig"`
}

type rawResolverConfig struct {
	// Auth is false, or an object with a scope (Strapi's auth: { scope: [...] }).
	Auth  json.RawMessage `json:"auth"`
	Scope []string        `json:"scope"`
}

// rawType is the JSON form of the Shadow CRUD switches of one content type, for users who
// do not write Go:
//
//	"shadowCRUD": { "api::article.article": { "enabled": true, "queries": true,
//	    "mutations": true, "disabledActions": ["delete"],
//	    "fields": { "body": { "enabled": true, "output": true, "input": true, "filters": false } } } }
type rawType struct {
	Enabled         *bool               `json:"enabled"`
	Queries         *bool               `json:"queries"`
	Mutations       *bool               `json:"mutations"`
	DisabledActions []string            `json:"disabledActions"`
	Fields          map[string]rawField `json:"fields"`
}

type rawField struct {
	Enabled *bool `json:"enabled"`
	Output  *bool `json:"output"`
	Input   *bool `json:"input"`
	Filters *bool `json:"filters"`
}

// LoadConfig reads the plugins configuration of an app folder (config/plugins.*, with the
// process environment and .env, as projectconfig reads it). None gives the defaults.
func LoadConfig(appDir string) (Config, error) {
	c := DefaultConfig()
	proj, err := projectconfig.Load(context.Background(), projectconfig.Options{Dir: appDir, LookupEnv: os.LookupEnv})
	if err != nil {
		return c, err
	}
	data := proj.JSON("plugins")
	if data == nil {
		return c, nil
	}
	if err := c.parse(data); err != nil {
		return c, fmt.Errorf("%s: %w", strings.Join(proj.Files("plugins"), ", "), err)
	}
	return c, nil
}

// ParseConfig reads the plugins configuration as JSON (nil when the project has none: the
// defaults).
func ParseConfig(data []byte) (Config, error) {
	c := DefaultConfig()
	if len(bytes.TrimSpace(data)) == 0 {
		return c, nil
	}
	err := c.parse(data)
	return c, err
}

func (c *Config) parse(data []byte) error {
	var rp rawPlugins
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&rp); err != nil {
		return fmt.Errorf("invalid JSON: %w", err)
	}
	if rp.GraphQL == nil {
		return nil
	}
	if rp.GraphQL.Enabled != nil {
		c.Enabled = *rp.GraphQL.Enabled
	}
	rc := rp.GraphQL.Config
	if rc == nil {
		return nil
	}
	if rc.Endpoint != nil {
		if *rc.Endpoint == "" || (*rc.Endpoint)[0] != '/' {
			return fmt.Errorf("graphql.config.endpoint must start with /, got %q", *rc.Endpoint)
		}
		c.Endpoint = *rc.Endpoint
	}
	if rc.PlaygroundAlways != nil {
		c.PlaygroundAlways = *rc.PlaygroundAlways
	}
	if rc.DepthLimit != nil {
		if *rc.DepthLimit < 0 {
			return fmt.Errorf("graphql.config.depthLimit must not be negative")
		}
		c.DepthLimit = *rc.DepthLimit
	}
	if rc.AmountLimit != nil {
		c.AmountLimit = *rc.AmountLimit
	}
	if rc.DefaultLimit != nil {
		if *rc.DefaultLimit < 1 {
			return fmt.Errorf("graphql.config.defaultLimit must be at least 1")
		}
		c.DefaultLimit = *rc.DefaultLimit
	}
	if rc.MaxLimit != nil {
		c.MaxLimit = *rc.MaxLimit
	}
	for _, l := range []struct {
		to   *int
		from *int
	}{{&c.MaxAliases, rc.MaxAliases}, {&c.MaxRepeatedFields, rc.MaxRepeatedFields}, {&c.MaxFields, rc.MaxFields}, {&c.MaxEstimatedRows, rc.MaxEstimatedRows}} {
		if l.from != nil {
			*l.to = *l.from
		}
	}
	if rc.ApolloServer != nil && rc.ApolloServer.Tracing != nil {
		c.Tracing = *rc.ApolloServer.Tracing
	}
	if rc.TypeDefs != nil {
		c.TypeDefs = *rc.TypeDefs
	}
	if len(rc.ResolversConfig) > 0 {
		c.ResolversConfig = map[string]ResolverConfig{}
		for k, v := range rc.ResolversConfig {
			rcfg := ResolverConfig{Scope: v.Scope}
			switch s := string(bytes.TrimSpace(v.Auth)); {
			case s == "" || s == "null" || s == "true":
			case s == "false":
				rcfg.AuthDisabled = true
			case s[0] == '{':
				var a struct {
					Scope []string `json:"scope"`
				}
				if err := json.Unmarshal(v.Auth, &a); err != nil {
					return fmt.Errorf("graphql.config.resolversConfig[%q].auth: %w", k, err)
				}
				rcfg.Scope = append(rcfg.Scope, a.Scope...)
			default:
				return fmt.Errorf("graphql.config.resolversConfig[%q].auth must be false or an object", k)
			}
			c.ResolversConfig[k] = rcfg
		}
	}
	return c.parseShadowCRUD(rc.ShadowCRUD)
}

// parseShadowCRUD accepts Strapi's boolean or Quarry's per-type object of switches.
func (c *Config) parseShadowCRUD(raw json.RawMessage) error {
	s := string(bytes.TrimSpace(raw))
	switch {
	case s == "" || s == "null":
		return nil
	case s == "true" || s == "false":
		c.ShadowCRUD = s == "true"
		return nil
	}
	var types map[string]rawType
	if err := json.Unmarshal(raw, &types); err != nil {
		return fmt.Errorf("graphql.config.shadowCRUD must be a boolean or an object keyed by content-type uid: %w", err)
	}
	uids := make([]string, 0, len(types))
	for uid := range types {
		uids = append(uids, uid)
	}
	sort.Strings(uids)
	ext := c.Extension()
	for _, uid := range uids {
		rt := types[uid]
		t := ext.ShadowCRUD(uid)
		if rt.Enabled != nil && !*rt.Enabled {
			t.Disable()
		}
		if rt.Queries != nil && !*rt.Queries {
			t.DisableQueries()
		}
		if rt.Mutations != nil && !*rt.Mutations {
			t.DisableMutations()
		}
		for _, a := range rt.DisabledActions {
			if !validAction(a) {
				return fmt.Errorf("graphql.config.shadowCRUD[%q].disabledActions: unknown action %q (use create, find, findOne, update, delete)", uid, a)
			}
		}
		t.DisableActions(rt.DisabledActions)
		for name, rf := range rt.Fields {
			f := t.Field(name)
			if rf.Enabled != nil && !*rf.Enabled {
				f.Disable()
			}
			if rf.Output != nil && !*rf.Output {
				f.DisableOutput()
			}
			if rf.Input != nil && !*rf.Input {
				f.DisableInput()
			}
			if rf.Filters != nil && !*rf.Filters {
				f.DisableFilters()
			}
		}
	}
	return nil
}

// AppSDL loads an app folder's schemas and config/plugins.json and returns the SDL of its
// GraphQL schema (what `quarry schema --app DIR` prints). A Go program that customises the
// schema through Extension builds it with Build instead.
func AppSDL(appDir string, load func(string) (*schemas.Schema, error)) (string, error) {
	cs, err := load(appDir)
	if err != nil {
		return "", err
	}
	cfg, err := LoadConfig(appDir)
	if err != nil {
		return "", err
	}
	s, err := Build(cs, cfg)
	if err != nil {
		return "", err
	}
	return s.SDL(), nil
}
