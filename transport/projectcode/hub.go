package projectcode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/dop251/goja"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/planner/write"
	"github.com/quarrycms/quarry/schemas/jseval"
	"github.com/quarrycms/quarry/transport/envelope"
)

// The project's strapi.eventHub listeners (added by register() and bootstrap()) live in the
// sandbox that ran bootstrap(), which Quarry keeps, as it keeps it for the cron jobs. An
// event reaches them from two places: the write path's announce step (write.Listeners: the
// entity service's entry.* events and the upload plugin's media.*), and the project's own
// strapi.eventHub.emit in a pooled sandbox (a controller, a lifecycle hook). Either way the
// listeners run there one event at a time, as Strapi's hub runs them (each awaited in turn,
// then the subscribers), under the request's time limit; their writes go through the one
// write path. An event a write made inside that sandbox's own run raises (a listener's
// write) is started there at once and not awaited, as Strapi's entity service does not
// await its emit: the run ends when it has settled too.

// timeRead bounds reading what the listeners wait for (a plain walk of the hub's tables).
const timeRead = time.Second

// keptKey carries, in the context of a run of the kept sandbox (bootstrap(), a cron job, an
// event's listeners), that sandbox: the events raised inside the run are handed to it on the
// same goroutine, never waited for (it is busy with the run).
type keptKey struct{}

// hubState is what the listeners wait for, read after each run of the kept sandbox.
type hubState struct {
	mu    sync.Mutex
	names map[string]bool // events some listener waits for
	all   bool            // a subscriber sees every event
	// lost says why the listeners can no longer run: bootstrap() failed, or a run of the
	// kept sandbox was stopped by its limit. The writes they would see are refused.
	lost string
}

func (h *hubState) listens(name string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.all || h.names[name]
}

// errHubLost is a write's answer while the listeners it would reach cannot run.
func (h *hubState) errLost(name string) *apierror.Error {
	return &apierror.Error{Status: 501, Name: "NotImplementedError",
		Message: fmt.Sprintf("the project's strapi.eventHub listeners of %s cannot run under Quarry since %s; restart the server", name, h.lost)}
}

// hubLost records that the listeners can no longer run.
func (rt *Runtime) hubLost(why string) {
	if !rt.EventHub {
		return
	}
	rt.hub.mu.Lock()
	defer rt.hub.mu.Unlock()
	if rt.hub.lost == "" {
		rt.hub.lost = why
		rt.Log.Error("the project's strapi.eventHub listeners cannot run: the writes they would see are refused", "why", why)
	}
}

func (rt *Runtime) hubIsLost() bool {
	rt.hub.mu.Lock()
	defer rt.hub.mu.Unlock()
	return rt.hub.lost != ""
}

// idle says whether the events raised inside a run of the kept sandbox v (its writes' events,
// started and not awaited) have settled: bootstrap() and a cron job end when they have too.
func (v *vm) idle() bool {
	out, err := v.hubIdle(goja.Undefined())
	return err != nil || out.ToBoolean()
}

// readListened reads, in the kept sandbox, what its listeners wait for; it answers whether
// any does.
func (rt *Runtime) readListened(v *vm) (bool, error) {
	var out struct {
		Names []string `json:"names"`
		All   bool     `json:"all"`
	}
	err := v.js.Run(context.Background(), timeRead, func() error {
		s, err := v.hubListened(goja.Undefined())
		if err != nil {
			return err
		}
		return json.Unmarshal([]byte(s.String()), &out)
	})
	if err != nil {
		return false, fmt.Errorf("eventHub listeners: %w", jseval.JSError(err))
	}
	names := make(map[string]bool, len(out.Names))
	for _, n := range out.Names {
		names[n] = true
	}
	rt.hub.mu.Lock()
	rt.hub.names, rt.hub.all = names, out.All
	rt.hub.mu.Unlock()
	return out.All || len(names) > 0, nil
}

// refreshListened is readListened after a run that may have added or removed listeners
// (once's, a listener's own on or off); a failure loses them.
func (rt *Runtime) refreshListened(v *vm) {
	if _, err := rt.readListened(v); err != nil {
		rt.hubLost(err.Error())
	}
}

// hubGuard refuses a write whose event the listeners wait for while they cannot run: it is
// the before hook's check, so nothing is written.
func (rt *Runtime) hubGuard(l *write.Lifecycle) error {
	if !rt.EventHub || l.Params == nil || l.Params.Via == ir.ViaQueryEngine {
		return nil
	}
	var name string
	switch l.Action {
	case write.BeforeCreate:
		name = write.EntryCreate
	case write.BeforeUpdate:
		name = write.EntryUpdate
	case write.BeforeDelete:
		name = write.EntryDelete
	default:
		return nil
	}
	rt.hub.mu.Lock()
	defer rt.hub.mu.Unlock()
	if rt.hub.lost == "" || rt.hub.names != nil && !rt.hub.all && !rt.hub.names[name] {
		return nil
	}
	return rt.hub.errLost(name)
}

// Emit runs the listeners of a committed write's event (write.Listeners): Strapi's payload,
// { model, uid, entry } for the entity service's events (the entry as the webhook sends it)
// and { media } for the upload plugin's. A listener's failure is logged and returned (the
// write path then sends no webhook); the write's answer stands.
func (rt *Runtime) Emit(ctx context.Context, ev write.Event) error {
	if ctx.Value(keptKey{}) == nil && !rt.hub.listens(ev.Name) && !rt.hubIsLost() {
		return nil // no listener waits for it: nothing to render
	}
	var b envelope.Buf
	switch ev.Name {
	case write.MediaCreate, write.MediaUpdate, write.MediaDelete:
		b.WriteString(`[{"media":`)
	default:
		b.WriteString(`[{"model":`)
		enc, _ := json.Marshal(ev.Model.SingularName)
		b.Write(enc)
		b.WriteString(`,"uid":`)
		enc, _ = json.Marshal(ev.Model.UID)
		b.Write(enc)
		b.WriteString(`,"entry":`)
	}
	if ev.JSON != nil {
		b.Write(ev.JSON)
	} else {
		b.RawEntry(ev.Step, ev.Entry)
	}
	b.WriteString(`}]`)
	err := rt.emit(context.WithoutCancel(ctx), ev.Name, b.String())
	var ae *apierror.Error
	switch {
	case err == nil:
	case errors.As(err, &ae) && ae.Status == 501:
		// The listeners are lost (the entity service's writes were refused before they
		// wrote; this is a plugin's own write, which has no before step): none ran, so
		// none stopped the webhook.
		rt.Log.Error("strapi.eventHub listeners not run", "event", ev.Name, "model", ev.Model.UID, "id", ev.ID, "error", err)
		return nil
	default:
		rt.Log.Error("strapi.eventHub listener failed (Strapi answers the write, then stops on the rejection no one handles; Quarry logs it)", "event", ev.Name, "model", ev.Model.UID, "id", ev.ID, "error", err)
	}
	return err
}

// emitFromCode is strapi.eventHub.emit(name, ...args) in a pooled sandbox: the listeners run
// in the kept sandbox, and what they threw is the emit's rejection.
func (rt *Runtime) emitFromCode(c *call, args []byte) ([]byte, error) {
	var a struct {
		Name string `json:"name"`
		Args string `json:"args"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, err
	}
	if err := rt.emit(c.ctx, a.Name, a.Args); err != nil {
		return nil, err
	}
	return []byte("null"), nil
}

// emit runs the listeners of event name with args (a JSON array, as hubEncode makes it).
func (rt *Runtime) emit(ctx context.Context, name, args string) error {
	if v, ok := ctx.Value(keptKey{}).(*vm); ok {
		// Inside the kept sandbox's own run, on its goroutine: started there, not awaited.
		r := v.js.Runtime()
		_, err := v.hubFire(goja.Undefined(), r.ToValue(name), r.ToValue(args))
		return err
	}
	ks := rt.kept
	if ks == nil || !rt.hub.listens(name) {
		rt.hub.mu.Lock()
		lost := rt.hub.lost
		rt.hub.mu.Unlock()
		if lost != "" && ks == nil {
			return rt.hub.errLost(name)
		}
		return nil // no listener waits for it
	}
	// A write's listeners wait for their turn (the write committed: they run though its
	// client left); the project's own emit gives up with its request.
	if err := ks.wait(ctx); err != nil {
		return err
	}
	defer ks.done()
	v := ks.vm
	if v == nil {
		return rt.hub.errLost(name)
	}
	ctx = context.WithoutCancel(ctx)
	c := &call{who: ir.System, route: "strapi.eventHub " + name}
	c.ctx = context.WithValue(context.WithValue(ctx, vmKey{}, v), keptKey{}, v)
	v.cur = c
	defer func() { v.cur = nil }()
	var res boxResult
	rt.heap.enter(v)
	err := v.js.Run(ctx, rt.Timeout, func() error {
		r := v.js.Runtime()
		b, err := v.hubDispatch(goja.Undefined(), r.ToValue(name), r.ToValue(args))
		if err != nil {
			return err
		}
		box := b.ToObject(r)
		if err := v.js.Settle(ctx, func() bool { return boxString(box, "state") != "pending" }); err != nil {
			return err
		}
		res = readBox(box)
		return nil
	})
	rt.heap.leave(v)
	rt.closeTx(c)
	if err != nil {
		// Stopped mid-run: the sandbox's state is unknown, and with it the listeners.
		ks.vm = nil
		if ks.sch != nil {
			ks.sch.Stop()
		}
		err = jseval.JSError(err)
		rt.hubLost("the listeners of " + name + " were stopped (" + err.Error() + ")")
		return err
	}
	rt.refreshListened(v)
	switch {
	case res.state != "done":
		return errors.New("the listeners did not finish: they wait on something that never comes")
	case res.internal != "":
		return errors.New(res.internal)
	case res.json != "":
		return boxError(res)
	}
	return nil
}
