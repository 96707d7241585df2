package email

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarrycms/quarry/transport/plugins/email/emailtest"
)

func startSMTP(t *testing.T, o emailtest.Options) *emailtest.Server {
	t.Helper()
	s, err := emailtest.Start(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func sender(t *testing.T, cfg string) Sender {
	t.Helper()
	c, err := ParseConfig(json.RawMessage(cfg))
	if err != nil {
		t.Fatal(err)
	}
	s, warn, err := New(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(warn) > 0 {
		t.Fatalf("warnings %v", warn)
	}
	return s
}

var testMsg = Message{From: "Administration Panel <no-reply@strapi.io>", To: "ann@example.com", Subject: "Reset password",
	Text: "<p>Go to https://front.example/reset?code=abc</p>", HTML: "<p>Go to https://front.example/reset?code=abc</p>"}

// bodies decodes a received message's text and HTML parts.
func bodies(t *testing.T, m emailtest.Message) (hdr map[string]string, text, html string) {
	t.Helper()
	p, err := m.Parsed()
	if err != nil {
		t.Fatal(err)
	}
	hdr = map[string]string{}
	dec := new(mime.WordDecoder)
	for k := range p.Header {
		v, _ := dec.DecodeHeader(p.Header.Get(k))
		hdr[k] = v
	}
	mt, params, err := mime.ParseMediaType(p.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/alternative" {
		t.Fatalf("content type %q %v", p.Header.Get("Content-Type"), err)
	}
	r := multipart.NewReader(p.Body, params["boundary"])
	for {
		part, err := r.NextPart() // decodes quoted-printable
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(part)
		ct, _, _ := mime.ParseMediaType(part.Header.Get("Content-Type"))
		switch ct {
		case "text/plain":
			text = string(b)
		case "text/html":
			html = string(b)
		}
	}
	return hdr, text, html
}

func TestNodemailerPlain(t *testing.T) {
	srv := startSMTP(t, emailtest.Options{})
	s := sender(t, fmt.Sprintf(`{"config":{"provider":"nodemailer","providerOptions":{"host":"127.0.0.1","port":%d},
		"settings":{"defaultFrom":"Default <default@example.org>","defaultReplyTo":"replies@example.org"}}}`, srv.Port))
	m := testMsg
	m.Subject = "Réinitialiser — ü"
	if err := s.Send(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	got, err := srv.Wait(1, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].From != "no-reply@strapi.io" || len(got[0].To) != 1 || got[0].To[0] != "ann@example.com" || got[0].TLS {
		t.Fatalf("envelope %+v", got[0])
	}
	hdr, text, html := bodies(t, got[0])
	for k, want := range map[string]string{"From": `"Administration Panel" <no-reply@strapi.io>`, "To": "<ann@example.com>",
		"Reply-To": "<replies@example.org>", "Subject": "Réinitialiser — ü", "Mime-Version": "1.0"} {
		if hdr[k] != want {
			t.Errorf("%s: %q, want %q", k, hdr[k], want)
		}
	}
	if !strings.HasSuffix(hdr["Message-Id"], "@strapi.io>") || hdr["Date"] == "" {
		t.Errorf("Message-ID %q Date %q", hdr["Message-Id"], hdr["Date"])
	}
	if text != m.Text || html != m.HTML {
		t.Fatalf("bodies %q %q", text, html)
	}

	// Without from and reply-to, the settings' defaults; a text-only message gets the text as HTML too.
	if err := s.Send(context.Background(), Message{To: "bob@example.com", Subject: "s", Text: "only text"}); err != nil {
		t.Fatal(err)
	}
	got, _ = srv.Wait(2, 5*time.Second)
	hdr, text, html = bodies(t, got[1])
	if hdr["From"] != `"Default" <default@example.org>` || hdr["Reply-To"] != "<replies@example.org>" || text != "only text" || html != "only text" {
		t.Fatalf("defaults: %v %q %q", hdr, text, html)
	}
}

func TestNodemailerAuthAndSTARTTLS(t *testing.T) {
	srv := startSMTP(t, emailtest.Options{User: "mailer", Pass: "s3cret", STARTTLS: true})
	ca, _ := json.Marshal(srv.CAPEM)
	base := fmt.Sprintf(`"host":"127.0.0.1","port":%d,"tls":{"ca":%s}`, srv.Port, ca)
	for i, method := range []string{"", "LOGIN"} {
		s := sender(t, fmt.Sprintf(`{"config":{"provider":"nodemailer","providerOptions":{%s,"auth":{"user":"mailer","pass":"s3cret","method":%q}}}}`, base, method))
		if err := s.Send(context.Background(), testMsg); err != nil {
			t.Fatalf("method %q: %v", method, err)
		}
		got, err := srv.Wait(i+1, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if !got[i].TLS || got[i].AuthUser != "mailer" {
			t.Fatalf("method %q: tls %v user %q", method, got[i].TLS, got[i].AuthUser)
		}
	}
	// Wrong password: the server's refusal is the error.
	s := sender(t, fmt.Sprintf(`{"provider":"nodemailer","providerOptions":{%s,"auth":{"user":"mailer","pass":"wrong"}}}`, base))
	if err := s.Send(context.Background(), testMsg); err == nil || !strings.Contains(err.Error(), "AUTH") {
		t.Fatalf("wrong password: %v", err)
	}
	// The certificate is checked: without the CA the handshake fails; rejectUnauthorized: false accepts it.
	s = sender(t, fmt.Sprintf(`{"provider":"nodemailer","providerOptions":{"host":"127.0.0.1","port":%d,"auth":{"user":"mailer","pass":"s3cret"}}}`, srv.Port))
	if err := s.Send(context.Background(), testMsg); err == nil || !strings.Contains(err.Error(), "STARTTLS") {
		t.Fatalf("unknown CA: %v", err)
	}
	s = sender(t, fmt.Sprintf(`{"provider":"nodemailer","providerOptions":{"host":"127.0.0.1","port":%d,"auth":{"user":"mailer","pass":"s3cret"},"tls":{"rejectUnauthorized":false}}}`, srv.Port))
	if err := s.Send(context.Background(), testMsg); err != nil {
		t.Fatal(err)
	}
	// ignoreTLS: no STARTTLS, and this server refuses AUTH in the clear.
	s = sender(t, fmt.Sprintf(`{"provider":"nodemailer","providerOptions":{%s,"ignoreTLS":true,"auth":{"user":"mailer","pass":"s3cret"}}}`, base))
	if err := s.Send(context.Background(), testMsg); err == nil {
		t.Fatal("ignoreTLS: sent")
	}
}

func TestNodemailerImplicitTLSAndRequireTLS(t *testing.T) {
	srv := startSMTP(t, emailtest.Options{ImplicitTLS: true})
	ca, _ := json.Marshal(srv.CAPEM)
	s := sender(t, fmt.Sprintf(`{"provider":"nodemailer","providerOptions":{"host":"127.0.0.1","port":%d,"secure":true,"tls":{"ca":%s}}}`, srv.Port, ca))
	if err := s.Send(context.Background(), testMsg); err != nil {
		t.Fatal(err)
	}
	if got, err := srv.Wait(1, 5*time.Second); err != nil || !got[0].TLS {
		t.Fatalf("implicit TLS: %v %v", got, err)
	}
	// A URL works as the options.
	s = sender(t, fmt.Sprintf(`{"provider":"nodemailer","providerOptions":{"url":"smtps://127.0.0.1:%d","tls":{"ca":%s}}}`, srv.Port, ca))
	if err := s.Send(context.Background(), testMsg); err != nil {
		t.Fatal(err)
	}
	plain := startSMTP(t, emailtest.Options{})
	s = sender(t, fmt.Sprintf(`{"provider":"nodemailer","providerOptions":{"host":"127.0.0.1","port":%d,"requireTLS":true}}`, plain.Port))
	if err := s.Send(context.Background(), testMsg); err == nil || !strings.Contains(err.Error(), "STARTTLS") {
		t.Fatalf("requireTLS without STARTTLS: %v", err)
	}
	if len(plain.Messages()) != 0 {
		t.Fatal("requireTLS: sent in the clear")
	}
}

func TestUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	s := sender(t, fmt.Sprintf(`{"provider":"nodemailer","providerOptions":{"host":"127.0.0.1","port":%d}}`, port))
	err = s.Send(context.Background(), testMsg)
	if err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("closed port: %v", err)
	}
}

func TestSendmailProvider(t *testing.T) {
	srv := startSMTP(t, emailtest.Options{})
	// Strapi's default provider delivers to the recipient's MX; devHost/devPort send
	// everything to one server instead.
	s := sender(t, fmt.Sprintf(`{"config":{"provider":"sendmail","providerOptions":{"devHost":"127.0.0.1","devPort":%d}}}`, srv.Port))
	m := testMsg
	m.From = ""
	if err := s.Send(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	got, err := srv.Wait(1, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	hdr, _, _ := bodies(t, got[0])
	if got[0].From != "no-reply@strapi.io" || hdr["From"] != `"Strapi" <no-reply@strapi.io>` || got[0].Helo != "strapi.io" {
		t.Fatalf("sendmail: %+v %v", got[0], hdr)
	}
	// A domain without mail exchangers: the error names it.
	s = sender(t, `{"config":{"provider":"sendmail"}}`)
	m.To = "nobody@quarry-no-such-domain.invalid"
	if err := s.Send(context.Background(), m); err == nil || !strings.Contains(err.Error(), "quarry-no-such-domain.invalid") {
		t.Fatalf("no MX: %v", err)
	}
}

func TestSendmailBinary(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	bin := filepath.Join(dir, "sendmail")
	script := "#!/bin/sh\necho \"$@\" > " + out + ".args\ncat > " + out + "\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	s := sender(t, fmt.Sprintf(`{"provider":"nodemailer","providerOptions":{"sendmail":true,"path":%q}}`, bin))
	if err := s.Send(context.Background(), testMsg); err != nil {
		t.Fatal(err)
	}
	args, _ := os.ReadFile(out + ".args")
	data, _ := os.ReadFile(out)
	if strings.TrimSpace(string(args)) != "-i -f no-reply@strapi.io ann@example.com" || !strings.Contains(string(data), "Subject: Reset password\n") ||
		strings.Contains(string(data), "\r\n") {
		t.Fatalf("args %q data %q", args, data)
	}
}

func TestUnknownProvider(t *testing.T) {
	c, err := ParseConfig(json.RawMessage(`{"config":{"provider":"sendgrid","providerOptions":{"apiKey":"x"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	s, warn, err := New(c, nil)
	if err != nil || len(warn) != 1 || !strings.Contains(warn[0], `"sendgrid"`) {
		t.Fatalf("%v %v", warn, err)
	}
	if err := s.Send(context.Background(), testMsg); err != nil {
		t.Fatal(err)
	}
}

func TestParseConfig(t *testing.T) {
	c, err := ParseConfig(nil)
	if err != nil || c.Provider != "sendmail" || c.Settings.DefaultFrom != "Strapi <no-reply@strapi.io>" {
		t.Fatalf("default %+v %v", c, err)
	}
	c, err = ParseConfig(json.RawMessage(`{"config":{"provider":"@strapi/provider-email-Nodemailer","settings":{"defaultReplyTo":"r@x.org"}}}`))
	if err != nil || c.Provider != "nodemailer" || c.Settings.DefaultFrom != "Strapi <no-reply@strapi.io>" || c.Settings.DefaultReplyTo != "r@x.org" {
		t.Fatalf("merged %+v %v", c, err)
	}
	for _, bad := range []string{`[]`, `{"config":{"provider":3}}`, `{"config":{"settings":{"defaultFrom":1}}}`, `{"config":{"provider":""}}`} {
		if _, err := ParseConfig(json.RawMessage(bad)); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
	for _, bad := range []string{`{"port":"x"}`, `{"service":"nope"}`, `{"url":"http://x"}`, `{"tls":{"ca":"not pem"}}`, `{"tls":{"minVersion":"SSLv3"}}`} {
		c, _ := ParseConfig(json.RawMessage(`{"config":{"provider":"nodemailer","providerOptions":` + bad + `}}`))
		if _, _, err := New(c, nil); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

// FuzzCompose: addresses and subjects come from users (a registration's e-mail, a username
// in a subject); a message either fails to compose or has exactly the headers set, so no
// input can add a header or a recipient.
func FuzzCompose(f *testing.F) {
	f.Add("ann@example.com", "Reset password", "<p>hi</p>")
	f.Add("ann@example.com\r\nBcc: eve@example.com", "x\r\nBcc: eve@example.com", "body\r\n.\r\n")
	f.Add(`"Ann" <ann@example.com>, bob@example.com`, "=?UTF-8?Q?x?=", "")
	f.Fuzz(func(t *testing.T, to, subject, body string) {
		c, err := compose(Message{From: "Admin <no-reply@strapi.io>", To: to, Subject: subject, Text: body, HTML: body})
		if err != nil {
			return
		}
		m, err := mail.ReadMessage(bytes.NewReader(c.data))
		if err != nil {
			t.Fatalf("unreadable message: %v\n%q", err, c.data)
		}
		for k := range m.Header {
			switch k {
			case "From", "To", "Subject", "Message-Id", "Date", "Mime-Version", "Content-Type", "Content-Transfer-Encoding":
			default:
				t.Fatalf("header %q from to=%q subject=%q", k, to, subject)
			}
		}
		for _, rcpt := range c.to {
			if strings.ContainsAny(rcpt, "\r\n<>") {
				t.Fatalf("recipient %q", rcpt)
			}
		}
	})
}
