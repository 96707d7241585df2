package write

import (
	"context"
	"errors"
	"testing"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
)

// hooks records the lifecycle calls and runs the test's functions in them.
type hooks struct {
	calls  []string
	before func(ctx context.Context, l *Lifecycle) error
	after  func(ctx context.Context, l *Lifecycle) error
}

func (h *hooks) Before(ctx context.Context, l *Lifecycle) error {
	h.calls = append(h.calls, string(l.Action)+" "+l.Model.UID)
	if h.before != nil {
		return h.before(ctx, l)
	}
	return nil
}

func (h *hooks) After(ctx context.Context, l *Lifecycle) error {
	h.calls = append(h.calls, string(l.Action)+" "+l.Model.UID)
	if h.after != nil {
		return h.after(ctx, l)
	}
	return nil
}

func applyService(t *testing.T, e *env) *Service {
	p := &planner.Planner{Schema: e.schema, Config: planner.DefaultConfig()}
	return &Service{Writer: e.w, Planner: p, Runner: &exec.Runner{Dialect: e.db.Dialect}, DB: e.db}
}

func tagCount(t *testing.T, e *env) int {
	t.Helper()
	var n int
	if err := e.db.GetContext(context.Background(), &n, `SELECT COUNT(*) FROM tags`); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestApplyLifecycles: the before hook runs in the write's transaction with the params (what
// it leaves in Data is written; its error aborts the write, rolls back and is the answer; a
// write it makes through Apply joins the transaction), the after hook once it committed, with
// the result and the before hook's state; without hooks nothing changes.
func TestApplyLifecycles(t *testing.T) {
	e := newEnv(t, "sqlite")
	ctx := context.Background()
	svc := applyService(t, e)
	create := func(name string) (*Result, error) {
		return svc.Apply(ctx, &ir.Query{Model: "api::tag.tag", Op: ir.Create, Via: ir.ViaEntityService,
			Data: map[string]any{"name": name}}, ir.System)
	}

	// No hooks: a plain write.
	if res, err := create("plain"); err != nil || res.Entry == nil || res.ID != 1 {
		t.Fatalf("without hooks: %v %+v", err, res)
	}

	h := &hooks{}
	svc.Lifecycles = h
	h.before = func(ctx context.Context, l *Lifecycle) error {
		if _, ok := TxFrom(ctx); !ok {
			t.Error("the before hook's context carries no transaction")
		}
		l.Params.Data["name"] = "set by the hook"
		l.State["seen"] = true
		return nil
	}
	h.after = func(ctx context.Context, l *Lifecycle) error {
		if l.State["seen"] != true || l.Result == nil || l.Result.ID != 2 {
			t.Errorf("after hook: state %v, result %+v", l.State, l.Result)
		}
		return nil
	}
	res, err := create("given")
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Entry.Values[0]; got != "set by the hook" {
		t.Errorf("the answer holds %v, not the hook's value", got)
	}
	if want := "beforeCreate api::tag.tag,afterCreate api::tag.tag"; join(h.calls) != want {
		t.Errorf("calls %s, want %s", join(h.calls), want)
	}

	// A before hook's error rolls back, the write and what the hook wrote alike.
	h.calls = nil
	refused := apierror.Application("refused by the project")
	h.before = func(ctx context.Context, l *Lifecycle) error {
		if l.Model.UID == "api::writer.writer" {
			return nil
		}
		if _, err := svc.Apply(ctx, &ir.Query{Model: "api::writer.writer", Op: ir.Create, Via: ir.ViaEntityService,
			Data: map[string]any{"name": "nested"}}, ir.System); err != nil {
			t.Errorf("nested write: %v", err)
		}
		return refused
	}
	h.after = nil
	before := tagCount(t, e)
	if _, err := create("refused"); !errors.Is(err, refused) {
		t.Fatalf("the hook's error is not the answer: %v", err)
	}
	if n := tagCount(t, e); n != before {
		t.Errorf("%d tags after a refused write, %d before", n, before)
	}
	var writers int
	if err := e.db.GetContext(ctx, &writers, `SELECT COUNT(*) FROM writers`); err != nil || writers != 0 {
		t.Errorf("the hook's nested write survived the rollback: %d writers (%v)", writers, err)
	}
	if want := "beforeCreate api::tag.tag,beforeCreate api::writer.writer"; join(h.calls) != want {
		t.Errorf("calls %s, want %s (no after hook for a write that did not commit)", join(h.calls), want)
	}

	// The permission: a public caller without create is refused, the system caller is not.
	svc.Lifecycles = nil
	if _, err := svc.Apply(ctx, &ir.Query{Model: "api::tag.tag", Op: ir.Create, Data: map[string]any{"name": "x"}},
		&ir.Caller{Kind: ir.PublicCaller}); err == nil || err.(*apierror.Error).Status != 403 {
		t.Errorf("public caller without permission: %v", err)
	}
	if _, err := svc.Apply(ctx, &ir.Query{Model: "api::tag.tag", Op: ir.Create, Data: map[string]any{"name": "x"}}, nil); err == nil {
		t.Error("a write without a caller was made")
	}
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ","
		}
		out += x
	}
	return out
}
