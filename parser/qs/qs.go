// Package qs owns the decoding of REST query strings into the nested
// value tree that Strapi v4 controllers see. Strapi hands every query string
// to npm's qs library as qs.parse(str, {strictNullHandling: true,
// arrayLimit: 100, depth: 20}); this package reproduces that parse
// bit-for-bit (checked against qs 6.17.1 by a golden corpus in testdata), so
// filters, populate, sort, fields and pagination parameters mean exactly what
// they would mean to a Strapi server, including qs's odd corners: sparse
// index compaction, arrays that turn into objects past arrayLimit, keys that
// collide with Object.prototype being dropped, and JavaScript's
// integer-keys-first property order.
//
// The reference is the current qs@6 (6.17.1). Strapi releases pin older
// ones (4.26.2 pins 6.15.1, most earlier 4.x releases 6.11.1); they agree on
// ordinary queries and differ on edge cases: a scalar colliding with an
// object, indexes >= arrayLimit, arrays longer than arrayLimit, and
// unbalanced brackets.
//
// The input is attacker controlled and parsed on every request, so Parse
// never panics, does work linear in the input (plus a small factor bounded by
// the limits in Options), and keeps allocations to roughly two per object
// node of the result.
package qs

import (
	"errors"
	"strings"
)

// Kind is the JSON type of a Value.
type Kind uint8

// The object kind is ObjectKind rather than Object because Go does not
// allow a constant and the Object type to share a name.
const (
	Null       Kind = iota // `?a` with no '=' under strictNullHandling
	String                 // every scalar: qs never produces numbers or booleans
	Array                  // at most ArrayLimit elements, holes compacted away
	ObjectKind             // Value.Obj
)

func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case String:
		return "string"
	case Array:
		return "array"
	case ObjectKind:
		return "object"
	}
	return "invalid"
}

// Value is one node of the parsed tree.
type Value struct {
	Kind Kind
	Str  string   // Kind == String
	Arr  []*Value // Kind == Array
	Obj  *Object  // Kind == ObjectKind
}

// Object is a JSON object whose Keys are in JavaScript enumeration order:
// canonical array-index keys ("0".."4294967294", no leading zeros) first in
// ascending numeric order, then every other key in insertion order. That is
// the order JSON.stringify and Object.keys use on qs's result, and Strapi
// iterates filters in that order, so it is part of the contract.
//
// Vals[i] is the value of Keys[i]. Almost every object of a real query has a
// handful of keys, so lookups scan Keys; only objects past indexFrom keys get
// a map, which keeps a parse at a few allocations in total instead of two per
// object.
type Object struct {
	Keys []string
	Vals []*Value
	// index maps each key to its value once the object has more than
	// indexFrom keys (nil before), so hostile inputs with thousands of keys
	// in one object stay linear.
	index map[string]*Value
}

// indexFrom is the key count past which an object gets its index map: up to
// here a scan of short strings beats hashing.
const indexFrom = 8

// Get returns the value stored under key.
func (o *Object) Get(key string) (*Value, bool) {
	if o == nil {
		return nil, false
	}
	if o.index != nil {
		v, ok := o.index[key]
		return v, ok
	}
	for i, k := range o.Keys {
		if k == key {
			return o.Vals[i], true
		}
	}
	return nil, false
}

// Len returns the number of keys.
func (o *Object) Len() int {
	if o == nil {
		return 0
	}
	return len(o.Keys)
}

// Options are the qs.parse options that Strapi sets; everything else is
// fixed at qs's defaults (delimiter '&', utf-8, allowDots false,
// parseArrays true, comma false, allowPrototypes false, plainObjects false,
// duplicates "combine", strictMerge true, ignoreQueryPrefix false except
// that one leading '?' is tolerated).
type Options struct {
	// Depth is how many bracket groups are split into nested levels; the rest
	// of the key becomes one literal key. Values <= 0 keep every key flat.
	Depth int
	// ArrayLimit is the number of elements (and the bound on an explicit
	// index) an array may have before qs represents it as an object instead.
	ArrayLimit int
	// ParameterLimit is how many '&'-separated parts are read; the rest of the
	// query string is ignored. It must be positive.
	ParameterLimit int
	// StrictNullHandling makes a part without '=' a null instead of "".
	StrictNullHandling bool
	// AllowDots reads a dot in a key as a level, a.b as a[b] (qs's allowDots, which the
	// form bodies Strapi's body parser reads are parsed with).
	AllowDots bool
}

// FormOptions are the options koa-body's urlencoded parser (co-body) passes to qs.parse for a
// form body: qs's defaults with allowDots.
func FormOptions() Options {
	return Options{Depth: 5, ArrayLimit: 20, ParameterLimit: 1000, AllowDots: true}
}

// StrapiOptions returns the options Strapi v4 passes to qs.parse.
func StrapiOptions() Options {
	return Options{Depth: 20, ArrayLimit: 100, ParameterLimit: 1000, StrictNullHandling: true}
}

// ErrParameterLimit is returned for Options whose ParameterLimit is not
// positive. qs would silently parse nothing for 0 and everything for a
// negative limit; neither is something a server should do by accident, and
// the zero Options value is the likeliest way to get there.
var ErrParameterLimit = errors.New("qs: Options.ParameterLimit must be positive")

// Parse parses a raw query string (without the leading '?', though one is
// tolerated) into the root object, exactly as qs.parse does with opt.
// Malformed input is never an error: like qs, Parse always produces a tree.
func Parse(raw string, opt Options) (*Object, error) {
	if opt.ParameterLimit <= 0 {
		return nil, ErrParameterLimit
	}
	if strings.HasPrefix(raw, "?") {
		raw = raw[1:]
	}
	b := newBuilder(raw, opt)
	root := b.run()
	b.release()
	return root, nil
}
