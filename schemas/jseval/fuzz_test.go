package jseval

import (
	"context"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// FuzzVM runs arbitrary scripts in a strict sandbox, as the project's code runs: whatever a
// script does (throws anything, loops, requires what it may not, calls the provided modules
// with odd arguments), the host gets an error or a value back within the limit, never a
// panic.
func FuzzVM(f *testing.F) {
	for _, s := range []string{
		`1 + 1`,
		`throw 42`,
		`throw null`,
		`throw { name: 'ApplicationError' }`,
		`for (;;) {}`,
		`require('fs').readFileSync('/etc/passwd')`,
		`require('child_process')`,
		`require('lodash').get(undefined, undefined)`,
		`require('lodash').set({}, '__proto__.polluted', 1); ({}).polluted`,
		`require('lodash').merge({}, JSON.parse('{"__proto__": {"x": 1}}')); ({}).x`,
		`require('lodash').range(1e9)`,
		`require('lodash').repeat('x', 1e9)`,
		`require('slugify')(null)`,
		`require('slugify')('Ünïcödé ✓ & ~', { strict: true, remove: /x/g })`,
		`require('qs').parse('a[b][c][d][e][f][g]=1&a[999]=2&__proto__[x]=1')`,
		`require('qs').stringify({ a: [{ b: null }], c: new Date(0) })`,
		`require('crypto').createHash('nope')`,
		`require('crypto').randomBytes(-1)`,
		`require('crypto').createHmac('sha256', require('crypto').randomBytes(8)).update('x').digest('base64url')`,
		`require('../../etc/passwd')`,
		`require('jsonwebtoken').decode('eyJhbGciOiJIUzI1NiJ9.eyJhIjoxfQ.x', { complete: true })`,
		`require('jsonwebtoken').verify('e30.e30.e30', 'k')`,
		`require('jsonwebtoken').verify('\u00ff.\u00ff.\u00ff', '')`,
		`require('jsonwebtoken').sign({ a: 1 }, '-----BEGIN PRIVATE KEY-----', { algorithm: 'RS256' })`,
		`require('bcryptjs').hashSync('x', '$2a$04$\u00ff\u00ff\u00ff')`,
		`require('bcrypt').compareSync('x', '$2b$31$abcdefghijklmnopqrstuv')`,
		`require('uuid').v5('x', 'zz')`,
		`Buffer.from('\ud800\udfff\uffff', 'base64url').toString('utf16le')`,
		`Buffer.alloc(1e9)`,
		`Buffer.concat([Buffer.alloc(16777216), Buffer.alloc(16777216)])`,
		`new TextDecoder().decode(new Uint8Array([0xf4, 0x90, 0x80, 0x80]))`,
		`atob('====')`,
		`setInterval(() => {}, 0); setTimeout('x')`,
		`structuredClone(new Proxy({}, {}))`,
		`new URL('http://[::ffff:1.2.3.4]:0/%2e%2E/a?\u00e9#\u0000').searchParams.getAll('x')`,
		`new URL('\\\\server\\share', 'file:///C:/').href`,
		`require('url').fileURLToPath('file://host/x')`,
		`new URL('http://x/').pathname = '/y'`,
		`require('util').inspect(new Proxy([], {}), { depth: Infinity })`,
		`require('events').prototype.emit.call({}, 'error', 1)`,
		`new Proxy({}, { get() { throw new Error('x') } }).y`,
		`Promise.reject(new Error('unhandled'))`,
		`(async () => { await null; throw new Error('later') })()`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		vm, err := NewVM(Options{Root: t.TempDir(), Strict: true})
		if err != nil {
			t.Fatal(err)
		}
		rt := vm.Runtime()
		rt.Set("require", vm.RequireFunc())
		_ = vm.Run(context.Background(), 100*time.Millisecond, func() error {
			_, err := rt.RunString(src)
			return err
		})
		// The sandbox stays usable after whatever ran in it.
		if err := vm.Run(context.Background(), time.Second, func() error {
			_, err := rt.RunString(`require('lodash').get({a: 1}, 'a')`)
			return err
		}); err != nil && src == "" {
			t.Fatalf("sandbox unusable: %v", err)
		}
	})
}

// FuzzParsers feeds untrusted text to the sandbox's parsers that project code points at
// request data: URL and URLSearchParams, jsonwebtoken's decode and verify, Buffer's
// decoders, atob, querystring and bcrypt's salts. Each answers or throws within the limit;
// the host never panics.
func FuzzParsers(f *testing.F) {
	for _, s := range []string{"", "http://[::1", "http://a:b@[v1.x]:99999/%zz?#", "file:///C:|/..\\x", "http://0x7fffffff.0.0.1./",
		"http://xn--/", "http://ab\u00ad\u200d.com", "eyJhbGciOiJIUzI1NiJ9.eyJhIjoxfQ.x", "a.b.c", "%%%===", "$2a$04$......................",
		"\xff\xfe\xfd", "a=1&a=2&__proto__=x&b=%E2%82", "\xed\xa0\x80"} {
		f.Add(s)
	}
	vm, err := NewVM(Options{Root: f.TempDir(), Strict: true})
	if err != nil {
		f.Fatal(err)
	}
	rt := vm.Runtime()
	rt.Set("require", vm.RequireFunc())
	if _, err := rt.RunString(`var jwt = require('jsonwebtoken'), qs = require('querystring'), bcryptjs = require('bcryptjs'), util = require('util');
function tryAll(s) {
  var out = [];
  [() => new URL(s).href, () => new URL(s, 'http://base.example/a/b').href, () => String(new URLSearchParams(s)),
   () => jwt.decode(s, { complete: true }), () => jwt.verify(s, 'k'), () => Buffer.from(s, 'base64').toString(),
   () => Buffer.from(s, 'hex').toString('latin1'), () => Buffer.from(s).toString('utf16le'), () => atob(s),
   () => util.inspect(qs.parse(s)), () => bcryptjs.compareSync('x', s), () => require('bcrypt').compareSync('x', s),
   () => new TextDecoder().decode(Buffer.from(s, 'latin1'))].forEach(function (fn) {
    try { out.push(fn()); } catch (e) { out.push(String(e && e.message)); }
  });
  return out.length;
}`); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fn, _ := goja.AssertFunction(rt.Get("tryAll"))
		err := vm.Run(context.Background(), 2*time.Second, func() error {
			_, err := fn(goja.Undefined(), rt.ToValue(s))
			return err
		})
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
	})
}
