package qs

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// pair is one distinct decoded key of the query with its values in order of
// appearance; qs first collects these ("tempObj") and only then expands the
// bracket syntax, which is why duplicates of a key combine before nesting.
type pair struct {
	key  string
	val  *Value
	more []*Value // all values, once the key has repeated
}

type opKind uint8

const (
	opKey  opKind = iota // object with one key
	opArr                // sparse array with one element at idx
	opOvf                // object with one numeric key that qs marks as an overflowed array
	opPush               // "[]"; removed or rewritten by resolve
)

// op is one level of the nested value qs builds for a single key before
// merging it into the result. The level's only child is the next op, or the
// leaf value after the last one.
//
// The key is kept as offsets into builder.key rather than as a string so
// that op holds no pointers: the ops slice is rewritten for every parameter
// and pointer writes into it would cost GC write barriers.
type op struct {
	kind   opKind
	lo, hi int     // opKey, opOvf: key is builder.key[lo:hi]; lo < 0 means "0"
	idx    int     // opArr
	num    float64 // opOvf: the index as the JS number qs computes with
}

func (b *builder) opName(o *op) string {
	if o.lo < 0 {
		return "0"
	}
	return b.key[o.lo:o.hi]
}

type builder struct {
	opt  Options
	raw  string
	rest int // bytes of input not yet split into parts

	arena []byte // decoded strings; see decode

	// Slabs the result tree is carved from, so that a Parse costs a handful
	// of allocations instead of several per node.
	vals  []Value
	objs  []Object
	keys  []string
	ptrs  []*Value
	chunk int

	// Per-Parse scratch, reused through builderPool.
	pairs []pair
	index map[string]int32
	order []int32
	ops   []op

	key   string // the flat key being merged
	chain []op   // its levels, after resolve
	leaf  *Value // value at the bottom of chain

	// qs keeps hidden state on some containers (sparse array holes, the
	// "overflow" and "conflict" markers). Few trees ever have any, so it lives
	// in a side table rather than in every Value.
	meta map[*Value]*meta
}

var builderPool = sync.Pool{New: func() any { return new(builder) }}

// dotLevels is qs's allowDots rewrite of a key, /\.([^.[]+)/g → [$1].
var dotLevels = regexp.MustCompile(`\.([^.\[]+)`)

// indexThreshold is the number of distinct keys above which duplicate
// detection switches from a linear scan to a map: real queries have a dozen
// keys, hostile ones up to ParameterLimit.
const indexThreshold = 16

func newBuilder(raw string, opt Options) *builder {
	b := builderPool.Get().(*builder)
	b.opt = opt
	b.raw = raw

	parts := strings.Count(raw, "&") + 1
	if parts > opt.ParameterLimit {
		parts = opt.ParameterLimit
	}
	// Every bracket group is potentially one node (clients built on
	// qs.stringify percent-encode the brackets).
	levels := strings.Count(raw, "[") + strings.Count(raw, "%5B") + strings.Count(raw, "%5b")
	// Keys share prefixes, so typically only part of the levels become nodes.
	// The cap keeps junk input from reserving much; slabs grow when short.
	est := min(parts+levels*3/4+4, 1024)
	b.chunk = est
	b.vals = make([]Value, 0, est)
	nobj := min(levels/2+2, est)
	b.objs = make([]Object, 0, nobj)
	// Two keys per object, plus room for the root's; values match keys, and
	// array elements come from the same slab.
	nkeys := 2*nobj + min(parts, maxCarve)
	b.keys = make([]string, 0, nkeys)
	b.ptrs = make([]*Value, 0, nkeys+min(parts, maxCarve))
	return b
}

func (b *builder) release() {
	b.raw = ""
	b.arena = nil
	b.vals, b.objs, b.keys, b.ptrs = nil, nil, nil, nil
	clear(b.pairs)
	b.pairs = b.pairs[:0]
	if len(b.index) > 1024 {
		b.index = nil
	} else {
		clear(b.index)
	}
	b.order = b.order[:0]
	clear(b.ops)
	b.ops = b.ops[:0]
	b.key, b.chain, b.leaf, b.meta = "", nil, nil, nil
	builderPool.Put(b)
}

func (b *builder) run() *Object {
	b.collect()
	// Strapi queries have a handful of root keys (filters, populate, sort,
	// ...); more than 8 would only make the map grow once more.
	root := b.newObject(min(len(b.pairs), 8))

	// qs walks its flat key table with Object.keys, i.e. array-index keys
	// first in numeric order. That decides merge order, so `1[a]=x&1=y`
	// merges "1" before "1[a]".
	b.order = b.order[:0]
	for i := range b.pairs {
		if isArrayIndex(b.pairs[i].key) {
			b.order = append(b.order, int32(i))
		}
	}
	if len(b.order) > 0 {
		slices.SortFunc(b.order, func(x, y int32) int {
			return compareIndex(b.pairs[x].key, b.pairs[y].key)
		})
		for _, i := range b.order {
			b.apply(root, &b.pairs[i])
		}
		for i := range b.pairs {
			if !isArrayIndex(b.pairs[i].key) {
				b.apply(root, &b.pairs[i])
			}
		}
	} else {
		for i := range b.pairs {
			b.apply(root, &b.pairs[i])
		}
	}
	return root.Obj
}

// collect splits the query into at most ParameterLimit parts and gathers
// their decoded keys and values.
func (b *builder) collect() {
	s := b.raw
	for n := 0; n < b.opt.ParameterLimit; n++ {
		b.rest = len(s)
		j := strings.IndexByte(s, '&')
		if j < 0 {
			b.addPart(s)
			return
		}
		b.addPart(s[:j])
		s = s[j+1:]
	}
}

func (b *builder) addPart(part string) {
	kraw, vraw, hasEq := splitPair(part)
	key := b.decode(kraw)
	if b.opt.AllowDots && strings.IndexByte(key, '.') >= 0 {
		key = dotLevels.ReplaceAllString(key, "[$1]")
	}
	if key == "" {
		// qs keeps empty keys in its flat table but never expands them.
		return
	}
	v := b.newValue()
	switch {
	case hasEq:
		v.Kind = String
		v.Str = b.decode(vraw)
	case b.opt.StrictNullHandling:
		v.Kind = Null
	default:
		v.Kind = String
	}
	if i := b.lookup(key); i >= 0 {
		p := &b.pairs[i]
		if p.more == nil {
			p.more = make([]*Value, 1, 4)
			p.more[0] = p.val
		}
		p.more = append(p.more, v)
		return
	}
	b.pairs = append(b.pairs, pair{key: key, val: v})
	switch n := len(b.pairs); {
	case n == indexThreshold+1:
		if b.index == nil {
			b.index = make(map[string]int32, 2*indexThreshold)
		}
		for i := range b.pairs {
			b.index[b.pairs[i].key] = int32(i)
		}
	case n > indexThreshold+1:
		b.index[key] = int32(n - 1)
	}
}

func (b *builder) lookup(key string) int {
	if len(b.pairs) > indexThreshold {
		if i, ok := b.index[key]; ok {
			return int(i)
		}
		return -1
	}
	for i := range b.pairs {
		if b.pairs[i].key == key {
			return i
		}
	}
	return -1
}

// apply expands one flat key and merges it into root.
func (b *builder) apply(root *Value, p *pair) {
	if !b.segment(p.key) {
		return
	}
	b.leaf = b.makeLeaf(p)
	b.resolve()
	b.merge(root, b.src(0))
}

// makeLeaf is qs's combine() over the repeated values of one key: one value
// stays a scalar, up to ArrayLimit become an array, more become an object
// with index keys that qs marks as an overflowed array.
func (b *builder) makeLeaf(p *pair) *Value {
	if p.more == nil {
		return p.val
	}
	n := len(p.more)
	if n <= b.opt.ArrayLimit {
		v := b.newValue()
		v.Kind = Array
		v.Arr = p.more
		return v
	}
	v := b.newObject(n)
	for i, e := range p.more {
		b.objSet(v.Obj, itoa(i), e)
	}
	b.metaFor(v).setOverflow(float64(n - 1))
	return v
}

// segment splits a decoded key into levels the way qs's
// splitKeyIntoSegments does, leaving them in b.ops. It reports false when qs
// drops the whole parameter because a level names an Object.prototype
// property.
func (b *builder) segment(key string) bool {
	b.key = key
	b.ops = b.ops[:0]
	if b.opt.Depth <= 0 {
		lo, hi := 0, len(key)
		if len(key) >= 2 && key[0] == '[' && key[len(key)-1] == ']' {
			lo, hi = 1, len(key)-1
		}
		if isProtoKey(key[lo:hi]) {
			return false
		}
		if key == "[]" {
			b.ops = append(b.ops, op{kind: opPush})
		} else {
			b.ops = append(b.ops, b.classify(lo, hi, lo > 0))
		}
		return true
	}

	first := strings.IndexByte(key, '[')
	parent := key
	if first >= 0 {
		parent = key[:first]
	}
	if parent != "" {
		if isProtoKey(parent) {
			return false
		}
		b.ops = append(b.ops, op{kind: opKey, lo: 0, hi: len(parent)})
	}

	open := first
	for collected := 0; open >= 0 && collected < b.opt.Depth; collected++ {
		// Groups may nest ("a[b[c]]" has the single group "[b[c]]").
		level, end := 1, -1
		for i := open + 1; i < len(key); i++ {
			if key[i] == '[' {
				level++
			} else if key[i] == ']' {
				level--
				if level == 0 {
					end = i
					break
				}
			}
		}
		if end < 0 {
			// An unterminated group: the rest of the key is one literal level.
			b.ops = append(b.ops, op{kind: opKey, lo: open, hi: len(key)})
			return true
		}
		if isProtoKey(key[open+1 : end]) {
			return false
		}
		if end == open+1 {
			b.ops = append(b.ops, op{kind: opPush})
		} else {
			b.ops = append(b.ops, b.classify(open+1, end, true))
		}
		// Text between or after groups ("a[b]x[c]") is ignored by qs.
		next := strings.IndexByte(key[end+1:], '[')
		if next < 0 {
			open = -1
		} else {
			open = end + 1 + next
		}
	}
	if open >= 0 {
		// Past Depth, the remainder (from its '[') is one literal key.
		b.ops = append(b.ops, op{kind: opKey, lo: open, hi: len(key)})
	}
	return true
}

// classify maps a level's key to an array slot, an overflowed-array slot,
// or an object key. Only a bracketed canonical non-negative integer is an
// index; "01", "-1" and bare parent keys like "0" stay object keys.
func (b *builder) classify(lo, hi int, bracketed bool) op {
	if bracketed {
		if num, ok := jsCanonicalInt(b.key[lo:hi]); ok && num >= 0 {
			if num < float64(b.opt.ArrayLimit) {
				return op{kind: opArr, idx: int(num)}
			}
			return op{kind: opOvf, lo: lo, hi: hi, num: num}
		}
	}
	return op{kind: opKey, lo: lo, hi: hi}
}

// resolve rewrites "[]" levels. qs builds them with combine([], child): an
// array or overflowed child passes through unchanged, anything else becomes
// a one-element array (or, with ArrayLimit < 1, an overflowed object).
func (b *builder) resolve() {
	ops := b.ops
	const (
		kScalar = iota
		kArray
		kOverflow
		kObject
	)
	next := kScalar
	switch b.leaf.Kind {
	case Array:
		next = kArray
	case ObjectKind:
		next = kOverflow // leaves are only objects when combine overflowed
	}
	w := len(ops)
	for r := len(ops) - 1; r >= 0; r-- {
		o := ops[r]
		switch o.kind {
		case opPush:
			if next == kArray || next == kOverflow {
				continue
			}
			if b.opt.ArrayLimit < 1 {
				o = op{kind: opOvf, lo: -1}
				next = kOverflow
			} else {
				o = op{kind: opArr}
				next = kArray
			}
		case opArr:
			next = kArray
		case opOvf:
			next = kOverflow
		default:
			next = kObject
		}
		w--
		ops[w] = o
	}
	b.chain = ops[w:]
}

// isProtoKey reports whether qs (with allowPrototypes false) drops a key:
// the own properties of Object.prototype in Node.
func isProtoKey(s string) bool {
	switch s {
	case "constructor", "__defineGetter__", "__defineSetter__", "hasOwnProperty",
		"__lookupGetter__", "__lookupSetter__", "isPrototypeOf",
		"propertyIsEnumerable", "toString", "valueOf", "__proto__", "toLocaleString":
		return true
	}
	return false
}
