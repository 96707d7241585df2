package projectcode

import (
	"errors"
	"runtime/metrics"
	"sync"
	"time"
)

// ErrMemory is why a script was stopped when the heap passed Runtime.MaxHeap.
var ErrMemory = errors.New("the project's code used too much memory")

// heapWatch stops the scripts that are running when the process's heap passes a limit. Go
// cannot tell which goroutine allocated what, so every running script is stopped: a script
// that grows without bound is the likely cause, and the others fail cleanly and can be retried.
type heapWatch struct {
	max     uint64
	mu      sync.Mutex
	running map[*vm]struct{}
	started bool
}

func (h *heapWatch) enter(v *vm) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.running == nil {
		h.running = map[*vm]struct{}{}
	}
	h.running[v] = struct{}{}
	if !h.started {
		h.started = true
		go h.loop()
	}
}

func (h *heapWatch) leave(v *vm) {
	h.mu.Lock()
	delete(h.running, v)
	h.mu.Unlock()
}

func (h *heapWatch) loop() {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	for {
		time.Sleep(10 * time.Millisecond)
		h.mu.Lock()
		n := len(h.running)
		h.mu.Unlock()
		if n == 0 {
			continue
		}
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 || sample[0].Value.Uint64() <= h.max {
			continue
		}
		h.mu.Lock()
		for v := range h.running {
			v.js.Interrupt(ErrMemory)
		}
		h.mu.Unlock()
	}
}
