// Package emailtest runs a real SMTP server on loopback for tests: it speaks SMTP over TCP
// (github.com/emersion/go-smtp), optionally with STARTTLS or implicit TLS under a generated
// certificate and with AUTH PLAIN/LOGIN, and records every message it accepts.
package emailtest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/mail"
	"strconv"
	"sync"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Options choose the server's features.
type Options struct {
	// User and Pass, when set, are the only credentials AUTH accepts, and mail is refused
	// without them.
	User, Pass string
	// STARTTLS offers STARTTLS (and refuses AUTH before it); ImplicitTLS speaks TLS from the
	// first byte (port 465 style).
	STARTTLS, ImplicitTLS bool
}

// Message is one accepted message.
type Message struct {
	From     string
	To       []string
	Data     []byte
	TLS      bool   // the message came over TLS
	AuthUser string // who authenticated, if anyone
	Helo     string
}

// Parsed returns the message parsed as RFC 5322.
func (m Message) Parsed() (*mail.Message, error) { return mail.ReadMessage(bytes.NewReader(m.Data)) }

// Server is a running SMTP server.
type Server struct {
	Host string
	Port int
	// CAPEM is the PEM certificate the TLS modes present (self-signed for 127.0.0.1).
	CAPEM string

	srv  *smtp.Server
	ln   net.Listener
	opts Options

	mu     sync.Mutex
	msgs   []Message
	notify chan struct{}
}

// Start listens on 127.0.0.1 on a free port.
func Start(o Options) (*Server, error) {
	s := &Server{opts: o, notify: make(chan struct{}, 1)}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		_, isTLS := c.TLSConnectionState()
		return &session{s: s, tls: isTLS, helo: c.Hostname(), conn: c}, nil
	}))
	srv.Domain = "emailtest.local"
	srv.ReadTimeout = 30 * time.Second
	srv.WriteTimeout = 30 * time.Second
	srv.MaxMessageBytes = 10 << 20
	srv.AllowInsecureAuth = !o.STARTTLS
	srv.ErrorLog = discard{}
	var ln net.Listener
	var err error
	if o.STARTTLS || o.ImplicitTLS {
		cert, pemBytes, err := selfSigned()
		if err != nil {
			return nil, err
		}
		s.CAPEM = string(pemBytes)
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	if o.ImplicitTLS {
		ln, err = tls.Listen("tcp", "127.0.0.1:0", srv.TLSConfig)
	} else {
		ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	if !o.STARTTLS {
		srv.TLSConfig = nil // implicit TLS is the listener's; do not offer STARTTLS inside it
	}
	s.srv, s.ln = srv, ln
	s.Host = "127.0.0.1"
	s.Port = ln.Addr().(*net.TCPAddr).Port
	go srv.Serve(ln)
	return s, nil
}

// Addr is host:port.
func (s *Server) Addr() string { return net.JoinHostPort(s.Host, strconv.Itoa(s.Port)) }

// Close stops the server.
func (s *Server) Close() error { return s.srv.Close() }

// Messages returns the messages accepted so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

// Wait returns the first n messages once they have arrived, or an error after timeout.
func (s *Server) Wait(n int, timeout time.Duration) ([]Message, error) {
	deadline := time.After(timeout)
	for {
		if m := s.Messages(); len(m) >= n {
			return m[:n], nil
		}
		select {
		case <-s.notify:
		case <-deadline:
			return nil, fmt.Errorf("emailtest: %d messages after %s, want %d", len(s.Messages()), timeout, n)
		}
	}
}

type session struct {
	s    *Server
	conn *smtp.Conn
	tls  bool
	helo string
	user string
	from string
	to   []string
}

func (ss *session) AuthMechanisms() []string {
	if ss.s.opts.User == "" {
		return nil
	}
	return []string{sasl.Plain, sasl.Login}
}

func (ss *session) Auth(mech string) (sasl.Server, error) {
	check := func(user, pass string) error {
		if user != ss.s.opts.User || pass != ss.s.opts.Pass {
			return errors.New("invalid credentials")
		}
		ss.user = user
		return nil
	}
	switch mech {
	case sasl.Plain:
		return sasl.NewPlainServer(func(_, user, pass string) error { return check(user, pass) }), nil
	case sasl.Login:
		return &loginServer{check: check}, nil
	}
	return nil, smtp.ErrAuthUnknownMechanism
}

func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	if ss.s.opts.User != "" && ss.user == "" {
		return smtp.ErrAuthRequired
	}
	ss.from = from
	return nil
}

func (ss *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.to = append(ss.to, to)
	return nil
}

func (ss *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	_, isTLS := ss.conn.TLSConnectionState()
	m := Message{From: ss.from, To: ss.to, Data: b, TLS: isTLS || ss.tls, AuthUser: ss.user, Helo: ss.helo}
	ss.s.mu.Lock()
	ss.s.msgs = append(ss.s.msgs, m)
	ss.s.mu.Unlock()
	select {
	case ss.s.notify <- struct{}{}:
	default:
	}
	return nil
}

func (ss *session) Reset()        { ss.from, ss.to = "", nil }
func (ss *session) Logout() error { return nil }

// loginServer is the server side of AUTH LOGIN (go-sasl has only the client side).
type loginServer struct {
	check func(user, pass string) error
	user  string
	step  int
}

func (l *loginServer) Next(response []byte) ([]byte, bool, error) {
	switch l.step {
	case 0:
		l.step = 1
		if len(response) > 0 { // initial response carries the username
			l.user = string(response)
			l.step = 2
			return []byte("Password:"), false, nil
		}
		return []byte("Username:"), false, nil
	case 1:
		l.user = string(response)
		l.step = 2
		return []byte("Password:"), false, nil
	default:
		return nil, true, l.check(l.user, string(response))
	}
}

type discard struct{}

func (discard) Printf(string, ...any) {}
func (discard) Println(...any)        {}

// selfSigned makes a certificate for 127.0.0.1 and localhost.
func selfSigned() (tls.Certificate, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: "emailtest"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA: true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pemBytes, nil
}
