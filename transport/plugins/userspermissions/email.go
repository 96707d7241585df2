package userspermissions

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/sqlgen/database"
	"github.com/quarrycms/quarry/transport/plugins/email"
)

// The plugin's e-mail templates, kept by Strapi in the core store under
// plugin_users-permissions_email and edited in its admin panel.
const emailKey = "plugin_users-permissions_email"

// defaultEmailTemplates is the value Strapi's bootstrap stores on a first start (its
// JSON.stringify output, key order included), so a database Quarry starts reads the same
// in Strapi's admin panel.
const defaultEmailTemplates = `{"reset_password":{"display":"Email.template.reset_password","icon":"sync","options":{"from":{"name":"Administration Panel","email":"no-reply@strapi.io"},"response_email":"","object":"Reset password","message":"<p>We heard that you lost your password. Sorry about that!</p>\n\n<p>But don’t worry! You can use the following link to reset your password:</p>\n<p><%= URL %>?code=<%= TOKEN %></p>\n\n<p>Thanks.</p>"}},"email_confirmation":{"display":"Email.template.email_confirmation","icon":"check-square","options":{"from":{"name":"Administration Panel","email":"no-reply@strapi.io"},"response_email":"","object":"Account confirmation","message":"<p>Thank you for registering!</p>\n\n<p>You have to confirm your email address. Please click on the link below.</p>\n\n<p><%= URL %>?confirmation=<%= CODE %></p>\n\n<p>Thanks.</p>"}}}`

// emailTemplate is one template's options. Values stay JSON so JavaScript's conversions of
// missing, null or non-string values can be reproduced.
type emailTemplate struct {
	From struct {
		Name  json.RawMessage `json:"name"`
		Email json.RawMessage `json:"email"`
	} `json:"from"`
	ResponseEmail json.RawMessage `json:"response_email"`
	Object        json.RawMessage `json:"object"`
	Message       json.RawMessage `json:"message"`
}

type emailTemplates struct {
	ResetPassword *struct {
		Options *emailTemplate `json:"options"`
	} `json:"reset_password"`
	EmailConfirmation *struct {
		Options *emailTemplate `json:"options"`
	} `json:"email_confirmation"`
}

// EnsureEmailTemplates stores Strapi's default templates when the core store has none.
func EnsureEmailTemplates(ctx context.Context, db *database.DB) error {
	_, found, err := readStore(ctx, db, emailKey)
	if err != nil || found {
		return err
	}
	return writeStore(ctx, db, emailKey, defaultEmailTemplates, false)
}

// readStore reads a core store value (the first row of the key, as Strapi's findOne).
func readStore(ctx context.Context, db *database.DB, key string) (string, bool, error) {
	var raw sql.NullString
	err := get(ctx, db, &raw, sqlgen.StoreGet(db.Dialect, key))
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read core store %s: %w", key, err)
	}
	return raw.String, true, nil
}

// writeStore writes an object into the core store as Strapi's store.set does: type
// "object", environment and tag NULL (Strapi looks rows up with IS NULL on both).
func writeStore(ctx context.Context, db *database.DB, key, value string, exists bool) error {
	st := sqlgen.StoreInsert(db.Dialect, key, value, "object")
	if exists {
		st = sqlgen.StoreUpdate(db.Dialect, key, value, "object")
	}
	if err := run(ctx, db, st); err != nil {
		return fmt.Errorf("write core store %s: %w", key, err)
	}
	return nil
}

func (s *Service) emailTemplates(ctx context.Context) (emailTemplates, error) {
	var t emailTemplates
	raw, found, err := readStore(ctx, s.DB, emailKey)
	if err != nil {
		return t, err
	}
	if !found {
		raw = defaultEmailTemplates
	}
	if err := json.Unmarshal([]byte(raw), &t); err != nil {
		return t, fmt.Errorf("users-permissions e-mail templates in the core store: %w", err)
	}
	return t, nil
}

// jsString is JavaScript's String(v) of a JSON value in a template literal: a missing key
// is "undefined", null "null".
func jsString(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "undefined"
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return ""
	}
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case json.Number:
		return x.String()
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			b, _ := json.Marshal(e)
			if e != nil {
				parts[i] = jsString(b)
			}
		}
		return strings.Join(parts, ",")
	}
	return "[object Object]"
}

// truthy is JavaScript's truthiness of a JSON value (a missing key is undefined).
func truthy(raw json.RawMessage) bool {
	switch s := strings.TrimSpace(string(raw)); s {
	case "", "null", "false", `""`, "0", "-0":
		return false
	default:
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f != 0
		}
		return true
	}
}

// field is one entry of a template's data: a leaf value or a nested object, in key order.
type field struct {
	key  string
	leaf json.RawMessage // a JSON scalar; nil when kids is used
	kids []field         // an object's or array's entries (array entries keyed "0", "1", …)
	obj  bool
}

// decodeFields reads a JSON object into ordered fields.
func decodeFields(raw []byte) ([]field, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("user data: not an object")
	}
	f, err := decodeValue(dec, "", json.Delim('{'))
	return f.kids, err
}

func decodeValue(dec *json.Decoder, key string, tok json.Token) (field, error) {
	f := field{key: key}
	switch d := tok.(type) {
	case json.Delim:
		f.obj = true
		for i := 0; dec.More(); i++ {
			k := strconv.Itoa(i)
			if d == '{' {
				kt, err := dec.Token()
				if err != nil {
					return f, err
				}
				k, _ = kt.(string)
			}
			vt, err := dec.Token()
			if err != nil {
				return f, err
			}
			kid, err := decodeValue(dec, k, vt)
			if err != nil {
				return f, err
			}
			f.kids = append(f.kids, kid)
		}
		_, err := dec.Token() // closing delimiter
		return f, err
	case nil:
		f.leaf = json.RawMessage("null")
	default:
		b, _ := json.Marshal(d)
		if n, ok := d.(json.Number); ok {
			b = []byte(n.String())
		}
		f.leaf = b
	}
	return f, nil
}

// keysDeep lists the paths of the leaves, as @strapi/utils keysDeep does: objects and arrays
// are walked (an empty one adds nothing), anything else is a leaf.
func keysDeep(fields []field, prefix string, out *[]string, leaves map[string]json.RawMessage) {
	for _, f := range fields {
		p := f.key
		if prefix != "" {
			p = prefix + "." + f.key
		}
		if f.obj {
			keysDeep(f.kids, p, out, leaves)
			continue
		}
		*out = append(*out, p)
		leaves[p] = f.leaf
	}
}

// errTemplate is the template service's failure.
var errTemplate = apierror.Application("Invalid email template")

// renderTemplate renders a layout as users-permissions' template service does: lodash's
// _.template with only <%= … %> interpolation, of exactly the data's leaf paths (Strapi's
// strict interpolation RegExp, whose dots match any character); every other tag is left as
// written. A matched expression that is not a leaf path fails as JavaScript would.
func renderTemplate(layout json.RawMessage, data []field) (string, error) {
	text := ""
	if len(layout) > 0 && string(layout) != "null" {
		text = jsString(layout)
	}
	var keys []string
	leaves := map[string]json.RawMessage{}
	keysDeep(data, "", &keys, leaves)
	re, err := regexp.Compile(`<%=\s*(` + strings.Join(keys, "|") + `)\s*%>`)
	if err != nil {
		return "", errTemplate
	}
	var failed bool
	out := re.ReplaceAllStringFunc(text, func(tag string) string {
		expr := re.FindStringSubmatch(tag)[1]
		v, ok := leaves[expr]
		if !ok || badPath(expr) {
			failed = true
			return ""
		}
		if string(v) == "null" {
			return ""
		}
		return jsString(v)
	})
	if failed {
		return "", errTemplate
	}
	return out, nil
}

// badPath reports a path JavaScript cannot evaluate as written (USER.tags.0).
func badPath(p string) bool {
	for _, seg := range strings.Split(p, ".") {
		if seg == "" || seg[0] >= '0' && seg[0] <= '9' {
			return true
		}
	}
	return false
}

// templateUser is USER of the templates: the user as the content API renders it (private
// attributes and password out, nothing populated).
func (s *Service) templateUser(ctx context.Context, u *Account) ([]field, error) {
	if s.UserJSON != nil {
		raw, err := s.UserJSON(ctx, u.ID)
		if err != nil {
			return nil, err
		}
		return decodeFields(raw)
	}
	b, err := json.Marshal(struct {
		ID        int64  `json:"id"`
		Username  string `json:"username"`
		Email     string `json:"email"`
		Provider  string `json:"provider"`
		Confirmed bool   `json:"confirmed"`
		Blocked   bool   `json:"blocked"`
		CreatedAt string `json:"createdAt"`
		UpdatedAt string `json:"updatedAt"`
	}{u.ID, u.Username, u.Email, u.Provider, u.Confirmed, u.Blocked,
		u.CreatedAt.UTC().Format("2006-01-02T15:04:05.000Z"), u.UpdatedAt.UTC().Format("2006-01-02T15:04:05.000Z")})
	if err != nil {
		return nil, err
	}
	return decodeFields(b)
}

func leafString(key, value string) field {
	b, _ := json.Marshal(value)
	return field{key: key, leaf: b}
}

// URLs are where the templates' links point: SERVER_URL and ADMIN_URL as Strapi's
// getAbsoluteServerUrl/getAbsoluteAdminUrl compute them, and the REST prefix.
type URLs struct {
	Server, Admin, APIPrefix string
}

// joinURL joins URL parts as url-join does for Strapi's confirmation link.
func joinURL(parts ...string) string {
	var b strings.Builder
	for i, p := range parts {
		if p == "" {
			continue
		}
		if i > 0 && b.Len() > 0 {
			p = strings.TrimLeft(p, "/")
			if !strings.HasSuffix(b.String(), "/") {
				b.WriteByte('/')
			}
		}
		b.WriteString(strings.TrimRight(p, "/"))
	}
	return b.String()
}

// errNotSent is a failed sending as the request sees it: a server error (Strapi's 500). It
// does not wrap the cause, whose network errors would read as a database outage.
var errNotSent = errors.New("e-mail not sent (the cause is logged)")

// sendFailed logs why a message was not sent (never its content: it holds the code).
func (s *Service) sendFailed(what string, err error) error {
	s.Log.Error("users-permissions: e-mail not sent", "what", what, "err", err)
	return errNotSent
}

// sendResetPassword renders and sends the reset-password e-mail (forgot-password). The
// template is rendered before the token is stored, as Strapi does, so a broken template
// changes nothing.
func (s *Service) sendResetPassword(ctx context.Context, u *Account, store func(token string) error) error {
	tpls, err := s.emailTemplates(ctx)
	if err != nil {
		return err
	}
	adv, err := s.Advanced(ctx)
	if err != nil {
		return err
	}
	user, err := s.templateUser(ctx, u)
	if err != nil {
		return err
	}
	var o emailTemplate
	if tpls.ResetPassword != nil && tpls.ResetPassword.Options != nil {
		o = *tpls.ResetPassword.Options
	}
	token := randomHex(64)
	resetURL := json.RawMessage("null")
	if adv.EmailResetPassword != nil {
		resetURL, _ = json.Marshal(*adv.EmailResetPassword)
	}
	body, err := renderTemplate(o.Message, []field{{key: "URL", leaf: resetURL}, leafString("SERVER_URL", s.URLs.Server),
		leafString("ADMIN_URL", s.URLs.Admin), {key: "USER", obj: true, kids: user}, leafString("TOKEN", token)})
	if err != nil {
		return err
	}
	subject, err := renderTemplate(o.Object, []field{{key: "USER", obj: true, kids: user}})
	if err != nil {
		return err
	}
	msg := email.Message{To: u.Email, Subject: subject, Text: body, HTML: body}
	if truthy(o.From.Email) || truthy(o.From.Name) {
		msg.From = jsString(o.From.Name) + " <" + jsString(o.From.Email) + ">"
	}
	if truthy(o.ResponseEmail) {
		msg.ReplyTo = jsString(o.ResponseEmail)
	}
	// Stored before sending, as Strapi does, so the code is usable if the e-mail fails.
	if err := store(token); err != nil {
		return err
	}
	if s.Mailer == nil {
		return nil
	}
	if err := s.Mailer.Send(context.WithoutCancel(ctx), msg); err != nil {
		return s.sendFailed("reset password", err)
	}
	return nil
}

// sendConfirmation is the user service's sendConfirmationEmail: a new confirmation token is
// stored, then the e-mail is rendered and sent. A template that does not render is logged
// and nothing is sent, as in Strapi.
func (s *Service) sendConfirmation(ctx context.Context, u *Account) error {
	tpls, err := s.emailTemplates(ctx)
	if err != nil {
		return err
	}
	if tpls.EmailConfirmation == nil || tpls.EmailConfirmation.Options == nil {
		return errors.New("users-permissions e-mail templates: email_confirmation.options is missing")
	}
	o := *tpls.EmailConfirmation.Options
	user, err := s.templateUser(ctx, u)
	if err != nil {
		return err
	}
	token := randomHex(20)
	if err := s.editUser(ctx, u.ID, []string{"confirmation_token"}, []any{token}); err != nil {
		return err
	}
	prefix := s.URLs.APIPrefix
	if prefix == "" {
		prefix = "/api"
	}
	body, err := renderTemplate(o.Message, []field{leafString("URL", joinURL(s.URLs.Server, prefix, "/auth/email-confirmation")),
		leafString("SERVER_URL", s.URLs.Server), leafString("ADMIN_URL", s.URLs.Admin), {key: "USER", obj: true, kids: user},
		leafString("CODE", token)})
	var subject string
	if err == nil {
		subject, err = renderTemplate(o.Object, []field{{key: "USER", obj: true, kids: user}})
	}
	if err != nil {
		s.Log.Error(`users-permissions: failed to generate a template for "user confirmation email"; check that the e-mail template is valid`)
		return nil
	}
	msg := email.Message{To: u.Email, Subject: subject, Text: body, HTML: body}
	if truthy(o.From.Email) && truthy(o.From.Name) {
		msg.From = jsString(o.From.Name) + " <" + jsString(o.From.Email) + ">"
	}
	if truthy(o.ResponseEmail) {
		msg.ReplyTo = jsString(o.ResponseEmail)
	}
	if s.Mailer == nil {
		return nil
	}
	if err := s.Mailer.Send(context.WithoutCancel(ctx), msg); err != nil {
		return s.sendFailed("email confirmation", err)
	}
	return nil
}
