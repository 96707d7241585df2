package jseval

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestTimers: a run keeps running the script's timers as they fall due (really waiting)
// until it settles, in Node's order, with promise jobs between callbacks; what is left
// pending does not fire into the next run; an endless interval is stopped by the limit.
func TestTimers(t *testing.T) {
	vm, err := NewVM(Options{Root: t.TempDir(), Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	rt := vm.Runtime()
	rt.Set("require", vm.RequireFunc())
	run := func(limit time.Duration, src string) (string, time.Duration, error) {
		var out string
		start := time.Now()
		err := vm.Run(context.Background(), limit, func() error {
			if _, err := rt.RunString(`var box = { state: 'pending' }, log = [];` + src); err != nil {
				return err
			}
			box := rt.Get("box").ToObject(rt)
			if err := vm.Settle(context.Background(), func() bool { return box.Get("state").String() != "pending" }); err != nil {
				return err
			}
			v, err := rt.RunString(`JSON.stringify([box.state, log])`)
			if err == nil {
				out = v.String()
			}
			return err
		})
		return out, time.Since(start), err
	}

	got, took, err := run(time.Second, `(async () => {
  const t0 = Date.now();
  await new Promise(r => setTimeout(r, 50));
  log.push(Date.now() - t0 >= 50);
  setTimeout((a, b) => log.push('t20', a, b), 20, 'x', 'y');
  setTimeout(() => log.push('t0'));
  setImmediate(() => log.push('immediate'));
  queueMicrotask(() => log.push('micro'));
  await new Promise(r => process.nextTick((a) => { log.push(a); r(); }, 'tick'));
  const c = setTimeout(() => log.push('cleared'), 5);
  clearTimeout(c);
  const d = setTimeout(() => log.push('cleared by id'), 5);
  clearTimeout(+d);
  let n = 0;
  await new Promise(r => { const i = setInterval(() => { log.push('i' + ++n); if (n === 3) { clearInterval(i); r(); } }, 10); });
  await new Promise(r => setTimeout(r, 30));
  setTimeout(() => { Promise.resolve().then(() => log.push('job after a')); log.push('a'); }, 1);
  setTimeout(() => log.push('b'), 1);
  await new Promise(r => setTimeout(r, 10));
  const h = setTimeout(() => {}, 1);
  log.push(typeof h, h.hasRef(), h.unref() === h, h.hasRef(), typeof h[Symbol.toPrimitive]());
  clearTimeout(h);
  setTimeout(() => log.push('never: after the box settled'), 30);
})().then(() => { box.state = 'done'; });`)
	want := `["done",[true,"micro","tick","immediate","t0","i1","t20","x","y","i2","i3","a","job after a","b","object",true,true,false,"number"]]`
	if err != nil || got != want {
		t.Errorf("got %s, %v\nwant %s", got, err, want)
	}
	if took < 100*time.Millisecond || took > 900*time.Millisecond {
		t.Errorf("took %v", took)
	}
	// The timer left pending does not fire in the next run.
	got, _, err = run(time.Second, `setTimeout(() => { box.state = 'done'; }, 60);`)
	if err != nil || got != `["done",[]]` {
		t.Errorf("next run: %s %v", got, err)
	}

	// Hostile code: an endless interval, an endless loop in a timer, a timer past the limit.
	for _, src := range []string{
		`setInterval(() => log.push(1), 0);`,
		`setTimeout(() => { for (;;) {} }, 1);`,
		`setTimeout(() => {}, 60000);`,
		`(function again() { setImmediate(again); })();`,
	} {
		_, took, err := run(200*time.Millisecond, src)
		if !errors.Is(err, ErrTimeout) || took > 600*time.Millisecond {
			t.Errorf("%s: %v after %v, want ErrTimeout within the limit", src, err, took)
		}
	}
	// bcrypt's rounds are Go, which goja's interrupt does not reach: the limit stops them too.
	for _, src := range []string{
		`require('bcrypt').compareSync('x', '$2b$31$abcdefghijklmnopqrstuv'); box.state = 'done';`,
		`require('bcryptjs').hash('x', '$2a$31$abcdefghijklmnopqrstuv').then(() => { box.state = 'done'; });`,
		`Buffer.alloc(16777216 + 1)`,
	} {
		_, took, err := run(200*time.Millisecond, src)
		if err == nil || took > 600*time.Millisecond {
			t.Errorf("%s: %v after %v, want an error within the limit", src, err, took)
		}
	}
	// A settled script's run does not wait for its timers; bad callbacks throw Node's error.
	got, took, err = run(time.Second, `setTimeout(() => {}, 500); box.state = 'done';
try { setTimeout('code') } catch (e) { log.push(e.name, e.code, e.message) }`)
	if err != nil || took > 100*time.Millisecond || got != `["done",["TypeError","ERR_INVALID_ARG_TYPE","The \"callback\" argument must be of type function. Received type string ('code')"]]` {
		t.Errorf("got %s %v after %v", got, err, took)
	}
	// A cancelled context stops the wait.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	err = vm.Run(ctx, 5*time.Second, func() error {
		if _, err := rt.RunString(`setTimeout(() => {}, 1000)`); err != nil {
			return err
		}
		return vm.Settle(ctx, func() bool { return false })
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("cancelled: %v", err)
	}
}
