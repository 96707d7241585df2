package jseval

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var updateModules = flag.Bool("update-modules", false, "record testdata/modules.golden.json from the real npm packages (node with the packages under $QUARRY_NPM_REFERENCE/node_modules: lodash, slugify, qs, uuid@9, bcrypt, bcryptjs@2, jsonwebtoken@9, dayjs@1)")

// moduleCases reads testdata/modules.cases: one expression per line.
func moduleCases(t *testing.T, file string) []string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

const modulesPrelude = `var _ = require('lodash'), slugify = require('slugify'), qs = require('qs'), crypto = require('crypto'),
  uuid = require('uuid'), bcrypt = require('bcrypt'), bcryptjs = require('bcryptjs'), jwt = require('jsonwebtoken'),
  util = require('util'), events = require('events'), querystring = require('querystring'), url = require('url'), dayjs = require('dayjs');
var T0 = 1700000000;
function t(f) { try { return f(); } catch (e) { return 'THROW ' + e.name + ': ' + e.message; } }
function cb(f) { var out = []; f(function (err, v) { out.push(err ? [err.name, err.message, err.expiredAt || err.date] : v); }); return out; }`

// TestModules compares the sandbox's lodash, slugify, qs and crypto with the real packages'
// answers to the same expressions.
func TestModules(t *testing.T) {
	// Local time is UTC on both sides (dayjs and Date read it), whatever the machine's zone.
	defer func(l *time.Location) { time.Local = l }(time.Local)
	time.Local = time.UTC
	compareWithNode(t, "modules", modulesPrelude, *updateModules, "-update-modules needs QUARRY_NPM_REFERENCE: a folder with node_modules/{lodash,slugify,qs,uuid,bcrypt,bcryptjs,jsonwebtoken,dayjs}")
}

// compareWithNode evaluates testdata/<name>.cases (one expression a line, after prelude) in
// the sandbox and compares each JSON.stringify with testdata/<name>.golden.json, which update
// records from the real packages under Node ($QUARRY_NPM_REFERENCE/node_modules).
func compareWithNode(t *testing.T, name, prelude string, update bool, needs string) {
	t.Helper()
	cases := moduleCases(t, filepath.Join("testdata", name+".cases"))
	golden := filepath.Join("testdata", name+".golden.json")
	if update {
		ref := os.Getenv("QUARRY_NPM_REFERENCE")
		if ref == "" {
			t.Fatal(needs)
		}
		src, _ := json.Marshal(cases)
		script := prelude + `
var out = {};
for (const e of ` + string(src) + `) {
  try { out[e] = String(JSON.stringify(eval('(' + e + ')'))); } catch (x) { out[e] = 'THROW ' + x.name + ': ' + x.message; }
}
process.stdout.write(JSON.stringify(out, null, 1));`
		cmd := exec.Command("node", "-e", script)
		cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(ref, "node_modules"), "TZ=UTC")
		b, err := cmd.Output()
		if err != nil {
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				t.Fatalf("node: %v\n%s", err, ee.Stderr)
			}
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]string
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	vm, err := NewVM(Options{Root: t.TempDir(), Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	rt := vm.Runtime()
	rt.Set("require", vm.RequireFunc())
	if _, err := rt.RunString(prelude); err != nil {
		t.Fatal(err)
	}
	for _, e := range cases {
		w, ok := want[e]
		if !ok {
			t.Errorf("%s: not recorded (run with the update flag)", e)
			continue
		}
		v, err := rt.RunString("(function () { try { return String(JSON.stringify(" + e + ")); } catch (x) { return 'THROW ' + x.name + ': ' + x.message; } })()")
		if err != nil {
			t.Errorf("%s: %v", e, err)
			continue
		}
		if got := v.String(); got != w {
			t.Errorf("%s\n got %s\nwant %s", e, got, w)
		}
	}
}

// TestModulesRefuse: what the sandbox lacks answers Strapi's NotImplementedError, naming it.
func TestModulesRefuse(t *testing.T) {
	vm, err := NewVM(Options{Root: t.TempDir(), Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	rt := vm.Runtime()
	rt.Set("require", vm.RequireFunc())
	for expr, want := range map[string]string{
		`require('lodash').debounce(function () {}, 10)`: "lodash's debounce is not provided",
		`require('stripe')`:                  "require('stripe'): the module is not provided",
		`require('lodash')([1]).map(String)`: "chained wrapper",
	} {
		_, err := rt.RunString(`try { ` + expr + `; 'no error' } catch (e) { throw new Error(e.name + ': ' + e.message) }`)
		if err == nil || !strings.Contains(err.Error(), "NotImplementedError: ") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want a NotImplementedError with %q", expr, err, want)
		}
	}
	// An ES module's default import of lodash (esbuild's interop reads __esModule and default).
	v, err := rt.RunString(`var m = require('lodash'); [m.__esModule, typeof m.default, m.then].map(String).join()`)
	if err != nil || v.String() != "undefined,undefined,undefined" {
		t.Errorf("interop keys: %v %v", v, err)
	}
}

// TestModulesAsync: the callback and promise forms of bcrypt, bcryptjs and jsonwebtoken
// settle within the run, with what their synchronous forms give.
func TestModulesAsync(t *testing.T) {
	vm, err := NewVM(Options{Root: t.TempDir(), Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	rt := vm.Runtime()
	rt.Set("require", vm.RequireFunc())
	_, err = rt.RunString(`var out = [];
var bcrypt = require('bcrypt'), bcryptjs = require('bcryptjs'), jwt = require('jsonwebtoken'),
  util = require('util'), events = require('events'), querystring = require('querystring'), url = require('url'), dayjs = require('dayjs');
(async function () {
  for (const b of [bcrypt, bcryptjs]) {
    const h = await b.hash('pw', 4);
    out.push(h.slice(0, 7), await b.compare('pw', h), await b.compare('no', h), (await b.genSalt(5)).slice(0, 7));
    await new Promise(r => b.hash('pw', h.slice(0, 29), (err, h2) => { out.push(err, h2 === h); r(); }));
    await new Promise(r => b.compare('pw', h, (err, ok) => { out.push(err, ok); r(); }));
    await new Promise(r => b.genSalt(6, (err, s) => { out.push(err, s.slice(4, 7)); r(); }));
  }
  out.push(await bcrypt.hash(undefined, 4).catch(e => e.message));
  out.push(await bcryptjs.hash(5, 4).catch(e => e.message));
  const tok = await new Promise(r => jwt.sign({id: 1}, 'secret', {expiresIn: '1h'}, (err, tok) => r(tok)));
  out.push(jwt.verify(tok, 'secret').id, jwt.decode(tok).exp - jwt.decode(tok).iat);
  out.push(await new Promise(r => jwt.sign({id: 1}, 'secret', {expiresIn: 'nope'}, err => r(err.message))));
})().then(() => out.push('done'), e => out.push('failed: ' + e));`)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := rt.RunString(`JSON.stringify(out)`)
	want := `["$2b$04$",true,false,"$2b$05$",null,true,null,true,null,"06$","$2a$04$",true,false,"$2a$05$",null,true,null,true,null,"06$","data and salt arguments required","Illegal arguments: number, number",1,3600,"\"expiresIn\" should be a number of seconds or string representing a timespan eg: \"1d\", \"20h\", 60","done"]`
	if v.String() != want {
		t.Errorf("got  %s\nwant %s", v, want)
	}
}

// TestModulesResolved: a file requiring the provided modules leaves none unresolved, so
// `quarry routes` serves its routes; one it does not provide is still named.
func TestModulesResolved(t *testing.T) {
	dir := t.TempDir()
	src := `const { v4 } = require('uuid'), bcrypt = require('bcrypt'), bcryptjs = require('bcryptjs'),
  jwt = require('jsonwebtoken'), util = require('node:util'), EventEmitter = require('events'),
  qs = require('querystring'), { Buffer: B } = require('buffer'), { setTimeout: sleep } = require('timers/promises'),
  dayjs = require('dayjs'), utc = require('dayjs/plugin/utc');
module.exports = { ok: typeof v4 + typeof bcrypt.hash + typeof bcryptjs.hash + typeof jwt.sign + typeof util.promisify +
  typeof EventEmitter + typeof qs.parse + typeof B.from + typeof sleep + typeof dayjs };`
	if err := os.WriteFile(filepath.Join(dir, "f.js"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := EvalModule(context.Background(), filepath.Join(dir, "f.js"), Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Value.(map[string]any)["ok"]; got != strings.Repeat("function", 10) {
		t.Errorf("ok = %v", got)
	}
	if len(res.Unresolved) != 1 || res.Unresolved[0] != "dayjs/plugin/utc" {
		t.Errorf("unresolved %v, want [dayjs/plugin/utc]", res.Unresolved)
	}
}

var updateFP = flag.Bool("update-fp", false, "record testdata/fp.golden.json from the real lodash/fp (node with lodash under $QUARRY_NPM_REFERENCE/node_modules)")

// TestLodashFP compares the sandbox's lodash/fp with the real one's answers to the same
// expressions (testdata/fp.cases).
func TestLodashFP(t *testing.T) {
	compareWithNode(t, "fp", `var fp = require('lodash/fp');`, *updateFP, "-update-fp needs QUARRY_NPM_REFERENCE: a folder with node_modules/lodash")
}
