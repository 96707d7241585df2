package jseval

import (
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

var updateYup = flag.Bool("update-yup", false, "record testdata/yup.golden.json from yup 0.32.9 and @strapi/utils 4.26.2 under node (QUARRY_NPM_REFERENCE: a folder with node_modules/{yup,@strapi/utils}, such as the oracle's app)")

// yupPrelude is what each case of testdata/yup.cases may use, the same under node and Quarry.
const yupPrelude = `
function errOut(e) {
  if (e && e.name === 'ValidationError' && Array.isArray(e.inner)) {
    return { name: e.name, message: e.message, path: e.path, type: e.type, value: e.value, params: e.params, errors: e.errors,
      inner: e.inner.map(function (i) { return { path: i.path, message: i.message, type: i.type, params: i.params }; }) };
  }
  return 'THROW ' + (e && e.name) + ': ' + (e && e.message);
}
function strapiOut(e) {
  if (e && e.details !== undefined) return { name: e.name, message: e.message, details: e.details, validation: e instanceof u.errors.ValidationError };
  return 'THROW ' + (e && e.name) + ': ' + (e && e.message);
}
function V(s, v, o) { return s.validate(v, o).then(function (r) { return { ok: r }; }, errOut); }
function S(s, v, o) { try { return { ok: s.validateSync(v, o) }; } catch (e) { return errOut(e); } }
function C(s, v, o) { try { return { ok: s.cast(v, o) }; } catch (e) { return errOut(e); } }
function E(f) { try { f(); return 'no error'; } catch (e) { return errOut(e); } }
function Y(p) { return p.then(function (r) { return { ok: r }; }, strapiOut); }
function YS(f) { try { return { ok: f() }; } catch (e) { return strapiOut(e); } }
var node = y.object({ name: y.string().required(), children: y.array().of(y.lazy(function () { return node; })) });
var out = {};
async function runCases(cases, prefix) {
  for (const c of cases) {
    const expr = c.replace(/^strapi:/, '');
    let v;
    try { v = await eval('(' + expr + ')'); } catch (x) { v = 'THROW ' + x.name + ': ' + x.message; }
    out[prefix + c] = String(JSON.stringify(v));
  }
}`

// yupCases reads testdata/yup.cases; strapi is whether to keep the lines that need
// @strapi/utils (those starting "strapi:").
func yupCases(t *testing.T, strapi bool) []string {
	t.Helper()
	b, err := os.ReadFile("testdata/yup.cases")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") || (!strapi && strings.HasPrefix(l, "strapi:")) {
			continue
		}
		out = append(out, l)
	}
	return out
}

// TestYup compares the sandbox's yup with yup 0.32.9's answers to the same cases: plain (as a
// project's require('yup') has it before @strapi/utils loads) and as @strapi/utils 4.26.2
// leaves it, with validateYupSchema and its error.
func TestYup(t *testing.T) {
	golden := filepath.Join("testdata", "yup.golden.json")
	defer func(l *time.Location) { time.Local = l }(time.Local)
	time.Local = time.UTC
	modes := []struct {
		prefix, node string
		strapi       bool
	}{
		{"plain|", `var y = require('yup'), u;`, false},
		{"strapi|", `var u = require('@strapi/utils'), y = require('yup');`, true},
	}
	if *updateYup {
		ref := os.Getenv("QUARRY_NPM_REFERENCE")
		if ref == "" {
			t.Fatal("-update-yup needs QUARRY_NPM_REFERENCE: a folder with node_modules/{yup,@strapi/utils}")
		}
		all := map[string]string{}
		for _, m := range modes {
			src, _ := json.Marshal(yupCases(t, m.strapi))
			script := m.node + yupPrelude + `
runCases(` + string(src) + `, ` + strconvQuote(m.prefix) + `).then(function () { process.stdout.write(JSON.stringify(out)); });`
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
			var got map[string]string
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatalf("node's output: %v", err)
			}
			for k, v := range got {
				all[k] = v
			}
		}
		b, _ := json.MarshalIndent(all, "", " ")
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
	for _, m := range modes {
		vm, err := NewVM(Options{Root: t.TempDir(), Strict: true})
		if err != nil {
			t.Fatal(err)
		}
		rt := vm.Runtime()
		rt.Set("require", vm.RequireFunc())
		setup := m.node
		if !m.strapi {
			// yup before @strapi/utils changes it: the module file alone.
			src, err := moduleFiles.ReadFile("modules/yup.js")
			if err != nil {
				t.Fatal(err)
			}
			y, err := vm.s.runSource("yup", "/node_modules/yup.js", string(src), "/node_modules/yup.js")
			if err != nil {
				t.Fatal(err)
			}
			rt.Set("plainYup", y)
			setup = `var y = plainYup, u;`
		}
		cases := yupCases(t, m.strapi)
		src, _ := json.Marshal(cases)
		if _, err := rt.RunString(setup + yupPrelude + `
var finished = false;
runCases(` + string(src) + `, ` + strconvQuote(m.prefix) + `).then(function () { finished = true; }, function (e) { finished = 'failed: ' + e; });`); err != nil {
			t.Fatal(err)
		}
		if v := rt.Get("finished"); v.Export() != true {
			t.Fatalf("%s cases did not finish: %v", m.prefix, v)
		}
		got := rt.Get("out").Export().(map[string]any)
		for _, c := range cases {
			k := m.prefix + c
			w, ok := want[k]
			if !ok {
				t.Errorf("%s: not recorded (run with -update-yup)", k)
				continue
			}
			if g, _ := got[k].(string); g != w {
				t.Errorf("%s\n got %s\nwant %s", k, g, w)
			}
		}
	}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestYupAtLoad: a file that builds its schemas at the top level, as users-permissions
// extensions and validation files do, loads when routes are recorded (EvalModule), with
// @strapi/utils' yup and require('yup') the same extended yup.
func TestYupAtLoad(t *testing.T) {
	dir := t.TempDir()
	src := `const { yup, validateYupSchema, validateYupSchemaSync, handleYupError } = require('@strapi/utils');
const plain = require('yup');
const registerSchema = yup.object({ email: yup.string().email().required(), phone: plain.string().matches(/^[0-9]+$/).nullable() });
const validateRegisterBody = validateYupSchemaSync(registerSchema);
let answer;
try { validateRegisterBody({ email: 'x', phone: 'y' }); } catch (e) { answer = [e.name, e.message, e.details.errors.map((x) => x.path.join('.') + ': ' + x.message)]; }
module.exports = { answer, same: plain.string === yup.string, strapiID: typeof yup.strapiID, notNil: typeof plain.mixed().notNil,
  async: typeof validateYupSchema(registerSchema), handle: typeof handleYupError };`
	if err := os.WriteFile(filepath.Join(dir, "auth.js"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := EvalModule(context.Background(), filepath.Join(dir, "auth.js"), Options{Root: dir, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(res.Value)
	want := `{"answer":["ValidationError","2 errors occurred",["email: email must be a valid email","phone: phone must match the following: \"/^[0-9]+$/\""]],"async":"function","handle":"function","notNil":"function","same":true,"strapiID":"function"}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if len(res.Unresolved) != 0 {
		t.Errorf("unresolved %v", res.Unresolved)
	}
}
