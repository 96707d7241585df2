package userspermissions

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
)

// JWTService is the plugin's jwt service as a project's code calls it
// (strapi.plugin('users-permissions').service('jwt')): issue signs a payload with the
// project's secret and the configured expiry, verify answers a valid token's payload.
type JWTService struct {
	JWT *JWT
	Now func() time.Time
}

// Methods are the service's methods the project's code may call.
func (JWTService) Methods() []string { return []string{"issue", "verify"} }

// Call runs one method with its JSON arguments.
func (j JWTService) Call(_ context.Context, _ *ir.Caller, method string, args []json.RawMessage) (any, error) {
	now := time.Now
	if j.Now != nil {
		now = j.Now
	}
	arg := func(i int) json.RawMessage {
		if i < len(args) {
			return args[i]
		}
		return json.RawMessage("null")
	}
	switch method {
	case "issue":
		if len(j.JWT.Secret) == 0 {
			return nil, &apierror.Error{Status: http.StatusInternalServerError, Name: "Error", Message: "secretOrPrivateKey must have a value"}
		}
		var payload map[string]any
		if err := json.Unmarshal(arg(0), &payload); err != nil || payload == nil {
			return nil, &apierror.Error{Status: http.StatusInternalServerError, Name: "Error", Message: "Expected \"payload\" to be a plain object."}
		}
		var opts struct {
			ExpiresIn json.RawMessage `json:"expiresIn"`
		}
		_ = json.Unmarshal(arg(1), &opts)
		expires := j.JWT.ExpiresIn
		if len(opts.ExpiresIn) > 0 && string(opts.ExpiresIn) != "null" {
			d, err := parseExpiresIn(opts.ExpiresIn)
			if err != nil {
				return nil, &apierror.Error{Status: http.StatusInternalServerError, Name: "Error", Message: "\"expiresIn\" " + err.Error()}
			}
			expires = d
		}
		iat := now().Truncate(time.Second)
		claims := jwt.MapClaims{}
		maps.Copy(claims, payload)
		claims["iat"] = iat.Unix()
		if expires > 0 {
			claims["exp"] = iat.Add(expires).Unix()
		}
		return jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(j.JWT.Secret)
	case "verify":
		var token string
		if err := json.Unmarshal(arg(0), &token); err != nil || len(j.JWT.Secret) == 0 || len(token) > 8192 {
			return nil, invalidToken
		}
		claims := jwt.MapClaims{}
		p := jwt.NewParser(jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithTimeFunc(now))
		t, err := p.ParseWithClaims(token, claims, func(*jwt.Token) (any, error) { return j.JWT.Secret, nil })
		if err != nil || !t.Valid {
			return nil, invalidToken
		}
		return map[string]any(claims), nil
	}
	return nil, &apierror.Error{Status: http.StatusNotImplemented, Name: "NotImplementedError", Message: "the jwt service's " + method + " is not provided by Quarry"}
}

// invalidToken is the plugin's rejection of a token it cannot verify: a plain Error, which
// Strapi answers 500 when the project's code does not catch it.
var invalidToken = &apierror.Error{Status: http.StatusInternalServerError, Name: "Error", Message: "Invalid token."}
