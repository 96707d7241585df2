package projectconfig

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/go-playground/validator/v10"
)

// Typed is the checked view of the configuration keys Quarry honours.
type Typed struct {
	// Database is nil when the project has no database configuration.
	Database *Database
	Server   Server
	API      API
	Admin    Admin
	// PluginDecls is every entry of config/plugins.*, as declared.
	PluginDecls map[string]Plugin
	Plugins     Plugins
	// Middlewares is nil when the project has no middlewares configuration.
	Middlewares []Middleware
	Body        BodyConfig
}

// Quarry is config/quarry.*, Quarry's own settings for what Strapi keeps in code.
type Quarry struct {
	// CustomFields maps custom-field uids of plugins Quarry does not know to their
	// underlying type: {"plugin::my-plugin.rating": "integer"}.
	CustomFields map[string]string `json:"customFields" validate:"omitempty,dive,customfieldtype"`
	// ResponseCache configures the exact response cache (transport/respcache).
	ResponseCache ResponseCache `json:"responseCache"`
	// Fetch lists the hosts the project's code may reach with fetch, axios or node-fetch.
	Fetch Fetch `json:"fetch"`
}

// Fetch is config/quarry's fetch: {allow: ["api.example.com", "*.example.com", "host:8443"]}.
type Fetch struct {
	Allow []string `json:"allow" validate:"dive,required"`
}

// ResponseCache is config/quarry's responseCache: {enabled, maxBytes, maxEntryBytes}.
type ResponseCache struct {
	// Enabled is nil when not set (the default applies).
	Enabled       *bool `json:"enabled"`
	MaxBytes      int64 `json:"maxBytes" validate:"gte=0"`
	MaxEntryBytes int   `json:"maxEntryBytes" validate:"gte=0"`
}

// Quarry decodes and checks config/quarry.*; a violation is a *KeyError.
func (p *Project) Quarry() (Quarry, error) {
	var q Quarry
	err := p.Decode("quarry", &q)
	return q, err
}

// Typed decodes and checks the known keys; the first violation is a *KeyError.
func (p *Project) Typed() (*Typed, error) {
	t := &Typed{}
	if p.Has("database") {
		t.Database = &Database{}
		if err := p.Decode("database", t.Database); err != nil {
			return nil, err
		}
	}
	var decls map[string]json.RawMessage
	if err := p.Decode("plugins", &decls); err != nil {
		return nil, err
	}
	t.PluginDecls = map[string]Plugin{}
	for name, raw := range decls {
		var d Plugin
		if err := json.Unmarshal(raw, &d); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				return nil, p.keyError("plugins", strings.Trim(name+"."+te.Field, "."), expectedOf(te.Type))
			}
			return nil, err
		}
		t.PluginDecls[name] = d
	}
	for name, out := range map[string]any{"server": &t.Server, "api": &t.API, "admin": &t.Admin} {
		if err := p.Decode(name, out); err != nil {
			return nil, err
		}
	}
	// The shorthand `graphql: true` has no config to check.
	if m, ok := p.merged["plugins"].(map[string]any); ok {
		objs := map[string]any{}
		for k, v := range m {
			if _, ok := v.(map[string]any); ok {
				objs[k] = v
			}
		}
		if err := p.decodeValue("plugins", objs, &t.Plugins); err != nil {
			return nil, err
		}
	}
	if p.Has("middlewares") {
		if err := p.Decode("middlewares", &t.Middlewares); err != nil {
			return nil, err
		}
		for i, m := range t.Middlewares {
			if m.Name != "strapi::body" || m.Config == nil {
				continue
			}
			raw, _ := json.Marshal(m.Config)
			prefix := fmt.Sprintf("%d.config.", i)
			if err := json.Unmarshal(raw, &t.Body); err != nil {
				var te *json.UnmarshalTypeError
				if errors.As(err, &te) {
					return nil, p.keyError("middlewares", prefix+te.Field, expectedOf(te.Type))
				}
				return nil, err
			}
			if err := validate.Struct(&t.Body); err != nil {
				var ves validator.ValidationErrors
				if errors.As(err, &ves) && len(ves) > 0 {
					_, ns, _ := strings.Cut(ves[0].Namespace(), ".")
					return nil, p.keyError("middlewares", prefix+ns, constraintText(ves[0]))
				}
				return nil, err
			}
		}
	}
	return t, nil
}

// Implemented plugins are served by Quarry; adminOnly ones have nothing to serve on the
// content API (admin panel screens, custom field inputs), so they need no warning.
var (
	implementedPlugins = map[string]bool{"users-permissions": true, "graphql": true, "upload": true, "i18n": true,
		"email": true, "populate-deep": true, "strapi-plugin-populate-deep": true}
	adminOnlyPlugins = map[string]bool{"content-manager": true, "content-type-builder": true, "cloud": true,
		"color-picker": true, "seo": true,
		// Custom-field plugins: Quarry serves their fields (schemas/customfields.go); their
		// inputs live in the admin panel.
		"ckeditor": true, "ckeditor5": true, "country-select": true, "multi-country-select": true, "multi-select": true,
		"remote-select": true, "strapi-advanced-uuid": true, "iconhub": true, "strapi-plugin-iconhub": true}
)

// UnimplementedPlugins lists the enabled plugins Quarry does not implement: those declared
// in config/plugins.* without `enabled: false`, and those a package.json dependency enables
// on its own (Strapi enables every installed plugin package unless plugins.* disables it).
func (p *Project) UnimplementedPlugins(t *Typed) []string {
	enabled := map[string]bool{}
	for _, name := range p.dependencyPlugins() {
		enabled[name] = true
	}
	for name := range t.PluginDecls {
		enabled[name] = p.PluginOn(name, t)
	}
	var out []string
	for name, on := range enabled {
		if on && !implementedPlugins[name] && !adminOnlyPlugins[name] && !p.localPlugin(name) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// IgnoredPluginSwitches names the internal plugins plugins.* declares enabled: false, which
// Strapi (and so Quarry) leaves on.
func (p *Project) IgnoredPluginSwitches(t *Typed) []string {
	var out []string
	for name, d := range t.PluginDecls {
		if internalPlugins[name] && d.Enabled != nil && !*d.Enabled {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// dependencyPlugins names the Strapi plugins package.json depends on: the plugin name
// from node_modules/<pkg>/package.json's strapi.kind/name when installed, else from the
// package name's convention (@strapi/plugin-X, strapi-plugin-X, @scope/strapi-plugin-X).
func (p *Project) dependencyPlugins() []string {
	data, err := os.ReadFile(filepath.Join(p.Dir, "package.json"))
	if err != nil {
		return nil
	}
	var pkg struct {
		Dependencies map[string]any `json:"dependencies"`
	}
	if json.Unmarshal(data, &pkg) != nil {
		return nil
	}
	var out []string
	for dep := range pkg.Dependencies {
		if name, ok := p.installedPlugin(dep); ok {
			out = append(out, name)
			continue
		}
		base := dep
		if i := strings.LastIndex(dep, "/"); i >= 0 {
			base = dep[i+1:]
		}
		switch {
		case strings.HasPrefix(dep, "@strapi/plugin-"):
			out = append(out, strings.TrimPrefix(dep, "@strapi/plugin-"))
		case strings.HasPrefix(base, "strapi-plugin-"):
			out = append(out, strings.TrimPrefix(base, "strapi-plugin-"))
		}
	}
	return out
}

func (p *Project) installedPlugin(dep string) (string, bool) {
	if strings.Contains(dep, "..") {
		return "", false
	}
	data, err := os.ReadFile(filepath.Join(p.Dir, "node_modules", filepath.FromSlash(dep), "package.json"))
	if err != nil {
		return "", false
	}
	var pkg struct {
		Strapi struct {
			Kind string `json:"kind"`
			Name string `json:"name"`
		} `json:"strapi"`
	}
	if json.Unmarshal(data, &pkg) != nil || pkg.Strapi.Kind != "plugin" || pkg.Strapi.Name == "" {
		return "", false
	}
	return pkg.Strapi.Name, true
}

// localPlugin says whether name is a local plugin (src/plugins/<name>): the route table
// decides how its routes are served (Quarry's runtime for project code, or refused).
func (p *Project) localPlugin(name string) bool {
	st, err := os.Stat(filepath.Join(p.Dir, "src", "plugins", name))
	return err == nil && st.IsDir()
}

// LocalPlugins are the local plugins Strapi loads: the folders under src/plugins that
// config/plugins declares with enabled: true (Strapi's loader takes a local plugin only from
// its declaration's resolve), in name order.
func (p *Project) LocalPlugins() []string {
	decls, _ := p.Value("plugins").(map[string]any)
	var out []string
	for name, d := range decls {
		decl, _ := d.(map[string]any)
		if on, _ := decl["enabled"].(bool); on && p.localPlugin(name) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// internalPlugins are on in every Strapi 4 project, whatever plugins.* says: Strapi 4.26.2's
// loader (getEnabledPlugins) lays the declarations under its internal plugins' own
// enabled: true (lodash defaultsDeep), so `upload: { enabled: false }` changes nothing.
var internalPlugins = map[string]bool{"content-manager": true, "content-type-builder": true, "email": true, "upload": true,
	"content-releases": true}

// PluginOn is whether Strapi runs the plugin name, as its loader decides: an internal plugin
// (email, upload, ...) always; another that plugins.* declares with `enabled` as that says;
// one declared without it, or not declared, when it is installed (a package.json dependency,
// or a local plugin under src/plugins). A project without package.json (a folder of schemas
// only) cannot say what is installed: every plugin Quarry implements is then on unless
// declared off, as before.
func (p *Project) PluginOn(name string, t *Typed) bool {
	if internalPlugins[name] {
		return true
	}
	if d, ok := t.PluginDecls[name]; ok && d.Enabled != nil {
		return *d.Enabled
	}
	if _, err := os.Stat(filepath.Join(p.Dir, "package.json")); err != nil {
		return true
	}
	if st, err := os.Stat(filepath.Join(p.Dir, "src", "plugins", name)); err == nil && st.IsDir() {
		return true
	}
	return slices.Contains(p.dependencyPlugins(), name)
}
