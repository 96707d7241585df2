package userspermissions

import (
	"sync"
	"time"
)

// Limiter counts requests per key in fixed windows, as koa2-ratelimit's memory store does:
// the first request of a key opens a window of Interval; the Max+1th request inside it is
// refused.
type Limiter struct {
	Interval time.Duration
	Max      int

	mu    sync.Mutex
	m     map[string]*window
	sweep time.Time
}

type window struct {
	count int
	end   time.Time
}

// RateInfo is what the X-RateLimit-* headers report.
type RateInfo struct {
	Limit     int
	Remaining int
	Reset     time.Time // end of the window
	Allowed   bool
}

// maxKeys bounds the limiter's memory: when exceeded, expired windows are dropped, and if
// that is not enough the oldest half goes (an attacker rotating identifiers cannot make the
// map grow without bound).
const maxKeys = 100_000

// Hit counts one request for key.
func (l *Limiter) Hit(key string, now time.Time) RateInfo {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m == nil {
		l.m = map[string]*window{}
	}
	if len(l.m) >= maxKeys || now.Sub(l.sweep) > l.Interval {
		l.sweep = now
		for k, w := range l.m {
			if !now.Before(w.end) {
				delete(l.m, k)
			}
		}
		if len(l.m) >= maxKeys {
			n := 0
			for k := range l.m {
				delete(l.m, k)
				if n++; n >= maxKeys/2 {
					break
				}
			}
		}
	}
	w := l.m[key]
	if w == nil || !now.Before(w.end) {
		w = &window{end: now.Add(l.Interval)}
		l.m[key] = w
	}
	w.count++
	return RateInfo{Limit: l.Max, Remaining: max(l.Max-w.count, 0), Reset: w.end, Allowed: w.count <= l.Max}
}
