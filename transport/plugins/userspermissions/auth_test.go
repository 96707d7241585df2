package userspermissions

import (
	"encoding/base64"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/planner/write"
)

func TestJWTRoundTrip(t *testing.T) {
	j := &JWT{Secret: []byte("s3cret"), ExpiresIn: 30 * 24 * time.Hour}
	now := time.Unix(1_700_000_000, 0)
	tok, err := j.Issue(42, now)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(tok, ".")
	header, _ := base64.RawURLEncoding.DecodeString(parts[0])
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	if string(header) != `{"alg":"HS256","typ":"JWT"}` || string(payload) != `{"id":42,"iat":1700000000,"exp":1702592000}` {
		t.Fatalf("token %s %s", header, payload)
	}
	if id, ok := j.Verify(tok, now.Add(time.Hour)); !ok || id != 42 {
		t.Fatalf("verify: %d %v", id, ok)
	}
	if _, ok := j.Verify(tok, now.Add(31*24*time.Hour)); ok {
		t.Fatal("expired token accepted")
	}
	if _, ok := (&JWT{Secret: []byte("other")}).Verify(tok, now); ok {
		t.Fatal("token accepted with another secret")
	}
}

func TestJWTRefusesForgeries(t *testing.T) {
	secret := []byte("s3cret")
	j := &JWT{Secret: secret, ExpiresIn: time.Hour}
	now := time.Now()
	exp := jwt.NewNumericDate(now.Add(time.Hour))
	sign := func(m jwt.SigningMethod, key any, c jwt.Claims) string {
		s, err := jwt.NewWithClaims(m, c).SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for name, tok := range map[string]string{
		"none":         sign(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, jwt.MapClaims{"id": 1, "exp": exp}),
		"HS512":        sign(jwt.SigningMethodHS512, secret, jwt.MapClaims{"id": 1, "exp": exp}),
		"no exp":       sign(jwt.SigningMethodHS256, secret, jwt.MapClaims{"id": 1}),
		"string id":    sign(jwt.SigningMethodHS256, secret, jwt.MapClaims{"id": "1", "exp": exp}),
		"zero id":      sign(jwt.SigningMethodHS256, secret, jwt.MapClaims{"id": 0, "exp": exp}),
		"fraction id":  sign(jwt.SigningMethodHS256, secret, jwt.MapClaims{"id": 1.5, "exp": exp}),
		"no id":        sign(jwt.SigningMethodHS256, secret, jwt.MapClaims{"sub": "1", "exp": exp}),
		"garbage":      "a.b.c",
		"empty":        "",
		"two segments": "eyJhbGciOiJIUzI1NiJ9.eyJpZCI6MX0",
		"string exp":   sign(jwt.SigningMethodHS256, secret, jwt.MapClaims{"id": 1, "exp": "9999999999"}),
		"null exp":     sign(jwt.SigningMethodHS256, secret, jwt.MapClaims{"id": 1, "exp": nil}),
		"object exp":   sign(jwt.SigningMethodHS256, secret, jwt.MapClaims{"id": 1, "exp": map[string]any{}}),
		"string nbf":   sign(jwt.SigningMethodHS256, secret, jwt.MapClaims{"id": 1, "exp": exp, "nbf": "0"}),
		"null nbf":     sign(jwt.SigningMethodHS256, secret, jwt.MapClaims{"id": 1, "exp": exp, "nbf": nil}),
		"string iat":   sign(jwt.SigningMethodHS256, secret, jwt.MapClaims{"id": 1, "exp": exp, "iat": "0"}),
		"EXP":          sign(jwt.SigningMethodHS256, secret, jwt.MapClaims{"id": 1, "EXP": exp}),
		"Id":           sign(jwt.SigningMethodHS256, secret, jwt.MapClaims{"Id": 1, "exp": exp}),
		"bool iat":     sign(jwt.SigningMethodHS256, secret, jwt.MapClaims{"id": 1, "exp": exp, "iat": true}),
	} {
		if id, ok := j.Verify(tok, now); ok {
			t.Errorf("%s: accepted (id %d)", name, id)
		}
	}
	good := sign(jwt.SigningMethodHS256, secret, jwt.MapClaims{"id": 7, "exp": exp})
	if id, ok := j.Verify(good, now); !ok || id != 7 {
		t.Fatalf("valid MapClaims token refused")
	}
}

func TestParsePluginsConfig(t *testing.T) {
	c, err := ParsePluginsConfig([]byte(`{"i18n":{"locales":[]},"users-permissions":{"config":{"jwtSecret":"x",
		"jwt":{"expiresIn":"7d"},"ratelimit":{"interval":{"min":2},"max":3},"register":{"allowedFields":["nickname"]},
		"advanced":{"email_confirmation":true}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if c.JWTSecret != "x" || c.JWTExpiresIn != 7*24*time.Hour || c.RateLimit.Interval != 2*time.Minute || c.RateLimit.Max != 3 ||
		!c.RateLimit.Enabled || len(c.RegisterAllowedFields) != 1 || string(c.Advanced["email_confirmation"]) != "true" {
		t.Fatalf("%+v", c)
	}
	c, err = ParsePluginsConfig(nil)
	if err != nil || c.JWTExpiresIn != 30*24*time.Hour || c.RateLimit.Max != 10 || c.RateLimit.Interval != time.Minute {
		t.Fatalf("defaults %+v %v", c, err)
	}
	if c, err = ParsePluginsConfig([]byte(`{"users-permissions":{"config":{"jwt":{"expiresIn":3600}}}}`)); err != nil || c.JWTExpiresIn != time.Hour {
		t.Fatalf("seconds: %+v %v", c, err)
	}
	for _, bad := range []string{`{"users-permissions":{"config":{"jwt":{"expiresIn":"soon"}}}}`,
		`{"users-permissions":{"config":{"ratelimit":{"interval":{"fortnight":1}}}}}`, `[`} {
		if _, err := ParsePluginsConfig([]byte(bad)); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

func TestParseMS(t *testing.T) {
	for in, want := range map[string]time.Duration{"30d": 30 * 24 * time.Hour, "12h": 12 * time.Hour, "2 days": 48 * time.Hour,
		"1.5h": 90 * time.Minute, "500": 500 * time.Millisecond, "10 minutes": 10 * time.Minute, "1w": 7 * 24 * time.Hour} {
		if got, err := ParseMS(in); err != nil || got != want {
			t.Errorf("%q: %v %v, want %v", in, got, err, want)
		}
	}
}

func TestLimiter(t *testing.T) {
	l := &Limiter{Interval: time.Minute, Max: 3}
	now := time.Unix(1000, 0)
	for i := 1; i <= 4; i++ {
		info := l.Hit("k", now)
		if info.Allowed != (i <= 3) || info.Remaining != max(3-i, 0) || !info.Reset.Equal(now.Add(time.Minute)) {
			t.Fatalf("hit %d: %+v", i, info)
		}
	}
	if !l.Hit("other", now).Allowed {
		t.Fatal("keys share a budget")
	}
	if info := l.Hit("k", now.Add(time.Minute)); !info.Allowed || info.Remaining != 2 {
		t.Fatalf("new window: %+v", info)
	}
}

func TestBearer(t *testing.T) {
	for in, want := range map[string]string{"Bearer abc": "abc", "bearer  abc": "abc", "BEARER abc": "abc", "Bearer": "", "Basic abc": "", "Bearer a b": "", "": ""} {
		got, ok := Bearer(in)
		if got != want || ok != (want != "") {
			t.Errorf("%q: %q %v", in, got, ok)
		}
	}
}

func TestCallerCan(t *testing.T) {
	ro := &ir.Caller{Kind: ir.TokenCaller, TokenType: ir.TokenReadOnly}
	if !ro.Can("api::a.a.find") || !ro.Can("api::a.a.findOne") || ro.Can("api::a.a.create") || ro.Can(ActUserMe) || !ro.Can(ActUserFind) {
		t.Fatal("read-only")
	}
	custom := &ir.Caller{Kind: ir.TokenCaller, TokenType: ir.TokenCustom, Actions: map[string]bool{"api::a.a.find": true}}
	if !custom.Can("api::a.a.find") || custom.Can("api::a.a.findOne") || !custom.CanFind("api::a.a") || custom.CanFind("api::b.b") || !custom.CanFind("plugin::upload.file") {
		t.Fatal("custom")
	}
	if (&ir.Caller{Kind: ir.TokenCaller, TokenType: ir.TokenFullAccess}).Can("anything") != true || (*ir.Caller)(nil).Can("x") {
		t.Fatal("full-access / nil")
	}
}

func TestPasswordHash(t *testing.T) {
	h, err := HashPassword("correct horse")
	if err != nil || !strings.HasPrefix(h, "$2a$10$") {
		t.Fatalf("%q %v", h, err)
	}
	if !CheckPassword(h, "correct horse") || CheckPassword(h, "wrong") || CheckPassword("", "") {
		t.Fatal("check")
	}
	// A hash Strapi 4.26 (bcryptjs) wrote for "secret123": users of a Strapi database log in.
	strapiHash := "$2a$10$hHsfaijrPIsomDnqZp7nvOxZZhZnrE98VIK2zQle9yVirJjUv3I72"
	if !CheckPassword(strapiHash, "secret123") || CheckPassword(strapiHash, "secret124") {
		t.Fatal("Strapi's bcryptjs hash")
	}
	long := strings.Repeat("x", 80)
	lh, _ := HashPassword(long)
	if !CheckPassword(lh, long) || !CheckPassword(lh, long[:72]) {
		t.Fatal("bcryptjs keeps the first 72 bytes")
	}
}

// Type errors quote the value as Strapi's yup does; a string is quoted too (checked against
// Strapi 4.26.2: `blocked must be a \`boolean\` type, but the final value was: \`"yes"\`.`).
func TestPrintValue(t *testing.T) {
	if got := write.PrintValue(map[string]any{"a": 1.0, "b": []any{1.0, "x"}}); got != "{\n  \"a\": \"1\",\n  \"b\": [\n    \"1\",\n    \"\\\"x\\\"\"\n  ]\n}" {
		t.Fatalf("%q", got)
	}
	if write.PrintValue(12.0) != "12" || write.PrintValue(nil) != "null" || write.PrintValue(true) != "true" || write.PrintValue("s") != `"s"` {
		t.Fatal("scalars")
	}
}

// The role of a user body is checked as Strapi 4.26.2's yup schema checks it (each case
// compared with the oracle).
func TestRoleRef(t *testing.T) {
	cases := []struct {
		role     any
		required bool
		id       int64
		present  bool
		path     []string
		msg      string
	}{
		{role: 2.0, required: true, id: 2, present: true},
		{role: "7", required: true, id: 7, present: true},
		{role: "x", required: true, id: invalidRole, present: true},
		{role: true, required: true, path: []string{"role"}, msg: "role must be a `strapiID` type, but the final value was: `true`."},
		{role: -1.0, required: true, path: []string{"role"}, msg: "role must be a `strapiID` type, but the final value was: `-1`."},
		{role: nil, required: false, path: []string{"role"}, msg: "role must be a `object` type, but the final value was: `null`."},
		{role: map[string]any{}, required: true, path: []string{"role", "connect"}, msg: "role.connect is a required field"},
		{role: map[string]any{"connect": []any{}}, required: true, path: []string{"role", "connect"}, msg: "Users must have a role"},
		{role: map[string]any{"connect": []any{map[string]any{"id": 1.0}, map[string]any{"id": true}}}, required: true,
			path: []string{"role", "connect", "1", "id"}, msg: "role.connect[1].id must be a `strapiID` type, but the final value was: `true`."},
		{role: map[string]any{"connect": []any{map[string]any{"id": 1.0}}}, required: false,
			path: []string{"role", "disconnect"}, msg: "role.disconnect is a required field"},
		{role: map[string]any{"connect": []any{map[string]any{"id": 1.0}}, "disconnect": "x"}, required: false,
			path: []string{"role", "disconnect"}, msg: "role.disconnect must be a `array` type, but the final value was: `\"x\"`."},
		{role: map[string]any{"connect": []any{map[string]any{"id": 3.0}}, "disconnect": []any{}}, required: false, id: 3, present: true},
	}
	for _, c := range cases {
		var ch checker
		id, present := roleRef(map[string]any{"role": c.role}, &ch, c.required)
		if c.msg == "" {
			if len(ch.errs) > 0 || id != c.id || present != c.present {
				t.Errorf("%#v: got %d %v %v", c.role, id, present, ch.errs)
			}
			continue
		}
		if len(ch.errs) != 1 || ch.errs[0].Message != c.msg || strings.Join(ch.errs[0].Path, "/") != strings.Join(c.path, "/") {
			t.Errorf("%#v: got %+v, want %v %q", c.role, ch.errs, c.path, c.msg)
		}
	}
}

// The plugin's field rules (its yup schemas: string(), required(), email(), boolean() and
// the password's limits) answer with yup's messages, one per field, type test first.
func TestCheckerRules(t *testing.T) {
	type fe struct{ path, msg string }
	cases := []struct {
		name  string
		check func(c *checker, body map[string]any)
		body  map[string]any
		want  []fe
	}{
		{"required absent", func(c *checker, b map[string]any) { c.str(b, "identifier", true) }, map[string]any{},
			[]fe{{"identifier", "identifier is a required field"}}},
		{"required empty", func(c *checker, b map[string]any) { c.str(b, "identifier", true) }, map[string]any{"identifier": ""},
			[]fe{{"identifier", "identifier is a required field"}}},
		{"string null", func(c *checker, b map[string]any) { c.str(b, "identifier", true) }, map[string]any{"identifier": nil},
			[]fe{{"identifier", "identifier must be a `string` type, but the final value was: `null`."}}},
		{"string number", func(c *checker, b map[string]any) { c.str(b, "code", false) }, map[string]any{"code": 5.0},
			[]fe{{"code", "code must be a `string` type, but the final value was: `5`."}}},
		{"optional absent and empty", func(c *checker, b map[string]any) { c.str(b, "code", false); c.str(b, "other", false) }, map[string]any{"other": ""}, nil},
		{"NUL", func(c *checker, b map[string]any) { c.str(b, "code", false) }, map[string]any{"code": "a\x00"},
			[]fe{{"code", "code must not contain NUL characters"}}},
		{"email", func(c *checker, b map[string]any) { c.email(b, "email", true) }, map[string]any{"email": "bad"},
			[]fe{{"email", "email must be a valid email"}}},
		{"boolean", func(c *checker, b map[string]any) { boolField(b, "blocked", c) }, map[string]any{"blocked": "yes"},
			[]fe{{"blocked", "blocked must be a `boolean` type, but the final value was: `\"yes\"`."}}},
		{"password", func(c *checker, b map[string]any) {
			c.password("password", "12345")
			c.password("new", strings.Repeat("p", 73))
		}, nil,
			[]fe{{"password", "password must be at least 6 characters"}, {"new", "new must be at most 72 bytes"}}},
		{"username", func(c *checker, b map[string]any) { c.min("username", "ab", 3) }, nil,
			[]fe{{"username", "username must be at least 3 characters"}}},
		{"column", func(c *checker, b map[string]any) { c.column("email", strings.Repeat("e", 256)) }, nil,
			[]fe{{"email", "email must be at most 255 characters"}}},
	}
	for _, tc := range cases {
		var c checker
		tc.check(&c, tc.body)
		var got []fe
		for _, e := range c.errs {
			got = append(got, fe{strings.Join(e.Path, "."), e.Message})
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// FuzzJWTVerify feeds arbitrary payloads, signed with the real secret, to the token parser:
// it never panics, and a token it accepts has a numeric exp in the future, numeric iat and
// nbf when present, and a positive integer id.
func FuzzJWTVerify(f *testing.F) {
	for _, p := range []string{`{"id":1,"exp":9999999999}`, `{"id":1,"exp":"9999999999"}`, `{"id":1,"exp":1e10,"nbf":null}`,
		`{"id":1.0,"exp":9999999999,"iat":-1}`, `{"id":1,"exp":9999999999,"nbf":"1"}`, `[]`, `{"exp":{}}`} {
		f.Add(p)
	}
	secret := []byte("s3cret")
	j := &JWT{Secret: secret, ExpiresIn: time.Hour}
	now := time.Unix(1_700_000_000, 0)
	f.Fuzz(func(t *testing.T, payload string) {
		head := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))
		unsigned := head + "." + base64.RawURLEncoding.EncodeToString([]byte(payload))
		sig, err := jwt.SigningMethodHS256.Sign(unsigned, secret)
		if err != nil {
			t.Fatal(err)
		}
		id, ok := j.Verify(unsigned+"."+base64.RawURLEncoding.EncodeToString(sig), now)
		if !ok {
			return
		}
		var m map[string]any
		dec := json.NewDecoder(strings.NewReader(payload))
		dec.UseNumber()
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("%s accepted but not an object: %v", payload, err)
		}
		for _, k := range []string{"exp", "iat", "nbf"} {
			if v, present := m[k]; present {
				if _, num := v.(json.Number); !num {
					t.Fatalf("%s accepted with %s %T", payload, k, v)
				}
			}
		}
		e, _ := m["exp"].(json.Number).Float64()
		if e <= float64(now.Unix()) || id < 1 {
			t.Fatalf("%s accepted: exp %v, id %d", payload, e, id)
		}
	})
}
