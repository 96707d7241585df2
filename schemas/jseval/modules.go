package jseval

import (
	"crypto/hmac"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"fmt"
	"hash"
	"math/big"
	"strings"
	"sync"

	"github.com/dop251/goja"
)

// The npm modules real Strapi projects require most, written for Quarry's sandbox and checked
// against the real packages (testdata/modules.cases): lodash (and lodash/<function>;
// lodash/fp and lodash/fp/<function>, testdata/fp.cases),
// slugify, qs, axios and node-fetch, yup (with what @strapi/utils adds to it) (over the sandbox's fetch, to the hosts config/quarry
// allows), uuid, bcrypt, bcryptjs, jsonwebtoken and dayjs; Node's util, events, querystring
// and url, and crypto's basics in Go; koa2-ratelimit (its memory store kept by the host). A module not here is an inert stub when reading files
// and a NotImplementedError (501) when running requests.
//
//go:embed modules/*.js
var moduleFiles embed.FS

// npmModules maps a module name to its embedded source.
var npmModules = map[string]string{"lodash": "modules/lodash.js", "slugify": "modules/slugify.js", "qs": "modules/qs.js",
	"axios": "modules/axios.js", "node-fetch": "modules/node-fetch.js", "uuid": "modules/uuid.js",
	"bcrypt": "modules/bcrypt.js", "bcryptjs": "modules/bcryptjs.js", "jsonwebtoken": "modules/jsonwebtoken.js",
	"dayjs": "modules/dayjs.js", "util": "modules/util.js", "events": "modules/events.js", "querystring": "modules/querystring.js",
	"yup": "modules/yup.js", "koa2-ratelimit": "modules/koa2-ratelimit.js", "lodash/fp": "modules/lodash-fp.js"}

// embeddedPrograms holds the provided modules compiled once for every sandbox (a compiled
// program is immutable and shared between runtimes): a pooled VM that loads yup or lodash
// does not parse them again.
var embeddedPrograms sync.Map // file → *goja.Program

func embeddedProgram(name, file string) (*goja.Program, error) {
	if p, ok := embeddedPrograms.Load(file); ok {
		return p.(*goja.Program), nil
	}
	src, err := moduleFiles.ReadFile(file)
	if err != nil {
		return nil, err
	}
	prog, err := compileModule(name, string(src))
	if err != nil {
		return nil, fmt.Errorf("compiling %s: %w", file, err)
	}
	embeddedPrograms.Store(file, prog)
	return prog, nil
}

// Provided reports whether the sandbox gives a module of that name (beyond the project's own
// files), so that a project requiring it can run under Quarry.
func Provided(name string) bool {
	name = strings.TrimPrefix(name, "node:")
	if _, ok := npmModules[name]; ok {
		return true
	}
	if f, ok := strings.CutPrefix(name, "lodash/"); ok && f != "fp" && !strings.Contains(f, "/") {
		return true
	}
	if f, ok := strings.CutPrefix(name, "lodash/fp/"); ok && f != "" && !strings.Contains(f, "/") {
		return true
	}
	switch name {
	case "crypto", "path", "url", "buffer", "timers", "timers/promises", "@strapi/utils", "@strapi/strapi":
		return true
	}
	return false
}

// builtin loads a provided npm module; ok is false for a name that is not one.
func (s *sandbox) builtin(name string) (v goja.Value, ok bool, err error) {
	bare := strings.TrimPrefix(name, "node:")
	if file, found := npmModules[bare]; found {
		prog, err := embeddedProgram(bare, file)
		if err != nil {
			return nil, true, err
		}
		v, err := s.runModule(prog, "/node_modules/"+bare+".js", "/node_modules/"+bare+".js")
		if err == nil && bare == "yup" {
			err = s.strapiExtendsYup(v)
		}
		return v, true, err
	}
	if f, found := strings.CutPrefix(bare, "lodash/fp/"); found && Provided(bare) {
		fp, err := s.require("lodash/fp")
		if err != nil {
			return nil, true, err
		}
		return fp.ToObject(s.rt).Get(f), true, nil
	}
	if f, found := strings.CutPrefix(bare, "lodash/"); found && Provided(bare) {
		lodash, err := s.require("lodash")
		if err != nil {
			return nil, true, err
		}
		return lodash.ToObject(s.rt).Get(f), true, nil
	}
	switch bare {
	case "crypto":
		return s.cryptoModule(), true, nil
	case "buffer", "timers", "timers/promises":
		v, err := s.rt.RunString(nodeGlobalModules[bare])
		return v, true, err
	}
	return nil, false, nil
}

// strapiExtendsYup does to yup what loading @strapi/utils does in a Strapi app (its methods and
// type error message; every require('yup') of the app sees them) and keeps the helpers
// @strapi/utils exports with it (yup, validateYupSchema, …) for strapiYup.
func (s *sandbox) strapiExtendsYup(yup goja.Value) error {
	prog, err := embeddedProgram("@strapi/utils/yup", "modules/strapi-yup.js")
	if err != nil {
		return err
	}
	mk, err := s.runModule(prog, "/node_modules/@strapi/utils/yup.js", "/node_modules/@strapi/utils/yup.js")
	if err != nil {
		return err
	}
	fn, ok := goja.AssertFunction(mk)
	if !ok {
		return fmt.Errorf("strapi-yup.js: exports %v, not a function", mk)
	}
	errs := s.cache["@strapi/utils"].ToObject(s.rt).Get("errors")
	helpers, err := fn(goja.Undefined(), yup, errs)
	if err != nil {
		return fmt.Errorf("extending yup as @strapi/utils does: %w", jsError(err))
	}
	s.cache["\x00strapiYup"] = helpers
	return nil
}

// strapiYup is @strapi/utils' yup helpers, loading yup on first use.
func (s *sandbox) strapiYup() goja.Value {
	if _, err := s.require("yup"); err != nil {
		panic(s.rt.NewGoError(fmt.Errorf("loading yup: %w", err)))
	}
	return s.cache["\x00strapiYup"]
}

// cryptoModule is the part of Node's crypto projects use for tokens and digests: createHash,
// createHmac, randomBytes, randomUUID, randomInt, timingSafeEqual. Binary values are
// buffer-like objects whose toString takes 'hex', 'base64', 'base64url' or 'utf8'.
func (s *sandbox) cryptoModule() goja.Value {
	rt := s.rt
	bytesOf := func(v goja.Value, enc string) []byte {
		if _, ok := v.(*goja.Object); ok {
			return bytesArg(rt, v)
		}
		if b, ok := encodeString(v.String(), enc); ok {
			return b
		}
		return utf8Of(v.String())
	}
	encode := func(b []byte, enc string) goja.Value {
		if str, ok := decodeBytes(b, enc); ok {
			return rt.ToValue(str)
		}
		return rt.ToValue(string(b))
	}
	buffer := s.newBuffer
	newHash := func(alg string, key []byte) hash.Hash {
		f, ok := digest(alg)
		if !ok {
			panic(rt.NewTypeError(fmt.Sprintf("Digest method not supported: %s", alg)))
		}
		if key != nil {
			return hmac.New(f, key)
		}
		return f()
	}
	hasher := func(h hash.Hash) goja.Value {
		o := rt.NewObject()
		o.Set("update", func(c goja.FunctionCall) goja.Value {
			h.Write(bytesOf(c.Argument(0), c.Argument(1).String()))
			return o
		})
		o.Set("digest", func(c goja.FunctionCall) goja.Value {
			sum := h.Sum(nil)
			if goja.IsUndefined(c.Argument(0)) || c.Argument(0).String() == "buffer" {
				return buffer(sum)
			}
			return encode(sum, c.Argument(0).String())
		})
		return o
	}
	m := rt.NewObject()
	m.Set("createHash", func(alg string) goja.Value { return hasher(newHash(alg, nil)) })
	m.Set("createHmac", func(c goja.FunctionCall) goja.Value {
		return hasher(newHash(c.Argument(0).String(), bytesOf(c.Argument(1), "")))
	})
	m.Set("randomBytes", func(n int64) goja.Value {
		if n < 0 || n > 1<<16 {
			panic(rt.NewTypeError(fmt.Sprintf("The value of \"size\" is out of range: %d", n)))
		}
		b := make([]byte, n)
		rand.Read(b)
		return buffer(b)
	})
	m.Set("randomUUID", uuid4)
	m.Set("randomInt", func(c goja.FunctionCall) goja.Value {
		lo, hi := int64(0), c.Argument(0).ToInteger()
		if len(c.Arguments) > 1 && !goja.IsUndefined(c.Argument(1)) {
			lo, hi = hi, c.Argument(1).ToInteger()
		}
		if hi <= lo {
			panic(rt.NewTypeError("The value of \"max\" is out of range"))
		}
		n, _ := rand.Int(rand.Reader, big.NewInt(hi-lo))
		return rt.ToValue(lo + n.Int64())
	})
	// Node's crypto module carries the Web Crypto global's functions too.
	if wc, ok := rt.Get("crypto").(*goja.Object); ok {
		m.Set("webcrypto", wc)
		m.Set("getRandomValues", wc.Get("getRandomValues"))
	}
	m.Set("timingSafeEqual", func(a, b goja.Value) bool {
		x, y := bytesOf(a, ""), bytesOf(b, "")
		if len(x) != len(y) {
			panic(rt.NewTypeError("Input buffers must have the same byte length"))
		}
		return subtle.ConstantTimeCompare(x, y) == 1
	})
	return m
}

func uuid4() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// nodeGlobalModules are Node's modules that give its globals by name.
var nodeGlobalModules = map[string]string{
	"buffer": `({ Buffer: Buffer, kMaxLength: 16777216, constants: { MAX_LENGTH: 16777216, MAX_STRING_LENGTH: 16777216 },
  atob: atob, btoa: btoa, isUtf8: function (b) { return !new TextDecoder().decode(b).includes('\ufffd') || Buffer.from(new TextDecoder().decode(b)).equals(Buffer.from(b)); } })`,
	"timers": `({ setTimeout: setTimeout, clearTimeout: clearTimeout, setInterval: setInterval, clearInterval: clearInterval,
  setImmediate: setImmediate, clearImmediate: clearImmediate })`,
	"timers/promises": `({
  setTimeout: function (delay, value) { return new Promise(function (r) { setTimeout(function () { r(value); }, delay); }); },
  setImmediate: function (value) { return new Promise(function (r) { setImmediate(function () { r(value); }); }); }
})`,
}

// digest is node's crypto hash of that name (md5, sha1, sha256, sha384, sha512; case and
// dashes ignored, as Node's lookup ignores them).
func digest(alg string) (func() hash.Hash, bool) {
	switch strings.ToLower(strings.ReplaceAll(alg, "-", "")) {
	case "md5":
		return md5.New, true
	case "sha1":
		return sha1.New, true
	case "sha256":
		return sha256.New, true
	case "sha384":
		return sha512.New384, true
	case "sha512":
		return sha512.New, true
	}
	return nil, false
}
