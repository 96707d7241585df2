package email

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/mail"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/transport/envelope"
	"github.com/quarrycms/quarry/transport/plugins"
)

// actEmailSend is the email plugin's one content-API action.
const actEmailSend = "plugin::email.email.send"

// Routes are the email plugin's content API, mounted on the server's Host.
type Routes struct {
	Host plugins.Host
	// Mailer is the project's provider; nil answers without sending.
	Mailer Sender
	Log    *slog.Logger
}

// Mount adds the route: POST /api/email sends the body's message ({to, cc, bcc, from,
// replyTo, subject, text, html, attachments}) through the project's provider and answers {},
// for callers granted plugin::email.email.send.
func (s *Routes) Mount(r chi.Router) {
	r.HandleFunc("/api/email", plugins.Methods(s.Host, true, map[string]plugins.Route{
		http.MethodPost: {Action: actEmailSend, Body: true, Serve: s.emailSend}}))
}

func (s *Routes) emailSend(w http.ResponseWriter, r *http.Request, _ *ir.Caller, body map[string]any) error {
	m, err := emailMessage(body)
	if err != nil {
		return err
	}
	if s.Mailer != nil {
		if err := s.Mailer.Send(r.Context(), m); err != nil {
			// Strapi: "Couldn't send email: <cause>." behind a 500. The cause is not wrapped:
			// its network errors would read as a database outage.
			s.Log.Error("email plugin: e-mail not sent", "err", err)
			return errors.New("email plugin: e-mail not sent")
		}
	}
	var b envelope.Buf
	b.WriteString("{}")
	envelope.WriteJSON(w, http.StatusOK, &b)
	return nil
}

// emailMessage reads the send route's body as nodemailer reads those keys. Where Strapi
// answers a 500 (no recipient, a body that is not an object) or sends something broken (an
// address it cannot read), this is a 400 naming the key; attachments are taken by content
// only (path and href would read the server's files or fetch URLs).
func emailMessage(body map[string]any) (Message, error) {
	var m Message
	str := func(key string, dst *string) error {
		switch v := body[key].(type) {
		case nil:
		case string:
			*dst = v
		default:
			return apierror.Validation("%s must be a string", key).At(key)
		}
		return nil
	}
	for key, dst := range map[string]*string{"subject": &m.Subject, "text": &m.Text, "html": &m.HTML} {
		if err := str(key, dst); err != nil {
			return m, err
		}
	}
	for key, dst := range map[string]*string{"from": &m.From, "replyTo": &m.ReplyTo} {
		list, err := addresses(key, body[key])
		if err != nil {
			return m, err
		}
		if len(list) > 1 {
			return m, apierror.Validation("%s must be one e-mail address", key).At(key)
		}
		*dst = strings.Join(list, ", ")
	}
	for key, dst := range map[string]*string{"to": &m.To, "cc": &m.Cc, "bcc": &m.Bcc} {
		list, err := addresses(key, body[key])
		if err != nil {
			return m, err
		}
		*dst = strings.Join(list, ", ")
	}
	if m.To == "" && m.Cc == "" && m.Bcc == "" {
		return m, apierror.Validation("No recipients defined").At("to")
	}
	if v, ok := body["attachments"]; ok && v != nil {
		list, ok := v.([]any)
		if !ok {
			return m, apierror.Validation("attachments must be an array").At("attachments")
		}
		for i, it := range list {
			a, err := attachment(it)
			if err != nil {
				return m, apierror.Validation("attachments[%d]: %s", i, err.Error()).At(fmt.Sprintf("attachments[%d]", i))
			}
			m.Attachments = append(m.Attachments, a)
		}
	}
	return m, nil
}

// addresses reads nodemailer's address forms: "a@x, B <b@x>", a list of them, or
// {name, address} objects; each comes back as one RFC 5322 address.
func addresses(key string, v any) ([]string, error) {
	bad := func() error { return apierror.Validation("%s must be e-mail addresses", key).At(key) }
	var out []string
	var add func(v any, top bool) error
	add = func(v any, top bool) error {
		switch x := v.(type) {
		case nil:
			return nil
		case string:
			if strings.TrimSpace(x) == "" {
				return nil
			}
			l, err := mail.ParseAddressList(x)
			if err != nil {
				return apierror.Validation("%s: %q is not an e-mail address", key, x).At(key)
			}
			for _, a := range l {
				out = append(out, a.String())
			}
		case map[string]any:
			addr, _ := x["address"].(string)
			name, _ := x["name"].(string)
			if _, isStr := x["name"].(string); x["name"] != nil && !isStr {
				return bad()
			}
			a, err := mail.ParseAddress(addr)
			if err != nil {
				return apierror.Validation("%s: %q is not an e-mail address", key, addr).At(key)
			}
			a.Name = name
			out = append(out, a.String())
		case []any:
			if !top {
				return bad()
			}
			for _, e := range x {
				if err := add(e, false); err != nil {
					return err
				}
			}
		default:
			return bad()
		}
		return nil
	}
	return out, add(v, true)
}

func attachment(v any) (Attachment, error) {
	var a Attachment
	obj, ok := v.(map[string]any)
	if !ok {
		return a, errors.New("must be an object")
	}
	for _, k := range []string{"path", "href", "raw"} {
		if obj[k] != nil {
			return a, fmt.Errorf("%s is not supported; give the file's content", k)
		}
	}
	content, ok := obj["content"].(string)
	if !ok {
		return a, errors.New("content must be a string")
	}
	a.Filename, _ = obj["filename"].(string)
	a.ContentType, _ = obj["contentType"].(string)
	switch enc, _ := obj["encoding"].(string); strings.ToLower(enc) {
	case "", "utf-8", "utf8":
		a.Content = []byte(content)
	case "base64":
		b, err := base64.StdEncoding.DecodeString(content)
		if err != nil {
			return a, errors.New("content is not base64")
		}
		a.Content = b
	default:
		return a, fmt.Errorf("encoding %q is not supported (base64, utf-8)", enc)
	}
	if a.Filename == "" {
		a.Filename = "attachment"
	}
	return a, nil
}

// ProjectService is the plugin's email service as a project's code calls it
// (strapi.plugin('email').service('email').send({ to, subject, text, … })): the same message
// rules and provider as POST /api/email, for code Quarry runs (a contact form's controller, a
// lifecycle hook announcing an order).
type ProjectService struct {
	Mailer Sender
	Log    *slog.Logger
}

// Methods are the service's methods the project's code may call; sendTemplatedEmail renders
// its template in the sandbox (projectcode's strapi.js) and sends with send.
func (ProjectService) Methods() []string { return []string{"send"} }

// Call runs send with its one argument, the message's options.
func (p ProjectService) Call(ctx context.Context, _ *ir.Caller, method string, args []json.RawMessage) (any, error) {
	if method != "send" {
		return nil, &apierror.Error{Status: http.StatusNotImplemented, Name: "NotImplementedError", Message: "strapi.plugin('email').service('email')." + method + " is not provided by Quarry"}
	}
	var body map[string]any
	if len(args) > 0 {
		if err := json.Unmarshal(args[0], &body); err != nil {
			return nil, apierror.Validation("send(options): options must be an object")
		}
	}
	m, err := emailMessage(body)
	if err != nil {
		return nil, err
	}
	if p.Mailer == nil {
		return nil, nil
	}
	if err := p.Mailer.Send(ctx, m); err != nil {
		p.Log.Error("email plugin: e-mail not sent", "err", err)
		return nil, &apierror.Error{Status: http.StatusInternalServerError, Name: "InternalServerError", Message: "Internal Server Error"}
	}
	return nil, nil
}
