// Package projectconfig reads a Strapi v4 project's configuration as Strapi does:
// config/<name>.{js,json,ts}, deep-merged with config/env/<NODE_ENV>/<name>.*, JavaScript
// evaluated with Strapi's `env` helper over the process environment and the project's .env
// (the process environment wins). Each name's value is JSON-like (map[string]any, []any,
// string, float64, bool, nil); the typed views Quarry uses are in typed.go.
package projectconfig

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/quarrycms/quarry/schemas/jseval"
)

// Options say where and with which environment to load.
type Options struct {
	// Dir is the project folder (the one with config/ and src/).
	Dir string
	// LookupEnv is the process environment; it wins over .env.
	LookupEnv func(key string) (string, bool)
	// EnvKeys enumerates the process environment (process.env's keys); optional.
	EnvKeys []string
	// Timeout bounds each file's evaluation (jseval.DefaultTimeout when zero).
	Timeout time.Duration
}

// Layer is one file's contribution to a name, in merge order.
type Layer struct {
	File  string // path relative to the project folder, e.g. config/env/production/api.js
	Value any
}

// Project is a loaded configuration.
type Project struct {
	Dir string
	// Env is the environment name whose config/env folder was merged (NODE_ENV, with
	// QUARRY_ENV winning; "development" when unset).
	Env string
	// DotenvFile is the .env file read, relative to Dir ("" when there is none).
	DotenvFile string
	// Unresolved lists, per file, npm modules a config file required that Quarry does not
	// provide (they evaluate to an empty object).
	Unresolved map[string][]string

	opts    Options
	dotenv  map[string]string
	dotKeys []string
	names   map[string][]Layer
	merged  map[string]any
}

// extensions Quarry reads, in the order Strapi's readdir would meet them (the last wins
// within one folder: a .json beside a .js overrides it, as in Strapi).
var extensions = []string{".js", ".json", ".ts"}

// Load reads the project's .env and configuration files.
func Load(ctx context.Context, opts Options) (*Project, error) {
	if opts.LookupEnv == nil {
		opts.LookupEnv = func(string) (string, bool) { return "", false }
	}
	p := &Project{Dir: opts.Dir, opts: opts, names: map[string][]Layer{}, merged: map[string]any{},
		Unresolved: map[string][]string{}}
	if err := p.readDotenv(); err != nil {
		return nil, err
	}
	p.Env = "development"
	for _, k := range []string{"QUARRY_ENV", "NODE_ENV"} {
		if v, ok := p.Lookup(k); ok && strings.TrimSpace(v) != "" {
			p.Env = strings.TrimSpace(v)
			break
		}
	}
	if err := p.readFolder(ctx, "config"); err != nil {
		return nil, err
	}
	if p.Env != "" && !strings.ContainsAny(p.Env, `/\`) && p.Env != "." && p.Env != ".." {
		if err := p.readFolder(ctx, filepath.Join("config", "env", p.Env)); err != nil {
			return nil, err
		}
	}
	for name, layers := range p.names {
		var v any
		for _, l := range layers {
			v = Merge(v, l.Value)
		}
		p.merged[name] = v
	}
	return p, nil
}

func (p *Project) readDotenv() error {
	d, err := ReadDotenv(p.Dir, p.opts.LookupEnv)
	if err != nil {
		return err
	}
	p.dotenv, p.dotKeys, p.DotenvFile = d.Vars, d.Keys, d.File
	return nil
}

// Dotenv is a project's .env file as read by ReadDotenv.
type Dotenv struct {
	File string            // the path read, relative to the project folder unless ENV_PATH is absolute; "" when there is none
	Vars map[string]string // its variables
	Keys []string          // their names, in file order
}

// ReadDotenv reads the project's .env file (or the one ENV_PATH names, as Strapi does); a
// missing file is no error. Load reads it through here; so does the command line, which
// needs LOG_LEVEL and LOG_FORMAT before it loads the rest of the project.
func ReadDotenv(dir string, lookupEnv func(string) (string, bool)) (Dotenv, error) {
	path := ".env"
	if v, ok := lookupEnv("ENV_PATH"); ok && v != "" {
		path = v
	}
	full := path
	if !filepath.IsAbs(full) {
		full = filepath.Join(dir, path)
	}
	data, err := os.ReadFile(full)
	if errors.Is(err, fs.ErrNotExist) {
		return Dotenv{}, nil
	}
	if err != nil {
		return Dotenv{}, fmt.Errorf("read %s: %w", path, err)
	}
	vars, keys := ParseDotenv(data)
	return Dotenv{File: path, Vars: vars, Keys: keys}, nil
}

// Lookup reads an environment variable as Strapi's process.env has it after dotenv: the
// process's value, else the .env file's.
func (p *Project) Lookup(key string) (string, bool) {
	if v, ok := p.opts.LookupEnv(key); ok {
		return v, true
	}
	v, ok := p.dotenv[key]
	return v, ok
}

// Getenv is Lookup without the presence flag.
func (p *Project) Getenv(key string) string {
	v, _ := p.Lookup(key)
	return v
}

// EvalOptions are the sandbox options this project's files are evaluated with (route and
// controller files use them too).
func (p *Project) EvalOptions() jseval.Options {
	keys := slices.Clone(p.opts.EnvKeys)
	keys = append(keys, p.dotKeys...)
	return jseval.Options{Root: p.Dir, LookupEnv: p.Lookup, EnvKeys: keys, Timeout: p.opts.Timeout}
}

func (p *Project) readFolder(ctx context.Context, rel string) error {
	entries, err := os.ReadDir(filepath.Join(p.Dir, rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", rel, err)
	}
	// Names in Strapi's readdir order, so that the last file of a name wins.
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	found := map[string]Layer{}
	var order []string
	for _, e := range entries {
		ext := filepath.Ext(e.Name())
		if !e.Type().IsRegular() || !slices.Contains(extensions, ext) || strings.HasSuffix(e.Name(), ".d.ts") {
			continue
		}
		name := strings.TrimSuffix(e.Name(), ext)
		file := filepath.Join(rel, e.Name())
		v, err := p.loadFile(ctx, file)
		if err != nil {
			return err
		}
		if _, ok := found[name]; !ok {
			order = append(order, name)
		}
		found[name] = Layer{File: filepath.ToSlash(file), Value: v}
	}
	for _, name := range order {
		p.names[name] = append(p.names[name], found[name])
	}
	return nil
}

func (p *Project) loadFile(ctx context.Context, rel string) (any, error) {
	full := filepath.Join(p.Dir, rel)
	if filepath.Ext(rel) == ".json" {
		data, err := os.ReadFile(full)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", rel, err)
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			return nil, fmt.Errorf("Could not load json config file %s: %w", rel, err)
		}
		v, err = p.template(ctx, v)
		if err != nil {
			return nil, fmt.Errorf("Could not load json config file %s: %w", rel, err)
		}
		return v, nil
	}
	opts := p.EvalOptions()
	// A config file that reaches fs through what it requires (config/server.ts importing cron
	// tasks whose services read files) loads with fs an inert stub, as npm modules are, with
	// the warning every unresolved module gets. Where the settings are secrets and
	// connections (a CA certificate, a token salt or a provider's key read from a file) a
	// value must not silently go missing: there fs stays an error.
	switch strings.TrimSuffix(filepath.Base(rel), filepath.Ext(rel)) {
	case "database", "admin", "plugins":
	default:
		opts.StubNodeModules = true
	}
	res, err := jseval.EvalFile(ctx, full, opts)
	if err != nil {
		var je *jseval.Error
		if errors.As(err, &je) {
			err = je.Err
		}
		kind := "js"
		if filepath.Ext(rel) == ".ts" {
			kind = "ts"
		}
		return nil, fmt.Errorf("Could not load %s config file %s: %w", kind, rel, err)
	}
	if len(res.Unresolved) > 0 {
		p.Unresolved[filepath.ToSlash(rel)] = res.Unresolved
	}
	return res.Value, nil
}

// templateExpr is @strapi/utils templateConfiguration's test for a string of a JSON config
// file that is a JavaScript template (`"${process.env.HOST}"`).
var templateExpr = regexp.MustCompile(`\$\{[^()]*\}`)

// template evaluates the template strings of a JSON config file as Strapi's
// templateConfiguration does (strings directly under objects, not inside arrays).
func (p *Project) template(ctx context.Context, v any) (any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return v, nil
	}
	for k, x := range m {
		switch t := x.(type) {
		case map[string]any:
			y, err := p.template(ctx, t)
			if err != nil {
				return nil, err
			}
			m[k] = y
		case string:
			if templateExpr.MatchString(t) {
				s, err := jseval.Template(ctx, t, p.EvalOptions())
				if err != nil {
					return nil, err
				}
				m[k] = s
			}
		}
	}
	return m, nil
}

// Names lists the configuration names found (api, database, plugins, …), sorted.
func (p *Project) Names() []string {
	out := make([]string, 0, len(p.merged))
	for k := range p.merged {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Value is a name's merged value; nil when no file defines it.
func (p *Project) Value(name string) any { return p.merged[name] }

// Has reports whether a file defines the name.
func (p *Project) Has(name string) bool { _, ok := p.merged[name]; return ok }

// JSON is a name's merged value as JSON; nil when no file defines it.
func (p *Project) JSON(name string) []byte {
	v, ok := p.merged[name]
	if !ok {
		return nil
	}
	b, _ := json.Marshal(v)
	return b
}

// Layers are the files that define a name, base first.
func (p *Project) Layers(name string) []Layer { return p.names[name] }

// Files lists the files that define a name, base first; "config/<name>" when none does.
func (p *Project) Files(name string) []string {
	var out []string
	for _, l := range p.names[name] {
		out = append(out, l.File)
	}
	return out
}

// SourceOf names the file that gave the value at a key path of a name: the last layer that
// defines the path (an env override wins), else the base file, else "config/<name>".
func (p *Project) SourceOf(name string, path []string) string {
	layers := p.names[name]
	for i := len(layers) - 1; i >= 0; i-- {
		if hasPath(layers[i].Value, path) {
			return layers[i].File
		}
	}
	if len(layers) > 0 {
		return layers[0].File
	}
	return "config/" + name
}

func hasPath(v any, path []string) bool {
	for _, k := range path {
		switch t := v.(type) {
		case map[string]any:
			x, ok := t[k]
			if !ok {
				return false
			}
			v = x
		case []any:
			i := -1
			fmt.Sscan(k, &i)
			if i < 0 || i >= len(t) {
				return false
			}
			v = t[i]
		default:
			return false
		}
	}
	return true
}
