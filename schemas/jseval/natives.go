package jseval

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"hash"

	"github.com/dop251/goja"
	"golang.org/x/crypto/blowfish"
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
func bcryptRaw(key, salt []byte, cost int) []byte {
	if len(key) == 0 {
		key = []byte{0} // only the NUL-less '$2$' variant has no byte at all; Blowfish needs one
	}
	c, err := blowfish.NewSaltedCipher(key, salt)
	if err != nil {
		panic(err) // salt and key lengths are checked by the callers
	}
	for i := uint64(0); i < uint64(1)<<uint(cost); i++ {
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
		if raw := o.Get("__bytes"); raw != nil {
			if b, ok := raw.Export().([]byte); ok {
				return b
			}
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
		return rt.ToValue(bcryptEncode(bcryptRaw(key, salt, cost), 23))
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
		var f func() hash.Hash
		switch c.Argument(0).String() {
		case "sha256":
			f = sha256.New
		case "sha384":
			f = sha512.New384
		case "sha512":
			f = sha512.New
		default:
			panic(rt.NewTypeError("hmac: unknown algorithm"))
		}
		h := hmac.New(f, bytesArg(rt, c.Argument(1)))
		h.Write(bytesArg(rt, c.Argument(2)))
		return bytesValue(h.Sum(nil))
	})
	m.Set("equal", func(a, b goja.Value) bool {
		x, y := bytesArg(rt, a), bytesArg(rt, b)
		return len(x) == len(y) && subtle.ConstantTimeCompare(x, y) == 1
	})
	m.Set("utf8", func(v goja.Value) goja.Value { return bytesValue(utf8Of(v.String())) })
	return m
}
