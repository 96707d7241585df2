package email

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/mail"
	"strings"

	gomail "github.com/wneessen/go-mail"
)

// Message is what the email plugin's send(options) takes: addresses as strings
// ("Name <addr@example.com>" or a bare address), a subject and the text and HTML bodies.
type Message struct {
	From    string
	To      string
	Cc      string
	Bcc     string // envelope only, never a header
	ReplyTo string
	Subject string
	Text    string
	HTML    string
	// Attachments are files given by content (the email plugin's send route).
	Attachments []Attachment
}

// Attachment is one attached file.
type Attachment struct {
	Filename    string
	ContentType string // from the file name when empty
	Content     []byte
}

// composed is a message ready for the wire: the envelope and the RFC 5322 bytes.
type composed struct {
	from string   // envelope sender (MAIL FROM), may be empty
	to   []string // envelope recipients (RCPT TO)
	data []byte
}

// parseAddress reads one address as nodemailer's address parser does for the forms Strapi
// writes: "Name <addr>", " <addr>", "addr".
func parseAddress(s string) (*mail.Address, error) {
	s = strings.TrimSpace(s)
	if a, err := mail.ParseAddress(s); err == nil {
		return a, nil
	}
	// net/mail is stricter than nodemailer about unquoted display names ("Ann Ö. Example").
	if i := strings.LastIndexByte(s, '<'); i >= 0 && strings.HasSuffix(s, ">") {
		addr, err := mail.ParseAddress(s[i:])
		if err != nil {
			return nil, err
		}
		addr.Name = strings.Trim(strings.TrimSpace(s[:i]), `"`)
		return addr, nil
	}
	return nil, fmt.Errorf("%q is not an e-mail address", s)
}

// parseList reads a comma-separated list of addresses.
func parseList(s string) ([]*mail.Address, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	if l, err := mail.ParseAddressList(s); err == nil {
		return l, nil
	}
	var out []*mail.Address
	for _, part := range strings.Split(s, ",") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		a, err := parseAddress(part)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// compose builds the message as nodemailer does: From, To, Reply-To, Subject, a Message-ID
// on the sender's domain, Date, and the text and HTML bodies as a multipart/alternative in
// UTF-8 quoted-printable (one part when only one body is given).
func compose(m Message) (composed, error) {
	var c composed
	msg := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	domain := "localhost"
	if m.From != "" {
		from, err := parseAddress(m.From)
		if err != nil {
			return c, fmt.Errorf("from: %w", err)
		}
		if err := msg.FromFormat(from.Name, from.Address); err != nil {
			return c, fmt.Errorf("from: %w", err)
		}
		c.from = from.Address
		if i := strings.LastIndexByte(from.Address, '@'); i >= 0 {
			domain = from.Address[i+1:]
		}
	}
	to, err := parseList(m.To)
	if err != nil {
		return c, fmt.Errorf("to: %w", err)
	}
	for _, a := range to {
		if err := msg.AddToFormat(a.Name, a.Address); err != nil {
			return c, fmt.Errorf("to: %w", err)
		}
		c.to = append(c.to, a.Address)
	}
	cc, err := parseList(m.Cc)
	if err != nil {
		return c, fmt.Errorf("cc: %w", err)
	}
	for _, a := range cc {
		if err := msg.AddCcFormat(a.Name, a.Address); err != nil {
			return c, fmt.Errorf("cc: %w", err)
		}
		c.to = append(c.to, a.Address)
	}
	bcc, err := parseList(m.Bcc)
	if err != nil {
		return c, fmt.Errorf("bcc: %w", err)
	}
	for _, a := range bcc {
		c.to = append(c.to, a.Address)
	}
	if m.ReplyTo != "" {
		rt, err := parseAddress(m.ReplyTo)
		if err != nil {
			return c, fmt.Errorf("replyTo: %w", err)
		}
		if err := msg.ReplyToFormat(rt.Name, rt.Address); err != nil {
			return c, fmt.Errorf("replyTo: %w", err)
		}
	}
	msg.Subject(m.Subject)
	msg.SetMessageIDWithValue(messageID(domain))
	msg.SetDate()
	switch {
	case m.Text != "" && m.HTML != "":
		msg.SetBodyString(gomail.TypeTextPlain, m.Text)
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	case m.HTML != "":
		msg.SetBodyString(gomail.TypeTextHTML, m.HTML)
	default:
		msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	}
	if len(c.to) == 0 {
		return c, fmt.Errorf("no recipients defined")
	}
	for _, a := range m.Attachments {
		var opts []gomail.FileOption
		if a.ContentType != "" {
			opts = append(opts, gomail.WithFileContentType(gomail.ContentType(a.ContentType)))
		}
		if err := msg.AttachReader(a.Filename, bytes.NewReader(a.Content), opts...); err != nil {
			return c, fmt.Errorf("attachment %q: %w", a.Filename, err)
		}
	}
	var b bytes.Buffer
	if _, err := msg.WriteTo(&b); err != nil {
		return c, fmt.Errorf("write message: %w", err)
	}
	c.data = b.Bytes()
	return c, nil
}

// messageID is nodemailer's form: a random UUID-shaped id at the sender's domain.
func messageID(domain string) string {
	var r [16]byte
	_, _ = rand.Read(r[:])
	h := hex.EncodeToString(r[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:] + "@" + domain
}
