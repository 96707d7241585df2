package jseval

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// TestYupHostile: schemas that recurse without end, values nested past the stack, refs and
// conditions in a cycle, tests that throw what is not an error, and the email and URL
// patterns on long near-matches each end within the limit with a JavaScript error or an
// answer; the sandbox stays usable.
func TestYupHostile(t *testing.T) {
	vm, err := NewVM(Options{Root: t.TempDir(), Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	rt := vm.Runtime()
	rt.Set("require", vm.RequireFunc())
	if _, err := rt.RunString(`var y = require('yup'), u = require('@strapi/utils'), out;
function deep(n, key) { var v = {}, o = v; for (var i = 0; i < n; i++) o = o[key] = {}; return v; }`); err != nil {
		t.Fatal(err)
	}
	// Each case runs under a 5 s limit: one that does not end in time fails as "not a
	// JavaScript error" (the limit's interruption).
	for _, c := range []struct{ src, want string }{
		// A lazy schema that is its own builder's answer: resolved without end.
		{`var s = y.lazy(function () { return s; }); s.validateSync(1)`, "RangeError"},
		{`var s2 = y.lazy(function () { return s2; }); s2.validate(1).then(function () { out = 'valid'; }, function (e) { out = e.name; }); out`, "RangeError"},
		// A recursive schema on a value nested deeper than the stack allows.
		{`var n = y.object({ c: y.lazy(function () { return n; }) }).default(undefined); n.validateSync(deep(5000, 'c'))`, "RangeError"},
		{`var n2 = y.object({ c: y.lazy(function () { return n2; }) }).default(undefined); n2.validate(deep(5000, 'c')).then(function () { out = 'valid'; }, function (e) { out = e.name; }); out`, "RangeError"},
		// Without default(undefined), an absent nested object is built from the shape, without end (as in yup).
		{`var n3 = y.object({ c: y.lazy(function () { return n3; }) }); n3.cast({})`, "RangeError"},
		// The same within the stack: validated.
		{`n.isValidSync(deep(50, 'c'))`, "true"},
		{`y.object({ a: y.string().when('b', { is: 1, then: y.string() }), b: y.string().when('a', { is: 1, then: y.string() }) })`, "Cyclic dependency"},
		{`y.object({ a: y.ref('b'), b: y.ref('a') })`, "Cyclic dependency"},
		{`y.mixed().when('.', function (v, s) { return s.when('.', function (v2, s2) { return s2.when('.', arguments.callee); }); }).validateSync(1)`, "RangeError"},
		{`try { y.mixed().test('t', 'm', function () { throw 42; }).validateSync(1); } catch (e) { 'thrown ' + e; }`, "thrown 42"},
		// A test throwing null passes, as in yup (its callback takes null for success).
		{`try { JSON.stringify(u.validateYupSchemaSync(y.object({ a: y.mixed().test('t', 'm', function () { throw null; }) }))({ a: 1 })); } catch (e) { 'thrown ' + e; }`, `{"a":1}`},
		{`y.string().email().isValidSync('a'.repeat(100000) + '@')`, "false"},
		{`y.string().email().isValidSync('a@' + 'a.'.repeat(50000) + '!')`, "false"},
		{`y.string().url().isValidSync('http://' + 'a-'.repeat(50000) + '!')`, "false"},
		{`y.string().email().isValidSync('"' + ' \r\n '.repeat(20000) + '@a.co')`, "false"},
		{`try { y.array().of(y.number().max(1)).validateSync(Array(3000).fill(2), { abortEarly: false }); } catch (e) { e.message + ' ' + e.inner.length; }`, "3000 errors occurred 3000"},
	} {
		var got string
		err := vm.Run(context.Background(), 5*time.Second, func() error {
			v, err := rt.RunString(c.src)
			if err == nil {
				got = v.String()
				if strings.HasPrefix(c.src, "var s2") || strings.HasPrefix(c.src, "var n2") {
					got = rt.Get("out").String()
				}
			}
			return err
		})
		if err != nil {
			var ex *goja.Exception
			var so *goja.StackOverflowError
			switch {
			case errors.As(err, &so):
				got = "RangeError: stack overflow" // V8's RangeError, a 500 as in Strapi
			case errors.As(err, &ex):
				got = err.Error()
			default:
				t.Errorf("%.80s: %v, not a JavaScript error", c.src, err)
				continue
			}
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("%.80s: %.200s, want %q", c.src, got, c.want)
		}
	}
	if err := vm.Run(context.Background(), time.Second, func() error {
		_, err := rt.RunString(`y.string().required().validateSync('ok')`)
		return err
	}); err != nil {
		t.Fatalf("sandbox unusable: %v", err)
	}
}

// FuzzYup validates arbitrary JSON (as a request body reaches a project's schema) against
// schemas of every kind, synchronously and not, cast and strict: each ends within the limit
// with a value or a ValidationError, never another error or a panic.
func FuzzYup(f *testing.F) {
	for _, s := range []string{`{}`, `null`, `"x"`, `[1,"2",null]`, `{"name":" A ","email":"a@b","age":"3.5","tags":["X"],"address":{"zip":1}}`,
		`{"tree":{"c":{"c":{"c":{}}}}}`, `{"ids":[-1,"1",1.5,{}]}`, `{"when":true,"n":"abc","d":"2024-13-45","b":"yes"}`, `{"__proto__":{"x":1}}`} {
		f.Add(s)
	}
	vm, err := NewVM(Options{Root: f.TempDir(), Strict: true})
	if err != nil {
		f.Fatal(err)
	}
	rt := vm.Runtime()
	rt.Set("require", vm.RequireFunc())
	if _, err := rt.RunString(`var y = require('yup'), u = require('@strapi/utils');
var tree = y.object({ c: y.lazy(function () { return tree; }) }).default(undefined);
var schemas = [
  y.object({ name: y.string().trim().min(2).required(), email: y.string().email(), url: y.string().url(), age: y.number().integer().positive(),
    tags: y.array().of(y.string().lowercase()).max(3), address: y.object({ city: y.string().required(), zip: y.string().length(5) }).default(undefined),
    d: y.date().min('2000-01-01'), b: y.boolean(), ids: y.array().of(u.yup.strapiID()) }).noUnknown(),
  y.object({ tree: tree, when: y.boolean(), n: y.number().when('when', { is: true, then: y.number().required(), otherwise: y.number().max(3) }),
    m: y.mixed().oneOf([1, 'a', null, y.ref('n')]), pw: y.string(), confirm: y.string().oneOf([y.ref('pw')]) }),
  y.lazy(function (v) { return Array.isArray(v) ? y.array().of(y.mixed().notNil()) : y.mixed().test('async', 'm', async function (x) { await null; return x !== 'bad'; }); })
];
var settled;
function run(json) {
  var v = JSON.parse(json), bad = [];
  function check(e) {
    if (e instanceof y.ValidationError || e instanceof u.errors.ValidationError) return;
    // Casting fails with a TypeError where yup 0.32.9's does (Strapi's 500): a key
    // Object.prototype has ("constructor", "__proto__") taken for a field, trim() or
    // lowercase() of an object.
    if (e instanceof TypeError && /resolve|trim|toLowerCase|toUpperCase/.test(e.message)) return;
    bad.push(String(e && e.stack || e));
  }
  schemas.forEach(function (s) {
    [{}, { strict: true, abortEarly: false }, { stripUnknown: true, abortEarly: false }].forEach(function (o) {
      try { s.validateSync(v, o); } catch (e) { if (!/Promise during a synchronous validate/.test(e.message)) check(e); }
      s.validate(v, o).catch(check);
      try { s.cast(v, o); } catch (e) { if (!(e instanceof TypeError)) check(e); }
    });
    u.validateYupSchema(s)(v).catch(check);
  });
  settled = bad;
}`); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := rt.RunString(`JSON.parse(` + strconvQuote(s) + `)`); err != nil {
			return // not JSON: not a body
		}
		fn, _ := goja.AssertFunction(rt.Get("run"))
		err := vm.Run(context.Background(), 2*time.Second, func() error {
			_, err := fn(goja.Undefined(), rt.ToValue(s))
			return err
		})
		if err != nil {
			var so *goja.StackOverflowError
			if errors.As(err, &so) || strings.Contains(err.Error(), "RangeError") {
				return // nested past the stack
			}
			t.Fatalf("%q: %v", s, err)
		}
		if bad := rt.Get("settled").Export(); len(bad.([]any)) > 0 {
			t.Fatalf("%q: %v", s, bad)
		}
	})
}
