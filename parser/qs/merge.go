package qs

// This file reproduces qs's utils.merge with strictMerge on (the qs 6.15+
// default), applied to the single-path value qs builds for each key.
// Instead of materialising that value and merging it, the merge walks
// b.chain and only allocates the part of it that ends up in the tree.

// meta is the hidden per-container state qs keeps.
type meta struct {
	// idx holds the JS index of each element of a sparse array (nil when the
	// array is dense). qs arrays keep holes until the final compaction, and
	// holes decide where later elements go: push appends after the last
	// hole, an index fills its own slot.
	idx    []int
	length int // JS length of a sparse array

	// overflow marks an object that stands for an array longer than
	// ArrayLimit; scalars merged into it are appended at max+1.
	overflow bool
	max      float64

	// conflict marks the [old, new] pair strictMerge makes when a scalar
	// lands on an object, and objects made from such pairs; further scalars
	// are appended at ci+1 instead of wrapping again.
	conflict bool
	ci       float64
}

func (m *meta) setOverflow(max float64) { m.overflow, m.max = true, max }

func (b *builder) metaOf(v *Value) *meta {
	if b.meta == nil {
		return nil
	}
	return b.meta[v]
}

func (b *builder) metaFor(v *Value) *meta {
	if b.meta == nil {
		b.meta = make(map[*Value]*meta)
	}
	m := b.meta[v]
	if m == nil {
		m = new(meta)
		b.meta[v] = m
	}
	return m
}

// src is the value being merged: level j of b.chain, or a real value.
type src struct {
	v *Value
	j int
}

func (b *builder) src(j int) src {
	if j == len(b.chain) {
		return src{v: b.leaf}
	}
	return src{j: j}
}

func (b *builder) srcIsArray(s src) bool {
	if s.v != nil {
		return s.v.Kind == Array
	}
	return b.chain[s.j].kind == opArr
}

func (b *builder) srcOverflow(s src) (bool, float64) {
	if s.v != nil {
		if s.v.Kind == ObjectKind {
			if m := b.metaOf(s.v); m != nil && m.overflow {
				return true, m.max
			}
		}
		return false, 0
	}
	if o := &b.chain[s.j]; o.kind == opOvf {
		return true, o.num
	}
	return false, 0
}

// srcObjectish is JS `x && typeof x === 'object'`.
func (b *builder) srcObjectish(s src) bool {
	return s.v == nil || s.v.Kind == Array || s.v.Kind == ObjectKind
}

func (b *builder) srcCount(s src) int {
	if s.v == nil {
		return 1
	}
	switch s.v.Kind {
	case Array:
		return len(s.v.Arr)
	case ObjectKind:
		return len(s.v.Obj.Keys)
	}
	return 0
}

// srcAt returns the k-th entry of a container source in Object.keys order;
// idx >= 0 marks an array element (whose key is itoa(idx)).
func (b *builder) srcAt(s src, k int) (key string, idx int, child src) {
	if s.v == nil {
		o := &b.chain[s.j]
		child = b.src(s.j + 1)
		if o.kind == opArr {
			return "", o.idx, child
		}
		return b.opName(o), -1, child
	}
	if s.v.Kind == Array {
		// Real array sources are leaves made by combine, hence dense.
		return "", k, src{v: s.v.Arr[k]}
	}
	return s.v.Obj.Keys[k], -1, src{v: s.v.Obj.Vals[k]}
}

func (b *builder) srcKeyAt(s src, k int) (string, src) {
	key, idx, child := b.srcAt(s, k)
	if idx >= 0 {
		key = itoa(idx)
	}
	return key, child
}

// srcArrLen is the JS length of an array source.
func (b *builder) srcArrLen(s src) int {
	if s.v != nil {
		return len(s.v.Arr)
	}
	return b.chain[s.j].idx + 1
}

// materialize builds the real value of s.
func (b *builder) materialize(s src) *Value {
	if s.v != nil {
		return s.v
	}
	v := b.leaf
	for k := len(b.chain) - 1; k >= s.j; k-- {
		o := &b.chain[k]
		switch o.kind {
		case opArr:
			a := b.newArray(1)
			a.Arr = append(a.Arr, v) // within the carved capacity
			if o.idx > 0 {
				m := b.metaFor(a)
				m.idx = append(make([]int, 0, 2), o.idx)
				m.length = o.idx + 1
			}
			v = a
		default: // opKey, opOvf
			obj := b.newObject(1)
			b.objSet(obj.Obj, b.opName(o), v)
			if o.kind == opOvf {
				b.metaFor(obj).setOverflow(o.num)
			}
			v = obj
		}
	}
	return v
}

// merge merges s into t and returns the value that replaces t.
func (b *builder) merge(t *Value, s src) *Value {
	if s.v != nil {
		switch s.v.Kind {
		case Null:
			return t // qs: if (!source) return target
		case String:
			if s.v.Str == "" {
				return t
			}
			return b.mergeScalar(t, s.v)
		}
	}
	switch t.Kind {
	case Null, String:
		return b.wrapScalar(t, s)
	case Array:
		if b.srcIsArray(s) {
			return b.mergeArrays(t, s)
		}
		o := b.arrayToObject(t, nil)
		if m := b.metaOf(t); m != nil && m.conflict {
			mo := b.metaFor(o)
			mo.conflict, mo.ci = true, float64(b.arrLen(t)-1)
		}
		t = o
	}
	return b.mergeIntoObject(t, s)
}

// mergeScalar merges a non-empty string into t.
func (b *builder) mergeScalar(t *Value, sv *Value) *Value {
	switch t.Kind {
	case Array:
		if len(t.Arr) >= b.opt.ArrayLimit {
			n := b.arrLen(t)
			o := b.arrayToObject(t, sv)
			b.metaFor(o).setOverflow(float64(n))
			return o
		}
		b.arrPush(t, sv)
		return t
	case ObjectKind:
		if m := b.metaOf(t); m != nil {
			if m.overflow {
				m.max++
				b.objSet(t.Obj, fmtNum(m.max), sv)
				return t
			}
			if m.conflict {
				m.ci++
				b.objSet(t.Obj, fmtNum(m.ci), sv)
				return t
			}
		}
		return b.pair(t, sv, true)
	}
	return b.pair(t, sv, false)
}

// pair is qs's limitedPair: [a, c], or an overflowed {0: a, 1: c} when even
// two elements exceed ArrayLimit.
func (b *builder) pair(a, c *Value, conflict bool) *Value {
	if 2 > b.opt.ArrayLimit {
		o := b.newObject(2)
		b.objSet(o.Obj, "0", a)
		b.objSet(o.Obj, "1", c)
		b.metaFor(o).setOverflow(1)
		return o
	}
	arr := b.newArray(2)
	arr.Arr = append(arr.Arr, a, c)
	if conflict {
		m := b.metaFor(arr)
		m.conflict, m.ci = true, 1
	}
	return arr
}

// wrapScalar merges a container into a scalar target: qs makes
// [target].concat(source), re-indexing overflowed sources by one.
func (b *builder) wrapScalar(t *Value, s src) *Value {
	if ovf, max := b.srcOverflow(s); ovf {
		n := b.srcCount(s)
		o := b.newObject(n + 1)
		b.objSet(o.Obj, "0", t)
		for k := 0; k < n; k++ {
			// Overflowed sources only ever hold index keys.
			key, child := b.srcKeyAt(s, k)
			num, _ := jsCanonicalInt(key)
			b.objSet(o.Obj, fmtNum(num+1), b.materialize(child))
		}
		b.metaFor(o).setOverflow(max + 1)
		return o
	}
	if !b.srcIsArray(s) {
		return b.pair(t, b.materialize(s), false)
	}
	total := 1 + b.srcArrLen(s)
	n := b.srcCount(s)
	if total > b.opt.ArrayLimit {
		o := b.newObject(n + 1)
		b.objSet(o.Obj, "0", t)
		for k := 0; k < n; k++ {
			_, idx, child := b.srcAt(s, k)
			b.objSet(o.Obj, itoa(idx+1), b.materialize(child))
		}
		b.metaFor(o).setOverflow(float64(total - 1))
		return o
	}
	arr := b.newArray(n + 1)
	arr.Arr = append(arr.Arr, t)
	var idx []int
	for k := 0; k < n; k++ {
		_, i, child := b.srcAt(s, k)
		arr.Arr = append(arr.Arr, b.materialize(child))
		if idx == nil && i != k {
			idx = make([]int, k+1, n+1)
			for p := range idx {
				idx[p] = p
			}
		}
		if idx != nil {
			idx = append(idx, i+1)
		}
	}
	if idx != nil {
		m := b.metaFor(arr)
		m.idx, m.length = idx, total
	}
	return arr
}

// mergeArrays merges an array source into an array target element-wise.
func (b *builder) mergeArrays(t *Value, s src) *Value {
	n := b.srcCount(s)
	for k := 0; k < n; k++ {
		_, i, child := b.srcAt(s, k)
		if pos, ok := b.arrFind(t, i); ok {
			ti := t.Arr[pos]
			if (ti.Kind == Array || ti.Kind == ObjectKind) && b.srcObjectish(child) {
				t.Arr[pos] = b.merge(ti, child)
			} else {
				b.arrPush(t, b.materialize(child))
			}
		} else {
			b.arrSet(t, i, b.materialize(child))
		}
	}
	if len(t.Arr) > b.opt.ArrayLimit {
		n := b.arrLen(t)
		o := b.arrayToObject(t, nil)
		b.metaFor(o).setOverflow(float64(n - 1))
		return o
	}
	return t
}

// mergeIntoObject is the Object.keys(source).reduce branch of merge.
func (b *builder) mergeIntoObject(acc *Value, s src) *Value {
	sOvf, sMax := b.srcOverflow(s)
	o := acc.Obj
	n := b.srcCount(s)
	for k := 0; k < n; k++ {
		key, child := b.srcKeyAt(s, k)
		if cur, ok := o.Get(key); ok {
			if nv := b.merge(cur, child); nv != cur {
				b.objSet(o, key, nv)
			}
		} else {
			b.objSet(o, key, b.materialize(child))
		}
		if b.meta == nil && !sOvf {
			continue
		}
		m := b.metaOf(acc)
		if sOvf && (m == nil || !m.overflow) {
			m = b.metaFor(acc)
			m.setOverflow(maxNumericIndex(o, sMax))
		}
		if m == nil || !(m.overflow || m.conflict) {
			continue
		}
		if num, ok := jsCanonicalInt(key); ok {
			if m.overflow && num >= 0 && num > m.max {
				m.max = num
			}
			if m.conflict && num > m.ci {
				m.ci = num
			}
		}
	}
	return acc
}

func maxNumericIndex(o *Object, min float64) float64 {
	max := min
	for _, k := range o.Keys {
		if num, ok := jsCanonicalInt(k); ok && num > max {
			max = num
		}
	}
	return max
}

// Array helpers. Elements of Arr are always in index order; a sparse
// array's meta says which index each one has.

func (b *builder) arrLen(t *Value) int {
	if m := b.metaOf(t); m != nil && m.idx != nil {
		return m.length
	}
	return len(t.Arr)
}

// arrFind returns the position of index i in t.Arr, or where it would go.
func (b *builder) arrFind(t *Value, i int) (int, bool) {
	if m := b.metaOf(t); m != nil && m.idx != nil {
		lo, hi := 0, len(m.idx)
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			if m.idx[mid] < i {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		return lo, lo < len(m.idx) && m.idx[lo] == i
	}
	if i < len(t.Arr) {
		return i, true
	}
	return len(t.Arr), false
}

func (b *builder) arrIndexAt(t *Value, m *meta, pos int) int {
	if m != nil && m.idx != nil {
		return m.idx[pos]
	}
	return pos
}

// arrSet stores x at index i, which must be a hole.
func (b *builder) arrSet(t *Value, i int, x *Value) {
	m := b.metaOf(t)
	if m == nil || m.idx == nil {
		n := len(t.Arr)
		if i == n {
			b.appendArr(t, x)
			return
		}
		m = b.metaFor(t)
		m.idx = make([]int, n, n+2)
		for p := range m.idx {
			m.idx[p] = p
		}
		m.idx = append(m.idx, i)
		m.length = i + 1
		b.appendArr(t, x)
		return
	}
	pos, _ := b.arrFind(t, i)
	b.appendArr(t, nil)
	copy(t.Arr[pos+1:], t.Arr[pos:])
	t.Arr[pos] = x
	m.idx = append(m.idx, 0)
	copy(m.idx[pos+1:], m.idx[pos:])
	m.idx[pos] = i
	if i >= m.length {
		m.length = i + 1
	}
}

// arrPush is JS push: the new element goes after any trailing holes.
func (b *builder) arrPush(t *Value, x *Value) {
	if m := b.metaOf(t); m != nil && m.idx != nil {
		m.idx = append(m.idx, m.length)
		m.length++
	}
	b.appendArr(t, x)
}

// arrayToObject is qs's arrayToObject (holes skipped), optionally with
// extra appended at index length, as for target.concat(source).
func (b *builder) arrayToObject(t *Value, extra *Value) *Value {
	n := len(t.Arr)
	if extra != nil {
		n++
	}
	o := b.newObject(n)
	m := b.metaOf(t)
	for pos, e := range t.Arr {
		b.objSet(o.Obj, itoa(b.arrIndexAt(t, m, pos)), e)
	}
	if extra != nil {
		b.objSet(o.Obj, itoa(b.arrLen(t)), extra)
	}
	return o
}

// Object helpers.

// objSet sets key, keeping Keys in JS enumeration order.
func (b *builder) objSet(o *Object, key string, v *Value) {
	if _, ok := o.Get(key); ok {
		// Replacing is rare (a scalar turning into an array), so the scan
		// for the position is fine even on indexed objects.
		for i, k := range o.Keys {
			if k == key {
				o.Vals[i] = v
				break
			}
		}
		if o.index != nil {
			o.index[key] = v
		}
		return
	}
	if len(o.Keys) == cap(o.Keys) {
		n := 2*len(o.Keys) + 2
		o.Keys = append(b.carveKeys(n), o.Keys...)
		o.Vals = append(b.carvePtrs(n), o.Vals...)
	}
	pos := insertPos(o.Keys, key)
	o.Keys = append(o.Keys, "")
	copy(o.Keys[pos+1:], o.Keys[pos:])
	o.Keys[pos] = key
	o.Vals = append(o.Vals, nil)
	copy(o.Vals[pos+1:], o.Vals[pos:])
	o.Vals[pos] = v
	switch {
	case o.index != nil:
		o.index[key] = v
	case len(o.Keys) > indexFrom:
		o.index = make(map[string]*Value, 2*len(o.Keys))
		for i, k := range o.Keys {
			o.index[k] = o.Vals[i]
		}
	}
}

// insertPos is where key goes among keys: after every other key, or at
// its numeric place among the array-index keys, which form a sorted prefix.
func insertPos(keys []string, key string) int {
	if !isArrayIndex(key) {
		return len(keys)
	}
	lo, hi := 0, len(keys)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if isArrayIndex(keys[mid]) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	end := lo
	lo, hi = 0, end
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if compareIndex(keys[mid], key) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// Node allocation from slabs. Keys and Arr slices are carved from shared
// slabs too, including when they grow; the abandoned smaller region is at
// most as large as the final one.

const maxCarve = 64 // larger slices get their own allocation

func (b *builder) newValue() *Value {
	if len(b.vals) == cap(b.vals) {
		b.grow()
		b.vals = make([]Value, 0, b.chunk)
	}
	b.vals = b.vals[:len(b.vals)+1]
	return &b.vals[len(b.vals)-1]
}

func (b *builder) grow() {
	if b.chunk < 16 {
		b.chunk = 16
	} else if b.chunk < 4096 {
		b.chunk *= 2
	}
}

func (b *builder) carveKeys(n int) []string {
	if cap(b.keys)-len(b.keys) < n {
		if n > maxCarve {
			return make([]string, 0, n)
		}
		b.keys = make([]string, 0, max(2*b.chunk, 4*n))
	}
	l := len(b.keys)
	b.keys = b.keys[:l+n]
	return b.keys[l:l:(l + n)]
}

func (b *builder) carvePtrs(n int) []*Value {
	if cap(b.ptrs)-len(b.ptrs) < n {
		if n > maxCarve {
			return make([]*Value, 0, n)
		}
		b.ptrs = make([]*Value, 0, max(b.chunk, 4*n))
	}
	l := len(b.ptrs)
	b.ptrs = b.ptrs[:l+n]
	return b.ptrs[l:l:(l + n)]
}

func (b *builder) appendArr(t *Value, x *Value) {
	if len(t.Arr) == cap(t.Arr) {
		t.Arr = append(b.carvePtrs(2*len(t.Arr)+2), t.Arr...)
	}
	t.Arr = append(t.Arr, x)
}

func (b *builder) newObject(hint int) *Value {
	if len(b.objs) == cap(b.objs) {
		b.grow()
		b.objs = make([]Object, 0, b.chunk)
	}
	b.objs = b.objs[:len(b.objs)+1]
	o := &b.objs[len(b.objs)-1]
	hint = max(hint, 2)
	o.Keys = b.carveKeys(hint)
	o.Vals = b.carvePtrs(hint)
	v := b.newValue()
	v.Kind = ObjectKind
	v.Obj = o
	return v
}

func (b *builder) newArray(hint int) *Value {
	v := b.newValue()
	v.Kind = Array
	v.Arr = b.carvePtrs(max(hint, 2))
	return v
}
