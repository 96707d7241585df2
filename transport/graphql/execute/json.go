package execute

import (
	"encoding/json"
	"strings"

	"github.com/quarrycms/quarry/ir/jsonw"
)

// jw writes the response with package jsonw, which the REST transport shares, so REST and
// GraphQL print values identically.
type jw struct{ jsonw.Buffer }

// bufs keeps response buffers between requests, as the REST envelope does (see
// jsonw.Keeper).
var bufs = jsonw.NewKeeper(func() *jw { return new(jw) })

func getBuf() *jw { return bufs.Get() }

func putBuf(b *jw) { bufs.Put(b) }

// jsonValue is a stored JSON value (of a JSON scalar returned by extension code), printed
// in PostgreSQL jsonb's key order as the REST transport prints it, so every database and
// both APIs answer alike.
type jsonValue json.RawMessage

// value writes a leaf value that is not written by type (scalars of extension resolvers,
// values a middleware returns in place of a generated root field's, error paths): nil,
// bool, string, int64, float64, json.Number, jsonValue, time.Time and []any; values of
// other Go types are written as jsonw writes them.
func (b *jw) value(v any) {
	switch x := v.(type) {
	case json.Number:
		// Int, Float and Long values coerced from the request keep their text when it is an
		// integer; other numbers print as JavaScript prints them.
		if f, err := x.Float64(); err == nil {
			if _, ierr := x.Int64(); ierr == nil {
				b.WriteString(string(x))
			} else {
				b.Num(f)
			}
		} else {
			b.Str(string(x))
		}
	case jsonValue:
		b.JSONB(x)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			b.value(e)
		}
		b.WriteByte(']')
	default:
		b.Any(v)
	}
}

// path is a value's place in the response, one link per object key or list index. Links
// live on the writer's stack while it walks the result; the path is spelled out as a list
// only for an error or a trace entry. A nil *path is the empty path.
//
// The writers are mutually recursive and pass the address of a link down; a link declared
// inside a loop body would then be moved to the heap (escape analysis sees the callee's
// parameter, the same variable in every frame, outlive the loop's scope), so the writers
// declare their link variable before the loop.
type path struct {
	up    *path
	key   string // "" for a list index: GraphQL names are never empty
	index int
}

// field is the path of member key of the value at p.
func (p *path) field(key string) path { return path{up: p, key: key} }

// at is the path of item i of the list at p.
func (p *path) at(i int) path { return path{up: p, index: i} }

// list is the path as errors and Apollo tracing print it: keys and indexes from the root.
func (p *path) list() []any {
	n := 0
	for q := p; q != nil; q = q.up {
		n++
	}
	out := make([]any, n)
	for q := p; q != nil; q = q.up {
		n--
		if q.key != "" {
			// A copy: storing the key itself would make escape analysis move every link
			// (and so every path) to the heap, as it does not tell a link's key from its up.
			out[n] = strings.Clone(q.key)
		} else {
			out[n] = q.index
		}
	}
	return out
}
