package jseval

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, dir, name, src string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func envOf(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// TestEnvHelpers compares every helper with Strapi 4.26.2's @strapi/utils env under Node 20
// (the expected values were printed by node with the same variables).
func TestEnvHelpers(t *testing.T) {
	vars := map[string]string{"I": " 42abc", "F": "3.5e2x", "B": "TRUE", "B2": "true", "E": "", "J": `{"a":[1,2]}`,
		"A": `[ "a", b ,"c d" ]`, "A2": "x", "D": "2024-01-02", "N": "abc", "H": "0x1F", "O": "b"}
	dir := t.TempDir()
	f := write(t, dir, "c.js", `module.exports = ({ env }) => ({int:env.int("I"),intE:env.int("E",5),intN:env.int("N",3),intH:env.int("H"),
intMissing:env.int("MISSING",7),float:env.float("F"),floatE:env.float("E",1),bool:env.bool("B",true),bool2:env.bool("B2",false),
boolE:env.bool("E",true),boolM:env.bool("MISSING",true),json:env.json("J"),array:env.array("A"),array2:env.array("A2"),
arrayE:env.array("E"),date:env.date("D"),str:env("E","def"),strM:env("MISSING","def"),undef:env("MISSING"),
oneOf:env.oneOf("O",["a","b"],"a"),oneOfBad:env.oneOf("A2",["a","b"],"a"),pe:process.env.A2,has:"B" in process.env});`)
	res, err := EvalFile(context.Background(), f, Options{Root: dir, LookupEnv: envOf(vars)})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"int": 42.0, "intE": nil, "intN": nil, "intH": 0.0, "intMissing": 7.0, "float": 350.0, "floatE": nil,
		"bool": false, "bool2": true, "boolE": false, "boolM": true, "json": map[string]any{"a": []any{1.0, 2.0}},
		"array": []any{"a", "b", "c d"}, "array2": []any{"x"}, "arrayE": []any{""}, "date": "2024-01-02T00:00:00.000Z",
		"str": "", "strM": "def", "oneOf": "b", "oneOfBad": "a", "pe": "x", "has": true}
	if !reflect.DeepEqual(res.Value, want) {
		t.Errorf("got  %v\nwant %v", res.Value, want)
	}
	bad := write(t, dir, "bad.js", `module.exports = ({ env }) => ({ x: env.json("J") })`)
	_, err = EvalFile(context.Background(), bad, Options{Root: dir, LookupEnv: envOf(map[string]string{"J": "{x"})})
	if err == nil || !strings.Contains(err.Error(), "Invalid json environment variable J: ") {
		t.Errorf("env.json of bad JSON: %v", err)
	}
}

func TestExportForms(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	cases := map[string]string{
		"object.js":    `module.exports = { a: 1 };`,
		"exports.js":   `exports.a = 1;`,
		"function.js":  `module.exports = ({ env }) => ({ a: env.int('X', 1) });`,
		"esm.ts":       "type E = { int(k: string, d: number): number };\nexport default ({ env }: { env: E }) => ({ a: env.int('X', 1) as number });",
		"esobj.ts":     "export default { a: 1 };",
		"req.js":       "const path = require('path');\nconst other = require('./sub/other');\nmodule.exports = { a: other.a, p: path.join(__dirname, '..', 'x/../y.db') === path.resolve(__dirname, '../y.db') ? 1 : 0 };",
		"sub/other.js": "module.exports = { a: 1 };",
	}
	for name, src := range cases {
		write(t, dir, name, src)
	}
	for name := range cases {
		if strings.HasPrefix(name, "sub/") {
			continue
		}
		res, err := EvalFile(ctx, filepath.Join(dir, name), Options{Root: dir})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		want := map[string]any{"a": 1.0}
		if name == "req.js" {
			want["p"] = 1.0
		}
		if !reflect.DeepEqual(res.Value, want) {
			t.Errorf("%s: got %v", name, res.Value)
		}
	}
}

func TestSandbox(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	loop := write(t, dir, "loop.js", `module.exports = () => { for (;;) {} };`)
	start := time.Now()
	_, err := EvalFile(ctx, loop, Options{Root: dir, Timeout: 200 * time.Millisecond})
	if !errors.Is(err, ErrTimeout) {
		t.Errorf("endless loop: %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("the time limit did not stop it: %v", time.Since(start))
	}
	fsFile := write(t, dir, "fs.js", `module.exports = require('fs').readFileSync('/etc/passwd', 'utf8');`)
	if _, err := EvalFile(ctx, fsFile, Options{Root: dir}); err == nil || !strings.Contains(err.Error(), "not available") {
		t.Errorf("require('fs'): %v", err)
	}
	outside := write(t, dir, "sub/out.js", `module.exports = require('../../x');`)
	if _, err := EvalFile(ctx, outside, Options{Root: filepath.Join(dir, "sub")}); err == nil || !strings.Contains(err.Error(), "outside the project") {
		t.Errorf("require outside the project: %v", err)
	}
	npm := write(t, dir, "npm.js", `const t = require('@webbio/strapi-plugin-scheduler/cron-task'); module.exports = { tasks: t };`)
	res, err := EvalFile(ctx, npm, Options{Root: dir})
	if err != nil || !reflect.DeepEqual(res.Unresolved, []string{"@webbio/strapi-plugin-scheduler/cron-task"}) {
		t.Errorf("npm module: %v %v", res, err)
	}
	syntax := write(t, dir, "syntax.js", `module.exports = {`)
	if _, err := EvalFile(ctx, syntax, Options{Root: dir}); err == nil {
		t.Error("syntax error accepted")
	}
	throws := write(t, dir, "throws.js", `module.exports = () => { throw new Error('boom'); };`)
	if _, err := EvalFile(ctx, throws, Options{Root: dir}); err == nil || !strings.HasSuffix(err.Error(), "boom") {
		t.Errorf("throwing config: %v", err)
	}
}

func TestFactories(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	r := write(t, dir, "r.js", `'use strict';
const { createCoreRouter } = require('@strapi/strapi').factories;
module.exports = createCoreRouter('api::a.a', { prefix: '/x', only: ['find'], config: { find: { auth: false, policies: ['p'] } } });`)
	res, err := EvalModule(ctx, r, Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"__quarry": "coreRouter", "uid": "api::a.a", "config": map[string]any{"prefix": "/x", "only": []any{"find"},
		"config": map[string]any{"find": map[string]any{"auth": false, "policies": []any{"p"}}}}}
	if !reflect.DeepEqual(res.Value, want) {
		t.Errorf("router: %v", res.Value)
	}
	c := write(t, dir, "c.ts", `import { factories } from '@strapi/strapi';
export default factories.createCoreController('api::a.a', ({ strapi }) => ({
  async find(ctx) { return strapi.service('api::a.a').find(ctx.query); },
  async featured(ctx) { return []; },
}));`)
	res, err = EvalModule(ctx, c, Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Value.(map[string]any)["actions"]; !reflect.DeepEqual(got, []any{"find", "featured"}) {
		t.Errorf("controller actions: %v", got)
	}
}

// TestTypeScriptDirname: Strapi runs a TypeScript project's config from dist/, so the
// generated database.ts reaches the project folder with two '..'.
func TestTypeScriptDirname(t *testing.T) {
	dir := t.TempDir()
	f := write(t, dir, "config/database.ts", "import path from 'path';\nexport default () => ({ f: path.join(__dirname, '..', '..', '.tmp', 'data.db'), other: require('./other').x });")
	write(t, dir, "config/other.ts", "export const x = 1;")
	res, err := EvalFile(context.Background(), f, Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"f": filepath.Join(dir, ".tmp", "data.db"), "other": 1.0}
	if !reflect.DeepEqual(res.Value, want) {
		t.Errorf("got %v, want %v", res.Value, want)
	}
}

// TestStubDefaultImport: an ES module's default import of an npm module the sandbox lacks,
// called at the top of the file (axiosRetry(axios, {...})), reads: the stub is its default
// export; the file's lifecycles were unreadable ('Value is not an object').
func TestStubDefaultImport(t *testing.T) {
	dir := t.TempDir()
	f := write(t, dir, "client.ts", `import axios from "axios";
import axiosRetry from "axios-retry";
axiosRetry(axios, { retries: 3 });
export const ping = async () => 1;
export default { afterUpdate() {} };`)
	res, err := EvalModule(context.Background(), f, Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res.Unresolved, []string{"axios-retry"}) {
		t.Errorf("unresolved: %v", res.Unresolved)
	}
}
