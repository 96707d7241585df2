package exec

import (
	"encoding/json"
	"time"
	"unsafe"
)

// runMem holds the memory of one native run's entries and cells, handed out in chunks that
// double (most child statements return a few rows; a page of 100 entries returns
// thousands of cells): one allocation for many rows or cells instead of one per row or cell.
// A chunk lives as long as any of its entries or cells (one response), or, once the
// result is released (Result.Release), is reused by a later run: a populated page's
// entries and cells were most of the bytes a request allocated, and so of the garbage
// collector's work.
type runMem struct {
	entries slab[Entry]
	values  slab[any]
	strs    slab[string]
	times   slab[time.Time]
	nums    slab[float64]
	ints    slab[int64]
	raws    slab[json.RawMessage]
	bytes   byteArena
}

// mems keeps released runMems for later runs: about as many as requests run at once.
var mems = make(chan *runMem, 8)

// keptMem is the most memory a released runMem may hold to be kept: a rare huge result
// should not stay allocated.
const keptMem = 4 << 20

func newRunMem() *runMem {
	select {
	case m := <-mems:
		return m
	default:
		return &runMem{}
	}
}

// release clears what the run used and keeps m for a later run.
func (m *runMem) release() {
	n := m.entries.reset() + m.values.reset() + m.strs.reset() + m.times.reset() +
		m.nums.reset() + m.ints.reset() + m.raws.reset() + m.bytes.reset()
	if n > keptMem {
		return
	}
	select {
	case mems <- m:
	default:
	}
}

// slab hands out elements of chunks of T.
type slab[T any] struct {
	free []T
	// chunks are the chunks allocated so far; chunks[next:] are free (after a reset).
	chunks [][]T
	next   int
	size   int
}

// slabBytes bounds a chunk (beyond what one take asks): below 32 KB, the runtime's large
// objects, whose allocation takes the heap's lock.
const slabBytes = 16 << 10

// take returns n consecutive zero elements (capacity n: appending to them cannot reach
// the next ones).
func (s *slab[T]) take(n int) []T {
	if len(s.free) < n {
		s.refill(n)
	}
	out := s.free[:n:n]
	s.free = s.free[n:]
	return out
}

func (s *slab[T]) refill(n int) {
	for s.next < len(s.chunks) {
		c := s.chunks[s.next]
		s.next++
		if len(c) >= n {
			s.free = c
			return
		}
	}
	var zero T
	s.size = min(max(2*s.size, 8), max(slabBytes/int(unsafe.Sizeof(zero)), 8))
	s.free = make([]T, max(s.size, n))
	s.chunks = append(s.chunks, s.free)
	s.next = len(s.chunks)
}

// reset zeroes the chunks handed out (so that take hands out zero elements again and the
// old values are not kept alive) and makes them free; it returns the bytes the slab holds.
func (s *slab[T]) reset() int {
	var zero T
	total := 0
	for i, c := range s.chunks {
		if i < s.next {
			clear(c)
		}
		total += len(c)
	}
	s.free, s.next = nil, 0
	return total * int(unsafe.Sizeof(zero))
}

// A cell value an interface holds indirectly (a string, a time, a float, any int64 above
// 255, a slice) costs an allocation of its own each time it is boxed: on a page of 100
// populated articles these were most of the request's allocations. box puts the value in a
// slab and makes the interface refer to it there, which is what boxing makes it do with the
// fresh copy. This relies on the layout of an empty interface (a type word, then a pointer
// to the value), the same in every Go release; the slab element is never written again, as
// a boxed value must not be.
type eface struct {
	typ  unsafe.Pointer
	data unsafe.Pointer
}

// typeWord is the type word of v's dynamic type.
func typeWord(v any) unsafe.Pointer { return (*eface)(unsafe.Pointer(&v)).typ }

// The type words of the types box is used with, read once from zero values.
var (
	stringWord = typeWord("")
	timeWord   = typeWord(time.Time{})
	floatWord  = typeWord(float64(0))
	intWord    = typeWord(int64(0))
	rawWord    = typeWord(json.RawMessage(nil))
)

// box stores v in s and returns it as an interface referring to that element; word must
// be T's type word.
func box[T any](s *slab[T], word unsafe.Pointer, v T) any {
	p := &s.take(1)[0]
	*p = v
	var out any
	e := (*eface)(unsafe.Pointer(&out))
	e.typ, e.data = word, unsafe.Pointer(p)
	return out
}

func (m *runMem) str(s string) any          { return box(&m.strs, stringWord, s) }
func (m *runMem) time(t time.Time) any      { return box(&m.times, timeWord, t) }
func (m *runMem) num(f float64) any         { return box(&m.nums, floatWord, f) }
func (m *runMem) int(i int64) any           { return box(&m.ints, intWord, i) }
func (m *runMem) raw(r json.RawMessage) any { return box(&m.raws, rawWord, r) }

// byteArena copies short byte strings into shared chunks: one allocation for many cells
// instead of one per cell.
type byteArena struct {
	buf []byte
	// chunks are the chunks allocated so far; chunks[next:] are free (after a reset).
	chunks [][]byte
	next   int
}

const (
	arenaFirst = 512      // the first chunk; each next one is twice the last, up to arenaChunk
	arenaChunk = 16 << 10 // the largest chunk
	arenaMax   = 1 << 10  // longer strings get their own allocation (a rich-text body often does)
)

// room returns n bytes of the arena to write into (capacity n), or a fresh slice for long
// ones.
func (a *byteArena) room(n int) []byte {
	if n > arenaMax {
		return make([]byte, n)
	}
	if cap(a.buf)-len(a.buf) < n {
		a.refill(n)
	}
	off := len(a.buf)
	a.buf = a.buf[:off+n]
	return a.buf[off : off+n : off+n]
}

func (a *byteArena) refill(n int) {
	for a.next < len(a.chunks) {
		c := a.chunks[a.next]
		a.next++
		if cap(c) >= n {
			a.buf = c[:0]
			return
		}
	}
	a.buf = make([]byte, 0, max(min(max(2*cap(a.buf), arenaFirst), arenaChunk), n))
	a.chunks = append(a.chunks, a.buf)
	a.next = len(a.chunks)
}

// reset makes every chunk free (their bytes are overwritten before they are handed out
// again) and returns the bytes the arena holds.
func (a *byteArena) reset() int {
	total := 0
	for _, c := range a.chunks {
		total += cap(c)
	}
	a.buf, a.next = nil, 0
	return total
}

// bytes copies src into the arena.
func (a *byteArena) bytes(src []byte) []byte {
	b := a.room(len(src))
	copy(b, src)
	return b
}

// str copies src into the arena as a string.
func (a *byteArena) str(src []byte) string {
	if len(src) == 0 {
		return ""
	}
	b := a.bytes(src)
	return unsafe.String(&b[0], len(b))
}
