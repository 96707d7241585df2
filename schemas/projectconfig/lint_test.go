package projectconfig

import (
	"context"
	"strings"
	"testing"
)

// A config key one typo away from one Quarry reads is named with the key meant (issue 28,
// item 12); known keys and keys far from any pass.
func TestLintConfigKeys(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"config/api.json":      `{"rest":{"defaultLimt":5,"maxLimit":10,"somethingElse":1}}`,
		"config/database.json": `{"connection":{"client":"sqlite","pool":{"mxa":3,"min":1}}}`,
		"config/server.js":     `module.exports = { host: '0.0.0.0', prot: 1337 };`,
	})
	p, err := Load(context.Background(), Options{Dir: dir, LookupEnv: lookup(nil)})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(p.Lint(), "\n")
	for _, want := range []string{"api.rest.defaultLimt (did you mean defaultLimit?)", "database.connection.pool.mxa (did you mean max?)",
		"server.prot (did you mean port?)", "config/api.json"} {
		if !strings.Contains(got, want) {
			t.Errorf("lint lacks %q:\n%s", want, got)
		}
	}
	for _, not := range []string{"maxLimit", "somethingElse", "host"} {
		if strings.Contains(got, not+" ") {
			t.Errorf("lint names %q:\n%s", not, got)
		}
	}
}

// Plugins are on as Strapi's loader decides (issue 28, item 5): installed from package.json,
// internal ones always (their `enabled: false` is ignored, as Strapi ignores it), a
// declaration's `enabled` over the installed ones; a custom-field plugin whose
// fields Quarry serves is not reported as unimplemented (item 11).
func TestPluginOn(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"package.json": `{"dependencies":{"@strapi/strapi":"4.26.2","@strapi/plugin-users-permissions":"4.26.2","@strapi/plugin-i18n":"4.26.2",
			"@ckeditor/strapi-plugin-ckeditor":"1.0.0"}}`,
		"config/plugins.json":        `{"i18n":{"enabled":false},"documentation":{"config":{}},"email":{"config":{}},"upload":{"enabled":false}}`,
		"src/plugins/mine/index.js":  `module.exports = {};`,
		"src/api/a/content-types/a/": "",
	})
	p, err := Load(context.Background(), Options{Dir: dir, LookupEnv: lookup(nil)})
	if err != nil {
		t.Fatal(err)
	}
	ty, err := p.Typed()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"graphql": false, "users-permissions": true, "i18n": false, "documentation": false,
		"email": true, "upload": true, "mine": true, "ckeditor": true} {
		if got := p.PluginOn(name, ty); got != want {
			t.Errorf("%s on: %v, want %v", name, got, want)
		}
	}
	// Strapi 4.26.2 ignores enabled: false on its internal plugins (checked on the oracle:
	// /api/upload/files still answers): so does Quarry, naming the switch.
	if got := p.IgnoredPluginSwitches(ty); len(got) != 1 || got[0] != "upload" {
		t.Errorf("ignored switches: %v", got)
	}
	if got := p.UnimplementedPlugins(ty); len(got) != 0 {
		t.Errorf("unimplemented: %v", got)
	}
	// A folder of schemas without package.json: every plugin Quarry implements stays on.
	bare := writeFiles(t, map[string]string{"config/plugins.json": `{"graphql":{"config":{}}}`})
	if p, err = Load(context.Background(), Options{Dir: bare, LookupEnv: lookup(nil)}); err != nil {
		t.Fatal(err)
	}
	if ty, err = p.Typed(); err != nil {
		t.Fatal(err)
	}
	if !p.PluginOn("graphql", ty) || !p.PluginOn("i18n", ty) {
		t.Errorf("without package.json graphql or i18n is off")
	}
}
