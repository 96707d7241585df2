package userspermissions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
)

// Session is what register, login and the password routes answer: the user's id (the
// transport renders the user through the planner, so private fields cannot leak) and a
// fresh JWT (empty when registration waits for e-mail confirmation).
type Session struct {
	UserID int64
	JWT    string
}

func (s *Service) issue(id int64) (Session, error) {
	t, err := s.JWT.Issue(id, s.now())
	if err != nil {
		return Session{}, err
	}
	return Session{UserID: id, JWT: t}, nil
}

// Login is POST /api/auth/local: {identifier, password}, identifier being the e-mail
// (compared lower-cased) or the username.
func (s *Service) Login(ctx context.Context, body map[string]any) (Session, error) {
	c := s.checker()
	identifier, _ := c.str(body, "identifier", true)
	password, _ := c.str(body, "password", true)
	if err := c.err(); err != nil {
		return Session{}, err
	}
	invalid := apierror.Validation("Invalid identifier or password")
	u, err := userByLogin(ctx, s.DB, identifier)
	if err != nil {
		return Session{}, err
	}
	if u == nil || u.PasswordHash == "" {
		CheckPassword(string(dummyHash), password) // same work whether the user exists or not
		return Session{}, invalid
	}
	if !CheckPassword(u.PasswordHash, password) {
		return Session{}, invalid
	}
	adv, err := s.Advanced(ctx)
	if err != nil {
		return Session{}, err
	}
	if adv.EmailConfirmation && !u.Confirmed {
		return Session{}, apierror.Application("Your account email is not confirmed")
	}
	if u.Blocked {
		return Session{}, apierror.Application("Your account has been blocked by an administrator")
	}
	return s.issue(u.ID)
}

// registerExcluded are user attributes a registration never sets unless
// register.allowedFields names them.
var registerExcluded = map[string]bool{"confirmed": true, "blocked": true, "confirmationToken": true,
	"resetPasswordToken": true, "provider": true, "id": true, "role": true, "createdAt": true, "updatedAt": true,
	"createdBy": true, "updatedBy": true, "publishedAt": true, "strapi_reviewWorkflows_stage": true}

// registerExtras are the extra attributes a registration may set: register.allowedFields, or
// when unset the non-private attributes of an extended user type. Only scalar, non-private
// attributes are ever written this way.
func (s *Service) registerExtras() []*schemas.Attribute {
	u := s.Schema.Users()
	var out []*schemas.Attribute
	pick := func(a *schemas.Attribute) {
		// Relations, media and components only when allowedFields names them.
		if a != nil && (a.IsScalar() || s.Config.RegisterAllowedFields != nil) && !a.Hidden() && !a.System && !registerExcluded[a.Name] &&
			a.Name != "username" && a.Name != "email" && a.Name != "password" {
			out = append(out, a)
		}
	}
	if s.Config.RegisterAllowedFields != nil {
		for _, name := range s.Config.RegisterAllowedFields {
			a, _ := u.Attr(name)
			pick(a)
		}
		return out
	}
	for _, a := range u.Attributes {
		pick(a)
	}
	return out
}

// Register is POST /api/auth/local/register.
func (s *Service) Register(ctx context.Context, body map[string]any) (Session, error) {
	adv, err := s.Advanced(ctx)
	if err != nil {
		return Session{}, err
	}
	if !adv.AllowRegister {
		return Session{}, apierror.Application("Register action is currently disabled")
	}
	c := s.checker()
	email, _ := c.email(body, "email", true)
	username, _ := c.str(body, "username", true)
	password, _ := c.str(body, "password", true)
	if err := c.err(); err != nil {
		return Session{}, err
	}
	allowed := s.registerExtras()
	extra, err := s.scalarExtras(allowed, body)
	if err != nil {
		return Session{}, err
	}
	// What the insert does not write goes through the write path: allowed relations, media
	// and components, and the defaults of the extension's attributes.
	later := map[string]any{}
	for _, a := range allowed {
		if v, ok := body[a.Name]; ok && !a.IsScalar() {
			later[a.Name] = v
		}
	}
	for k, v := range s.extensionData(nil, true, func(a *schemas.Attribute) bool { _, set := extra[a.Column]; return !set || !a.IsScalar() }) {
		if _, ok := later[k]; !ok {
			later[k] = v
		}
	}
	role, err := roleBy(ctx, s.DB, s.DB.Dialect, adv.DefaultRole)
	if err != nil {
		return Session{}, apierror.Application("Impossible to find the default role")
	}
	email = strings.ToLower(email)
	var taken int
	// Strapi's identifier conflicts, plus the username compared lower-cased with e-mails (so
	// nobody registers another user's e-mail, in other case, as a username).
	if err := get(ctx, s.DB, &taken, sqlgen.UserCountNamed(s.DB.Dialect, []string{email, username},
		[]string{email, username, strings.ToLower(username)})); err != nil {
		return Session{}, fmt.Errorf("check user: %w", err)
	}
	if taken > 0 {
		// Strapi counts local users first, then (unique_email) everyone: either way taken.
		return Session{}, apierror.Application("Email or Username are already taken")
	}
	// The entity validator's checks on the user type, in attribute order.
	v := s.checker()
	if v.min("username", username, 3) {
		v.column("username", username)
	}
	v.column("email", email)
	v.password("password", password)
	if err := v.err(); err != nil {
		return Session{}, err
	}
	var id int64
	create := func(ctx context.Context, tx *sqlx.Tx) (err error) {
		if err := s.claimIdentities(ctx, tx, 0, username, email, true, "Email or Username are already taken", "Email or Username are already taken"); err != nil {
			return err
		}
		var crossed int // registration also refuses a username equal to another user's e-mail
		if err := get(ctx, tx, &crossed, sqlgen.UserCountNamed(s.DB.Dialect, []string{email},
			[]string{username, strings.ToLower(username)})); err != nil {
			return fmt.Errorf("check user: %w", err)
		}
		if crossed > 0 {
			return apierror.Application("Email or Username are already taken")
		}
		if s.Events != nil {
			// As Strapi's user service adds the user: the entity service's create, with the
			// role populated, through the one write path (its checks, events and hooks).
			res, err := s.Events.Apply(ctx, RegisterWrite(username, email, password, !adv.EmailConfirmation, role.ID, allowed, body), ir.System)
			if err != nil {
				return err
			}
			id = res.ID
			return nil
		}
		nu := newUser{Username: username, Email: email, Password: password, Provider: "local", Confirmed: !adv.EmailConfirmation,
			RoleID: role.ID, Extra: extra}
		now := s.now().UTC().Truncate(time.Millisecond)
		if id, err = insertUser(ctx, tx, s.DB.Dialect, nu, now); err != nil {
			return err
		}
		return s.writeExtension(ctx, tx, id, later, now, false)
	}
	if s.Events != nil {
		err = s.Events.InTx(ctx, create)
	} else {
		err = s.DB.InTx(ctx, func(tx *sqlx.Tx) error { return create(ctx, tx) })
	}
	if err != nil {
		return Session{}, err
	}
	if adv.EmailConfirmation {
		u, err := UserByID(ctx, s.DB, id)
		if err == nil && u == nil {
			err = errors.New("registered user vanished")
		}
		if err == nil {
			err = s.sendConfirmation(ctx, u)
		}
		if err != nil {
			// Strapi answers the provider's error message (which names the mail server);
			// the user stays registered and can ask for the e-mail again.
			if !errors.Is(err, errNotSent) { // a failed sending is logged already
				s.Log.Error("users-permissions: registration's confirmation e-mail", "err", err)
			}
			return Session{}, apierror.Application("Couldn't send the confirmation email")
		}
		return Session{UserID: id}, nil
	}
	return s.issue(id)
}

// RegisterWrite is the write a registration makes once its body passed the plugin's checks,
// as Strapi's user service makes it: the entity service's create of the user, its role
// populated, with the attributes the registration may set (allowed) that the body gives.
// planner/testdata/cases/writes/register.txt shows it.
func RegisterWrite(username, email, password string, confirmed bool, roleID int64, allowed []*schemas.Attribute, body map[string]any) *ir.Query {
	data := map[string]any{"username": username, "email": email, "provider": "local", "password": password,
		"confirmed": confirmed, "blocked": false, "role": json.Number(strconv.FormatInt(roleID, 10))}
	for _, a := range allowed {
		if v, ok := body[a.Name]; ok {
			data[a.Name] = jsonNumbers(v)
		}
	}
	return &ir.Query{Model: schemas.UserUID, Op: ir.Create, Via: ir.ViaEntityService, Data: data,
		Populate: &ir.Populate{Children: []*ir.PopulateField{{Field: "role"}}}}
}

// scalarExtras validates the extra scalar attributes of an extended user type a body gives,
// with the content API's compiled attribute rules (as Strapi's entity validator checks
// them when the plugin creates the user), and returns their column values.
func (s *Service) scalarExtras(attrs []*schemas.Attribute, body map[string]any) (map[string]any, error) {
	if s.Entries == nil {
		return nil, nil
	}
	data := map[string]any{}
	for _, a := range attrs {
		if v, ok := body[a.Name]; ok && a.IsScalar() {
			data[a.Name] = jsonNumbers(v)
		}
	}
	if len(data) == 0 {
		return nil, nil
	}
	return s.Entries.Values(s.Schema.Users(), attrs, data)
}

// ForgotPassword is POST /api/auth/forgot-password: {ok: true} once the e-mail is sent (or
// when no such user may reset); a failed sending is a server error, as in Strapi.
func (s *Service) ForgotPassword(ctx context.Context, body map[string]any) error {
	c := s.checker()
	c.noUnknown(body, "email")
	email, _ := c.email(body, "email", true)
	if err := c.err(); err != nil {
		return err
	}
	u, err := oneUser(ctx, s.DB, sqlgen.UserBy(s.DB.Dialect, "email", strings.ToLower(email)))
	if err != nil || u == nil || u.Blocked {
		return err
	}
	return s.sendResetPassword(ctx, u, func(token string) error {
		return s.editUser(ctx, u.ID, []string{"reset_password_token"}, []any{token})
	})
}

// ResetPassword is POST /api/auth/reset-password: {code, password, passwordConfirmation}.
func (s *Service) ResetPassword(ctx context.Context, body map[string]any) (Session, error) {
	c := s.checker()
	c.noUnknown(body, "password", "passwordConfirmation", "code")
	confirm, _ := c.str(body, "passwordConfirmation", true)
	password, _ := c.str(body, "password", true)
	code, _ := c.str(body, "code", true)
	if err := c.err(); err != nil {
		return Session{}, err
	}
	if password != confirm {
		return Session{}, apierror.Validation("Passwords do not match")
	}
	u, err := oneUser(ctx, s.DB, sqlgen.UserBy(s.DB.Dialect, "reset_password_token", code))
	if err != nil {
		return Session{}, err
	}
	if u == nil {
		return Session{}, apierror.Validation("Incorrect code provided")
	}
	if err := s.setPassword(ctx, u.ID, password, true); err != nil {
		return Session{}, err
	}
	return s.issue(u.ID)
}

func (s *Service) setPassword(ctx context.Context, id int64, password string, clearReset bool) error {
	v := s.checker()
	v.password("password", password)
	if err := v.err(); err != nil {
		return err
	}
	hash, err := HashPassword(password)
	if err != nil {
		return err
	}
	cols, vals := []string{"password"}, []any{hash}
	if clearReset {
		cols, vals = append(cols, "reset_password_token"), append(vals, nil)
	}
	return s.editUser(ctx, id, cols, vals)
}

// ChangePassword is POST /api/auth/change-password for a logged-in user.
func (s *Service) ChangePassword(ctx context.Context, who *ir.Caller, body map[string]any) (Session, error) {
	if !who.IsUser() {
		return Session{}, apierror.Application("You must be authenticated to reset your password")
	}
	c := s.checker()
	c.noUnknown(body, "password", "passwordConfirmation", "currentPassword")
	confirm, confirmOK := c.str(body, "passwordConfirmation", true)
	password, passwordOK := c.str(body, "password", true)
	if confirmOK && passwordOK && confirm != password {
		// yup's oneOf([ref('password')]) on passwordConfirmation.
		c.errs = append(c.errs, apierror.FieldError{Path: []string{"passwordConfirmation"}, Message: "Passwords do not match", Name: "ValidationError"})
	}
	current, _ := c.str(body, "currentPassword", true)
	if err := c.err(); err != nil {
		return Session{}, err
	}
	u, err := UserByID(ctx, s.DB, who.UserID)
	if err != nil {
		return Session{}, err
	}
	if u == nil || !CheckPassword(u.PasswordHash, current) {
		return Session{}, apierror.Validation("The provided current password is invalid")
	}
	if current == password {
		return Session{}, apierror.Validation("Your new password must be different than your current password")
	}
	if err := s.setPassword(ctx, u.ID, password, false); err != nil {
		return Session{}, err
	}
	return s.issue(u.ID)
}

// EmailConfirmation is GET /api/auth/email-confirmation?confirmation=… (REST redirects to
// the returned URL; GraphQL's emailConfirmation answers the session).
func (s *Service) EmailConfirmation(ctx context.Context, query map[string]any) (Session, string, error) {
	c := s.checker()
	token, _ := c.str(query, "confirmation", true)
	if err := c.err(); err != nil {
		return Session{}, "", err
	}
	u, err := oneUser(ctx, s.DB, sqlgen.UserBy(s.DB.Dialect, "confirmation_token", token))
	if err != nil {
		return Session{}, "", err
	}
	if u == nil {
		return Session{}, "", apierror.Validation("Invalid token")
	}
	if err := s.editUser(ctx, u.ID, []string{"confirmed", "confirmation_token"}, []any{true, nil}); err != nil {
		return Session{}, "", err
	}
	adv, err := s.Advanced(ctx)
	if err != nil {
		return Session{}, "", err
	}
	to := "/"
	if adv.EmailConfirmationRedirection != nil && *adv.EmailConfirmationRedirection != "" {
		to = *adv.EmailConfirmationRedirection
	}
	sess, err := s.issue(u.ID)
	return sess, to, err
}

// SendEmailConfirmation is POST /api/auth/send-email-confirmation: {email}. It answers the
// e-mail to report and whether it was "sent".
func (s *Service) SendEmailConfirmation(ctx context.Context, body map[string]any) (string, error) {
	c := s.checker()
	email, _ := c.email(body, "email", true)
	if err := c.err(); err != nil {
		return "", err
	}
	u, err := oneUser(ctx, s.DB, sqlgen.UserBy(s.DB.Dialect, "email", strings.ToLower(email)))
	if err != nil {
		return "", err
	}
	if u == nil {
		return email, nil
	}
	if u.Confirmed {
		return "", apierror.Application("Already confirmed")
	}
	if u.Blocked {
		return "", apierror.Application("User blocked")
	}
	if err := s.sendConfirmation(ctx, u); err != nil {
		return "", err
	}
	return u.Email, nil
}

// Me is what GraphQL's `me` needs: the caller's user and role (nil when the caller is not a
// logged-in user). Never render User directly: it holds the password hash.
func (s *Service) Me(ctx context.Context, who *ir.Caller) (*Account, *Role, error) {
	if !who.IsUser() {
		return nil, nil, nil
	}
	u, err := UserByID(ctx, s.DB, who.UserID)
	if err != nil || u == nil {
		return nil, nil, err
	}
	var r *Role
	if u.RoleID > 0 {
		if r, err = RoleByID(ctx, s.DB, u.RoleID); err != nil {
			return nil, nil, err
		}
	}
	return u, r, nil
}
