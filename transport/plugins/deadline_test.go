package plugins

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestBodyDeadline: the deadline runs from the start, pauses while a body arrives, runs
// whole again once it is in, and ends with context.DeadlineExceeded; a request that ends
// first ends it with its own error.
func TestBodyDeadline(t *testing.T) {
	const timeout = 50 * time.Millisecond
	ctx, cancel := WithBodyDeadline(context.Background(), timeout)
	defer cancel()
	if _, ok := ctx.Deadline(); !ok {
		t.Fatal("no deadline from the start")
	}
	ReceivingBody(ctx)
	if _, ok := ctx.Deadline(); ok {
		t.Fatal("a deadline while the body arrives")
	}
	select {
	case <-ctx.Done():
		t.Fatal("done while the body arrived")
	case <-time.After(3 * timeout):
	}
	derived, cancelDerived := context.WithCancel(ctx)
	defer cancelDerived()
	BodyReceived(ctx)
	if d, ok := ctx.Deadline(); !ok || time.Until(d) > timeout {
		t.Fatalf("deadline %v %v after the body", d, ok)
	}
	select {
	case <-derived.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the deadline did not pass")
	}
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) || !errors.Is(derived.Err(), context.DeadlineExceeded) {
		t.Fatalf("errors %v, %v", ctx.Err(), derived.Err())
	}
	// Passed, it stays passed.
	ReceivingBody(ctx)
	BodyReceived(ctx)
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("after the deadline: %v", ctx.Err())
	}

	// A request whose client left ends with Canceled.
	parent, leave := context.WithCancel(context.Background())
	ctx, cancel = WithBodyDeadline(parent, time.Hour)
	defer cancel()
	leave()
	<-ctx.Done()
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Fatalf("client left: %v", ctx.Err())
	}
	// Without such a deadline both do nothing.
	ReceivingBody(context.Background())
	BodyReceived(context.Background())
}
