package email

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"time"
)

// directSender is @strapi/provider-email-sendmail, Strapi's default provider. Despite its
// name it runs no sendmail binary: its `sendmail` library delivers each message straight to
// the recipients' mail exchangers (MX records) on port 25, without TLS or authentication.
// providerOptions: devPort/devHost send everything to one server instead (development),
// smtpPort replaces 25, smtpHost is tried after the MX hosts.
type directSender struct {
	devHost  string
	devPort  int
	smtpPort int
	smtpHost string
	settings Settings
	resolver *net.Resolver
}

func newDirect(raw json.RawMessage, settings Settings) (*directSender, []string, error) {
	var o struct {
		DevPort  *int            `json:"devPort"`
		DevHost  string          `json:"devHost"`
		SMTPPort *int            `json:"smtpPort"`
		SMTPHost string          `json:"smtpHost"`
		DKIM     json.RawMessage `json:"dkim"`
	}
	if err := json.Unmarshal(raw, &o); err != nil {
		return nil, nil, fmt.Errorf("providerOptions: %w", err)
	}
	d := &directSender{devHost: o.DevHost, devPort: -1, smtpPort: 25, smtpHost: o.SMTPHost, settings: settings,
		resolver: net.DefaultResolver}
	if o.DevPort != nil && *o.DevPort > 0 {
		d.devPort = *o.DevPort
	}
	if d.devHost == "" {
		d.devHost = "localhost"
	}
	if o.SMTPPort != nil && *o.SMTPPort > 0 {
		d.smtpPort = *o.SMTPPort
	}
	var warn []string
	if len(o.DKIM) > 0 && string(o.DKIM) != "null" && string(o.DKIM) != "false" {
		warn = append(warn, "providerOptions.dkim is not supported: messages are sent unsigned")
	}
	return d, warn, nil
}

func (p *directSender) Send(ctx context.Context, m Message) error {
	if m.From == "" {
		m.From = p.settings.DefaultFrom
	}
	if m.ReplyTo == "" {
		m.ReplyTo = p.settings.DefaultReplyTo
	}
	c, err := compose(m)
	if err != nil {
		return err
	}
	// The EHLO name is the sender's domain, as the library sends it.
	name := "localhost"
	if i := strings.LastIndexByte(c.from, '@'); i >= 0 {
		name = c.from[i+1:]
	}
	byDomain := map[string][]string{}
	var domains []string
	for _, to := range c.to {
		dom := strings.ToLower(to[strings.LastIndexByte(to, '@')+1:])
		if _, ok := byDomain[dom]; !ok {
			domains = append(domains, dom)
		}
		byDomain[dom] = append(byDomain[dom], to)
	}
	for _, dom := range domains {
		one := c
		one.to = byDomain[dom]
		if err := p.deliverDomain(ctx, dom, name, one); err != nil {
			return err
		}
	}
	return nil
}

// deliverDomain sends one domain's recipients to the first of its mail exchangers that
// accepts a connection.
func (p *directSender) deliverDomain(ctx context.Context, domain, name string, c composed) error {
	var hosts []string
	port := p.smtpPort
	if p.devPort > 0 {
		hosts, port = []string{p.devHost}, p.devPort
	} else {
		mx, err := p.resolver.LookupMX(ctx, domain)
		if err != nil {
			return fmt.Errorf("sendmail: MX of %s: %w", domain, err)
		}
		sort.SliceStable(mx, func(i, j int) bool { return mx[i].Pref < mx[j].Pref })
		for _, r := range mx {
			if !nullMX.MatchString(r.Host) { // RFC 7505 "." : the domain takes no mail
				hosts = append(hosts, strings.TrimSuffix(r.Host, "."))
			}
		}
		if p.smtpHost != "" {
			hosts = append(hosts, p.smtpHost)
		}
		if len(hosts) == 0 {
			return fmt.Errorf("sendmail: can not resolve Mx of <%s>", domain)
		}
	}
	var errs []error
	for _, h := range hosts {
		s := session{host: h, port: strconv.Itoa(port), ignoreTLS: true, name: name,
			connectTimeout: 30 * time.Second, greetingTimeout: greetingTimeout, socketTimeout: socketTimeout}
		err := s.deliver(ctx, c)
		if err == nil {
			return nil
		}
		errs = append(errs, err)
		var op *net.OpError
		if !errors.As(err, &op) || op.Op != "dial" {
			break // connected, then refused: the library does not try the next host either
		}
	}
	return fmt.Errorf("sendmail: %w", errors.Join(errs...))
}

// binarySender is nodemailer's sendmail transport (providerOptions.sendmail: true): the
// message is piped to the sendmail binary (path, default "sendmail") with -i and the
// envelope, with Unix line endings unless newline is "windows".
type binarySender struct {
	path     string
	args     []string
	crlf     bool
	settings Settings
}

func newBinary(raw json.RawMessage, settings Settings) (*binarySender, error) {
	o, err := parseSMTPOptions(raw)
	if err != nil {
		return nil, err
	}
	b := &binarySender{path: o.Path, args: o.Args, settings: settings}
	if b.path == "" {
		b.path = "sendmail"
	}
	switch strings.ToLower(o.Newline) {
	case "win", "windows", "dos", "\r\n":
		b.crlf = true
	}
	if _, err := exec.LookPath(b.path); err != nil {
		return nil, fmt.Errorf("providerOptions.path: %w", err)
	}
	return b, nil
}

func (p *binarySender) Send(ctx context.Context, m Message) error {
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
	for _, a := range append([]string{c.from}, c.to...) {
		if strings.HasPrefix(a, "-") {
			return fmt.Errorf("sendmail: refusing address %q starting with a dash", a)
		}
	}
	args := []string{"-i"}
	if p.args != nil {
		args = append(append(args, p.args...), c.to...)
	} else {
		if c.from != "" {
			args = append(args, "-f", c.from)
		}
		args = append(args, c.to...)
	}
	data := c.data
	if !p.crlf {
		data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	}
	cmd := exec.CommandContext(ctx, p.path, args...)
	cmd.Stdin = bytes.NewReader(data)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("sendmail %s: %w: %s", p.path, err, strings.TrimSpace(stderr.String()))
	}
	return nil
}
