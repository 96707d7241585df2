package projectcode

import (
	"encoding/json"
	"sync"
	"time"
)

// hitStore is koa2-ratelimit's memory store, shared by every sandbox of the runtime as the
// package's module-level store is shared by every middleware of a Node process: per key, a
// counter and the end of its window, which opens at the key's first hit for the interval the
// middleware gives; keys whose window ended go at the next hit.
type hitStore struct {
	mu    sync.Mutex
	hits  map[string]*hitWindow
	sweep int64 // when ended windows were last dropped (ms)
}

type hitWindow struct {
	counter float64
	end     int64 // ms since the epoch
}

// maxHitKeys bounds the store's memory (a client rotating keys cannot make it grow without
// bound).
const maxHitKeys = 100_000

type hitArgs struct {
	Key      string  `json:"key"`
	Interval float64 `json:"interval"`
	Weight   float64 `json:"weight"`
	Undo     bool    `json:"undo"`
}

// incr counts weight hits for key (takes them back with undo) and answers the counter and
// the window's end, as the store's incr does.
func (s *hitStore) incr(args []byte, now time.Time) ([]byte, error) {
	var a hitArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, err
	}
	ms := now.UnixMilli()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hits == nil {
		s.hits = map[string]*hitWindow{}
	}
	// Ended windows go once a second (the package drops them at every hit, which would
	// make each request cost the whole store); a full store then loses half its keys.
	if len(s.hits) >= maxHitKeys || ms-s.sweep >= 1000 {
		s.sweep = ms
		for k, w := range s.hits {
			if w.end <= ms {
				delete(s.hits, k)
			}
		}
		if len(s.hits) >= maxHitKeys {
			n := 0
			for k := range s.hits {
				delete(s.hits, k)
				if n++; n >= maxHitKeys/2 {
					break
				}
			}
		}
	}
	if w := s.hits[a.Key]; w != nil && w.end <= ms {
		delete(s.hits, a.Key) // ended since the last sweep
	}
	w := s.hits[a.Key]
	if w == nil {
		w = &hitWindow{end: ms + int64(a.Interval)}
		s.hits[a.Key] = w
	}
	if a.Undo {
		w.counter -= a.Weight
	} else {
		w.counter += a.Weight
	}
	return json.Marshal(map[string]any{"counter": w.counter, "dateEnd": w.end})
}
