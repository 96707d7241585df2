package userspermissions

import (
	"errors"
	"math"
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
	var c claims
	p := jwt.NewParser(jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(func() time.Time { return now }))
	t, err := p.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return j.Secret, nil })
	if err != nil || !t.Valid {
		return 0, false
	}
	f, isNum := c.ID.(float64)
	if !isNum || f < 1 || f > 1<<53 || f != math.Trunc(f) {
		return 0, false
	}
	return int64(f), true
}
