package jseval

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/dop251/goja"
)

// VM is a long-lived sandbox for running a project's code request after request (controllers,
// policies, middlewares, lifecycles): the same module loader, Strapi's env and @strapi/utils,
// and no file system, process or network API, but no time limit of its own: Run sets one per
// call. A VM is not safe for concurrent use; a caller pools them.
type VM struct {
	s *sandbox
}

// NewVM makes a sandbox. With opts.Strict, requiring an npm module the sandbox does not
// provide throws, naming it, instead of giving an inert stub.
func NewVM(opts Options) (*VM, error) {
	s, err := newSandbox(context.Background(), opts)
	if err != nil {
		return nil, err
	}
	s.stop() // the sandbox's own timer: Run sets a limit per call
	s.deadline = time.Time{}
	return &VM{s: s}, nil
}

// Runtime is the VM's JavaScript runtime, for binding host functions.
func (v *VM) Runtime() *goja.Runtime { return v.s.rt }

// Require loads a module by name (a built-in or one of opts.Modules) or a project file by
// absolute path, once; later calls return the same exports.
func (v *VM) Require(name string) (goja.Value, error) {
	if !filepath.IsAbs(name) {
		if _, ok := v.s.opts.Modules[name]; !ok && !Provided(name) {
			return nil, fmt.Errorf("require(%q): not a project file", name)
		}
	}
	val, err := v.s.require(name)
	if err != nil {
		return nil, jsError(err)
	}
	return val, nil
}

// RequireFunc is require as a JavaScript function of this VM (project files by absolute
// path, modules by name).
func (v *VM) RequireFunc() func(goja.FunctionCall) goja.Value {
	return func(c goja.FunctionCall) goja.Value { return v.s.requireOrThrow(c.Argument(0).String()) }
}

// requireOrThrow is require as JavaScript sees it: a module the sandbox does not provide
// throws Strapi's NotImplementedError naming it (501: the route is refused, never run
// without the code it needs); other failures throw as Go errors.
func (s *sandbox) requireOrThrow(name string) goja.Value {
	val, err := s.require(name)
	var np *NotProvidedError
	if errors.As(err, &np) {
		panic(s.notImplemented(np.Error()))
	}
	if err != nil {
		panic(s.rt.NewGoError(err))
	}
	return val
}

// Run calls fn with a time limit and ctx's cancellation interrupting the script; a script
// interrupted answers ErrTimeout or ctx's error.
func (v *VM) Run(ctx context.Context, limit time.Duration, fn func() error) error {
	rt := v.s.rt
	rt.ClearInterrupt()
	if limit <= 0 {
		limit = DefaultTimeout
	}
	v.s.ctx, v.s.deadline = ctx, time.Now().Add(limit)
	defer func() { v.s.ctx, v.s.deadline = context.Background(), time.Time{} }()
	t := time.AfterFunc(limit, func() { rt.Interrupt(ErrTimeout) })
	defer t.Stop()
	stop := context.AfterFunc(ctx, func() { rt.Interrupt(ctx.Err()) })
	defer stop()
	err := fn()
	// What the run left pending does not fire into the next caller's run.
	v.resetTimers()
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		if e, ok := ie.Value().(error); ok {
			return e
		}
		return ErrTimeout
	}
	return err
}

// Interrupt stops the script running in the VM (from another goroutine), with err as the
// reason Run returns.
func (v *VM) Interrupt(err error) { v.s.rt.Interrupt(err) }

// JSError turns a goja exception into a plain error carrying the script's message.
func JSError(err error) error { return jsError(err) }

// notImplemented is a @strapi/utils NotImplementedError of this sandbox, to throw.
func (s *sandbox) notImplemented(msg string) goja.Value {
	utils := s.cache["@strapi/utils"].ToObject(s.rt)
	ctor := utils.Get("errors").ToObject(s.rt).Get("NotImplementedError")
	fn, _ := goja.AssertFunction(ctor)
	e, err := fn(goja.Undefined(), s.rt.ToValue(msg))
	if err != nil {
		return s.rt.NewGoError(errors.New(msg))
	}
	return e
}

// Settle runs the script's timers (setTimeout, setInterval, setImmediate) as they fall due,
// really waiting for them, until done reports the script has settled or no timer is left;
// inside Run, whose time limit and context bound the wait as they bound the script. Promise
// jobs run after each timer's callback, as Node drains them between callbacks.
func (v *VM) Settle(ctx context.Context, done func() bool) error {
	timers := v.s.cache["\x00timers"].ToObject(v.s.rt)
	next, _ := goja.AssertFunction(timers.Get("next"))
	runOne, _ := goja.AssertFunction(timers.Get("runOne"))
	for !done() {
		d, err := next(timers)
		if err != nil {
			return err
		}
		due := d.ToInteger()
		if due < 0 {
			return nil
		}
		if wait := time.Until(time.UnixMilli(due)); wait > 0 {
			if !v.s.deadline.IsZero() && time.Now().Add(wait).After(v.s.deadline) {
				// Nothing but the timer can move the script on, and it falls due after
				// the run's limit: the run has run out of time now.
				return ErrTimeout
			}
			if err := sleep(ctx, wait); err != nil {
				return err
			}
		}
		if !v.s.deadline.IsZero() && time.Now().After(v.s.deadline) {
			return ErrTimeout
		}
		if _, err := runOne(timers, v.s.rt.ToValue(time.Now().UnixMilli())); err != nil {
			return err
		}
	}
	return nil
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (v *VM) resetTimers() {
	timers := v.s.cache["\x00timers"].ToObject(v.s.rt)
	if reset, ok := goja.AssertFunction(timers.Get("reset")); ok {
		_, _ = reset(timers)
	}
}
