package projectconfig

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

func TestTypedWrongKeys(t *testing.T) {
	cases := []struct {
		files map[string]string
		want  string
	}{
		{map[string]string{"config/api.js": "module.exports = { rest: { maxLimit: 'lots' } };"},
			`config/api.js: rest.maxLimit is "lots", expected an integer`},
		{map[string]string{"config/api.js": "module.exports = { rest: { maxLimit: 100 } };",
			"config/env/production/api.js": "module.exports = { rest: { maxLimit: 0 } };", ".env": "NODE_ENV=production"},
			`config/env/production/api.js: rest.maxLimit is 0, expected a value of at least 1`},
		{map[string]string{"config/api.ts": "export default { rest: { withCount: 'false' } };"},
			`config/api.ts: rest.withCount is "false", expected a boolean`},
		{map[string]string{"config/database.js": "module.exports = ({ env }) => ({ connection: { client: 'oracle' } });"},
			`config/database.js: connection.client is "oracle", expected one of sqlite`},
		{map[string]string{"config/database.json": `{"connection": {"client": "postgres", "connection": {"port": 99999}}}`},
			`config/database.json: connection.connection.port is 99999, expected a value of at most 65535`},
		{map[string]string{"config/database.json": `{"connection": {"client": "postgres", "connection": {"schema": true}}}`},
			`config/database.json: connection.connection.schema is true, expected a string`},
		{map[string]string{"config/server.js": "module.exports = { port: 'http' };"},
			`config/server.js: port is "http", expected an integer`},
		{map[string]string{"config/plugins.js": "module.exports = { graphql: { config: { endpoint: 'gql' } } };"},
			`config/plugins.js: graphql.config.endpoint is "gql", expected a path starting with "/"`},
		{map[string]string{"config/plugins.js": "module.exports = { 'users-permissions': { config: { ratelimit: { max: -1 } } } };"},
			`config/plugins.js: users-permissions.config.ratelimit.max is -1, expected a value of at least 0`},
		{map[string]string{"config/plugins.js": "module.exports = { seo: 'yes' };"},
			`config/plugins.js: seo is "yes", expected a boolean or an object`},
		{map[string]string{"config/middlewares.js": "module.exports = ['strapi::errors', { name: 'strapi::body', config: { jsonLimit: 'huge' } }];"},
			`config/middlewares.js: 1.config.jsonLimit is "huge", expected a positive size`},
		{map[string]string{"config/middlewares.js": "module.exports = [{ name: 'strapi::body', config: { formidable: { maxFileSize: 0 } } }];"},
			`config/middlewares.js: 0.config.formidable.maxFileSize is 0, expected a value of at least 1`},
		{map[string]string{"config/plugins.js": "module.exports = { upload: { config: { breakpoints: { large: -5 } } } };"},
			`config/plugins.js: upload.config.breakpoints.large is -5, expected a value of at least 1`},
		{map[string]string{"config/quarry.json": `{"customFields": ["plugin::x.rating"]}`},
			`config/quarry.json: customFields is ["plugin::x.rating"], expected an object`},
		{map[string]string{"config/quarry.json": `{"customFields": {"plugin::x.rating": 5}}`},
			`config/quarry.json: customFields.plugin::x.rating is 5, expected a string`},
		{map[string]string{"config/quarry.json": `{"customFields": {"plugin::x.rating": "number"}}`},
			`config/quarry.json: customFields.plugin::x.rating is "number", expected a type a custom field can have (biginteger, boolean, date, datetime, decimal, email, enumeration, float, integer, json, password, richtext, string, text, time, uid)`},
	}
	for _, c := range cases {
		dir := writeFiles(t, c.files)
		p, err := Load(context.Background(), Options{Dir: dir})
		if err != nil {
			t.Errorf("load: %v", err)
			continue
		}
		if _, ok := c.files["config/quarry.json"]; ok {
			_, err = p.Quarry() // Quarry's own settings
		} else {
			_, err = p.Typed()
		}
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("got  %v\nwant %s", err, c.want)
		}
	}
}

func TestTypedValues(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"config/database.js": `module.exports = ({ env }) => ({ connection: { client: 'postgres', connection: {
  host: env('DATABASE_HOST', 'localhost'), port: env('DATABASE_PORT', 5432), ssl: env.bool('DATABASE_SSL', false) && { rejectUnauthorized: false } },
  pool: { min: 0, max: env.int('POOL', 7) } } });`,
		"config/middlewares.js": `module.exports = ['strapi::errors', { name: 'strapi::body', config: { jsonLimit: '2mb', formLimit: 1000, formidable: { maxFileSize: 5000 } } }];`,
		"config/plugins.js":     `module.exports = { graphql: { enabled: false }, scheduler: true, seo: { enabled: true }, foo: { enabled: false } };`,
		"package.json":          `{"dependencies": {"@strapi/plugin-i18n": "4", "strapi-plugin-slugify": "1", "@strapi/strapi": "4", "@strapi/plugin-documentation": "4"}}`,
	})
	p, err := Load(context.Background(), Options{Dir: dir, LookupEnv: lookup(map[string]string{"DATABASE_PORT": "6543", "DATABASE_SSL": "true"})})
	if err != nil {
		t.Fatal(err)
	}
	ty, err := p.Typed()
	if err != nil {
		t.Fatal(err)
	}
	c := ty.Database.Connection
	if c.Client != "postgres" || c.Connection.Port.Int(0) != 6543 || !c.Connection.SSL.Enabled || c.Connection.SSL.RejectUnauthorized || c.Pool.Max.Int(0) != 7 {
		t.Errorf("database: %+v", c)
	}
	if ty.Body.JSONLimit == nil || *ty.Body.JSONLimit != 2<<20 || *ty.Body.FormLimit != 1000 || ty.Body.Formidable.MaxFileSize.Int(0) != 5000 {
		t.Errorf("body: %+v", ty.Body)
	}
	if ty.PluginDecls["graphql"].IsEnabled() || !ty.PluginDecls["scheduler"].IsEnabled() {
		t.Errorf("plugins: %+v", ty.PluginDecls)
	}
	if got := p.UnimplementedPlugins(ty); !reflect.DeepEqual(got, []string{"documentation", "scheduler", "slugify"}) {
		t.Errorf("unimplemented: %v", got)
	}
}

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{"1mb": 1 << 20, "56kb": 56 << 10, "1.5KB": 1536, "100": 100, "10 gb": 10 << 30, "12abc": 12} {
		if got, ok := ParseBytes(in); !ok || got != want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	if _, ok := ParseBytes("huge"); ok {
		t.Error("huge parsed")
	}
}

// TestTypedFalsySchema: a connection's schema given as false or null is no schema, as
// Strapi's dialects read it (a SQLite project's development config).
func TestTypedFalsySchema(t *testing.T) {
	for _, v := range []string{"false", "null", `""`} {
		dir := writeFiles(t, map[string]string{"config/database.json": `{"connection": {"client": "sqlite", "connection": {"filename": ".tmp/data.db", "schema": ` + v + `}}}`})
		p, err := Load(context.Background(), Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		typed, err := p.Typed()
		if err != nil {
			t.Fatalf("schema %s: %v", v, err)
		}
		if typed.Database.Connection.Connection.Schema != "" {
			t.Errorf("schema %s read as %q", v, typed.Database.Connection.Connection.Schema)
		}
	}
}

// TestConfigRequiringFs: a config file reaching fs through what it requires (cron tasks whose
// services read files) loads, fs an inert stub named in Unresolved; config/database still
// refuses it, where a certificate read from a file would go missing.
func TestConfigRequiringFs(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"config/cron-tasks.js": "const fs = require('fs');\nmodule.exports = { report: { task: () => fs.writeFileSync('r.csv', ''), options: { rule: '0 0 * * *' } } };",
		"config/server.js":     "const tasks = require('./cron-tasks');\nmodule.exports = { cron: { enabled: true, tasks } };",
	})
	p, err := Load(context.Background(), Options{Dir: dir})
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if got := p.Unresolved["config/server.js"]; !reflect.DeepEqual(got, []string{"fs"}) {
		t.Errorf("unresolved of config/server.js: %v", got)
	}
	dir = writeFiles(t, map[string]string{
		"config/database.js": "const fs = require('fs');\nmodule.exports = { connection: { client: 'postgres', connection: { ssl: { ca: fs.readFileSync('ca.pem').toString() } } } };",
	})
	if _, err := Load(context.Background(), Options{Dir: dir}); err == nil || !strings.Contains(err.Error(), "require('fs')") {
		t.Errorf("config/database requiring fs: %v", err)
	}
}
