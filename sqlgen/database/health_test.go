package database

import (
	"errors"
	"testing"
	"time"

	"github.com/quarrycms/quarry/sqlgen/sqlerr"
)

func TestDialGateBacksOff(t *testing.T) {
	now := time.Unix(1000, 0)
	g := &dialGate{now: func() time.Time { return now }}
	if err := g.enter(); err != nil {
		t.Fatalf("a healthy gate refused: %v", err)
	}
	down := errors.New("connection refused")
	g.done(down)
	if err := g.enter(); !errors.Is(err, sqlerr.ErrUnavailable) {
		t.Fatalf("right after a failure: %v, want ErrUnavailable", err)
	}
	var waits []time.Duration
	for i := 0; i < 10; i++ {
		wait := g.next.Sub(now)
		waits = append(waits, wait)
		now = g.next
		if err := g.enter(); err != nil {
			t.Fatalf("after the back-off: %v", err)
		}
		// One probe at a time.
		if err := g.enter(); !errors.Is(err, sqlerr.ErrUnavailable) {
			t.Fatalf("a second attempt during the probe: %v", err)
		}
		g.done(down)
	}
	for i, w := range waits {
		base := min(minBackoff<<i, maxBackoff)
		if w < base*3/4 || w > base*5/4 {
			t.Errorf("wait %d = %s, want %s ±25%%", i, w, base)
		}
	}
	now = g.next
	if err := g.enter(); err != nil {
		t.Fatal(err)
	}
	g.done(nil)
	if err := g.enter(); err != nil {
		t.Fatalf("after recovery: %v", err)
	}
}

func TestLogLimiter(t *testing.T) {
	var l logLimiter
	t0 := time.Unix(0, 0)
	if ok, _ := l.allow("a", t0); !ok {
		t.Fatal("first line refused")
	}
	for i := 1; i <= 50; i++ {
		if ok, _ := l.allow("a", t0.Add(time.Duration(i)*10*time.Millisecond)); ok && i < 100 {
			t.Fatalf("line %d within the second logged", i)
		}
	}
	if ok, _ := l.allow("b", t0.Add(time.Millisecond)); !ok {
		t.Fatal("another cause is limited separately")
	}
	ok, n := l.allow("a", t0.Add(time.Second))
	if !ok || n != 50 {
		t.Fatalf("after a second: %v with %d suppressed, want true with 50", ok, n)
	}
}
