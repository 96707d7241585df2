// Package email is Strapi v4's email plugin as the project configures it: the provider named
// in config/plugins "email.config" (nodemailer's SMTP transport, or sendmail, the default)
// sends the messages the users-permissions plugin writes.
package email

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Config is the email plugin's configuration, `email: { config: {...} }` in Strapi's
// plugins.js, with the plugin's defaults filled in.
type Config struct {
	// Provider is the provider's name, lower-cased as Strapi resolves it ("sendmail",
	// "nodemailer"); @strapi/provider-email-<name> package names are accepted too.
	Provider string
	// ProviderOptions is the provider's own options, as written.
	ProviderOptions json.RawMessage
	Settings        Settings
}

// Settings are the addresses used when a message has none of its own.
type Settings struct {
	DefaultFrom    string `json:"defaultFrom"`
	DefaultReplyTo string `json:"defaultReplyTo"`
	TestAddress    string `json:"testAddress"`
}

// DefaultConfig is the plugin's default: sendmail, from "Strapi <no-reply@strapi.io>".
func DefaultConfig() Config {
	return Config{Provider: "sendmail", ProviderOptions: json.RawMessage(`{}`),
		Settings: Settings{DefaultFrom: "Strapi <no-reply@strapi.io>"}}
}

// ParseConfig reads the "email" entry of the plugins configuration: {"config": {...}} (or the
// bare config object). Keys left out keep the plugin's defaults, as Strapi merges them.
// entry may be empty.
func ParseConfig(entry json.RawMessage) (Config, error) {
	c := DefaultConfig()
	if len(bytes.TrimSpace(entry)) == 0 || string(bytes.TrimSpace(entry)) == "null" {
		return c, nil
	}
	var wrapped map[string]json.RawMessage
	if err := json.Unmarshal(entry, &wrapped); err != nil {
		return c, fmt.Errorf("plugins email: must be an object: %w", err)
	}
	body := entry
	if inner, ok := wrapped["config"]; ok {
		body = inner
	}
	var raw struct {
		Provider        *string         `json:"provider"`
		ProviderOptions json.RawMessage `json:"providerOptions"`
		Settings        json.RawMessage `json:"settings"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return c, fmt.Errorf("plugins email.config: %w", err)
	}
	if raw.Provider != nil {
		p := strings.ToLower(strings.TrimSpace(*raw.Provider))
		if p == "" {
			return c, fmt.Errorf("plugins email.config.provider: must name a provider")
		}
		c.Provider = strings.TrimPrefix(p, "@strapi/provider-email-")
	}
	if len(raw.ProviderOptions) > 0 && string(raw.ProviderOptions) != "null" {
		c.ProviderOptions = raw.ProviderOptions
	}
	if len(raw.Settings) > 0 && string(raw.Settings) != "null" {
		var s map[string]json.RawMessage
		if err := json.Unmarshal(raw.Settings, &s); err != nil {
			return c, fmt.Errorf("plugins email.config.settings: must be an object: %w", err)
		}
		for key, dst := range map[string]*string{"defaultFrom": &c.Settings.DefaultFrom,
			"defaultReplyTo": &c.Settings.DefaultReplyTo, "testAddress": &c.Settings.TestAddress} {
			v, ok := s[key]
			if !ok || string(v) == "null" {
				continue
			}
			if err := json.Unmarshal(v, dst); err != nil {
				return c, fmt.Errorf("plugins email.config.settings.%s: must be a string", key)
			}
		}
	}
	return c, nil
}

// smtpOptions are nodemailer's SMTP transport options (createTransport), the keys Quarry
// honours. Timeouts are milliseconds, as in nodemailer.
type smtpOptions struct {
	Host             string          `json:"host"`
	Port             json.RawMessage `json:"port"`
	Secure           *bool           `json:"secure"`
	RequireTLS       bool            `json:"requireTLS"`
	IgnoreTLS        bool            `json:"ignoreTLS"`
	OpportunisticTLS bool            `json:"opportunisticTLS"`
	Name             string          `json:"name"`
	AuthMethod       string          `json:"authMethod"`
	ForceAuth        bool            `json:"forceAuth"`
	Auth             *smtpAuth       `json:"auth"`
	TLS              *tlsOptions     `json:"tls"`
	Service          string          `json:"service"`
	URL              string          `json:"url"`
	Pool             bool            `json:"pool"`
	DKIM             json.RawMessage `json:"dkim"`

	ConnectionTimeout *float64 `json:"connectionTimeout"`
	GreetingTimeout   *float64 `json:"greetingTimeout"`
	SocketTimeout     *float64 `json:"socketTimeout"`

	// nodemailer's sendmail transport: run the sendmail binary.
	Sendmail bool            `json:"sendmail"`
	Path     string          `json:"path"`
	Args     []string        `json:"args"`
	Newline  string          `json:"newline"`
	Stream   json.RawMessage `json:"streamTransport"`
	JSON     json.RawMessage `json:"jsonTransport"`
	SES      json.RawMessage `json:"SES"`
}

type smtpAuth struct {
	Type        string `json:"type"`
	User        string `json:"user"`
	Pass        string `json:"pass"`
	Method      string `json:"method"`
	AccessToken string `json:"accessToken"`
}

// tlsOptions are the Node TLS options nodemailer passes to tls.connect that map onto Go's.
type tlsOptions struct {
	RejectUnauthorized *bool           `json:"rejectUnauthorized"`
	ServerName         string          `json:"servername"`
	MinVersion         string          `json:"minVersion"`
	MaxVersion         string          `json:"maxVersion"`
	CA                 json.RawMessage `json:"ca"`
}

// parseSMTPOptions reads nodemailer's options: an object, or a connection URL string
// ("smtps://user:pass@smtp.example.com:465"), an object's url key being read the same way.
func parseSMTPOptions(raw json.RawMessage) (smtpOptions, error) {
	var o smtpOptions
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return o, applyURL(&o, s)
	}
	if err := json.Unmarshal(raw, &o); err != nil {
		return o, fmt.Errorf("providerOptions: %w", err)
	}
	if o.URL != "" {
		if err := applyURL(&o, o.URL); err != nil {
			return o, err
		}
	}
	if o.Service != "" {
		if err := applyService(&o, o.Service); err != nil {
			return o, err
		}
	}
	return o, nil
}

// applyURL reads a connection URL as nodemailer's parseConnectionUrl does: smtps means
// secure, user info is the auth, query keys are options.
func applyURL(o *smtpOptions, s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps" && u.Scheme != "direct") {
		return fmt.Errorf("providerOptions: %q is not an smtp:// or smtps:// URL", redactURL(s))
	}
	secure := u.Scheme == "smtps"
	o.Secure = &secure
	if h := u.Hostname(); h != "" {
		o.Host = h
	}
	if p := u.Port(); p != "" {
		o.Port = json.RawMessage(strconv.Quote(p))
	}
	if u.User != nil {
		pass, _ := u.User.Password()
		o.Auth = &smtpAuth{User: u.User.Username(), Pass: pass}
	}
	for k, vs := range u.Query() {
		v := vs[len(vs)-1]
		b := v == "true" || v == "yes" || v == "1"
		switch k {
		case "requireTLS":
			o.RequireTLS = b
		case "ignoreTLS":
			o.IgnoreTLS = b
		case "name":
			o.Name = v
		case "pool":
			o.Pool = b
		case "service":
			o.Service = v
		case "tls.rejectUnauthorized":
			if o.TLS == nil {
				o.TLS = &tlsOptions{}
			}
			o.TLS.RejectUnauthorized = &b
		}
	}
	return nil
}

// redactURL hides a URL's password in messages.
func redactURL(s string) string {
	if u, err := url.Parse(s); err == nil && u.User != nil {
		return u.Redacted()
	}
	return s
}

// wellKnown are the most used services of nodemailer 6.9's well-known list (service:
// 'Gmail'), by their normalized names, aliases and domains. secure 0 leaves it unset.
var wellKnown = func() map[string]service {
	m := map[string]service{}
	for _, s := range []struct {
		keys string
		service
	}{
		{"gmail googlemail gmail.com googlemail.com", service{"smtp.gmail.com", 465, 1, ""}},
		{"hotmail outlook outlook.com hotmail.com", service{"smtp-mail.outlook.com", 587, 0, ""}},
		{"outlook365", service{"smtp.office365.com", 587, -1, ""}},
		{"yahoo yahoo.com", service{"smtp.mail.yahoo.com", 465, 1, ""}},
		{"icloud me mac me.com mac.com", service{"smtp.mail.me.com", 587, 0, ""}},
		{"aol aol.com", service{"smtp.aol.com", 587, 0, ""}},
		{"fastmail fastmail.fm", service{"smtp.fastmail.com", 465, 1, ""}},
		{"zoho", service{"smtp.zoho.com", 465, 1, "LOGIN"}},
		{"yandex yandex.ru", service{"smtp.yandex.ru", 465, 1, ""}},
		{"sendgrid", service{"smtp.sendgrid.net", 587, 0, ""}},
		{"mailgun", service{"smtp.mailgun.org", 465, 1, ""}},
		{"postmark postmarkapp", service{"smtp.postmarkapp.com", 2525, 0, ""}},
		{"sendinblue", service{"smtp-relay.sendinblue.com", 587, 0, ""}},
		{"mailjet", service{"in.mailjet.com", 587, 0, ""}},
		{"mandrill", service{"smtp.mandrillapp.com", 587, 0, ""}},
		{"sparkpost sparkpostmail sparkpost.com", service{"smtp.sparkpostmail.com", 587, -1, ""}},
		{"mailtrap", service{"smtp.mailtrap.io", 2525, 0, ""}},
		{"ses ses-us-east-1", service{"email-smtp.us-east-1.amazonaws.com", 465, 1, ""}},
		{"ses-us-west-2", service{"email-smtp.us-west-2.amazonaws.com", 465, 1, ""}},
		{"ses-eu-west-1", service{"email-smtp.eu-west-1.amazonaws.com", 465, 1, ""}},
		{"godaddy", service{"smtpout.secureserver.net", 25, 0, ""}},
		{"ethereal ethereal.email", service{"smtp.ethereal.email", 587, 0, ""}},
	} {
		for _, k := range strings.Fields(s.keys) {
			m[k] = s.service
		}
	}
	return m
}()

type service struct {
	host       string
	port       int
	secure     int // 1 true, -1 false, 0 unset
	authMethod string
}

// applyService fills host, port, secure (and authMethod) from a well-known service; as in
// nodemailer, the service's values win over the ones given.
func applyService(o *smtpOptions, name string) error {
	key := strings.ToLower(regexp.MustCompile(`[^a-zA-Z0-9.-]`).ReplaceAllString(name, ""))
	s, ok := wellKnown[key]
	if !ok {
		return fmt.Errorf("providerOptions.service: Quarry does not know the service %q; give host, port and secure instead", name)
	}
	o.Host = s.host
	o.Port = json.RawMessage(strconv.Itoa(s.port))
	if s.secure != 0 {
		b := s.secure > 0
		o.Secure = &b
	}
	if s.authMethod != "" {
		o.AuthMethod = s.authMethod
	}
	return nil
}

// port reads nodemailer's port: a number or a numeric string; 0 when absent.
func (o smtpOptions) port() (int, error) {
	if len(o.Port) == 0 || string(o.Port) == "null" {
		return 0, nil
	}
	var n float64
	if err := json.Unmarshal(o.Port, &n); err == nil {
		if n < 0 || n > 65535 || n != float64(int(n)) {
			return 0, fmt.Errorf("providerOptions.port: %v is not a port", n)
		}
		return int(n), nil
	}
	var s string
	if err := json.Unmarshal(o.Port, &s); err == nil {
		if s == "" {
			return 0, nil
		}
		if p, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && p >= 0 && p <= 65535 {
			return p, nil
		}
	}
	return 0, fmt.Errorf("providerOptions.port: must be a port number")
}

func ms(v *float64, def time.Duration) time.Duration {
	if v == nil || *v <= 0 {
		return def
	}
	return time.Duration(*v * float64(time.Millisecond))
}
