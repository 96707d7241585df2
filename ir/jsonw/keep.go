package jsonw

import "sync"

// Keeper keeps response buffers between requests. A list page of 100 entries is ~90 KB
// (with populate=*, ~430 KB), and growing a fresh buffer to that size by doubling costs
// more CPU than writing the response. A sync.Pool alone is emptied by every other garbage
// collection, which under load comes every few requests, so most requests would grow a
// fresh buffer anyway: a Keeper holds a few buffers across collections (at most
// KeptBuffers×MaxKeptBuffer bytes) and lets the pool take the rest. The REST envelope and
// the GraphQL writer each keep their own buffer type with one.
type Keeper[T interface {
	Cap() int
	Reset()
}] struct {
	kept chan T
	pool sync.Pool
}

// KeptBuffers is how many buffers outlive garbage collections: about as many as responses
// are written at once.
const KeptBuffers = 16

// MaxKeptBuffer is the largest buffer kept: an occasional huge response should not stay
// allocated for the life of the process.
const MaxKeptBuffer = 1 << 20

// NewKeeper keeps buffers made by fresh.
func NewKeeper[T interface {
	Cap() int
	Reset()
}](fresh func() T) *Keeper[T] {
	k := &Keeper[T]{kept: make(chan T, KeptBuffers)}
	k.pool.New = func() any { return fresh() }
	return k
}

// Get takes a kept buffer, else one from the pool.
func (k *Keeper[T]) Get() T {
	select {
	case b := <-k.kept:
		return b
	default:
		return k.pool.Get().(T)
	}
}

// Put returns b once nothing refers to its bytes any more (the response has been written:
// ResponseWriter.Write does not keep them).
func (k *Keeper[T]) Put(b T) {
	if b.Cap() > MaxKeptBuffer {
		return
	}
	b.Reset()
	select {
	case k.kept <- b:
	default:
		k.pool.Put(b)
	}
}
