package projectcode

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// TestHitStore: koa2-ratelimit's memory store as the host keeps it: a window opens at a key's
// first hit, counts weights, ends after its interval, takes hits back, and stays bounded.
func TestHitStore(t *testing.T) {
	var s hitStore
	now := time.UnixMilli(1_000_000)
	hit := func(key string, weight float64, undo bool, at time.Time) (float64, int64) {
		t.Helper()
		args, _ := json.Marshal(hitArgs{Key: key, Interval: 60000, Weight: weight, Undo: undo})
		b, err := s.incr(args, at)
		if err != nil {
			t.Fatal(err)
		}
		var out struct {
			Counter float64 `json:"counter"`
			DateEnd int64   `json:"dateEnd"`
		}
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		return out.Counter, out.DateEnd
	}
	if c, end := hit("a", 1, false, now); c != 1 || end != 1_060_000 {
		t.Errorf("first hit: %v %v", c, end)
	}
	if c, _ := hit("a", 2, false, now.Add(time.Second)); c != 3 {
		t.Errorf("weighted hit: %v", c)
	}
	if c, _ := hit("a", 1, true, now.Add(2*time.Second)); c != 2 {
		t.Errorf("taken back: %v", c)
	}
	if c, end := hit("a", 1, false, now.Add(time.Minute)); c != 1 || end != 1_120_000 {
		t.Errorf("after the window: %v %v", c, end)
	}
	for i := range maxHitKeys + 10 {
		hit(fmt.Sprint("k", i), 1, false, now.Add(time.Minute))
	}
	if n := len(s.hits); n > maxHitKeys {
		t.Errorf("%d keys kept, bound %d", n, maxHitKeys)
	}
}
