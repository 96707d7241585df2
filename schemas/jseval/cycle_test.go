package jseval

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// cycleFiles require each other in circles; cycleMain reads what each ended up with. The
// expected answer is what Node 20 printed for the same files: a module required back while it
// runs gives its exports as filled so far (exports.x and module.exports.x forms seen; a
// module.exports replaced after the cycle is not seen through the early reference, but is by
// a later require), and a folder's index spreading modules that require it back (the
// project's src/plugins/utils that made controllers unreadable).
var cycleFiles = map[string]string{
	"a.js": `exports.early = 1;
const b = require('./b');
exports.late = 2;
module.exports.fromB = b.seen;`,
	"b.js": `const a = require('./a');
module.exports = { seen: Object.keys(a).join(','), a };`,
	"c.js": `const d = require('./d');
module.exports = { name: 'c', got: d.got, later: d.later() };`,
	"d.js": `const c = require('./c');
module.exports = { got: JSON.stringify(c), later: () => require('./c').name, stale: () => c.name };`,
	"e.js": `module.exports.x = 1;
const self = require('./e');
module.exports.same = self === module.exports;`,
	"utils/index.js": `module.exports = { ...require('./localisation'), ...require('./user') };`,
	"utils/localisation.js": `const utils = require('./index');
module.exports = { translate: (k) => 'fr:' + k, sawIndex: () => Object.keys(utils).length };`,
	"utils/user.js": `const { translate } = require('./index');
module.exports = { label: (u) => u.name.toUpperCase(), late: () => require('./index').translate('hi'), early: () => typeof translate };`,
}

const cycleMain = `const a = require('./a'), b = require('./b'), c = require('./c'), d = require('./d'), e = require('./e'), u = require('./utils');
module.exports = JSON.stringify({a, bseen: b.seen, bsame: b.a === a, c, dstale: d.stale(), dlater: d.later(), e, ukeys: Object.keys(u), t: u.translate('x'), saw: u.sawIndex(), late: u.late(), early: u.early(), label: u.label({name:'ann'})});`

const cycleNode = `{"a":{"early":1,"late":2,"fromB":"early"},"bseen":"early","bsame":true,"c":{"name":"c","got":"{}"},"dlater":"c","e":{"x":1,"same":true},"ukeys":["translate","sawIndex","label","late","early"],"t":"fr:x","saw":0,"late":"fr:hi","early":"undefined","label":"ANN"}`

func cycleProject(t *testing.T) string {
	dir := t.TempDir()
	for name, src := range cycleFiles {
		write(t, dir, name, src)
	}
	write(t, dir, "main.js", cycleMain)
	return dir
}

// TestRequireCycle: the file-reading sandbox answers require cycles as Node does.
func TestRequireCycle(t *testing.T) {
	dir := cycleProject(t)
	res, err := EvalModule(context.Background(), filepath.Join(dir, "main.js"), Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if res.Value != cycleNode {
		t.Errorf("got  %v\nwant %s", res.Value, cycleNode)
	}
}

// TestRequireCycleVM: so does a request sandbox, a cycle entered from either side, and a
// module that throws after its cycle is not kept: required again, it runs again.
func TestRequireCycleVM(t *testing.T) {
	dir := cycleProject(t)
	write(t, dir, "f.js", `globalThis.runs = (globalThis.runs || 0) + 1;
exports.partial = true;
const g = require('./g');
if (globalThis.runs === 1) throw new Error('first run fails after ' + g.sawF);
exports.g = g.sawF;`)
	write(t, dir, "g.js", `const f = require('./f');
exports.sawF = Object.keys(f).join(',');`)
	vm, err := NewVM(Options{Root: dir, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	// Entered from a member of the cycle (Node 20 printed the same): user.js runs first, its
	// index spreads localisation and user's exports as they stand then (empty), and user.js
	// reads translate from the index once it is done.
	u, err := vm.Require(filepath.Join(dir, "utils", "user.js"))
	if err != nil {
		t.Fatal(err)
	}
	rt := vm.Runtime()
	if early, ok := goja.AssertFunction(u.ToObject(rt).Get("early")); !ok {
		t.Fatal("user.js: no early()")
	} else if v, err := early(goja.Undefined()); err != nil || v.String() != "function" {
		t.Errorf("user.js early(): %v %v", v, err)
	}
	idx, err := vm.Require(filepath.Join(dir, "utils", "index.js"))
	if err != nil {
		t.Fatal(err)
	}
	if keys := idx.ToObject(rt).Keys(); strings.Join(keys, ",") != "translate,sawIndex" {
		t.Errorf("index keys %v", keys)
	}
	if _, err := vm.Require(filepath.Join(dir, "f.js")); err == nil || !strings.Contains(err.Error(), "first run fails after partial") {
		t.Fatalf("f.js first run: %v", err)
	}
	f, err := vm.Require(filepath.Join(dir, "f.js"))
	if err != nil {
		t.Fatal(err)
	}
	// g was cached by the first run with what it saw of f then (Node keeps it too).
	if got := f.ToObject(vm.Runtime()).Get("g").String(); got != "partial" {
		t.Errorf("f.g = %s", got)
	}
}
