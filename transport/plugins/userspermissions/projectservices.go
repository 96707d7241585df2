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
	"github.com/quarrycms/quarry/transport/envelope"
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

// RoleService is the plugin's role service as a project's code calls it
// (strapi.plugin('users-permissions').service('role')): find lists the roles sorted by
// name with their number of users, findOne answers a role with the plugin's whole
// permission tree, and createRole, updateRole and deleteRole write as the plugin's admin
// routes do (the same checks, the permission cache told).
type RoleService struct {
	Auth *Service
}

// Methods are the service's methods the project's code may call.
func (RoleService) Methods() []string {
	return []string{"find", "findOne", "createRole", "updateRole", "deleteRole"}
}

// Call runs one method with its JSON arguments.
func (r RoleService) Call(ctx context.Context, _ *ir.Caller, method string, args []json.RawMessage) (any, error) {
	s := r.Auth
	arg := func(i int) json.RawMessage {
		if i < len(args) {
			return args[i]
		}
		return json.RawMessage("null")
	}
	id := func(i int) (int64, bool) {
		var v any
		if json.Unmarshal(arg(i), &v) != nil {
			return 0, false
		}
		return roleID(v)
	}
	body := func(i int) (map[string]any, error) {
		var m map[string]any
		if err := json.Unmarshal(arg(i), &m); err != nil {
			return nil, apierror.Validation("the role's data must be an object")
		}
		return m, nil
	}
	switch method {
	case "find":
		roles, err := Roles(ctx, s.DB)
		if err != nil {
			return nil, err
		}
		var b envelope.Buf
		writeRoleList(&b, roles)
		return json.RawMessage(b.Bytes()), nil
	case "findOne":
		n, ok := id(0)
		if !ok {
			return nil, roleNotFound()
		}
		ro, tree, err := s.RoleWithPermissions(ctx, n)
		if err != nil {
			return nil, err
		}
		if ro == nil {
			return nil, roleNotFound()
		}
		var b envelope.Buf
		writeRole(&b, ro)
		b.WriteString(`,"permissions":`)
		writeTree(&b, tree)
		b.WriteByte('}')
		return json.RawMessage(b.Bytes()), nil
	case "createRole":
		m, err := body(0)
		if err != nil {
			return nil, err
		}
		return nil, s.CreateRole(ctx, m)
	case "updateRole":
		n, ok := id(0)
		if !ok {
			return nil, roleNotFound()
		}
		m, err := body(1)
		if err != nil {
			return nil, err
		}
		if _, ok := m["permissions"]; !ok {
			// The service sets the role's permissions to those data lists: none.
			m["permissions"] = map[string]any{}
		}
		return nil, s.UpdateRole(ctx, n, m)
	case "deleteRole":
		n, ok := id(0)
		if !ok {
			return nil, roleNotFound()
		}
		pub, ok := id(1)
		if !ok {
			p, err := roleBy(ctx, s.DB, s.DB.Dialect, RolePublic)
			if err != nil {
				return nil, err
			}
			pub = p.ID
		}
		return nil, s.DeleteRoleTo(ctx, n, pub)
	}
	return nil, &apierror.Error{Status: http.StatusNotImplemented, Name: "NotImplementedError",
		Message: "strapi.plugin('users-permissions').service('role')." + method + " is not provided by Quarry"}
}

// UserService is the part of the plugin's user service the host answers for the project's
// code (strapi.plugin('users-permissions').service('user')); the rest is written in the
// sandbox over the entity service. validatePassword compares a password with a user's
// stored hash, which the sandbox names by the user's id (the code never holds the hash), or
// with a hash the code gives as text.
type UserService struct {
	Auth *Service
}

// Methods are the service's methods the project's code may call.
func (UserService) Methods() []string { return []string{"validatePassword"} }

// Call runs one method with its JSON arguments.
func (u UserService) Call(ctx context.Context, _ *ir.Caller, method string, args []json.RawMessage) (any, error) {
	if method != "validatePassword" || len(args) != 2 {
		return nil, &apierror.Error{Status: http.StatusNotImplemented, Name: "NotImplementedError",
			Message: "strapi.plugin('users-permissions').service('user')." + method + " is not provided by Quarry"}
	}
	// typeName is bcryptjs' typeof of an argument that is not a string.
	typeName := func(raw json.RawMessage) string {
		var o struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(raw, &o) == nil && o.Type != "" {
			return o.Type
		}
		return "object"
	}
	var pw string
	pwOK := json.Unmarshal(args[0], &pw) == nil
	var hash string
	hashOK := json.Unmarshal(args[1], &hash) == nil
	hashType := "string"
	if !hashOK {
		var sealed struct {
			SealedUser *json.Number `json:"sealedUser"`
		}
		if json.Unmarshal(args[1], &sealed) == nil && sealed.SealedUser != nil {
			id, err := sealed.SealedUser.Int64()
			if err != nil {
				return false, nil
			}
			acc, err := UserByID(ctx, u.Auth.DB, id)
			if err != nil {
				return nil, err
			}
			if acc != nil && acc.PasswordHash != "" {
				hash, hashOK = acc.PasswordHash, true
			} else {
				hashType = "object" // the user's password is null
			}
		} else {
			hashType = typeName(args[1])
		}
	}
	if !pwOK || !hashOK {
		pwType := "string"
		if !pwOK {
			pwType = typeName(args[0])
		}
		return nil, &apierror.Error{Status: http.StatusInternalServerError, Name: "Error", Message: "Illegal arguments: " + pwType + ", " + hashType}
	}
	return CheckPassword(hash, pw), nil
}
