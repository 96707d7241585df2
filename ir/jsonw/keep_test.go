package jsonw

import (
	"runtime"
	"testing"
)

// A kept buffer survives garbage collections (a sync.Pool alone loses it), comes back
// empty, and a buffer over MaxKeptBuffer is not kept.
func TestKeeper(t *testing.T) {
	k := NewKeeper(func() *Buffer { return new(Buffer) })
	b := k.Get()
	b.WriteString("response")
	k.Put(b)
	runtime.GC()
	runtime.GC()
	got := k.Get()
	if got != b {
		t.Fatal("the kept buffer did not survive two garbage collections")
	}
	if got.Len() != 0 || got.Cap() == 0 {
		t.Fatalf("a kept buffer comes back empty with its capacity: len %d cap %d", got.Len(), got.Cap())
	}
	huge := new(Buffer)
	huge.Grow(MaxKeptBuffer + 1)
	k.Put(huge)
	if again := k.Get(); again == huge {
		t.Fatal("a buffer over MaxKeptBuffer was kept")
	}
}
