package jseval

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"sync"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dop251/goja"
	"golang.org/x/crypto/blowfish"
	"golang.org/x/net/idna"
)

// nativeKey is the cache key of the helpers the embedded modules (uuid, bcrypt, bcryptjs,
// jsonwebtoken, Buffer) are written on. A script that names it gets the same pure functions:
// nothing there reaches outside the sandbox.
const nativeKey = "\x00quarry-native"

// bcryptAlphabet is bcrypt's own base64 alphabet (./A-Za-z0-9, no padding).
const bcryptAlphabet = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// bcryptEncode encodes the first n bytes of b in bcrypt's base64 (as the reference
// implementations do: 4 characters per 3 bytes, a short tail for the rest).
func bcryptEncode(b []byte, n int) string {
	if n > len(b) {
		n = len(b)
	}
	out := make([]byte, 0, (n*4+2)/3)
	for off := 0; off < n; {
		c1 := b[off]
		off++
		out = append(out, bcryptAlphabet[c1>>2&0x3f])
		c1 = (c1 & 0x03) << 4
		if off >= n {
			out = append(out, bcryptAlphabet[c1&0x3f])
			break
		}
		c2 := b[off]
		off++
		c1 |= c2 >> 4 & 0x0f
		out = append(out, bcryptAlphabet[c1&0x3f])
		c1 = (c2 & 0x0f) << 2
		if off >= n {
			out = append(out, bcryptAlphabet[c1&0x3f])
			break
		}
		c2 = b[off]
		off++
		c1 |= c2 >> 6 & 0x03
		out = append(out, bcryptAlphabet[c1&0x3f], bcryptAlphabet[c2&0x3f])
	}
	return string(out)
}

func bcryptIndex(c byte) int {
	for i := 0; i < len(bcryptAlphabet); i++ {
		if bcryptAlphabet[i] == c {
			return i
		}
	}
	return -1
}

// bcryptDecode decodes up to n bytes of bcrypt's base64, stopping at the first character
// outside the alphabet (the caller checks the length it got). With lenient, a bad fourth
// character of a group gives 0xff and decoding goes on, as bcryptjs's decoder does.
func bcryptDecode(s string, n int, lenient bool) []byte {
	var out []byte
	for off := 0; off < len(s)-1 && len(out) < n; {
		c1, c2 := bcryptIndex(s[off]), bcryptIndex(s[off+1])
		off += 2
		if c1 < 0 || c2 < 0 {
			break
		}
		out = append(out, byte(c1<<2|(c2&0x30)>>4))
		if len(out) >= n || off >= len(s) {
			break
		}
		c3 := bcryptIndex(s[off])
		off++
		if c3 < 0 {
			break
		}
		out = append(out, byte((c2&0x0f)<<4|(c3&0x3c)>>2))
		if len(out) >= n || off >= len(s) {
			break
		}
		c4 := bcryptIndex(s[off])
		off++
		if c4 < 0 {
			if lenient {
				out = append(out, 0xff)
				continue
			}
			break
		}
		out = append(out, byte((c3&0x03)<<6|c4))
	}
	return out
}

// bcryptRaw is the EksBlowfish core: key (the password's bytes with their NUL where the
// variant adds one), a 16-byte salt and the log2 cost; the 23 bytes every variant encodes.
// stopped is checked between rounds: a high cost is minutes of Go that the script's time
// limit could not otherwise stop.
func bcryptRaw(key, salt []byte, cost int, stopped func() bool) []byte {
	if len(key) == 0 {
		key = []byte{0} // only the NUL-less '$2$' variant has no byte at all; Blowfish needs one
	}
	c, err := blowfish.NewSaltedCipher(key, salt)
	if err != nil {
		panic(err) // salt and key lengths are checked by the callers
	}
	for i := uint64(0); i < uint64(1)<<uint(cost); i++ {
		if i&255 == 255 && stopped() {
			return make([]byte, 23)
		}
		blowfish.ExpandKey(key, c)
		blowfish.ExpandKey(salt, c)
	}
	data := []byte("OrpheanBeholderScryDoubt")
	for i := 0; i < 24; i += 8 {
		for j := 0; j < 64; j++ {
			c.Encrypt(data[i:i+8], data[i:i+8])
		}
	}
	return data[:23]
}

// bytesArg reads a JavaScript value as bytes: a string as UTF-8 (lone surrogates as U+FFFD,
// as Node encodes them), a typed array or Buffer as its bytes, an array of numbers bytewise.
func bytesArg(rt *goja.Runtime, v goja.Value) []byte {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return nil
	}
	if o, ok := v.(*goja.Object); ok {
		switch x := o.Export().(type) {
		case []byte:
			return x
		case goja.ArrayBuffer:
			return x.Bytes()
		case []any:
			b := make([]byte, len(x))
			for i, e := range x {
				if f, ok := e.(int64); ok {
					b[i] = byte(f)
				} else if f, ok := e.(float64); ok {
					b[i] = byte(int64(f))
				}
			}
			return b
		}
	}
	return utf8Of(v.String())
}

// utf8Of is a JavaScript string (as Go holds it: valid UTF-8, or CESU-style for lone
// surrogates) as Node's UTF-8: Go's conversion already writes U+FFFD for what is invalid.
func utf8Of(s string) []byte {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		out = append(out, string(r)...)
	}
	return out
}

// whatwgIDNA is UTS #46 as the URL Standard's domain to ASCII uses it: nontransitional,
// hyphens and DNS lengths unchecked, no STD3 rules, bidi and joiner rules checked.
var whatwgIDNA = idna.New(idna.MapForLookup(), idna.Transitional(false), idna.CheckHyphens(false),
	idna.BidiRule(), idna.CheckJoiners(true), idna.StrictDomainName(false), idna.VerifyDNSLength(false))

var globalsOnce struct {
	sync.Once
	prog *goja.Program
	url  *goja.Program
	err  error
}

// globalsProgram is modules/globals.js compiled once for every sandbox.
func globalsProgram() (*goja.Program, error) {
	globalsOnce.Do(func() {
		src, err := moduleFiles.ReadFile("modules/globals.js")
		if err != nil {
			globalsOnce.err = err
			return
		}
		globalsOnce.prog, globalsOnce.err = goja.Compile("node-globals.js", string(src), false)
		if globalsOnce.err != nil {
			return
		}
		src, err = moduleFiles.ReadFile("modules/url.js")
		if err != nil {
			globalsOnce.err = err
			return
		}
		globalsOnce.url, globalsOnce.err = goja.Compile("node-url.js", string(src), false)
	})
	return globalsOnce.prog, globalsOnce.err
}

// newBuffer is a Node Buffer over b (the sandbox's own Buffer class, as set up).
func (s *sandbox) newBuffer(b []byte) goja.Value {
	ctor := s.cache["\x00Buffer"].ToObject(s.rt)
	v, err := s.rt.New(ctor, s.rt.ToValue(s.rt.NewArrayBuffer(b)))
	if err != nil {
		panic(err)
	}
	return v
}

// stopped reports whether the run under way is out of time or cancelled, and interrupts the
// script so that it stops at its next step, as the time limit would have.
func (s *sandbox) stopped() bool {
	var reason error
	switch {
	case !s.deadline.IsZero() && time.Now().After(s.deadline):
		reason = ErrTimeout
	case s.ctx != nil && s.ctx.Err() != nil:
		reason = s.ctx.Err()
	default:
		return false
	}
	s.rt.Interrupt(reason)
	return true
}

// nativeModule is the helpers the embedded modules share.
func (s *sandbox) nativeModule() goja.Value {
	rt := s.rt
	m := rt.NewObject()
	bytesValue := func(b []byte) goja.Value {
		return rt.ToValue(rt.NewArrayBuffer(b))
	}
	// bcrypt(password, withNul, wrap8, saltBytes, cost) → the 31 characters of the hash.
	m.Set("bcrypt", func(c goja.FunctionCall) goja.Value {
		key := bytesArg(rt, c.Argument(0))
		if c.Argument(1).ToBoolean() {
			key = append(key[:len(key):len(key)], 0)
		}
		if c.Argument(2).ToBoolean() && len(key) > 255 {
			// OpenBSD's $2a$ kept the length in a byte: 256 bytes and more wrap.
			key = key[:len(key)&0xff]
		}
		if len(key) > 72 {
			key = key[:72]
		}
		salt := bytesArg(rt, c.Argument(3))
		cost := int(c.Argument(4).ToInteger())
		if len(salt) != 16 || cost < 0 || cost > 31 {
			panic(rt.NewTypeError("bcrypt: bad salt or cost"))
		}
		raw := bcryptRaw(key, salt, cost, s.stopped)
		return rt.ToValue(bcryptEncode(raw, 23))
	})
	m.Set("bcryptEncode", func(c goja.FunctionCall) goja.Value {
		b := bytesArg(rt, c.Argument(0))
		return rt.ToValue(bcryptEncode(b, int(c.Argument(1).ToInteger())))
	})
	m.Set("bcryptDecode", func(c goja.FunctionCall) goja.Value {
		return bytesValue(bcryptDecode(c.Argument(0).String(), int(c.Argument(1).ToInteger()), c.Argument(2).ToBoolean()))
	})
	// hmac(alg, key, data) → the MAC's bytes, for jsonwebtoken's HS algorithms.
	m.Set("hmac", func(c goja.FunctionCall) goja.Value {
		alg := c.Argument(0).String()
		f, ok := digest(alg)
		if !ok || !strings.HasPrefix(alg, "sha") || alg == "sha1" {
			panic(rt.NewTypeError("hmac: unknown algorithm"))
		}
		h := hmac.New(f, bytesArg(rt, c.Argument(1)))
		h.Write(bytesArg(rt, c.Argument(2)))
		return bytesValue(h.Sum(nil))
	})
	// domainToASCII and domainToUnicode are the URL Standard's UTS #46 processing (null
	// when the domain is not valid).
	m.Set("domainToASCII", func(d string) goja.Value {
		out, err := whatwgIDNA.ToASCII(d)
		if err != nil {
			return goja.Null()
		}
		return rt.ToValue(out)
	})
	m.Set("domainToUnicode", func(d string) goja.Value {
		out, err := whatwgIDNA.ToUnicode(d)
		if err != nil {
			return goja.Null()
		}
		return rt.ToValue(out)
	})
	// now (ms, fractional) and nowNanos read a monotonic clock, for performance.now and
	// process.hrtime.
	start := time.Now()
	m.Set("now", func() float64 { return float64(time.Since(start).Nanoseconds()) / 1e6 })
	m.Set("nowNanos", func() int64 { return time.Since(start).Nanoseconds() + 1e9 })
	web := rt.NewObject()
	web.Set("randomUUID", uuid4)
	web.Set("randomBytes", func(n int) goja.Value {
		b := make([]byte, n)
		rand.Read(b)
		return bytesValue(b)
	})
	m.Set("webcrypto", web)
	// promiseState(p) → [state, value], for util.inspect.
	m.Set("promiseState", func(v goja.Value) goja.Value {
		p, ok := v.Export().(*goja.Promise)
		if !ok {
			return rt.ToValue([]any{"pending", goja.Undefined()})
		}
		switch p.State() {
		case goja.PromiseStateFulfilled:
			return rt.ToValue([]any{"fulfilled", p.Result()})
		case goja.PromiseStateRejected:
			return rt.ToValue([]any{"rejected", p.Result()})
		}
		return rt.ToValue([]any{"pending", goja.Undefined()})
	})
	m.Set("equal", func(a, b goja.Value) bool {
		x, y := bytesArg(rt, a), bytesArg(rt, b)
		return len(x) == len(y) && subtle.ConstantTimeCompare(x, y) == 1
	})
	// encode(string, encoding) and decode(bytes, encoding): Buffer's codecs; an unknown
	// encoding throws Node's TypeError.
	unknown := func(enc string) *goja.Object {
		e := rt.NewTypeError("Unknown encoding: " + enc)
		e.Set("code", "ERR_UNKNOWN_ENCODING")
		return e
	}
	m.Set("encode", func(c goja.FunctionCall) goja.Value {
		enc := c.Argument(1)
		name := ""
		if !goja.IsUndefined(enc) {
			name = enc.String()
		}
		b, ok := encodeString(c.Argument(0).String(), name)
		if !ok {
			panic(unknown(name))
		}
		return bytesValue(b)
	})
	m.Set("decode", func(c goja.FunctionCall) goja.Value {
		enc := c.Argument(1)
		name := ""
		if !goja.IsUndefined(enc) {
			name = enc.String()
		}
		s, ok := decodeBytes(bytesArg(rt, c.Argument(0)), name)
		if !ok {
			panic(unknown(name))
		}
		return rt.ToValue(s)
	})
	return m
}

// base64Decode is Node's forgiving base64: both alphabets, characters outside them skipped,
// the first '=' ending the data, a lone trailing character dropped.
func base64Decode(s string) []byte {
	var vals []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		var v int
		switch {
		case c >= 'A' && c <= 'Z':
			v = int(c - 'A')
		case c >= 'a' && c <= 'z':
			v = int(c-'a') + 26
		case c >= '0' && c <= '9':
			v = int(c-'0') + 52
		case c == '+' || c == '-':
			v = 62
		case c == '/' || c == '_':
			v = 63
		case c == '=':
			i = len(s)
			continue
		default:
			continue
		}
		vals = append(vals, byte(v))
	}
	out := make([]byte, 0, len(vals)*3/4)
	for i := 0; i+1 < len(vals); i += 4 {
		out = append(out, vals[i]<<2|vals[i+1]>>4)
		if i+2 < len(vals) {
			out = append(out, vals[i+1]<<4|vals[i+2]>>2)
		}
		if i+3 < len(vals) {
			out = append(out, vals[i+2]<<6|vals[i+3])
		}
	}
	return out
}

// utf8Decode is the WHATWG UTF-8 decoder Node's Buffer#toString uses: each maximal invalid
// subpart becomes one U+FFFD.
func utf8Decode(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b))
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			sb.WriteByte(c)
			i++
			continue
		}
		need, lo, hi := 0, byte(0x80), byte(0xbf)
		switch {
		case c >= 0xc2 && c <= 0xdf:
			need = 1
		case c >= 0xe0 && c <= 0xef:
			need = 2
			if c == 0xe0 {
				lo = 0xa0
			} else if c == 0xed {
				hi = 0x9f
			}
		case c >= 0xf0 && c <= 0xf4:
			need = 3
			if c == 0xf0 {
				lo = 0x90
			} else if c == 0xf4 {
				hi = 0x8f
			}
		default:
			sb.WriteRune(utf8.RuneError)
			i++
			continue
		}
		j := i + 1
		for k := 0; k < need; k++ {
			if j >= len(b) || b[j] < lo || b[j] > hi {
				break
			}
			lo, hi = 0x80, 0xbf
			j++
		}
		if j-i-1 < need {
			sb.WriteRune(utf8.RuneError)
			i = j
			continue
		}
		sb.Write(b[i:j])
		i = j
	}
	return sb.String()
}

// encodeString is Buffer.from(string, encoding)'s bytes; ok is false for an encoding Node
// does not know.
func encodeString(s, enc string) (b []byte, ok bool) {
	switch strings.ToLower(enc) {
	case "", "utf8", "utf-8":
		return utf8Of(s), true
	case "latin1", "binary", "ascii":
		u := utf16.Encode([]rune(s))
		b = make([]byte, len(u))
		for i, c := range u {
			b[i] = byte(c)
		}
		return b, true
	case "ucs2", "ucs-2", "utf16le", "utf-16le":
		u := utf16.Encode([]rune(s))
		b = make([]byte, 2*len(u))
		for i, c := range u {
			b[2*i], b[2*i+1] = byte(c), byte(c>>8)
		}
		return b, true
	case "base64", "base64url":
		return base64Decode(s), true
	case "hex":
		for i := 0; i+1 < len(s); i += 2 {
			x, err := hex.DecodeString(s[i : i+2])
			if err != nil {
				break
			}
			b = append(b, x[0])
		}
		return b, true
	}
	return nil, false
}

// decodeBytes is Buffer#toString(encoding); ok is false for an unknown encoding.
func decodeBytes(b []byte, enc string) (s string, ok bool) {
	enc = strings.ToLower(enc)
	switch enc {
	case "", "utf8", "utf-8":
		return utf8Decode(b), true
	case "latin1", "binary", "ascii":
		r := make([]rune, len(b))
		for i, c := range b {
			if enc == "ascii" {
				c &= 0x7f
			}
			r[i] = rune(c)
		}
		return string(r), true
	case "ucs2", "ucs-2", "utf16le", "utf-16le":
		u := make([]uint16, len(b)/2)
		for i := range u {
			u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
		}
		return string(utf16.Decode(u)), true
	case "base64":
		return base64.StdEncoding.EncodeToString(b), true
	case "base64url":
		return base64.RawURLEncoding.EncodeToString(b), true
	case "hex":
		return hex.EncodeToString(b), true
	}
	return "", false
}
