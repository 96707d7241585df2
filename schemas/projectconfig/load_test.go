package projectconfig

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func lookup(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestLoadMerge(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		".env":                            "NODE_ENV=production\nPORT=1400\nSALT=fromdotenv\nEMPTY=\n",
		"config/server.js":                "module.exports = ({ env }) => ({ host: env('HOST', '0.0.0.0'), port: env.int('PORT', 1337), app: { keys: ['a', 'b', 'c'] } });",
		"config/env/production/server.js": "module.exports = { url: 'https://x', app: { keys: ['z'] } };",
		"config/admin.ts":                 "export default ({ env }) => ({ apiToken: { salt: env('SALT'), empty: env('EMPTY', 'def') } });",
		"config/api.js":                   "module.exports = { rest: { maxLimit: 50 } };",
		"config/api.json":                 `{"rest": {"defaultLimit": 5}}`,
		"config/plugins.json":             `{"graphql": {"config": {"endpoint": "${process.env.GQL}"}}}`,
		"config/env/development/api.js":   "module.exports = { rest: { maxLimit: 1 } };",
		"config/README.md":                "not config",
	})
	p, err := Load(context.Background(), Options{Dir: dir, LookupEnv: lookup(map[string]string{"SALT": "fromprocess", "GQL": "/gql"})})
	if err != nil {
		t.Fatal(err)
	}
	if p.Env != "production" {
		t.Errorf("Env = %q (NODE_ENV from .env)", p.Env)
	}
	wantServer := map[string]any{"host": "0.0.0.0", "port": 1400.0, "url": "https://x", "app": map[string]any{"keys": []any{"z", "b", "c"}}}
	if got := p.Value("server"); !reflect.DeepEqual(got, wantServer) {
		t.Errorf("server = %v, want %v (lodash merge: arrays by index)", got, wantServer)
	}
	if got := p.Value("admin"); !reflect.DeepEqual(got, map[string]any{"apiToken": map[string]any{"salt": "fromprocess", "empty": ""}}) {
		t.Errorf("admin = %v (the process wins over .env; an empty .env value is set)", got)
	}
	// api.json sorts after api.js: it replaces it, as Strapi's readdir reduce does.
	if got := p.Value("api"); !reflect.DeepEqual(got, map[string]any{"rest": map[string]any{"defaultLimit": 5.0}}) {
		t.Errorf("api = %v", got)
	}
	if got := p.Value("plugins"); !reflect.DeepEqual(got, map[string]any{"graphql": map[string]any{"config": map[string]any{"endpoint": "/gql"}}}) {
		t.Errorf("plugins = %v", got)
	}
	if got := p.SourceOf("server", []string{"url"}); got != "config/env/production/server.js" {
		t.Errorf("SourceOf(server.url) = %q", got)
	}
	if got := p.SourceOf("server", []string{"port"}); got != "config/server.js" {
		t.Errorf("SourceOf(server.port) = %q", got)
	}
	if p.Has("README") {
		t.Error("a .md file was read")
	}
}

func TestLoadErrors(t *testing.T) {
	dir := writeFiles(t, map[string]string{"config/api.js": "module.exports = ({ env }) => { throw new Error('no'); };"})
	_, err := Load(context.Background(), Options{Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "Could not load js config file config/api.js: no") {
		t.Errorf("err = %v", err)
	}
	dir = writeFiles(t, map[string]string{"config/api.json": "{"})
	if _, err := Load(context.Background(), Options{Dir: dir}); err == nil || !strings.Contains(err.Error(), "config/api.json") {
		t.Errorf("err = %v", err)
	}
}

func TestMerge(t *testing.T) {
	got := Merge(map[string]any{"a": []any{1.0, 2.0, 3.0}, "b": map[string]any{"x": 1.0}, "c": 1.0},
		map[string]any{"a": []any{9.0}, "b": map[string]any{"y": 2.0}, "c": map[string]any{"z": nil}})
	want := map[string]any{"a": []any{9.0, 2.0, 3.0}, "b": map[string]any{"x": 1.0, "y": 2.0}, "c": map[string]any{"z": nil}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v", got)
	}
}
