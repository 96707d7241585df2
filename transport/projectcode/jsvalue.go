package projectcode

import (
	"encoding/json"
	"slices"
	"unicode/utf8"

	"github.com/dop251/goja"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/parser/qs"
)

// A request's ctx is made from an object built here with goja's API rather than from its
// JSON: encoding a request to JSON and JSON.parse-ing it in the sandbox was most of what a
// route through a middleware cost over the native route. The object is the one JSON.parse
// gave for the JSON encoding/json wrote (request's fields in their order, maps' keys sorted,
// invalid UTF-8 replaced byte by byte, numbers as float64), so the project's code sees the
// same ctx.

// jsRequest is req as the sandbox's request object, with query as ctx.query (nil: null) and
// body null (serve parses the JSON body in the sandbox).
func jsRequest(r *goja.Runtime, req *request, query *qs.Object, who *ir.Caller) *goja.Object {
	o := r.NewObject()
	put(o, "method", jsString(r, req.Method))
	put(o, "url", jsString(r, req.URL))
	put(o, "path", jsString(r, req.Path))
	put(o, "querystring", jsString(r, req.Querystring))
	put(o, "headers", jsStringMap(r, req.Headers))
	put(o, "ip", jsString(r, req.IP))
	if req.Encrypted {
		put(o, "encrypted", r.ToValue(true))
	}
	put(o, "params", jsStringMap(r, req.Params))
	if query == nil {
		put(o, "query", goja.Null())
	} else {
		put(o, "query", jsQueryObject(r, query))
	}
	put(o, "body", goja.Null())
	if req.UserID != 0 {
		put(o, "userId", r.ToValue(float64(req.UserID)))
	}
	putCaller(r, o, who)
	return o
}

// putCaller puts the caller on the request object as strapi.js makes ctx.state.auth of it
// when that is first read (authState, as JSON.parse gives it back): authKind ("user",
// "token" or "public"), authId and authType. Nothing for no caller (no auth).
func putCaller(r *goja.Runtime, o *goja.Object, who *ir.Caller) {
	if who == nil {
		return
	}
	switch who.Kind {
	case ir.UserCaller:
		put(o, "authKind", r.ToValue("user"))
		put(o, "authId", r.ToValue(float64(who.UserID)))
	case ir.TokenCaller:
		put(o, "authKind", r.ToValue("token"))
		put(o, "authId", r.ToValue(float64(who.TokenID)))
		put(o, "authType", jsString(r, who.TokenType))
	default:
		put(o, "authKind", r.ToValue("public"))
	}
}

// put defines an own data property, as JSON.parse does (a setter the project's code put on
// Object.prototype is not called, and "__proto__" is a plain key).
func put(o *goja.Object, k string, v goja.Value) {
	_ = o.DefineDataProperty(k, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE) // a new, extensible object: cannot fail
}

// jsString is s as JSON.parse gives it back from encoding/json's encoding: each byte of
// invalid UTF-8 becomes U+FFFD.
func jsString(r *goja.Runtime, s string) goja.Value {
	if !utf8.ValidString(s) {
		s = string([]rune(s))
	}
	return r.ToValue(s)
}

func jsStringMap(r *goja.Runtime, m map[string]string) *goja.Object {
	o := r.NewObject()
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys) // encoding/json's order
	for _, k := range keys {
		put(o, validKey(k), jsString(r, m[k]))
	}
	return o
}

func validKey(k string) string {
	if !utf8.ValidString(k) {
		return string([]rune(k))
	}
	return k
}

// jsQueryObject is a parsed query string as JSON.parse gives back its JSON (qs.AppendJSON).
func jsQueryObject(r *goja.Runtime, o *qs.Object) *goja.Object {
	out := r.NewObject()
	for i, k := range o.Keys {
		put(out, validKey(k), jsQueryValue(r, o.Vals[i]))
	}
	return out
}

func jsQueryValue(r *goja.Runtime, v *qs.Value) goja.Value {
	if v == nil {
		return goja.Null()
	}
	switch v.Kind {
	case qs.String:
		return jsString(r, v.Str)
	case qs.Array:
		vals := make([]any, len(v.Arr))
		for i, e := range v.Arr {
			vals[i] = jsQueryValue(r, e)
		}
		return r.NewArray(vals...)
	case qs.ObjectKind:
		if v.Obj == nil {
			return goja.Null()
		}
		return jsQueryObject(r, v.Obj)
	}
	return goja.Null()
}

// QueryString writes a query object (JSON) in qs's bracket notation, keys in their order:
// what Quarry's REST parser reads back as the same object. It reads the JSON in one pass,
// without building it (the core action a middleware ends in pays for this on every request);
// JSON that does not parse gives "".
func QueryString(query json.RawMessage) string {
	w := qsWriter{in: query, first: true}
	w.skipSpace()
	if !w.value() {
		return ""
	}
	return string(w.out)
}

// qsWriter renders one JSON value as QueryString does: a scalar under its key path (an object's
// keys in brackets after the first, an array's indexes in brackets), null as the bare key,
// empty objects and arrays as nothing.
type qsWriter struct {
	in     []byte
	pos    int
	prefix []byte // the key path, unescaped
	out    []byte
	first  bool
}

func (w *qsWriter) skipSpace() {
	for w.pos < len(w.in) {
		switch w.in[w.pos] {
		case ' ', '\t', '\n', '\r':
			w.pos++
		default:
			return
		}
	}
}

// value reads one value at pos (no space before it) and writes its parts.
func (w *qsWriter) value() bool {
	if w.pos >= len(w.in) {
		return false
	}
	switch c := w.in[w.pos]; {
	case c == '{':
		return w.object()
	case c == '[':
		return w.array()
	case c == '"':
		s, ok := w.str()
		if !ok {
			return false
		}
		w.part(true)
		w.out = appendQueryEscape(w.out, s)
		return true
	case c == '-' || (c >= '0' && c <= '9'):
		start := w.pos
		if !w.number() {
			return false
		}
		w.part(true)
		w.out = append(w.out, w.in[start:w.pos]...)
		return true
	case c == 't':
		return w.literal("true", true)
	case c == 'f':
		return w.literal("false", true)
	case c == 'n':
		return w.literal("null", false)
	}
	return false
}

// part starts a part: the separator, the escaped key path, and '=' before a value. A null
// without a key path writes nothing.
func (w *qsWriter) part(withValue bool) {
	if !withValue && len(w.prefix) == 0 {
		return
	}
	if !w.first {
		w.out = append(w.out, '&')
	}
	w.first = false
	w.out = appendQueryEscape(w.out, w.prefix)
	if withValue {
		w.out = append(w.out, '=')
	}
}

func (w *qsWriter) literal(lit string, withValue bool) bool {
	if len(w.in)-w.pos < len(lit) || string(w.in[w.pos:w.pos+len(lit)]) != lit {
		return false
	}
	w.pos += len(lit)
	w.part(withValue)
	if withValue {
		w.out = append(w.out, lit...)
	}
	return true
}

func (w *qsWriter) object() bool {
	w.pos++ // {
	w.skipSpace()
	if w.pos < len(w.in) && w.in[w.pos] == '}' {
		w.pos++
		return true
	}
	for {
		if w.pos >= len(w.in) || w.in[w.pos] != '"' {
			return false
		}
		k, ok := w.str()
		if !ok {
			return false
		}
		w.skipSpace()
		if w.pos >= len(w.in) || w.in[w.pos] != ':' {
			return false
		}
		w.pos++
		w.skipSpace()
		n := len(w.prefix)
		if n == 0 {
			w.prefix = append(w.prefix, k...)
		} else {
			w.prefix = append(append(append(w.prefix, '['), k...), ']')
		}
		ok = w.value()
		w.prefix = w.prefix[:n]
		if !ok {
			return false
		}
		if more, ok := w.next('}'); !more {
			return ok
		}
	}
}

func (w *qsWriter) array() bool {
	w.pos++ // [
	w.skipSpace()
	if w.pos < len(w.in) && w.in[w.pos] == ']' {
		w.pos++
		return true
	}
	for i := 0; ; i++ {
		n := len(w.prefix)
		w.prefix = append(w.prefix, '[')
		w.prefix = appendInt(w.prefix, i)
		w.prefix = append(w.prefix, ']')
		ok := w.value()
		w.prefix = w.prefix[:n]
		if !ok {
			return false
		}
		if more, ok := w.next(']'); !more {
			return ok
		}
	}
}

// next reads what follows a member: a comma (more: another member follows), or the closing
// delimiter (ok); anything else fails.
func (w *qsWriter) next(end byte) (more, ok bool) {
	w.skipSpace()
	if w.pos >= len(w.in) {
		return false, false
	}
	switch w.in[w.pos] {
	case ',':
		w.pos++
		w.skipSpace()
		return true, true
	case end:
		w.pos++
		return false, true
	}
	return false, false
}

// str reads a JSON string at pos: the bytes as they are when it has no escape and is valid
// UTF-8, otherwise as encoding/json unquotes it (U+FFFD for invalid UTF-8 and lone
// surrogates).
func (w *qsWriter) str() ([]byte, bool) {
	start := w.pos
	i := start + 1
	escaped, ascii := false, true
	for ; i < len(w.in); i++ {
		c := w.in[i]
		if c == '"' {
			break
		}
		switch {
		case c == '\\':
			escaped = true
			i++
		case c < 0x20:
			escaped = true // not JSON: encoding/json says so
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	if i >= len(w.in) {
		return nil, false
	}
	w.pos = i + 1
	raw := w.in[start+1 : i]
	if !escaped && (ascii || utf8.Valid(raw)) {
		return raw, true
	}
	var s string
	if err := json.Unmarshal(w.in[start:w.pos], &s); err != nil {
		return nil, false
	}
	return []byte(s), true
}

// number reads a JSON number at pos.
func (w *qsWriter) number() bool {
	in, i := w.in, w.pos
	digits := func() bool {
		s := i
		for i < len(in) && in[i] >= '0' && in[i] <= '9' {
			i++
		}
		return i > s
	}
	if i < len(in) && in[i] == '-' {
		i++
	}
	switch {
	case i < len(in) && in[i] == '0':
		i++
	case !digits():
		return false
	}
	if i < len(in) && in[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(in) && (in[i] == 'e' || in[i] == 'E') {
		i++
		if i < len(in) && (in[i] == '+' || in[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	w.pos = i
	return true
}

func appendInt(b []byte, n int) []byte {
	if n >= 10 {
		b = appendInt(b, n/10)
	}
	return append(b, byte('0'+n%10))
}

// appendQueryEscape is url.QueryEscape appending to b: unreserved bytes as they are, space as
// '+', every other byte %XX.
func appendQueryEscape(b, s []byte) []byte {
	const upper = "0123456789ABCDEF"
	for _, c := range s {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_', c == '.', c == '~':
			b = append(b, c)
		case c == ' ':
			b = append(b, '+')
		default:
			b = append(b, '%', upper[c>>4], upper[c&15])
		}
	}
	return b
}
