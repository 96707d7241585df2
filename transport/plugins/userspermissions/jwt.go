package userspermissions

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// claims is the users-permissions JWT payload, {id, iat, exp} in jsonwebtoken's key order.
type claims struct {
	ID        any              `json:"id"`
	IssuedAt  *jwt.NumericDate `json:"iat,omitempty"`
	ExpiresAt *jwt.NumericDate `json:"exp,omitempty"`
	// NotBefore is never issued, but a token carrying one is refused before it, as
	// jsonwebtoken refuses it in Strapi.
	NotBefore *jwt.NumericDate `json:"nbf,omitempty"`
}

func (c claims) GetExpirationTime() (*jwt.NumericDate, error) { return c.ExpiresAt, nil }
func (c claims) GetIssuedAt() (*jwt.NumericDate, error)       { return c.IssuedAt, nil }
func (c claims) GetNotBefore() (*jwt.NumericDate, error)      { return c.NotBefore, nil }
func (c claims) GetIssuer() (string, error)                   { return "", nil }
func (c claims) GetSubject() (string, error)                  { return "", nil }
func (c claims) GetAudience() (jwt.ClaimStrings, error)       { return nil, nil }

// strictDate is a registered time claim as jsonwebtoken (Strapi) accepts it: a JSON number.
// jwt.NumericDate also takes a numeric string ("9999999999") and null, which would let a token
// with exp as a string, or a null exp, pass.
type strictDate struct{ d *jwt.NumericDate }

func (s *strictDate) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || (b[0] != '-' && (b[0] < '0' || b[0] > '9')) {
		return errors.New("a time claim must be a number")
	}
	s.d = new(jwt.NumericDate)
	return s.d.UnmarshalJSON(b)
}

// verified are the claims a token is verified with: the registered time claims strict.
type verified struct {
	ID any `json:"id"`
	// Not pointers: encoding/json hands a null to UnmarshalJSON only then.
	IssuedAt  strictDate `json:"iat"`
	ExpiresAt strictDate `json:"exp"`
	NotBefore strictDate `json:"nbf"`
}

func date(s strictDate) *jwt.NumericDate { return s.d }

func (c verified) GetExpirationTime() (*jwt.NumericDate, error) { return date(c.ExpiresAt), nil }
func (c verified) GetIssuedAt() (*jwt.NumericDate, error)       { return date(c.IssuedAt), nil }
func (c verified) GetNotBefore() (*jwt.NumericDate, error)      { return date(c.NotBefore), nil }
func (c verified) GetIssuer() (string, error)                   { return "", nil }
func (c verified) GetSubject() (string, error)                  { return "", nil }
func (c verified) GetAudience() (jwt.ClaimStrings, error)       { return nil, nil }

// JWT issues and verifies the users' tokens: HS256 only, expiry required.
type JWT struct {
	Secret    []byte
	ExpiresIn time.Duration
}

// Issue signs a token for user id, as Strapi's jwt service does.
func (j *JWT) Issue(id int64, now time.Time) (string, error) {
	if len(j.Secret) == 0 {
		return "", errors.New("JWT_SECRET is not set")
	}
	iat := now.Truncate(time.Second)
	c := claims{ID: id, IssuedAt: jwt.NewNumericDate(iat), ExpiresAt: jwt.NewNumericDate(iat.Add(j.ExpiresIn))}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(j.Secret)
}

// Verify checks a token's signature, algorithm (HS256 only: `alg: none` and algorithm
// confusion are refused), expiry and not-before, and returns the user id it carries. ok is false for
// anything else, including a payload without a usable id.
func (j *JWT) Verify(token string, now time.Time) (id int64, ok bool) {
	if len(j.Secret) == 0 || len(token) > 8192 {
		return 0, false
	}
	var c verified
	p := jwt.NewParser(jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(func() time.Time { return now }))
	t, err := p.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return j.Secret, nil })
	if err != nil || !t.Valid || !exactClaims(token) {
		return 0, false
	}
	f, isNum := c.ID.(float64)
	if !isNum || f < 1 || f > 1<<53 || f != math.Trunc(f) {
		return 0, false
	}
	return int64(f), true
}

// exactClaims refuses a payload with a key that encoding/json would take for a claim but
// jsonwebtoken would not ("EXP" for "exp"): keys are case-sensitive in JavaScript.
func exactClaims(token string) bool {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return false
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return false
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return false
	}
	for k := range m {
		for _, c := range [...]string{"id", "exp", "iat", "nbf"} {
			if k != c && strings.EqualFold(k, c) {
				return false
			}
		}
	}
	return true
}
