package email

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/textproto"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wneessen/go-mail/smtp"
)

// session is one SMTP delivery's connection settings, with nodemailer's meanings.
type session struct {
	host, port string
	// secure is TLS from the first byte (port 465); otherwise STARTTLS is used when the
	// server offers it, unless ignoreTLS, and required when requireTLS.
	secure, requireTLS, ignoreTLS, opportunisticTLS bool
	name                                            string // EHLO name
	tls                                             *tls.Config
	auth                                            *smtpAuth
	authMethod                                      string
	forceAuth                                       bool
	connectTimeout, greetingTimeout, socketTimeout  time.Duration
}

// nodemailer's defaults.
const (
	connectTimeout  = 2 * time.Minute
	greetingTimeout = 30 * time.Second
	socketTimeout   = 10 * time.Minute
)

// smtpSender is @strapi/provider-email-nodemailer with nodemailer's SMTP transport.
type smtpSender struct {
	s        session
	settings Settings
}

func newSMTP(raw json.RawMessage, settings Settings) (*smtpSender, []string, error) {
	o, err := parseSMTPOptions(raw)
	if err != nil {
		return nil, nil, err
	}
	port, err := o.port()
	if err != nil {
		return nil, nil, err
	}
	secure := o.Secure != nil && *o.Secure
	if port == 0 {
		port = 587
		if secure {
			port = 465
		}
	}
	if o.Secure == nil && port == 465 {
		secure = true
	}
	host := o.Host
	if host == "" {
		host = "localhost"
	}
	s := session{host: host, port: strconv.Itoa(port), secure: secure, requireTLS: o.RequireTLS,
		ignoreTLS: o.IgnoreTLS, opportunisticTLS: o.OpportunisticTLS, name: o.Name, auth: o.Auth,
		authMethod: strings.ToUpper(strings.TrimSpace(o.AuthMethod)), forceAuth: o.ForceAuth,
		connectTimeout: ms(o.ConnectionTimeout, connectTimeout), greetingTimeout: ms(o.GreetingTimeout, greetingTimeout),
		socketTimeout: ms(o.SocketTimeout, socketTimeout)}
	if s.name == "" {
		s.name = localName()
	}
	if s.tls, err = tlsConfig(o.TLS, host); err != nil {
		return nil, nil, err
	}
	if s.auth != nil && strings.EqualFold(s.auth.Type, "oauth2") && s.auth.AccessToken == "" {
		return nil, nil, errors.New("providerOptions.auth: OAuth2 needs an accessToken (Quarry does not refresh tokens)")
	}
	var warn []string
	if len(o.DKIM) > 0 && string(o.DKIM) != "null" && string(o.DKIM) != "false" {
		warn = append(warn, "providerOptions.dkim is not supported: messages are sent unsigned")
	}
	return &smtpSender{s: s, settings: settings}, warn, nil
}

func (p *smtpSender) Send(ctx context.Context, m Message) error {
	// @strapi/provider-email-nodemailer's defaults.
	if m.From == "" {
		m.From = p.settings.DefaultFrom
	}
	if m.ReplyTo == "" {
		m.ReplyTo = p.settings.DefaultReplyTo
	}
	if m.Text == "" {
		m.Text = m.HTML
	}
	if m.HTML == "" {
		m.HTML = m.Text
	}
	c, err := compose(m)
	if err != nil {
		return err
	}
	return p.s.deliver(ctx, c)
}

// localName is nodemailer's EHLO name: the host name when it is fully qualified, else
// [127.0.0.1].
func localName() string {
	h, err := os.Hostname()
	if err != nil || !strings.Contains(h, ".") {
		return "[127.0.0.1]"
	}
	if net.ParseIP(h) != nil {
		return "[" + h + "]"
	}
	return h
}

var tlsVersions = map[string]uint16{"TLSv1": tls.VersionTLS10, "TLSv1.1": tls.VersionTLS11,
	"TLSv1.2": tls.VersionTLS12, "TLSv1.3": tls.VersionTLS13}

// tlsConfig maps Node's TLS options onto Go's: rejectUnauthorized, servername, minVersion,
// maxVersion and ca (PEM, one or a list).
func tlsConfig(o *tlsOptions, host string) (*tls.Config, error) {
	cfg := &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
	if o == nil {
		return cfg, nil
	}
	if o.ServerName != "" {
		cfg.ServerName = o.ServerName
	}
	if o.RejectUnauthorized != nil && !*o.RejectUnauthorized {
		cfg.InsecureSkipVerify = true // the project asked for it: rejectUnauthorized: false
	}
	for key, dst := range map[string]*uint16{o.MinVersion: &cfg.MinVersion, o.MaxVersion: &cfg.MaxVersion} {
		if key == "" {
			continue
		}
		v, ok := tlsVersions[key]
		if !ok {
			return nil, fmt.Errorf("providerOptions.tls: unknown TLS version %q (TLSv1.2, TLSv1.3)", key)
		}
		*dst = v
	}
	if len(o.CA) > 0 && string(o.CA) != "null" {
		var list []string
		var one string
		if json.Unmarshal(o.CA, &one) == nil {
			list = []string{one}
		} else if err := json.Unmarshal(o.CA, &list); err != nil {
			return nil, errors.New("providerOptions.tls.ca: must be a PEM string or a list of them")
		}
		pool := x509.NewCertPool()
		for _, pem := range list {
			if !pool.AppendCertsFromPEM([]byte(pem)) {
				return nil, errors.New("providerOptions.tls.ca: no PEM certificate found")
			}
		}
		cfg.RootCAs = pool
	}
	return cfg, nil
}

// deliver runs one SMTP session as nodemailer does: connect (TLS when secure), EHLO,
// STARTTLS when offered or required, AUTH when configured and offered, then the message.
func (s session) deliver(ctx context.Context, c composed) error {
	addr := net.JoinHostPort(s.host, s.port)
	fail := func(err error) error { return fmt.Errorf("smtp %s: %w", addr, err) }
	d := net.Dialer{Timeout: s.connectTimeout}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return fail(err)
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Now()) })
	defer stop()
	if s.secure {
		tc := tls.Client(conn, s.tls)
		conn.SetDeadline(time.Now().Add(s.connectTimeout))
		if err := tc.HandshakeContext(ctx); err != nil {
			return fail(fmt.Errorf("TLS: %w", err))
		}
		conn = tc
	}
	conn.SetDeadline(time.Now().Add(s.greetingTimeout))
	cl, err := smtp.NewClient(conn, s.host)
	if err != nil {
		return fail(fmt.Errorf("greeting: %w", err))
	}
	conn.SetDeadline(time.Now().Add(s.socketTimeout))
	if err := cl.Hello(s.name); err != nil {
		return fail(err)
	}
	offersTLS, _ := cl.Extension("STARTTLS")
	if !s.secure && !s.ignoreTLS && (offersTLS || s.requireTLS) {
		if err := cl.StartTLS(s.tls); err != nil {
			var te *textproto.Error
			if !s.opportunisticTLS || !errors.As(err, &te) {
				return fail(fmt.Errorf("STARTTLS: %w", err))
			}
		}
	}
	if s.auth != nil {
		offersAuth, mechs := cl.Extension("AUTH")
		if offersAuth || s.forceAuth {
			a, err := s.authFor(strings.Fields(strings.ToUpper(mechs)))
			if err != nil {
				return fail(err)
			}
			if err := cl.Auth(a); err != nil {
				return fail(fmt.Errorf("AUTH: %w", err))
			}
		}
	}
	return s.transfer(cl, c, fail)
}

// transfer sends the envelope and the message on a ready client.
func (s session) transfer(cl *smtp.Client, c composed, fail func(error) error) error {
	if err := cl.Mail(c.from); err != nil {
		return fail(fmt.Errorf("MAIL FROM: %w", err))
	}
	for _, to := range c.to {
		if err := cl.Rcpt(to); err != nil {
			return fail(fmt.Errorf("RCPT TO: %w", err))
		}
	}
	w, err := cl.Data()
	if err != nil {
		return fail(fmt.Errorf("DATA: %w", err))
	}
	if _, err := w.Write(c.data); err != nil {
		return fail(fmt.Errorf("DATA: %w", err))
	}
	if err := w.Close(); err != nil {
		return fail(fmt.Errorf("DATA: %w", err))
	}
	_ = cl.Quit() // the message is accepted; a failed QUIT changes nothing
	return nil
}

// authFor picks the mechanism as nodemailer does: auth.method, else authMethod, else the
// first the server offers of PLAIN, LOGIN, CRAM-MD5 (XOAUTH2 for OAuth2 credentials).
func (s session) authFor(offered []string) (smtp.Auth, error) {
	a := s.auth
	method := strings.ToUpper(strings.TrimSpace(a.Method))
	if method == "" {
		method = s.authMethod
	}
	if method == "" && strings.EqualFold(a.Type, "oauth2") {
		method = "XOAUTH2"
	}
	if method == "" {
		for _, m := range []string{"PLAIN", "LOGIN", "CRAM-MD5", "XOAUTH2"} {
			if slices.Contains(offered, m) {
				method = m
				break
			}
		}
	}
	if method == "" {
		method = "PLAIN"
	}
	if method != "XOAUTH2" && (a.User == "" || a.Pass == "") {
		return nil, fmt.Errorf("missing credentials for %q", method)
	}
	switch method {
	case "PLAIN":
		return smtp.PlainAuth("", a.User, a.Pass, s.host, true), nil
	case "LOGIN":
		return smtp.LoginAuth(a.User, a.Pass, s.host, true), nil
	case "CRAM-MD5":
		return smtp.CRAMMD5Auth(a.User, a.Pass), nil
	case "XOAUTH2":
		return smtp.XOAuth2Auth(a.User, a.AccessToken), nil
	}
	return nil, fmt.Errorf("unknown authentication method %q", method)
}

var nullMX = regexp.MustCompile(`^\.?$`)
